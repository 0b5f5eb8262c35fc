import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// Animated GIFs: played in place by `show` on a terminal, in colour cells (not ASCII); the
/// first frame alone anywhere else.
enum AnimatedGIF {
  /// Red, green, blue by index.
  static let colors: [[UInt8]] = [[255, 0, 0], [0, 200, 0], [0, 0, 255]]

  /// Three frames of 8 × 6 pixels, 20 ms each: all red; green over the left half; blue
  /// over the right. `loop`: the NETSCAPE2.0 loop count, if any.
  static func threeFrames(loop: Int? = nil, delay: Int = 2) -> [UInt8] {
    var gif = GIFWriter(width: 8, height: 6, colors: colors)
    if let loop { gif.loop(loop) }
    gif.frame([UInt8](repeating: 0, count: 48), delay: delay)
    gif.frame([UInt8](repeating: 1, count: 24), width: 4, height: 6, delay: delay)
    gif.frame([UInt8](repeating: 2, count: 24), left: 4, top: 0, width: 4, height: 6, delay: delay)
    return gif.file
  }

  /// One frame: the animation's first.
  static let first: [UInt8] = {
    var gif = GIFWriter(width: 8, height: 6, colors: colors)
    gif.frame([UInt8](repeating: 0, count: 48))
    return gif.file
  }()

  /// One frame: the animation's last, as it shows (green left, blue right).
  static let last: [UInt8] = {
    var gif = GIFWriter(width: 8, height: 6, colors: colors)
    gif.frame((0..<48).map { $0 % 8 < 4 ? 1 : 2 })
    return gif.file
  }()

  /// The frames drawn over the first: what comes after each start of a synchronized update.
  static func redraws(_ output: String) -> [Substring] {
    Array(output.split(separator: "\u{1B}[?2026h", omittingEmptySubsequences: false).dropFirst())
  }
}

extension InteractiveTests {
  /// `show` in a pseudo-terminal with `picture` on the server.
  func showing(
    _ picture: [UInt8], _ extra: [String] = [], environment: [String: String] = [:]
  ) throws -> (app: PseudoTerminalProcess, server: TestHTTPServer) {
    let server = try pictureServer(picture)
    let app = try PseudoTerminalProcess(
      executable: executable,
      arguments: ["show", "hound", "--base-url", server.baseURL.absoluteString + "/api"] + extra,
      environment: cleanEnvironment(
        ["TERM": "xterm-256color", "COLORTERM": "truecolor"].merging(environment) { $1 }))
    return (app, server)
  }

  /// The picture's rows on the screen as `show` left it (above the breed's name): each
  /// cell's character and style, described.
  func pictureCells(_ screen: VirtualTerminal) -> [[String]] {
    let rows = screen.lines.firstIndex { $0.hasPrefix("Hound") } ?? 0
    return (0..<rows).map { y in (0..<screen.width).map { String(describing: screen[$0, y]) } }
  }

  /// Each frame drawn over the last, in place (the cursor taken back up over the
  /// picture's rows), as many times as the file's loop count says (1: twice), then the
  /// text; the cursor hidden meanwhile and shown at the end, under the last frame, which
  /// is on screen exactly as that frame alone would be.
  @Test func showPlaysAnAnimatedGIFInPlaceAndLeavesTheLastFrame() async throws {
    let (app, server) = try showing(AnimatedGIF.threeFrames(loop: 1))
    defer { server.stop() }
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    let redraws = AnimatedGIF.redraws(output)
    // Two plays of three frames, the first already drawn: five more.
    #expect(redraws.count == 5, "\(output.suffix(300))")
    let rows = pictureCells(app.currentScreen).count
    #expect(rows >= 3 && redraws.allSatisfy { $0.hasPrefix("\u{1B}[\(rows)A") })
    #expect(Set(redraws.map { $0.split(separator: "\u{1B}[?2026l").first ?? "" }).count == 3)
    let hidden = try #require(output.range(of: "\u{1B}[?25l"))
    let shown = try #require(output.range(of: "\u{1B}[?25h", options: .backwards))
    #expect(hidden.upperBound <= redraws[0].startIndex && shown.lowerBound > redraws[4].startIndex)
    let screen = app.currentScreen
    #expect(screen.cursorVisible && screen.text.contains("Hound\nPicture: http://127.0.0.1:"))
    #expect(sameModes(app.currentModes, app.initialModes), "echo back on")
    // The last frame, as a picture of it alone is drawn.
    let (still, stillServer) = try showing(AnimatedGIF.last)
    defer { stillServer.stop() }
    #expect(await still.waitForExit() == 0)
    #expect(!String(decoding: still.allOutput, as: UTF8.self).contains("\u{1B}[?2026h"))
    #expect(pictureCells(screen) == pictureCells(still.currentScreen))
    #expect(pictureCells(screen) != [] && Set(pictureCells(screen).joined()).count > 1)
  }

