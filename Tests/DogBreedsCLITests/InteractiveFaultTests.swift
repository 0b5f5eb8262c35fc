import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.serialized)
struct InteractiveFaultTests {
  /// The browser against `server`'s API, with `extra` arguments first.
  func launch(against server: TestHTTPServer, _ extra: [String] = []) throws -> PseudoTerminalProcess {
    try PseudoTerminalProcess(
      executable: executable, arguments: extra + ["--base-url", server.baseURL.absoluteString + "/api"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"]))
  }

  @Test func anAnswerWithNoBreedsSaysSoAndRLoadsAgain() async throws {
    let answers = Counter()
    let server = try TestHTTPServer { _ in
      answers.next() == 0
        ? .json(#"{"message":{},"status":"success"}"#)
        : .json(#"{"message":{"akita":[],"pug":[]},"status":"success"}"#)
    }
    defer { server.stop() }
    let app = try launch(against: server)
    await app.expectScreen { $0.text.contains("No breeds") && $0.text.contains("r reload") }
    app.send("r")
    await app.expectScreen { $0.text.contains("Akita") && $0.text.contains("Pug") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  @Test func ctrlRReplacesTheBuiltInListWhenTheServerAnswersAgain() async throws {
    let answers = Counter()
    let server = try TestHTTPServer { _ in
      answers.next() == 0
        ? .stall
        : .delayed(.milliseconds(300), .json(#"{"message":{"akita":[],"pug":[]},"status":"success"}"#))
    }
    defer { server.stop() }
    let app = try launch(against: server, ["--timeout", "1"])
    await app.expectScreen(timeout: .seconds(5)) {
      $0.text.contains("Showing the built-in breed list.") && $0.text.contains("^R reload")
    }
    app.send("\u{12}")
    // The built-in list stays while the server is asked again, then the server's replaces it.
    await app.expectScreen(timeout: .seconds(5)) {
      $0.text.contains("Akita") && $0.text.contains("Pug") && !$0.text.contains("Affenpinscher")
    }
    let screen = app.currentScreen.text
    #expect(!screen.contains("built-in") && !screen.contains("^R reload"), "\(screen)")
    #expect(String(decoding: app.allOutput, as: UTF8.self).contains("Loading the breed list again…"))
    #expect(server.requests.count == 2)
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  /// On a terminal `show` draws the picture unasked: if it cannot, that is a warning and
  /// the rest of the answer still counts (status 0); asked for with --picture, an error (1).
  @Test(arguments: [false, true])
  func aPictureThatCannotBeDrawnIsAWarningUnlessAskedFor(asked: Bool) async throws {
    let server = try pictureServer(Array("<html>gone</html>".utf8))
    defer { server.stop() }
    let app = try PseudoTerminalProcess(
      executable: executable,
      arguments: ["show", "hound", "--base-url", server.baseURL.absoluteString + "/api"]
        + (asked ? ["--picture", "blocks"] : []),
      environment: cleanEnvironment(["TERM": "xterm-256color"]))
    #expect(await app.waitForExit() == (asked ? 1 : 0))
    let text = app.currentScreen.text
    #expect(text.hasPrefix("Hound\n"), "\(text)")
    let message = "The picture is in an unsupported image format."
    #expect(text.contains((asked ? "error: " : "warning: ") + message), "\(text)")
  }

  @Test func aFailingServerShowsTheFallbackAndAnErrorNotAFrozenScreen() async throws {
    let server = try TestHTTPServer { request in
      request.path.contains("images/random")
        ? .text("<h1>502</h1>", status: 502, contentType: "text/html") : .stall
    }
    defer { server.stop() }
    let app = try launch(against: server, ["--timeout", "1"])
    // The list request stalls: a spinner first, then the built-in list with the reason.
    // (The spinner lasts a second, which a busy machine can let the test sleep through, so
    // it is looked for in what the app wrote, not on the screen of the moment.)
    await app.expectScreen(timeout: .seconds(5)) {
      $0.text.contains("The server took longer than 1 s to answer. Showing the built-in breed list.")
    }
    #expect(String(decoding: app.allOutput, as: UTF8.self).contains("Loading breeds"))
    app.send("hound")
    app.send("\r")
    await app.expectScreen(timeout: .seconds(5)) {
      $0.text.contains("Couldn't load a picture of Hound.") && $0.text.contains("r retry")
    }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    #expect(!app.currentScreen.alternateScreen)
  }
}
