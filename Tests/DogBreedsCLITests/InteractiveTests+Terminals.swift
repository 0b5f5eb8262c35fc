import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

#if canImport(Glibc)
  import Glibc
#endif

extension InteractiveTests {
  /// In a locale that is not UTF-8 the terminal may show nothing but ASCII: the app then
  /// writes not one byte outside it, the picture included.
  @Test func aLocaleWithoutUTF8GetsOnlyASCII() async throws {
    let app = try launch(environment: ["LANG": "C"])
    await app.expectScreen { $0.line(1) == "/ Filter breeds" && $0.text.contains("> Affenpinscher") }
    app.send("xyz")
    await app.expectScreen { $0.text.contains("No breeds match \"xyz\"") }
    app.send("\u{15}hound\r")
    await app.expectScreen {
      $0.line(0) == "Hound" && $0.text.contains("fake_1.jpg") && $0.showsColouredASCII(row: 2)
    }
    #expect(app.currentScreen.text.contains("Up/Down Enter sub-breed | Esc back | ? keys"))
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    let outside = app.allOutput.filter { $0 >= 0x80 }
    #expect(outside.isEmpty, "\(outside.count) bytes outside ASCII")
  }

  /// A terminal whose terminfo entry gives it no colours (a VT100; the entry is the test's
  /// own) gets not one colour sequence, not even the question whether it draws 24-bit
  /// colour; the highlight still shows, in reverse video, and the picture in plain ASCII.
  @Test func aTerminalWithoutColoursInItsTerminfoGetsNone() async throws {
    let app = try launch(environment: ["TERM": "vt100"])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    #expect(app.currentScreen[2, 3].style.reverse)
    app.send("pug\r")
    await app.expectScreen { $0.line(0) == "Pug" && $0.line(2).contains { $0 != " " } }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    // Every graphic rendition the app wrote, and the colours among their parameters.
    let renditions = output.matches(of: #/\e\[([0-9;:]*)m/#).map { String($0.output.1) }
    #expect(!renditions.isEmpty)
    let colours = renditions.filter { rendition in
      rendition.split(separator: ";").contains { parameter in
        guard let code = Int(parameter.prefix { $0 != ":" }) else { return false }
        return (30...49).contains(code) || (90...107).contains(code)
      }
    }
    #expect(colours.isEmpty, "\(colours.count) colour sequences: \(colours.prefix(5))")
  }

  /// A terminal set up for Chinese, Japanese or Korean may draw East Asian ambiguous
  /// characters (`─ ▶ ▀`) two columns wide where the frame counts one, and misalign the
  /// screen. The app asks where one such character leaves the cursor: told column 3, it
  /// draws in ASCII from then on, pictures too; told 2, it stays as it is. Only the first
  /// answer counts (Alt-F3 reads like one).
  @Test(arguments: [2, 3])
  func aTerminalThatDrawsAmbiguousCharactersWideGetsASCII(column: Int) async throws {
    let app = try launch(replyDelay: nil)
    await app.expectScreen { $0.text.contains("▶ Affenpinscher") }
    #expect(String(decoding: app.allOutput, as: UTF8.self).contains("\u{1B}[H─\u{1B}[6n"))
    app.send("\u{1B}[1;\(column)R")
    if column == 3 {
      await app.expectScreen { $0.line(1) == "/ Filter breeds" && $0.text.contains("> Affenpinscher") }
    }
    app.send("\u{1B}[1;\(5 - column)Rhou\r")
    // The picture drawn: in ASCII (in colour), or in symbols (the half block's Unicode block).
    await app.expectScreen {
      $0.line(0) == "Hound"
        && (column == 3
          ? $0.showsColouredASCII(row: 2) : $0.line(2).contains { ("\u{2580}"..."\u{259F}").contains($0) })
    }
    let screen = app.currentScreen.text
    #expect(screen.unicodeScalars.allSatisfy(\.isASCII) == (column == 3), "\(screen)")
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  /// Quit before a slow terminal has said where the cursor is (a quick Ctrl-C over a slow
  /// link), the app waits for the answer: left unread, it would reach the shell, which
  /// echoes it on its prompt as `^[[1;2R`. (The pseudo-terminal, back in its first modes,
  /// echoes what nobody reads.)
  @Test func quittingBeforeTheTerminalAnswersWaitsForTheAnswer() async throws {
    let app = try launch(replyDelay: .milliseconds(150))
    await app.expectScreen { $0.text.contains("▶ Affenpinscher") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    try await Task.sleep(for: .milliseconds(300))
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(!output.contains("^[["), "the answer was echoed after the app had gone")
  }

  /// In kitty (and Ghostty) the Breed screen leaves the picture's cells blank and has the
  /// terminal draw the picture there, under an id by which it takes it away again; with
  /// any other protocol, named or asked for, it draws the picture in the cells.
  @Test func inKittyTheBreedScreenPlacesThePictureAndTakesItAway() async throws {
    let app = try launch(environment: ["TERM": "xterm-kitty"])
    func output() -> String { String(decoding: app.allOutput, as: UTF8.self) }
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("pug\r")
    await app.expectScreen { $0.line(0) == "Pug" && $0.text.contains("breeds/pug/fake_") }
    // At the first row under the divider, the cursor saved around it. (Wait for the whole
    // command: it is large, the picture's pixels in base64.)
    func placement() -> String {
      output().components(separatedBy: "\u{1B}7\u{1B}[3;").dropFirst().first ?? ""
    }
    #expect(await eventually { placement().contains("m=0;") && placement().contains("\u{1B}\\\u{1B}8") })
    let placement = placement()
    #expect(placement.hasPrefix("14H\u{1B}_Ga=T,f=24,"), "\(placement.prefix(80))")
    #expect(placement.contains(",c=53,r=20,i=1,C=1,q=2,m=1;"), "\(placement.prefix(80))")
    // The picture's cells hold nothing of their own: no half blocks anywhere.
    let screen = app.currentScreen
    #expect(!screen.text.contains("▀"))
    #expect(screen.line(2) == "")
    let placed = output().count
    app.send("\u{1B}")  // back to the list: the picture goes
    await app.expectScreen { $0.line(1) == "🔍 pug" }
    #expect(await eventually { output().dropFirst(placed).contains("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\") })
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    // Inside tmux, which passes no graphics through, the picture is drawn as on any
    // terminal: half blocks, or with NO_COLOR plain ASCII. iTerm2's protocol, which
    // gives no control over where a picture ends, means half blocks in the app, asked for
    // by name (`--picture iterm`) or not.
    for (arguments, environment, blocks) in [
      ([], ["TERM": "xterm-kitty", "COLORTERM": "truecolor", "TMUX": "/tmp/tmux-0/default,1,0"], true),
      ([], ["TERM": "xterm-kitty", "COLORTERM": "truecolor", "TMUX": "/tmp/t,1,0", "NO_COLOR": "1"], false),
      (["--picture", "iterm"], ["TERM_PROGRAM": "iTerm.app"], true),
      ([], ["LC_TERMINAL": "iTerm2", "COLORTERM": "truecolor"], true),
    ] {
      let other = try launch(arguments, environment: environment)
      await other.expectScreen { $0.text.contains("Affenpinscher") }
      other.send("pug\r")
      await other.expectScreen {
        $0.line(0) == "Pug" && $0.text.contains("▀") == blocks
          && $0.line(2).contains { $0.isASCII && $0 != " " } != blocks
      }
      if blocks {
        let screen = other.currentScreen
        let cells = (0..<screen.height).flatMap { y in (0..<screen.width).map { screen[$0, y] } }
        let halfBlock = cells.first { $0.character == "▀" }
        let (background, foreground) = (halfBlock?.style.background, halfBlock?.style.foreground)
        #expect(background != nil && foreground != nil, "\(arguments) \(environment)")
      }
      other.send("\u{3}")
      #expect(await other.waitForExit() == 0)
      // (Without the question whether it draws 24-bit colour, itself a DCS string.)
      let written = String(decoding: other.allOutput, as: UTF8.self).replacingOccurrences(
        of: "\u{1B}P$qm", with: "")
      #expect(
        !written.contains("\u{1B}_G") && !written.contains("\u{1B}P") && !written.contains("\u{1B}]1337"),
        "\(arguments) \(environment)")
    }
  }

  /// Where the window does not give a cell's size in pixels, the app asks the terminal,
  /// and places kitty's picture in the shape it has in those cells (8 × 17 here: taller
  /// for their width than the 10 × 20 assumed otherwise, so more columns for its rows, or
  /// fewer rows for its columns).
  @Test func inKittyThePictureKeepsItsShapeInTheCellsTheTerminalAnswers() async throws {
    func placement(answering cell: (width: Int, height: Int)?) async throws -> (columns: Int, rows: Int) {
      let app = try launch(environment: ["TERM": "xterm-kitty"], answersCellPixels: cell)
      await app.expectScreen { $0.text.contains("Affenpinscher") }
      app.send("pug\r")
      await app.expectScreen { $0.line(0) == "Pug" && $0.text.contains("breeds/pug/fake_") }
      func last() -> String? {
        String(decoding: app.allOutput, as: UTF8.self).components(separatedBy: "\u{1B}_Ga=T,").last
      }
      #expect(await eventually { last()?.contains(",C=1,") == true })
      app.send("\u{3}")
      #expect(await app.waitForExit() == 0)
      let keys = try #require(last()?.split(separator: ";").first).split(separator: ",")
      func value(_ key: String) throws -> Int {
        try #require(keys.first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) })
      }
      return (try value("c"), try value("r"))
    }
    let assumed = try await placement(answering: nil)
    let answered = try await placement(answering: (8, 17))
    #expect(
      answered.rows < assumed.rows || answered.columns > assumed.columns, "\(answered) \(assumed)")
    let shape = Double(assumed.columns * 10) / Double(assumed.rows * 20)
    let answeredShape = Double(answered.columns * 8) / Double(answered.rows * 17)
    #expect(abs(answeredShape / shape - 1) < 0.02, "\(answered) \(assumed)")
  }

  /// A kitty picture is sent once while it stays: a change elsewhere on the screen (the
  /// highlight moving to a sub-breed) does not send it again; quitting takes it away.
  @Test func inKittyAPictureIsSentOnceAndTakenAwayOnQuitting() async throws {
    let app = try launch(environment: ["TERM": "xterm-kitty"])
    func output() -> String { String(decoding: app.allOutput, as: UTF8.self) }
    func placements() -> Int { output().components(separatedBy: "\u{1B}_Ga=T,").count - 1 }
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("hound\r")
    await app.expectScreen { $0.line(0) == "Hound" && $0.text.contains("breeds/hound/fake_") }
    #expect(await eventually { output().contains("\u{1B}\\\u{1B}8") })  // the placement, whole
    #expect(placements() == 1)
    app.send("\u{1B}[B")  // Down: the first sub-breed highlighted, in the same write
    await app.expectScreen { $0.lines.contains { $0.hasPrefix("▶ Afghan ") } }
    #expect(placements() == 1)
    let before = output().count
    app.send("\u{3}")  // from a screen without a cursor: it is shown again
    #expect(await app.waitForExit() == 0)
    #expect(output().dropFirst(before).contains("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\"))
    assertRestored(app)
  }

  /// A terminal that says it is 0 × 0 (a serial line, some containers' terminals at first)
  /// is drawn on as 80 × 24, not as no screen at all.
  @Test func aTerminalOfNoSizeIsTakenForEightyByTwentyFour() async throws {
    let app = try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"]), reportsSize: false)
    await app.expectScreen {
      $0.line(3).hasPrefix("▶ Affenpinscher") && $0.line(23).hasPrefix("type to filter")
    }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}
