import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// Whether what `show hound --picture mode` wrote holds a picture in that mode.
  static let pictureMarks: [(mode: String, drawn: @Sendable (String) -> Bool)] = [
    ("blocks", { $0.contains("▀") }), ("256", { $0.contains("\u{1B}[38;5;") }),
    // ASCII characters over backgrounds of the picture's colours.
    ("ascii", { !$0.contains("▀") && $0.components(separatedBy: "48;5;").count > 10 }),
    ("kitty", { $0.contains("\u{1B}_Ga=T,f=24,") }), ("iterm", { $0.contains("\u{1B}]1337;File=inline=1;") }),
    ("sixel", { $0.contains("\u{1B}P0;1;0q") }), ("auto", { $0.contains("▀") }),
  ]

  /// `show` draws a picture in every mode, on a terminal of 80 × 24 and of 40 × 12, from
  /// the built-in data and from a server: the command a user runs first for pictures, run
  /// by the binary under test (`DOGBREEDS_CLI`: the installed, optimised one in CI). The
  /// picture and the text fit the window, with a row left for the prompt after them.
  @Test(arguments: pictureMarks.map { $0.mode }, [(80, 24), (40, 12)])
  func showDrawsAPictureInEveryMode(mode: String, size: (columns: Int, rows: Int)) async throws {
    let drawn = try #require(Self.pictureMarks.first { $0.mode == mode }?.drawn)
    let server = try pictureServer(PictureScriptTests.jpeg)
    defer { server.stop() }
    // (Hound has no sub-breeds on the server; the built-in data's pug has none either.)
    for (source, breed) in [
      (["--api", "fake"], "pug"), (["--base-url", server.baseURL.absoluteString + "/api"], "hound"),
    ] {
      let app = try PseudoTerminalProcess(
        executable: executable, arguments: source + ["show", breed, "--picture", mode],
        environment: cleanEnvironment(["TERM": "xterm-256color", "COLORTERM": ""]),
        columns: size.columns, rows: size.rows)
      let status = await app.waitForExit()
      let output = String(decoding: app.allOutput, as: UTF8.self)
      let about = "\(source) \(mode) at \(size)"
      #expect(status == 0, "\(about): \(output.suffix(300))")
      #expect(drawn(output), "\(about): \(output.suffix(300))")
      #expect(output.contains(breed.capitalized), "\(about)")
      let rows = try #require(Self.rowsWritten(output), "\(about)")
      #expect(rows <= size.rows - 1 && rows >= size.rows / 2, "\(about): \(rows) rows")
    }
  }

  /// The rows `show`'s output took on a terminal whose cells are 10 × 20 pixels (the
  /// prompt's after it not counted): its line feeds, and a picture in a terminal's own
  /// protocol takes its rows (the first of them the row of the line feed after it).
  static func rowsWritten(_ output: String) -> Int? {
    let lineFeeds = output.filter { $0 == "\n" || $0 == "\r\n" }.count
    func number(after marker: String) -> Int? {
      output.range(of: marker).map { Int(output[$0.upperBound...].prefix { $0.isNumber }) } ?? nil
    }
    if output.contains("\u{1B}_G") {
      return number(after: ",r=").map { lineFeeds + $0 - 1 }
    }
    if output.contains("\u{1B}P0;1;0q") {
      guard let raster = output.range(of: "\"1;1;") else { return nil }
      let height = output[raster.upperBound...].split(separator: ";").dropFirst().first
        .flatMap { Int($0.prefix { $0.isNumber }) }
      return height.map { lineFeeds + ($0 + 19) / 20 - 1 }
    }
    if output.contains("\u{1B}]1337;") {
      return number(after: ";height=").map { lineFeeds + $0 - 1 }
    }
    return lineFeeds
  }
}

extension VirtualTerminal {
  /// Whether row `y` shows a picture in coloured ASCII: ASCII characters, a run of them
  /// (four at least) on backgrounds of the picture's colours.
  func showsColouredASCII(row y: Int) -> Bool {
    (0..<width).filter { x in self[x, y].style.background != nil && self[x, y].character.isASCII }.count >= 4
  }
}

extension InteractiveTests {
  /// Where the text leaves too few rows for a picture (Hound's seven sub-breeds at 40 × 12),
  /// `show` draws none rather than one that scrolls away at once, and says so: a warning
  /// where the picture was not asked for, an error where it was.
  @Test(arguments: [false, true])
  func aWindowTooSmallForThePictureGetsTheTextAndAWord(asked: Bool) async throws {
    let app = try PseudoTerminalProcess(
      executable: executable,
      arguments: ["--api", "fake", "show", "hound"] + (asked ? ["--picture", "blocks"] : []),
      environment: cleanEnvironment(["TERM": "xterm-256color"]), columns: 40, rows: 12)
    let status = await app.waitForExit()
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(status == (asked ? 1 : 0), "\(output.suffix(300))")
    #expect(!output.contains("▀"))
    #expect(output.contains("Hound") && output.contains("Afghan"))
    #expect(output.contains("The window is too small for the picture"), "\(output.suffix(300))")
  }
}
