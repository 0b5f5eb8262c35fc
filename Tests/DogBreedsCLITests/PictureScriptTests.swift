import Foundation
import TestHTTPServer
import TestSupport
import Testing

@Suite(.serialized)
struct PictureScriptTests {
  static let jpeg = [UInt8](
    (try? Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImageDecodingTests/Fixtures/jpeg/synthetic-500x375-baseline.jpg"))) ?? Data()
  )

  func run(_ picture: [UInt8], _ mode: String, environment: [String: String] = [:]) async throws -> Run {
    try await runRecording(picture, mode, environment: environment).run
  }

  func runRecording(
    _ picture: [UInt8], _ mode: String, status: Int = 200, environment: [String: String] = [:]
  ) async throws -> (run: Run, paths: [String]) {
    let server = try pictureServer(picture, status: status, subBreeds: ["afghan"])
    defer { server.stop() }
    let run = try await runCLI(
      ["show", "hound", "--picture", mode, "--base-url", server.baseURL.absoluteString + "/api"],
      environment: cleanEnvironment(environment))
    return (run, server.requests.map(\.path))
  }

  /// `show` asks for the picture (its address, then its bytes) while the list is still on
  /// its way: one round-trip of latency, not two. The list's answer is held back; the
  /// picture's requests arrive meanwhile.
  @Test func showAsksForTheListAndThePictureAtOnce() async throws {
    let holder = PortHolder()
    let arrivals = Log<(path: String, at: ContinuousClock.Instant)>()
    let delay = Duration.seconds(2).scaled
    let server = try TestHTTPServer { request in
      arrivals.append((request.path, .now))
      if request.path.hasPrefix("/breeds/") { return .bytes(Self.jpeg) }
      if request.path.contains("images/random") {
        return .json(
          #"{"message":"http:\/\/127.0.0.1:\#(holder.port)\/breeds\/hound\/dog.jpg","status":"success"}"#)
      }
      return .delayed(delay, .json(#"{"message":{"hound":[]},"status":"success"}"#))
    }
    holder.port = Int(server.port)
    defer { server.stop() }
    let run = try await runCLI(
      ["show", "hound", "--picture", "ascii", "--base-url", server.baseURL.absoluteString + "/api"],
      environment: cleanEnvironment())
    #expect(run.status == 0, "\(run.stderr)")
    let seen = arrivals.values
    let list = try #require(seen.first { $0.path.hasSuffix("/breeds/list/all") })
    let address = try #require(seen.first { $0.path.contains("images/random") })
    let bytes = try #require(seen.first { $0.path.hasPrefix("/breeds/") })
    #expect(address.at - list.at < delay, "the address was asked for while the list was on its way")
    #expect(bytes.at - list.at < delay, "and the picture downloaded")
    #expect(seen.count == 3, "each asked for once: \(seen.map(\.path))")
  }

  @Test func blocksAndASCIIDrawThePicture() async throws {
    let blocks = try await run(Self.jpeg, "blocks")
    #expect(blocks.status == 0, "\(blocks.stderr)")
    #expect(blocks.stdout.contains("▀"))
    #expect(blocks.stdout.contains("\u{1B}[38;5;") || blocks.stdout.contains("\u{1B}[38;2;"))
    #expect(blocks.stdout.contains("Hound\nPicture: http://127.0.0.1:"))
    let ascii = try await run(Self.jpeg, "ascii")
    #expect(ascii.status == 0)
    #expect(!ascii.stdout.contains("\u{1B}"))
    let pictureLines = ascii.stdout.split(separator: "\n").prefix { !$0.hasPrefix("Hound") }
    #expect(pictureLines.count == 30)  // 80 columns, a 4:3 picture, two pixels per row
    #expect(pictureLines.allSatisfy { $0.count == 80 })
    // Without a terminal to ask, COLUMNS gives the width where it is a count above 0.
    for (columns, width) in [("20", 20), ("0", 80), ("-5", 80), ("wide", 80)] {
      let sized = try await run(Self.jpeg, "ascii", environment: ["COLUMNS": columns])
      let lines = sized.stdout.split(separator: "\n").prefix { !$0.hasPrefix("Hound") }
      #expect(!lines.isEmpty && lines.allSatisfy { $0.count == width }, "COLUMNS=\(columns): \(sized.stdout)")
    }
  }

  /// `--size` sets the box the picture fits in, written to a pipe too.
  @Test func theSizeAskedForBoundsThePicture() async throws {
    let server = try pictureServer(Self.jpeg)
    defer { server.stop() }
    let run = try await runCLI(
      [
        "show", "hound", "--picture", "ascii", "--size", "60x9", "--base-url",
        server.baseURL.absoluteString + "/api",
      ],
      environment: cleanEnvironment())
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").prefix { !$0.hasPrefix("Hound") }
    // 9 rows of a 4:3 picture in cells twice as tall as wide: 24 columns.
    #expect(lines.count == 9 && lines.allSatisfy { $0.count == 24 }, "\(run.stdout)")
    let kitty = try await runCLI(
      [
        "show", "hound", "--picture", "kitty", "--size", "60x9", "--base-url",
        server.baseURL.absoluteString + "/api",
      ],
      environment: cleanEnvironment())
    #expect(kitty.stdout.contains(",c=24,r=9,"), "\(kitty.stdout.prefix(80))")
  }

  /// `--symbols` draws the picture in quarters or sixths, in the same box as half blocks.
  @Test(arguments: [
    ("quadrant", "▘▝▖▗▚▌"), ("sextant", "\u{1FB00}\u{1FB01}\u{1FB02}\u{1FB03}\u{1FB0E}\u{1FB2D}"),
  ])
  func symbolsDrawThePictureInFinerGlyphs(symbols: String, some glyphs: String) async throws {
    let server = try pictureServer(Self.jpeg)
    defer { server.stop() }
    let run = try await runCLI(
      [
        "show", "hound", "--picture", "blocks", "--symbols", symbols, "--size", "60x9", "--base-url",
        server.baseURL.absoluteString + "/api",
      ], environment: cleanEnvironment(["COLORTERM": "truecolor"]))
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").prefix { !$0.hasPrefix("Hound") }
    #expect(lines.count == 9, "\(run.stdout)")
    let kinds = Set(run.stdout.filter { glyphs.contains($0) || $0 == "▀" })
    #expect(kinds.count >= 2, "\(kinds)")
  }

  @Test func terminalProtocolsFrameThePictureAsTheirTerminalsExpect() async throws {
    // kitty: decoded RGB (f=24) in base64 chunks, shown over 80 cells and the rows that
    // keep its shape in 10 × 20 cells (none reported here), quiet (q=2).
    let kitty = try await run(Self.jpeg, "kitty")
    #expect(kitty.status == 0, "\(kitty.stderr)")
    #expect(kitty.stdout.hasPrefix("\u{1B}_Ga=T,f=24,s="))
    #expect(kitty.stdout.contains(",c=80,r=30,q=2,m=1;"))
    #expect(kitty.stdout.contains("m=0;"))
    // iTerm2: the JPEG's own bytes, 80 cells wide, downloaded once (not also for decoding).
    let (iterm, itermPaths) = try await runRecording(Self.jpeg, "iterm")
    #expect(iterm.status == 0, "\(iterm.stderr)")
    #expect(itermPaths.filter { $0.hasPrefix("/breeds/") }.count == 1, "\(itermPaths)")
    #expect(
      iterm.stdout.hasPrefix(
        "\u{1B}]1337;File=inline=1;size=\(Self.jpeg.count);width=80;preserveAspectRatio=1:"
          + Data(Self.jpeg.prefix(30)).base64EncodedString()))
    // sixel: pixels at 10 per cell, so the 500-pixel picture is drawn 500 wide (not enlarged).
    let sixel = try await run(Self.jpeg, "sixel")
    #expect(sixel.status == 0, "\(sixel.stderr)")
    #expect(sixel.stdout.hasPrefix("\u{1B}P0;1;0q\"1;1;500;375#"))
    #expect(sixel.stdout.contains("\u{1B}\\\nHound\nPicture: http://127.0.0.1:"))
  }

  /// A PNG (whatever its name says) is drawn like a JPEG: two pixels, red and blue, fill
  /// the left and right halves of the picture (256 colours: 196 is red, 21 blue), each
  /// cell flat, so a space on its colour.
  @Test func aPNGIsDrawnLikeAJPEG() async throws {
    let png = PNGWriter.png(width: 2, height: 1, rows: [[0, 255, 0, 0, 0, 0, 255]])
    let drawn = try await run(png, "blocks")
    #expect(drawn.status == 0, "\(drawn.stderr)")
    let line = drawn.stdout.split(separator: "\n").first ?? ""
    #expect(
      line
        == "\u{1B}[48;5;196m\(String(repeating: " ", count: 40))\u{1B}[48;5;21m\(String(repeating: " ", count: 40))\u{1B}[49m"
    )
  }

  @Test func aDamagedPNGAnAVIFOrATruncatedPictureIsAClearError() async throws {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)
    let damaged = try await run(png, "blocks")
    #expect(damaged.status == 1)
    #expect(damaged.stdout.hasPrefix("Hound\n"))
    #expect(damaged.stderr == "error: The picture file is damaged.\n")
    let avif = try await run(Array("\u{0}\u{0}\u{0}\u{1C}ftypavif\u{0}\u{0}\u{0}\u{0}".utf8), "blocks")
    #expect(avif.status == 1)
    #expect(avif.stderr == "error: The picture is an AVIF, an unsupported image format.\n")
    let truncated = try await run(Array(Self.jpeg.prefix(Self.jpeg.count / 3)), "ascii")
    #expect(truncated.status == 1)
    #expect(truncated.stderr == "error: The picture file is incomplete.\n")
    // iTerm2 is sent the file's own bytes: what is no image at all is not sent.
    let page = try await run(Array("<html>Not found</html>".utf8), "iterm")
    #expect(page.status == 1)
    #expect(!page.stdout.contains("1337;File"))
    #expect(page.stderr == "error: The picture is in an unsupported image format.\n")
    // Nor is what could not be downloaded.
    let missing = try await runRecording(Array("Not Found".utf8), "iterm", status: 404).run
    #expect(missing.status == 1)
    #expect(!missing.stdout.contains("1337;File"))
    #expect(
      missing.stderr == "error: Couldn't download the picture. The server reported an error (HTTP 404).\n")
  }