  /// Ctrl-C while it plays ends `show` as it ends the full-screen app: 130, with the
  /// cursor shown and echo back on, the frame on screen left there, and no text after it.
  @Test func ctrlCWhileAnAnimationPlaysShowsTheCursorAndEndsWith130() async throws {
    let (app, server) = try showing(AnimatedGIF.threeFrames(loop: 0, delay: 20), ["--loops", "100"])
    defer { server.stop() }
    #expect(
      await eventually { AnimatedGIF.redraws(String(decoding: app.allOutput, as: UTF8.self)).count >= 2 })
    #expect(!app.currentScreen.cursorVisible)
    app.send("\u{3}")
    #expect(await app.waitForExit() == 130)
    let screen = app.currentScreen
    #expect(screen.cursorVisible && !screen.text.contains("Hound"))
    #expect(sameModes(app.currentModes, app.initialModes), "echo back on")
    // The frame on screen stays: cells in the picture's colours.
    #expect(screen[0, 0].style.background != nil && screen[0, 2].style.background != nil)
  }

  /// With NO_COLOR the picture is plain text, ASCII stays still in colour too, and
  /// `--loops 0` asks for no playing: the first frame alone, with the cursor never hidden.
  @Test(
    arguments: [(["NO_COLOR": "1"], []), ([:], ["--loops", "0"]), ([:], ["--picture", "ascii"])]
      as [([String: String], [String])])
  func plainOrLoopsZeroDrawsTheFirstFrameAlone(environment: [String: String], extra: [String]) async throws {
    let (app, server) = try showing(AnimatedGIF.threeFrames(loop: 0), extra, environment: environment)
    defer { server.stop() }
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(!output.contains("\u{1B}[?25l") && !output.contains("\u{1B}[?2026h") && output.contains("Hound"))
    let (still, stillServer) = try showing(AnimatedGIF.first, extra, environment: environment)
    defer { stillServer.stop() }
    #expect(await still.waitForExit() == 0)
    #expect(pictureCells(app.currentScreen) == pictureCells(still.currentScreen))
  }
}

extension PictureScriptTests {
  /// Piped, `show` draws an animated GIF's first frame alone, byte for byte as a GIF of
  /// that frame alone, in every picture mode drawn in cells.
  @Test(arguments: ["blocks", "256", "ascii"])
  func pipedShowDrawsTheFirstFrameOfAnAnimation(mode: String) async throws {
    let animated = try await run(AnimatedGIF.threeFrames(loop: 0), mode)
    let still = try await run(AnimatedGIF.first, mode)
    #expect(animated.status == 0 && still.status == 0, "\(animated.stderr)")
    func picture(_ run: Run) -> Substring { run.stdout.prefix { $0 != "H" } }
    #expect(!picture(animated).isEmpty && picture(animated) == picture(still))
    #expect(!animated.stdout.contains("\u{1B}[?25l") && !animated.stdout.contains("A\u{1B}"))
  }
}
