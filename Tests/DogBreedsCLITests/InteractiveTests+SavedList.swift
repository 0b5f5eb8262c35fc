import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// With a list saved by an earlier run and a slow network, the app starts on the saved
  /// list, says it is saved and being updated, and the network's answer replaces it.
  @Test func aSavedListShowsAtOnceOverASlowNetwork() async throws {
    let breeds = #"{"message":{"akita":[],"hound":["afghan"],"pug":[]},"status":"success"}"#
    let fresh = #"{"message":{"akita":[],"hound":["afghan"],"pug":[],"puggle":[]},"status":"success"}"#
    let environment = cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"])
    let first = try TestHTTPServer { _ in .json(breeds) }
    let saved = try await runCLI(
      ["list", "--base-url", first.baseURL.absoluteString + "/api"], environment: environment)
    first.stop()
    #expect(saved.stdout == "Akita\nHound\nPug\n")
    let slow = try TestHTTPServer { _ in .delayed(.seconds(3), .json(fresh)) }
    defer { slow.stop() }
    let app = try PseudoTerminalProcess(
      executable: executable, arguments: ["--base-url", slow.baseURL.absoluteString + "/api"],
      environment: environment, rows: 24)
    await app.expectScreen {
      $0.lines.contains("▶ Akita") && $0.text.contains("Showing the breed list saved on")
        && $0.text.contains("Updating…")
    }
    await app.expectScreen { $0.lines.contains("  Puggle") && !$0.text.contains("Updating…") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}
