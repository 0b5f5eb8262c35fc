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
    ambiguousWide: Bool = false, rows: Int = 24, typedAhead: String = ""
  ) throws -> PseudoTerminalProcess {
    try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake"] + extra,
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"]).merging(environment) { $1 },
      rows: rows, replyDelay: replyDelay, ambiguousWide: ambiguousWide, typedAhead: typedAhead)
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

  /// `show` on a terminal draws the picture in the protocol the environment names, and in
  /// half blocks inside tmux (which would need passthrough) or where nothing is named.
  @Test func showPicksThePictureProtocolOfTheTerminal() async throws {
    func output(_ environment: [String: String]) async throws -> String {
      let app = try launch(["show", "hound"], environment: environment)
      #expect(await app.waitForExit() == 0)
      return String(decoding: app.allOutput, as: UTF8.self)
    }
    #expect(try await output(["TERM": "foot"]).hasPrefix("\u{1B}P0;1;0q\"1;1;"))
    #expect(try await output(["TERM": "mlterm"]).hasPrefix("\u{1B}P0;1;0q\"1;1;"))
    #expect(try await output(["TERM": "xterm-kitty"]).hasPrefix("\u{1B}_Ga=T,f=24,"))
    #expect(try await output(["TERM_PROGRAM": "ghostty"]).hasPrefix("\u{1B}_Ga=T,f=24,"))
    // kitty is known by KITTY_WINDOW_ID too, and iTerm2 by LC_TERMINAL (which ssh passes on
    // with the locale), whatever TERM says.
    #expect(try await output(["KITTY_WINDOW_ID": "1"]).hasPrefix("\u{1B}_Ga=T,f=24,"))
    #expect(try await output(["LC_TERMINAL": "iTerm2"]).hasPrefix("\u{1B}]1337;File=inline=1;"))
    #expect(try await output(["KONSOLE_VERSION": "230805"]).hasPrefix("\u{1B}]1337;File=inline=1;"))
    #expect(try await output(["TERM_PROGRAM": "WezTerm"]).hasPrefix("\u{1B}]1337;File=inline=1;"))
    // A Konsole older than 22.04 would print the picture's base64 as text: half blocks.
    #expect(try await output(["KONSOLE_VERSION": "210804"]).contains("▀"))
    // (foot sets COLORTERM itself; the half blocks need it to know there is colour.)
    let inTmux = try await output([
      "TERM": "foot", "COLORTERM": "truecolor", "TMUX": "/tmp/tmux-0/default,1,0",
    ])
    #expect(!inTmux.contains("\u{1B}P") && inTmux.contains("▀"))
    let plain = try await output([:])
    #expect(!plain.contains("\u{1B}P") && !plain.contains("\u{1B}_G") && plain.contains("▀"))
    // A locale without UTF-8 gets the ASCII ramp (half blocks are not ASCII), though the
    // terminal's own protocol still draws pixels.
    let ascii = try await output(["LANG": "C"])
    let picture = ascii.components(separatedBy: "Hound\r\nPicture: ").first ?? ""
    #expect(ascii.utf8.allSatisfy { $0 < 0x80 } && picture.count < ascii.count, "\(ascii)")
    #expect(picture.split(separator: "\r\n").count >= 4 && picture.contains("="), "\(picture)")
    #expect(try await output(["LANG": "C", "TERM": "foot"]).hasPrefix("\u{1B}P0;1;0q\"1;1;"))
  }

  /// Before drawing a picture in half blocks it chose, `show` asks the terminal how wide it
  /// draws them: one that draws them two columns wide (a CJK setting) gets the ASCII ramp,
  /// exactly as `--picture ascii` draws it, from the start of the line the cursor was on.
  /// (On a screen tall enough for all of it, so that its first line is on screen.)
  @Test func showOnATerminalThatDrawsAmbiguousCharactersWideDrawsTheASCIIRamp() async throws {
    func show(_ extra: [String] = [], wide: Bool) async throws -> (output: String, screen: VirtualTerminal) {
      let app = try launch(["show", "pug"] + extra, ambiguousWide: wide, rows: 60)
      #expect(await app.waitForExit() == 0)
      return (String(decoding: app.allOutput, as: UTF8.self), app.currentScreen)
    }
    let query = "\u{1B}7\u{1B}[6n─\u{1B}[6n\u{1B}8\u{1B}[K\u{1B}[c"
    let wide = try await show(wide: true)
    #expect(wide.output.hasPrefix(query) && !wide.output.contains("▀"))
    #expect(!wide.output.contains("^["), "the answers were echoed")
    let ascii = try await show(["--picture", "ascii"], wide: true)
    #expect(!ascii.output.contains("\u{1B}[6n"), "asked for by name: nothing to ask")
    #expect(wide.screen.text == ascii.screen.text && wide.screen.line(3).contains("="), "\(wide.screen.text)")
    // Nothing scrolled away: the first line is the picture's first row, whole.
    #expect(wide.screen.lines.last == "" && wide.screen.line(0).count == 80, "\(wide.screen.text)")
    let narrow = try await show(wide: false)
    #expect(narrow.output.hasPrefix(query), "\(narrow.output.prefix(40))")
    #expect(narrow.screen.line(0) == String(repeating: "▀", count: 80), "\(narrow.screen.text)")
    // Half blocks asked for by name stay, wide or not.
    let blocks = try await show(["--picture", "blocks"], wide: true)
    #expect(!blocks.output.contains("\u{1B}[6n") && blocks.output.contains("▀"))
  }

  /// With its input piped, `show` asks the terminal it runs in (`/dev/tty`) all the same.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")))
  func showWithItsInputPipedAsksItsTerminal() async throws {
    let app = try PseudoTerminalProcess(
      executable: "/bin/sh", arguments: ["-c", "echo | '\(executable)' --api fake show pug"],
      environment: cleanEnvironment(["TERM": "xterm-256color"]), ambiguousWide: true)
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(
      output.contains("\u{1B}[6n") && !output.contains("▀") && output.contains("Pug"), "\(output.prefix(200))"
    )
  }

  /// With its output on another terminal (`> /dev/pts/3`) `show` does not ask that one: it
  /// would answer into its own keyboard queue, for its shell to read.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")))
  func showWritingToAnotherTerminalDoesNotAskIt() async throws {
    let other = try PseudoTerminalProcess(
      executable: "/bin/sh", arguments: ["-c", "sleep 60"], environment: cleanEnvironment([:]))
    let app = try PseudoTerminalProcess(
      executable: "/bin/sh", arguments: ["-c", "'\(executable)' --api fake show pug > \(other.path)"],
      environment: cleanEnvironment(["TERM": "xterm-256color"]))
    #expect(await app.waitForExit() == 0)
    await other.expectScreen { $0.text.contains("Picture: ") }
    let output = String(decoding: other.allOutput, as: UTF8.self)
    #expect(output.contains("▀") && !output.contains("\u{1B}[6n"), "\(output.prefix(100))")
  }

  /// A terminal that answers nothing: `show` gives up waiting (after half a second), draws
  /// the half blocks, and leaves the terminal's modes exactly as they were.
  @Test func showWaitsForATerminalThatDoesNotAnswerOnlyBriefly() async throws {
    let silent = try launch(["show", "pug"], replyDelay: nil)
    #expect(await silent.waitForExit(timeout: .seconds(5)) == 0)
    #expect(String(decoding: silent.allOutput, as: UTF8.self).contains("▀"))
    #expect(sameModes(silent.currentModes, silent.initialModes), "termios restored exactly")
  }

  /// Ctrl-C while `show` waits for the terminal ends it with the terminal's modes put back:
  /// echo and line editing on. (Under `sh`, which, unlike bash and zsh, does not restore
  /// them after a command; its trap prints them once `show` has gone.)
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")))
  func ctrlCWhileShowWaitsForTheTerminalPutsItsModesBack() async throws {
    let shell = try PseudoTerminalProcess(
      executable: "/bin/sh",
      arguments: ["-c", "trap 'stty -a; exit 7' INT; '\(executable)' --api fake show pug; echo finished"],
      environment: cleanEnvironment(["TERM": "xterm-256color"]), replyDelay: nil, typedWithAnswers: "\u{3}")
    #expect(await shell.waitForExit() == 7)
    let output = String(decoding: shell.allOutput, as: UTF8.self)
    let modes = output.split(whereSeparator: { $0.isWhitespace || $0 == ";" })
    #expect(modes.contains("icanon") && modes.contains("echo") && !output.contains("finished"), "\(output)")
  }

  /// Something typed ahead (a command pasted to run after this one, or the start of the
  /// next typed before Enter) would be read with the terminal's answers, and lost: `show`
  /// then does not ask, and leaves it to be read (here by `dd`, after it, under `sh`).
  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")),
    arguments: ["echo next\r", "echo nex"])
  func showDoesNotAskWhileSomethingTypedIsWaiting(typed: String) async throws {
    let app = try PseudoTerminalProcess(
      executable: "/bin/sh",
      arguments: [
        "-c",
        "'\(executable)' --api fake show pug; stty -icanon min 0 time 0; echo \"left: [$(dd bs=64 count=1 2>/dev/null)]\"",
      ],
      environment: cleanEnvironment(["TERM": "xterm-256color"]), ambiguousWide: true, typedAhead: typed)
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(!output.contains("\u{1B}[6n") && output.contains("▀"))
    #expect(
      output.contains("left: [\(typed.dropLast(typed.hasSuffix("\r") ? 1 : 0))]"), "\(output.suffix(200))")
  }

  /// `show` reads up to the terminal's last answer and no further: what is typed after it
  /// (here in the same write as the answers, so in the same read) is left for the shell.
  /// (The terminal answers at once: answered by the test, the answers could come later
  /// than the half second `show` waits, in a loaded run.)
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")))
  func showReadsNothingAfterTheTerminalsLastAnswer() async throws {
    let app = try PseudoTerminalProcess(
      executable: "/bin/sh",
      arguments: [
        "-c",
        "'\(executable)' --api fake show pug; stty -icanon min 0 time 0; echo \"left: [$(dd bs=64 count=1 2>/dev/null)]\"",
      ],
      environment: cleanEnvironment(["TERM": "xterm-256color"]), ambiguousWide: true,
      typedWithAnswers: "echo next")
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(output.contains("left: [echo next]") && !output.contains("▀"), "\(output.suffix(200))")
  }

  /// Run in the background (`&`), `show` leaves the terminal alone: changing its modes
  /// would have stopped it (SIGTTOU) until brought to the foreground.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
  func showInTheBackgroundDoesNotAsk() async throws {
    let shell = try PseudoTerminalProcess(
      executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "PS1": "$ "]), ambiguousWide: true)
    await shell.expectScreen { $0.text.contains("$") }
    shell.send("'\(executable)' --api fake show pug & wait $!; echo \"status $?\"; exit\r")
    #expect(await shell.waitForExit() == 0)
    let output = String(decoding: shell.allOutput, as: UTF8.self)
    #expect(output.contains("status 0") && output.contains("▀") && !output.contains("\u{1B}[6n"), "\(output)")
  }

  /// In a locale that is not UTF-8 the terminal may show nothing but ASCII: the app then
  /// writes not one byte outside it, the picture included.
  @Test func aLocaleWithoutUTF8GetsOnlyASCII() async throws {
    let app = try launch(environment: ["LANG": "C"])
    await app.expectScreen { $0.line(1) == "/ Filter breeds" && $0.text.contains("> Affenpinscher") }
    app.send("xyz")
    await app.expectScreen { $0.text.contains("No breeds match \"xyz\"") }
    app.send("\u{15}hound\r")
    await app.expectScreen {
      $0.line(0) == "Hound" && $0.text.contains("fake_1.jpg") && $0.line(2).contains("=")
    }
    #expect(app.currentScreen.text.contains("Up/Down Enter sub-breed | f star | Esc back"))
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    let outside = app.allOutput.filter { $0 >= 0x80 }
    #expect(outside.isEmpty, "\(outside.count) bytes outside ASCII")
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
    // The picture drawn: in the ASCII ramp, or in half blocks.
    let picture = column == 3 ? "=" : "▀"
    await app.expectScreen { $0.line(0) == "Hound" && $0.line(2).contains(picture) }
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
    // Inside tmux, which passes no graphics through, and in a terminal whose protocol
    // writes into the cells (sixel, in foot), the picture is drawn as on any terminal:
    // half blocks, or with NO_COLOR the ASCII ramp. Such a protocol asked for by name
    // (`--picture sixel`, `iterm`) means half blocks, which, asked for, NO_COLOR keeps.
    for (arguments, environment, blocks) in [
      ([], ["TERM": "xterm-kitty", "COLORTERM": "truecolor", "TMUX": "/tmp/tmux-0/default,1,0"], true),
      ([], ["TERM": "foot", "COLORTERM": "truecolor"], true),
      ([], ["TERM": "foot", "COLORTERM": "truecolor", "NO_COLOR": "1"], false),
      (["--picture", "sixel"], ["TERM": "foot", "NO_COLOR": "1"], true),
      (["--picture", "iterm"], ["TERM_PROGRAM": "iTerm.app"], true),
    ] {
      let other = try launch(arguments, environment: environment)
      await other.expectScreen { $0.text.contains("Affenpinscher") }
      other.send("pug\r")
      await other.expectScreen {
        $0.line(0) == "Pug" && $0.text.contains("▀") == blocks
          && $0.line(2).contains { "-=+*#%@".contains($0) } != blocks
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
      let written = String(decoding: other.allOutput, as: UTF8.self)
      #expect(
        !written.contains("\u{1B}_G") && !written.contains("\u{1B}P") && !written.contains("\u{1B}]1337"),
        "\(arguments) \(environment)")
    }
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
    await app.expectScreen { $0.lines.contains { $0.hasPrefix("▶ Cattledog (1)") } }
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

  /// A picture decoded for a small terminal is fetched and decoded again when the
  /// terminal grows past it both ways; growing one way only, or shrinking, fetches nothing.
  @Test func growingTheTerminalFetchesASharperPicture() async throws {
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
    app.resize(columns: 160, rows: 50)
    await app.expectScreen { _ in downloads() == 2 }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    #expect(downloads() == 2)
  }

  @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT] as [Int32])
  func signalsRestoreTheTerminal(signal: Int32) async throws {
    let code: Int32 = 128 + signal
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.signal(signal)
    #expect(await app.waitForExit() == code)
    assertRestored(app)
  }

  /// A terminal that goes away ends the app: by SIGHUP (129) or by the end of its input
  /// (0), whichever it notices first; and by the end of its input alone where it is not
  /// the app's controlling terminal (no SIGHUP comes then).
  @Test(arguments: [true, false])
  func closingTheTerminalEndsTheApp(controlling: Bool) async throws {
    let app = try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"]), controlling: controlling)
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.hangUp()
    let code = await app.waitForExit()
    #expect(controlling ? [0, 129].contains(code) : code == 0, "\(String(describing: code))")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
  func ctrlZStopsTheAppAndFgBringsItBackInRawMode() async throws {
    // A shell with job control, as a user has: Ctrl-Z must stop the app with the terminal
    // restored, and `fg` must bring it back reading keys one by one, not lines.
    let shell = try PseudoTerminalProcess(
      executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20", "PS1": "$ "]))
    await shell.expectScreen { $0.text.contains("$") }
    shell.send("'\(executable)' --api fake\r")
    await shell.expectScreen { $0.text.contains("Affenpinscher") }
    shell.send("\u{1A}")
    await shell.expectScreen { $0.text.contains("Stopped") && !$0.alternateScreen }
    shell.send("fg; exit\r")
    await shell.expectScreen { $0.alternateScreen && $0.text.contains("Affenpinscher") }
    shell.send("hou")
    await shell.expectScreen { $0.line(1) == "🔍 hou" }
    shell.send("\u{3}")
    // `fg; exit`: the shell exits with the app's status once the app has quit.
    #expect(await shell.waitForExit() == 0)
  }

  /// Ctrl-Z pressed before a slow terminal has said where the cursor is: the app waits for
  /// the answer before it gives the terminal back, or the shell would read it as typed
  /// (`^[[1;2R` on its prompt, and `1;2R` before the next command).
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
  func ctrlZBeforeTheTerminalAnswersWaitsForTheAnswer() async throws {
    let shell = try PseudoTerminalProcess(
      executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20", "PS1": "$ "]),
      replyDelay: .milliseconds(150))
    await shell.expectScreen { $0.text.contains("$") }
    shell.send("'\(executable)' --api fake\r")
    await shell.expectScreen { $0.text.contains("Affenpinscher") }
    shell.send("\u{1A}")
    await shell.expectScreen { $0.text.contains("Stopped") && !$0.alternateScreen }
    try await Task.sleep(for: .milliseconds(300))
    #expect(!shell.currentScreen.text.contains("^["), "\(shell.currentScreen.text)")
    shell.send("fg; exit\r")
    await shell.expectScreen { $0.alternateScreen && $0.text.contains("Affenpinscher") }
    shell.send("\u{3}")
    #expect(await shell.waitForExit() == 0)
  }

  @Test func ctrlZInAProcessThatCannotBeStoppedLeavesTheScreenAlone() async throws {
    // Started directly, the app leads its own session and nothing can stop it (SIGTSTP is
    // discarded for an orphaned process group): Ctrl-Z must not hand the terminal back.
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("\u{1A}hou")
    await app.expectScreen { $0.line(1) == "🔍 hou" }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(
      output.components(separatedBy: "\u{1B}[?1049l").count == 2, "left the alternate screen once, at the end"
    )
    assertRestored(app)
  }

  @Test func aCrashRestoresTheTerminal() async throws {
    // SIGSEGV goes through the crash handler: restore, then die of the signal.
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.signal(SIGSEGV)
    #expect(await app.waitForExit() == 128 + SIGSEGV)
    assertRestored(app)
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

  /// Asked for by name, half blocks are drawn in colour even with NO_COLOR: the picture
  /// takes its colours, the rest of the screen none.
  @Test func picturesAskedForByNameKeepTheirColoursUnderNoColor() async throws {
    let app = try launch(["--picture", "blocks"], environment: ["NO_COLOR": "1"])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("pug\r")
    await app.expectScreen { $0.line(0) == "Pug" && $0.text.contains("▀") }
    let screen = app.currentScreen
    let cells = (0..<screen.height).flatMap { y in (0..<screen.width).map { screen[$0, y] } }
    let halfBlock = cells.first { $0.character == "▀" }
    #expect(halfBlock?.style.background != nil && halfBlock?.style.foreground != nil)
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

  /// `show`'s picture is at most 80 columns wide on a wider terminal, and 80 on one that
  /// says it is 0 × 0.
  @Test(arguments: [(120, true), (80, false)])
  func showsPictureIsEightyColumnsAtMost(columns: Int, reportsSize: Bool) async throws {
    let app = try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake", "show", "pug", "--picture", "ascii"],
      environment: cleanEnvironment(["TERM": "xterm-256color"]), columns: columns, rows: 60,
      reportsSize: reportsSize)
    #expect(await app.waitForExit() == 0)
    let lines = app.currentScreen.lines.prefix { !$0.hasPrefix("Pug") }.filter { !$0.isEmpty }
    #expect(!lines.isEmpty)
    #expect(lines.allSatisfy { $0.count == 80 }, "\(lines.map(\.count))")
  }

  @Test func enterOnASubBreedsNameOpensItsBreedShowingIt() async throws {
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("golden")
    await app.expectScreen { $0.text.contains("Found as a sub-breed: Golden Retriever (under Retriever).") }
    app.send("\r")
    await app.expectScreen { $0.line(0) == "Retriever" && $0.text.contains("▶ Golden  (shown)") }
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
