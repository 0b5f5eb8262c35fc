import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// End-to-end: the real binary in a pseudo-terminal, driven by keys.
@Suite(.serialized)
struct InteractiveTests {
  func launch(
    _ extra: [String] = [], environment: [String: String] = [:], replyDelay: Duration? = .zero,
    ambiguousWide: Bool = false, rows: Int = 24, typedAhead: String = "",
    answersCellPixels: (width: Int, height: Int)? = nil, attributes: String? = nil
  ) throws -> PseudoTerminalProcess {
    try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake"] + extra,
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"]).merging(environment) { $1 },
      rows: rows, replyDelay: replyDelay, ambiguousWide: ambiguousWide, typedAhead: typedAhead,
      answersCellPixels: answersCellPixels, answersAttributes: attributes)
  }

  /// Whether `condition` holds within ten (scaled) seconds, looking every 20 ms.
  func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + Duration.seconds(10).scaled
    while ContinuousClock.now < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
  }

  func assertRestored(_ app: PseudoTerminalProcess) {
    // Read the flags first: an expectation on `screen.…` would print the whole screen.
    let screen = app.currentScreen
    let (alternate, cursor, autowrap, paste) =
      (screen.alternateScreen, screen.cursorVisible, screen.autowrap, screen.bracketedPaste)
    #expect(!alternate, "left the alternate screen")
    #expect(cursor, "cursor shown again")
    #expect(autowrap, "autowrap back on")
    #expect(!paste, "bracketed paste off")
    let modesRestored = sameModes(app.currentModes, app.initialModes)
    #expect(modesRestored, "termios restored exactly")
  }

  @Test func browseFilterOpenGoBackAndQuit() async throws {
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    // (The flags read first: an expectation on the screen's would print all of it.)
    let (caret, paste) = (app.currentScreen.cursorVisible, app.currentScreen.bracketedPaste)
    #expect(caret)  // at the filter caret
    #expect(paste)  // a paste comes marked, not as keys
    app.send("hou")
    await app.expectScreen { $0.line(1) == "🔍 hou" && !$0.text.contains("Affenpinscher") }
    // Coonhound, Deerhound, Elkhound and Greyhound come first, but Hound starts with "hou".
    #expect(app.currentScreen.lines[3] == "  Coonhound")
    #expect(app.currentScreen.lines.contains("▶ Hound (7)"))
    app.send("\u{1B}[B")  // Down, then Up: the highlight moves on screen and back
    await app.expectScreen { $0.lines.contains("▶ Otterhound") && $0.lines.contains("  Hound (7)") }
    app.send("\u{1B}[A")
    await app.expectScreen { $0.lines.contains("▶ Hound (7)") }
    app.send("\r")
    // The address shows whether or not the picture is drawn yet (a "Picture of Hound:"
    // label only stands in for it while it loads, which a busy machine can miss).
    await app.expectScreen {
      $0.line(0) == "Hound" && $0.text.contains("breeds/hound/fake_") && $0.text.contains("Sub-breeds")
    }
    app.send("\u{1B}[B\r")  // Down, Enter: the first sub-breed's picture
    await app.expectScreen {
      $0.text.contains("breeds/hound-afghan/fake_") && $0.text.contains("Afghan  (shown)")
    }
    app.send("\r")  // Enter on the sub-breed shown: back to the breed's own picture
    await app.expectScreen {
      $0.text.contains("breeds/hound/fake_") && $0.text.contains("▶ Afghan") && !$0.text.contains("(shown)")
    }
    app.send("\u{1B}")  // Escape: back to the list, filter kept
    await app.expectScreen { $0.line(1) == "🔍 hou" }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    assertRestored(app)
  }

  @Test func pageKeysMoveByThePageOnScreenOnBothScreens() async throws {
    // 24 rows, no pictures: the sub-breeds take the rest of the screen, as the list does.
    let app = try launch(["--picture", "none"])
    await app.expectScreen { $0.text.contains("Showing the built-in breed list.") }
    // The list has 19 rows (the note takes one); a page keeps one in view: 18 down.
    app.send("\u{1B}[6~")
    await app.expectScreen { $0.lines.contains { $0.hasPrefix("▶ Cattle Dog (1)") } }
    app.send("terrier\r")
    await app.expectScreen { $0.line(0) == "Terrier" && $0.text.contains("breeds/terrier/fake_") }
    // 18 rows of sub-breeds below the address and the heading: 17 down, to the 18th.
    app.send("\u{1B}[6~")
    await app.expectScreen { $0.lines.contains { $0.hasPrefix("▶ Sealyham") } }
    app.send("\u{1B}[5~")
    await app.expectScreen { $0.lines.contains { $0.hasPrefix("▶ American") } }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  @Test func onATerminalThatCannotDrawTheBrowserTheListSaysWhy() async throws {
    for (term, reason) in [("dumb", "TERM is dumb"), ("", "TERM is not set")] {
      let app = try launch(environment: ["TERM": term])
      #expect(await app.waitForExit() == 0)
      let output = String(decoding: app.allOutput, as: UTF8.self)
      #expect(output.contains("Affenpinscher\r\n") && !output.contains("\u{1B}[?1049h"), "\(term)")
      #expect(
        output.contains("warning: \(reason), so the browser cannot draw here: the list instead.\r\n"),
        "\(output.prefix(300))")
    }
  }

  /// Standard input redirected (`DogBreedsCLI < file`) with the output on a terminal: the
  /// browser reads its keys from the controlling terminal, or, with none, prints the list.
  @Test(arguments: [true, false])
  func withStandardInputRedirectedTheKeysComeFromTheTerminal(controlling: Bool) async throws {
    let app = try PseudoTerminalProcess(
      executable: "/bin/sh", arguments: ["-c", #"exec "$0" --api fake </dev/null"#, executable],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"]), controlling: controlling)
    if controlling {
      await app.expectScreen { $0.text.contains("▶ Affenpinscher") }
      app.send("pug")
      await app.expectScreen { $0.line(1) == "🔍 pug" && $0.text.contains("▶ Pug") }
      app.send("\u{3}")
      #expect(await app.waitForExit() == 0)
      assertRestored(app)
    } else {
      #expect(await app.waitForExit() == 0)
      let output = String(decoding: app.allOutput, as: UTF8.self)
      #expect(output.contains("Affenpinscher\r\n") && !output.contains("\u{1B}[?1049h"))
      #expect(
        output.contains(
          "warning: There is no terminal to read keys from, so the browser cannot run: the list instead."),
        "\(output.prefix(300))")
    }
  }

  @Test func filterStartsTheBrowserFilteredAndJSONAloneIsTheList() async throws {
    // --filter is typed for you: the browser opens on it, the highlight where it aims.
    let app = try launch(["--filter", "hou"])
    await app.expectScreen { $0.line(1) == "🔍 hou" && $0.lines.contains("▶ Hound (7)") }
    app.send("\u{7F}")  // and it is the filter, edited as if typed
    await app.expectScreen { $0.line(1) == "🔍 ho" }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    // JSON is for programs: alone on a terminal it is the list's, not the browser.
    let json = try launch(["--json"])
    #expect(await json.waitForExit() == 0)
    let output = String(decoding: json.allOutput, as: UTF8.self)
    #expect(
      output.hasPrefix("{\"source\":\"bundled\"") && !output.contains("\u{1B}[?1049h"),
      "\(output.prefix(200))")
  }

  @Test func traceOnTheSameTerminalAsTheBrowserIsAUsageError() async throws {
    // The trace would scribble over the screen: it must go somewhere else.
    let app = try launch(["--trace"])
    #expect(await app.waitForExit() == 2)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(!output.contains("\u{1B}[?1049h"))
    #expect(
      output.contains(
        "error: --trace writes to standard error, which is this terminal; redirect it: DogBreedsCLI --trace 2>trace.log"
      ), "\(output.prefix(300))")
  }

  @Test func resizingRelaysOutTheScreen() async throws {
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.resize(columns: 100, rows: 30)
    await app.expectScreen {
      $0.line(2) == String(repeating: "─", count: 100) && $0.line(29).contains("^C quit")
    }
    app.resize(columns: 40, rows: 10)
    // Narrower than the hints: the least important are left out, not the end cut off.
    await app.expectScreen {
      $0.line(2) == String(repeating: "─", count: 40) && $0.line(9) == "type to filter · Enter open · ^C quit"
    }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  /// A picture decoded for a small terminal is decoded again, sharper, when the terminal
  /// grows past it both ways, from the bytes kept: nothing is downloaded again.
  @Test func growingTheTerminalDecodesASharperPictureWithoutDownloadingIt() async throws {
    let server = try pictureServer(PictureScriptTests.jpeg)
    defer { server.stop() }
    let app = try PseudoTerminalProcess(
      executable: executable, arguments: ["--base-url", server.baseURL.absoluteString + "/api"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"]), columns: 30, rows: 12)
    func downloads() -> Int { server.requests.filter { $0.path.hasPrefix("/breeds/") }.count }
    await app.expectScreen { $0.text.contains("Hound") }
    app.send("\r")
    await app.expectScreen { $0.line(0) == "Hound" && $0.text.contains("▀") }
    #expect(downloads() == 1)
    app.resize(columns: 30, rows: 40)  // taller only: the picture fits by its width
    await app.expectScreen { $0.line(39).contains("quit") }
    let small = app.currentScreen.lines.filter { $0.contains("▀") }.count
    app.resize(columns: 160, rows: 50)
    // The picture fills the larger screen: more rows of it than before.
    await app.expectScreen { $0.lines.filter { $0.contains("▀") }.count > 2 * small }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    #expect(downloads() == 1)
  }

  @Test func noColorMeansNoColourCodesButTheSelectionStillShows() async throws {
    let app = try launch(environment: ["NO_COLOR": "1"])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    #expect(app.currentScreen[2, 3].style.reverse)  // the highlighted row
    #expect(app.currentScreen[2, 3].style.foreground == nil)
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(!output.contains("38;") && !output.contains("48;"))
    #expect(
      output.range(of: #"\e\[[0-9;]*(3[0-7]|9[0-7]|4[0-7]|10[0-7])m"#, options: .regularExpression) == nil)
  }

  /// On the Linux console (ASCII, 16 colours), an ASCII picture is drawn in the picture's
  /// colours, its cells' backgrounds as well as its characters.
  @Test func theASCIIPictureIsColouredWhereColourIsAllowed() async throws {
    let app = try launch(environment: ["TERM": "linux"])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("pug\r")
    await app.expectScreen { $0.line(0) == "Pug" && $0.showsColouredASCII(row: 2) }
    let screen = app.currentScreen
    let inked = (2..<screen.height).flatMap { y in (0..<screen.width).map { screen[$0, y] } }.filter {
      $0.character != " " && $0.style.background != nil
    }
    #expect(!inked.isEmpty && inked.allSatisfy { $0.style.foreground != nil })
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  /// Half blocks asked for by name under NO_COLOR would show nothing without colour: the
  /// picture is drawn in plain ASCII, and the app says so before it starts.
  @Test func halfBlocksAskedForUnderNoColorAreDrawnInASCIIAndSaidSo() async throws {
    let app = try launch(["--picture", "blocks"], environment: ["NO_COLOR": "1"])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("pug\r")
    await app.expectScreen { $0.line(0) == "Pug" && $0.line(2).contains { $0 != " " } }
    #expect(!app.currentScreen.text.contains("▀"))
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(output.contains("--picture blocks needs colour, which is turned off (--color never or NO_COLOR)"))
    #expect(
      output.range(of: #"\e\[[0-9;]*(3[0-9]|9[0-7]|4[0-9]|10[0-7])m"#, options: .regularExpression) == nil,
      "no colour escapes")
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  /// A lone Esc waits at most a second for the rest of a sequence, whatever ESCDELAY asks.
  @Test func anEscapeDelayIsCappedAtASecond() async throws {
    let app = try launch(environment: ["ESCDELAY": "100000000"])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("hou")
    await app.expectScreen { $0.line(1) == "🔍 hou" }
    app.send("\u{1B}")  // clears the filter, once the wait is over
    await app.expectScreen { $0.line(1) == "🔍 Filter breeds" }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  /// `show`'s picture fills a wide window, as chafa's does, whole (its text and the prompt
  /// below it); on a terminal that says it is 0 × 0 it fits 80 × 24.
  @Test(arguments: [(120, true), (80, false)])
  func showsPictureFillsTheWindow(columns: Int, reportsSize: Bool) async throws {
    let app = try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake", "show", "pug", "--picture", "ascii"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "NO_COLOR": "1"]), columns: columns, rows: 60,
      reportsSize: reportsSize)
    #expect(await app.waitForExit() == 0)
    let lines = app.currentScreen.lines.prefix { !$0.hasPrefix("Pug") }.filter { !$0.isEmpty }
    #expect(!lines.isEmpty)
    #expect(lines.allSatisfy { $0.count == lines[0].count }, "\(lines.map(\.count))")
    if reportsSize {
      #expect(lines[0].count > 80 && lines[0].count <= columns, "\(lines.map(\.count))")
      #expect(lines.count <= 60 - 3, "\(lines.map(\.count))")
    } else {
      // Pug's two lines of text and the prompt's are left.
      #expect(lines[0].count <= 80 && lines.count <= 24 - 3, "\(lines.map(\.count))")
      #expect(lines[0].count >= 72 || lines.count >= 24 - 4, "\(lines.map(\.count))")
    }
  }

  @Test func enterOnASubBreedsNameOpensItsBreedShowingIt() async throws {
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("golden")
    await app.expectScreen { $0.text.contains("Found as a sub-breed: Golden Retriever (under Retriever).") }
    app.send("\r")
    await app.expectScreen { $0.line(0) == "Retriever › Golden" && $0.text.contains("▶ Golden  (shown)") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  @Test func typingBeforeTheListArrivesIsShownAndThenOpensWhatWasMeant() async throws {
    // The list takes two seconds or more: keys typed meanwhile are said on the loading screen,
    // then filter the list with the highlight where typing aims it, so Enter opens Hound.
    let latency = Int(2000 * min(timeScale, 2))  // longer under the sanitizers
    let app = try launch(environment: ["DOGBREEDS_FAKE_LATENCY_MS": "\(latency)"])
    await app.expectScreen { $0.text.contains("Loading breeds…") }
    app.send("hou")
    await app.expectScreen { $0.text.contains("Loading breeds… Then filtering by “hou”.") }
    await app.expectScreen { $0.line(1) == "🔍 hou" && $0.lines.contains("▶ Hound (7)") }
    app.send("\r")
    await app.expectScreen { $0.line(0) == "Hound" }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  @Test func ctrlWDeletesTheLastWordAndTheSpacesAfterItAsInAShell() async throws {
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("hou dog  ")
    await app.expectScreen { $0.text.contains("No breeds match “hou dog  ”") }
    app.send("\u{17}")  // Ctrl-W
    await app.expectScreen { $0.text.contains("▶ Hound (7)") }
    app.send("x")  // the space before the deleted word stays
    await app.expectScreen { $0.text.contains("No breeds match “hou x”") }
    app.send("\u{17}\u{17}")  // "x", then "hou ": the filter is empty and the highlight stays
    await app.expectScreen { $0.line(1) == "🔍 Filter breeds" && $0.text.contains("▶ Hound (7)") }
    app.send("bull terr")
    await app.expectScreen { $0.line(1) == "🔍 bull terr" }
    app.send("\u{1B}\u{7F}")  // Alt-Backspace: the word, not the whole filter
    await app.expectScreen { $0.line(1) == "🔍 bull" }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  @Test func aPasteGoesIntoTheFilterLiterally() async throws {
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("\u{1B}[200~bull\r\n\u{1B}[201~")
    await app.expectScreen { $0.line(1) == "🔍 bull" && $0.text.contains("Bulldog") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  @Test func aPasteWhoseEndNeverComesStopsSwallowingKeys() async throws {
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("\u{1B}[200~hou")
    // A second later the paste is over: what follows is typed again, and Ctrl-C quits.
    await app.expectScreen { $0.line(1) == "🔍 hou" }
    app.send("nd")
    await app.expectScreen { $0.line(1) == "🔍 hound" }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}
