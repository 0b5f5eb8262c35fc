import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// A session recorded in a pseudo-terminal against a server that fails, then recovers:
  /// the log replays, with the server gone, to the states recorded, and its last frame is
  /// the screen the app last showed.
  @Test func aRecordedSessionReplaysOfflineToTheScreenLastSeen() async throws {
    let failing = PortHolder()
    failing.port = 1
    let server = try pictureServer(
      PictureScriptTests.jpeg, status: { failing.port == 1 ? 503 : 200 }, subBreeds: ["afghan", "basset"])
    let folder = ScratchFolder.path("recorded-session")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let log = folder.appendingPathComponent("session.jsonl").path
    let environment = cleanEnvironment([
      "DOGBREEDS_DATA_DIR": folder.appendingPathComponent("data").path, "TERM": "xterm-256color",
      "COLORTERM": "truecolor", "ESCDELAY": "20",
    ])
    let app = try PseudoTerminalProcess(
      executable: executable,
      arguments: [
        "--base-url", server.baseURL.absoluteString + "/api", "--picture", "blocks", "--record", log,
      ],
      environment: environment)
    await app.expectScreen { $0.text.contains("Hound") }
    app.send("hou")
    await app.expectScreen { $0.line(1).hasSuffix("hou") }
    app.send("\r")
    await app.expectScreen { $0.text.contains("r retry") }
    failing.port = 0
    app.send("r")
    await app.expectScreen { $0.text.contains("▀") || $0.text.contains("▄") }
    app.send("n")
    app.send("\u{6}")  // Ctrl-F: star
    await app.expectScreen { $0.text.contains("★") }
    app.send("\u{1B}")
    await app.expectScreen { $0.text.contains("Favourites (1)") && !$0.text.contains("Sub-breeds") }
    app.send("\t")
    app.resize(columns: 60, rows: 18)
    await app.expectScreen { $0.lines.count == 18 && $0.text.contains("Favourites (1)") }
    app.send("\t")
    await app.expectScreen { $0.lines.count == 18 && $0.text.contains("▶ Hound") }
    // Once the star is saved the screen rests: that is the last screen seen.
    try await Task.sleep(for: .milliseconds(1_500))
    let lastSeen = app.currentScreen.text
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    server.stop()

    let check = try await runCLI(["replay", "--check", log], environment: environment)
    #expect(check.status == 0, "\(check.stderr)")
    #expect(
      check.stdout.hasPrefix("All ")
        && check.stdout.hasSuffix(" steps replay to the states and frames recorded.\n"))
    let frame = try await runCLI(["replay", "--frame", "last", log], environment: environment)
    #expect(frame.status == 0, "\(frame.stderr)")
    #expect(frame.stdout == lastSeen + "\n")
    // Its cast, played on a terminal of the size it names, ends on that screen too.
    let castPath = folder.appendingPathComponent("session.cast").path
    let cast = try await runCLI(["replay", "--cast", castPath, log], environment: environment)
    #expect(cast.status == 0, "\(cast.stderr)")
    let castLines = try String(contentsOfFile: castPath, encoding: .utf8).split(separator: "\n")
    let header = try #require(JSONSerialization.jsonObject(with: Data(castLines[0].utf8)) as? [String: Any])
    var played = VirtualTerminal(width: header["width"] as? Int ?? 0, height: header["height"] as? Int ?? 0)
    for line in castLines.dropFirst() {
      let event = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
      if event[1] as? String == "o", let data = event[2] as? String { played.apply(Array(data.utf8)) }
    }
    #expect(played.text == lastSeen)
    // The replay wrote nothing: the favourites are as the app saved them.
    let favourites = try String(
      contentsOf: folder.appendingPathComponent("data/favourites.json"), encoding: .utf8)
    #expect(favourites.contains("hound"))

    // One action edited: the check fails at that step, and says so.
    let text = try String(contentsOfFile: log, encoding: .utf8)
    let edited = text.replacingOccurrences(of: #"{"_0":"hou"}"#, with: #"{"_0":"ter"}"#)
    #expect(edited != text)
    try edited.write(toFile: log, atomically: true, encoding: .utf8)
    let failed = try await runCLI(["replay", "--check", log], environment: environment)
    #expect(failed.status == 1)
    #expect(failed.stderr.contains("does not replay to the state recorded"), "\(failed.stderr)")
    #expect(failed.stderr.contains(#"filterChanged("ter")"#), "\(failed.stderr)")
  }
}