  @Test func twoHundredFiftySixColoursAreAskedForByName() async throws {
    let indexed = try await run(Self.jpeg, "256")
    #expect(indexed.status == 0, "\(indexed.stderr)")
    #expect(indexed.stdout.contains("▀\u{1B}[") && indexed.stdout.contains("\u{1B}[38;5;"))
    #expect(!indexed.stdout.contains("\u{1B}[38;2;"))
    // blocks: 24-bit colour where COLORTERM says the terminal has it (either spelling), else 256.
    for (colorterm, truecolor) in [("truecolor", true), ("24bit", true), ("", false)] {
      let blocks = try await run(Self.jpeg, "blocks", environment: ["COLORTERM": colorterm])
      #expect(
        blocks.status == 0 && blocks.stdout.contains("\u{1B}[38;5;") != truecolor, "COLORTERM=\(colorterm)")
      #expect(blocks.stdout.contains("\u{1B}[38;2;") == truecolor, "COLORTERM=\(colorterm)")
    }
  }

  @Test func withoutAPictureRequestNothingIsDownloaded() async throws {
    let (plain, paths) = try await runRecording(Self.jpeg, "none")
    #expect(plain.status == 0)
    #expect(plain.stdout.hasPrefix("Hound\nPicture: http://127.0.0.1:"))
    #expect(plain.stdout.hasSuffix("/breeds/hound/dog.jpg\nSub-breeds:\n  Afghan\n"))
    #expect(!paths.contains { $0.hasPrefix("/breeds/") })
    let (_, withPicture) = try await runRecording(Self.jpeg, "ascii")
    #expect(withPicture.contains("/breeds/hound/dog.jpg"))
  }
}
