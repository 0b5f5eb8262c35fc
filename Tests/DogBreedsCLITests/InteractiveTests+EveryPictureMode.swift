import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing

extension InteractiveTests {
  /// Whether what `show hound --picture mode` wrote holds a picture in that mode.
  static let pictureMarks: [(mode: String, drawn: @Sendable (String) -> Bool)] = [
    ("blocks", { $0.contains("▀") }), ("256", { $0.contains("\u{1B}[38;5;") }),
    // Lines of the ramp's characters (each coloured).
    ("ascii", { $0.filter { ".:-=+*#%@".contains($0) }.count > 200 }),
    ("kitty", { $0.contains("\u{1B}_Ga=T,f=24,") }), ("iterm", { $0.contains("\u{1B}]1337;File=inline=1;") }),
    ("sixel", { $0.contains("\u{1B}P0;1;0q") }), ("auto", { $0.contains("▀") }),
  ]

  /// `show` draws a picture in every mode, on a terminal of 80 × 24 and of 40 × 12, from
  /// the built-in data and from a server: the command a user runs first for pictures, run
  /// by the binary under test (`DOGBREEDS_CLI`: the installed, optimised one in CI).
  @Test(arguments: pictureMarks.map { $0.mode }, [(80, 24), (40, 12)])
  func showDrawsAPictureInEveryMode(mode: String, size: (columns: Int, rows: Int)) async throws {
    let drawn = try #require(Self.pictureMarks.first { $0.mode == mode }?.drawn)
    let server = try pictureServer(PictureScriptTests.jpeg)
    defer { server.stop() }
    for source in [["--api", "fake"], ["--base-url", server.baseURL.absoluteString + "/api"]] {
      let app = try PseudoTerminalProcess(
        executable: executable, arguments: source + ["show", "hound", "--picture", mode],
        environment: cleanEnvironment(["TERM": "xterm-256color", "COLORTERM": ""]),
        columns: size.columns, rows: size.rows)
      let status = await app.waitForExit()
      let output = String(decoding: app.allOutput, as: UTF8.self)
      #expect(status == 0, "\(source) \(mode) at \(size): \(output.suffix(300))")
      #expect(drawn(output), "\(source) \(mode) at \(size): \(output.suffix(300))")
      #expect(output.contains("Hound"), "\(source) \(mode) at \(size)")
    }
  }
}
