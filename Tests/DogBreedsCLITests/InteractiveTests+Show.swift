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
  /// `show` on a terminal draws the picture in the protocol the environment names, and in
  /// half blocks inside tmux (which would need passthrough) or where nothing is named.
  /// Pictures keep their shape and fit in terminals whose cells are not 10 × 20 pixels:
  /// kitty is given the rows as well as the columns, from the cell size the terminal
  /// reports (in the window's pixel fields, or, where it leaves them at zero, when asked),
  /// and a sixel picture is never wider than the window.
  @Test(arguments: [(6, 13), (8, 17), (9, 20), (10, 22)], [false, true])
  func picturesFitTheCellsTheTerminalReports(cell: (width: Int, height: Int), whenAsked: Bool) async throws {
    let (cellWidth, cellHeight) = cell
    func output(_ environment: [String: String], columns: Int) async throws -> String {
      let app = try PseudoTerminalProcess(
        executable: executable, arguments: ["--api", "fake", "show", "hound"],
        environment: cleanEnvironment(environment), columns: columns, rows: 24,
        cellPixels: whenAsked ? nil : cell, answersCellPixels: whenAsked ? cell : nil)
      #expect(await app.waitForExit() == 0)
      return String(decoding: app.allOutput, as: UTF8.self)
    }
    // kitty: c= and r= in the picture's shape, in these cells.
    let kitty = try await output(["TERM": "xterm-kitty"], columns: 80)
    // (After the questions `show` asked, where it asked any.)
    let command = try #require(kitty.components(separatedBy: "\u{1B}_G").dropFirst().first)
    let keys = try #require(command.split(separator: ";").first).split(separator: ",")
    func value(_ key: String) -> Int? {
      keys.first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
    }
    let (width, height, columns, rows) = try (
      #require(value("s")), #require(value("v")), #require(value("c")), #require(value("r"))
    )
    // In the window with the text after it (Hound's ten lines and the prompt's).
    // As large as it may be, within a tenth (a size a little smaller may keep the shape better).
    #expect(columns <= 80 && rows <= 24 - 11 && (columns >= 72 || rows >= 12), "\(columns)×\(rows)")
    // In the picture's shape, within 2 %.
    let shown = Double(columns * cellWidth) / Double(rows * cellHeight)
    #expect(
      abs(shown / (Double(width) / Double(height)) - 1) <= 0.02, "\(columns)×\(rows) for \(width)×\(height)")
    // sixel, in a 60-column window: no wider than its pixels.
    let sixel = try await output(["TERM": "foot"], columns: 60)
    let raster = try #require(sixel.range(of: "\"1;1;"))
    let sixelWidth = Int(sixel[raster.upperBound...].prefix { $0.isNumber }) ?? .max
    #expect(sixelWidth <= 60 * cellWidth)
  }

  /// Over SSH, kitty is sent the picture compressed (`o=z`); on this machine, as it is.
  @Test func showOverSSHSendsKittyItsPictureCompressed() async throws {
    func keys(_ environment: [String: String]) async throws -> String {
      let app = try PseudoTerminalProcess(
        executable: executable, arguments: ["--api", "fake", "show", "hound"],
        environment: cleanEnvironment(["TERM": "xterm-kitty"].merging(environment) { $1 }),
        cellPixels: (10, 20))
      #expect(await app.waitForExit() == 0)
      let output = String(decoding: app.allOutput, as: UTF8.self)
      let command = try #require(output.components(separatedBy: "\u{1B}_G").dropFirst().first)
      return String(command.prefix { $0 != ";" })
    }
    #expect(try await keys(["SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 22"]).contains(",o=z,"))
    #expect(try await !keys([:]).contains("o=z"))
  }

  /// The correlation of the ink of the characters at the same places of `a` and `b`, over
  /// the places where either has ink: near 1 where they follow the same light, below 0
  /// where one is the other's negative. A character's ink is taken roughly: none for a
  /// space, little for punctuation that marks a corner of the cell, much for the dense
  /// characters, some for the rest.
  static func inkCorrelation(_ a: String, _ b: String) -> Double {
    func ink(_ character: Character) -> Double {
      if character == " " { return 0 }
      if ".,'`-_:;~\"^".contains(character) { return 1 }
      if "@#%&$BMWNQ08gmw".contains(character) { return 3 }
      return 2
    }
    let pairs = zip(a, b).filter { $0 != " " || $1 != " " }.map { (ink($0), ink($1)) }
    guard pairs.count > 1 else { return 0 }
    let n = Double(pairs.count)
    let (meanA, meanB) = (pairs.map(\.0).reduce(0, +) / n, pairs.map(\.1).reduce(0, +) / n)
    var (ab, aa, bb) = (0.0, 0.0, 0.0)
    for (x, y) in pairs {
      ab += (x - meanA) * (y - meanB)
      aa += (x - meanA) * (x - meanA)
      bb += (y - meanB) * (y - meanB)
    }
    return aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
  }

  /// On a light background plain ASCII puts its ink where the picture is dark, or the dog
  /// would show as its own negative: `show` asks the terminal (OSC 11), and so does the
  /// full-screen app.
  @Test func onALightBackgroundPlainASCIIIsInkedWhereThePictureIsDark() async throws {
    func picture(on background: (red: Int, green: Int, blue: Int)?) async throws -> String {
      let app = try PseudoTerminalProcess(
        executable: executable, arguments: ["--api", "fake", "show", "hound", "--picture", "ascii"],
        environment: cleanEnvironment(["TERM": "xterm-256color", "NO_COLOR": "1"]), background: background)
      #expect(await app.waitForExit() == 0)
      return app.currentScreen.lines.prefix { !$0.hasPrefix("Hound") }.map {
        $0.padding(toLength: 80, withPad: " ", startingAt: 0)
      }.joined(separator: "\n")
    }
    let dark = try await picture(on: (0, 0, 0))
    let light = try await picture(on: (255, 255, 255))
    let unknown = try await picture(on: nil)
    #expect(dark.split(separator: "\n").count >= 4 && dark == unknown)
    #expect(dark != light)
    // Where one has more ink the other has less (the same picture drawn the same way
    // would correlate at 1; glyphs chosen for shape, and the rough ink, keep the negative
    // one from reaching -1).
    #expect(Self.inkCorrelation(dark, light) < -0.1, "\(dark)\n\n\(light)")
    #expect(Self.inkCorrelation(dark, unknown) > 0.99)
    // The full-screen app: the same picture, the other way round on the light background.
    func screen(on background: (red: Int, green: Int, blue: Int)) async throws -> String {
      let app = try PseudoTerminalProcess(
        executable: executable, arguments: ["--api", "fake", "--picture", "ascii"],
        environment: cleanEnvironment(["TERM": "xterm-256color", "NO_COLOR": "1", "ESCDELAY": "20"]),
        background: background)
      await app.expectScreen { $0.text.contains("Affenpinscher") }
      app.send("hound\r")
      // The picture, once drawn, where its address and the spinner showed while it came.
      await app.expectScreen {
        $0.line(0) == "Hound" && !$0.line(2).contains("Picture") && !$0.line(2).contains("Fetching")
          && $0.line(2).contains { $0 != " " }
      }
      let picture = app.currentScreen.lines[2...8].map {
        $0.padding(toLength: 80, withPad: " ", startingAt: 0)
      }
      .joined(separator: "\n")
      app.send("\u{3}")
      #expect(await app.waitForExit() == 0)
      return picture
    }
    let darkScreen = try await screen(on: (0, 0, 0))
    let lightScreen = try await screen(on: (250, 250, 245))
    #expect(darkScreen != lightScreen)
    #expect(Self.inkCorrelation(darkScreen, lightScreen) < -0.1, "\(darkScreen)\n\n\(lightScreen)")
  }

  @Test func showPicksThePictureProtocolOfTheTerminal() async throws {
    // What `show` asks before a picture in pixels, where the window does not give a cell's
    // size (this terminal leaves the pixel fields at zero): left out here.
    let questions = "\u{1B}]11;?\u{1B}\\\u{1B}[16t\u{1B}[c"
    func output(_ environment: [String: String]) async throws -> String {
      let app = try launch(["show", "hound"], environment: environment)
      #expect(await app.waitForExit() == 0)
      let output = String(decoding: app.allOutput, as: UTF8.self)
      return output.hasPrefix(questions) ? String(output.dropFirst(questions.count)) : output
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
    // (After its questions, which a picture in cells asks, one of them a DCS string.)
    let plain = try await output([:]).components(separatedBy: "\u{1B}[c").last ?? ""
    #expect(!plain.contains("\u{1B}P") && !plain.contains("\u{1B}_G") && plain.contains("▀"))
    // A locale without UTF-8 gets the ASCII ramp (half blocks are not ASCII), though the
    // terminal's own protocol still draws pixels.
    let ascii = try await output(["LANG": "C"])
    let picture = ascii.components(separatedBy: "Hound\r\nPicture: ").first ?? ""
    #expect(ascii.utf8.allSatisfy { $0 < 0x80 } && picture.count < ascii.count, "\(ascii)")
    // (In colour: ASCII characters over backgrounds of the picture's colours.)
    #expect(picture.split(separator: "\r\n").count >= 4 && picture.contains(";48;5;"), "\(picture)")
    #expect(try await output(["LANG": "C", "TERM": "foot"]).hasPrefix("\u{1B}P0;1;0q\"1;1;"))
  }

  /// Before drawing a picture in half blocks it chose, `show` asks the terminal how wide it
  /// draws them: one that draws them two columns wide (a CJK setting) gets ASCII,
  /// exactly as `--picture ascii` draws it, from the start of the line the cursor was on.
  /// (On a screen tall enough for all of it, so that its first line is on screen.)
  @Test func showOnATerminalThatDrawsAmbiguousCharactersWideDrawsTheASCIIRamp() async throws {
    func show(_ extra: [String] = [], wide: Bool) async throws -> (output: String, screen: VirtualTerminal) {
      let app = try launch(["show", "pug"] + extra, ambiguousWide: wide, rows: 60)
      #expect(await app.waitForExit() == 0)
      return (String(decoding: app.allOutput, as: UTF8.self), app.currentScreen)
    }
    // The background colour first (for the ASCII ramp), a cell's size (this terminal's
    // window leaves its pixels at zero), then the width probe and, as COLORTERM is not set,
    // whether it draws 24-bit colour.
    let query =
      "\u{1B}]11;?\u{1B}\\\u{1B}[16t\u{1B}7\u{1B}[6n─\u{1B}[6n\u{1B}8\u{1B}[K"
      + "\u{1B}[48;2;1;2;3m\u{1B}P$qm\u{1B}\\\u{1B}[0m\u{1B}[c"
    let wide = try await show(wide: true)
    #expect(wide.output.hasPrefix(query) && !wide.output.contains("▀"))
    #expect(!wide.output.contains("^["), "the answers were echoed")
    let ascii = try await show(["--picture", "ascii"], wide: true)
    #expect(!ascii.output.contains("\u{1B}[6n"), "asked for by name: nothing to ask")
    #expect(
      wide.screen.text == ascii.screen.text && wide.screen.showsColouredASCII(row: 3), "\(wide.screen.text)")
    // Nothing scrolled away: the first line is the picture's first row.
    #expect(wide.screen.lines.last == "" && wide.screen.showsColouredASCII(row: 0), "\(wide.screen.text)")
    let narrow = try await show(wide: false)
    #expect(narrow.output.hasPrefix(query), "\(narrow.output.prefix(40))")
    // Symbols from Block Elements and Box Drawing, whose widths the probe's `─` stands for
    // (flat cells are spaces on their colour, and the screen's lines end at their last
    // character).
    let symbols = narrow.screen.line(0)
    #expect(
      symbols.count <= 80 && symbols.contains { $0 != " " }
        && symbols.allSatisfy { $0 == " " || ("\u{2500}"..."\u{259F}").contains($0) },
      "\(narrow.screen.text)")
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

  /// A terminal that answers nothing: `show` gives up waiting (after a tenth of a second),
  /// draws the half blocks, and leaves the terminal's modes exactly as they were.
  @Test func showWaitsForATerminalThatDoesNotAnswerOnlyBriefly() async throws {
    let silent = try launch(["show", "pug"], replyDelay: nil)
    #expect(await silent.waitForExit(timeout: .seconds(5)) == 0)
    #expect(String(decoding: silent.allOutput, as: UTF8.self).contains("▀"))
    #expect(sameModes(silent.currentModes, silent.initialModes), "termios restored exactly")
  }

  /// A terminal that has said nothing for a tenth of a second is given up on, unless the
  /// session came in over SSH, where a round trip can take longer: there `show` waits up to
  /// half a second. (Here the terminal answers, that it draws ambiguous characters wide,
  /// 400 ms after the questions, when `show` on this machine has long gone on with half
  /// blocks; and 250 ms after them over SSH, in time for the ASCII ramp.)
  @Test func aSilentTerminalIsGivenUpOnSoonerThanOneOverSSH() async throws {
    let local = try launch(["show", "pug"], replyDelay: .milliseconds(400), ambiguousWide: true)
    #expect(await local.waitForExit() == 0)
    let drawn = String(decoding: local.allOutput, as: UTF8.self)
    #expect(drawn.contains("\u{1B}[6n") && drawn.contains("▀"), "\(drawn.prefix(200))")
    let remote = try launch(
      ["show", "pug"], environment: ["SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 22"],
      replyDelay: .milliseconds(250), ambiguousWide: true)
    #expect(await remote.waitForExit() == 0)
    let ascii = String(decoding: remote.allOutput, as: UTF8.self)
    #expect(ascii.contains("\u{1B}[6n") && !ascii.contains("▀"), "\(ascii.prefix(200))")
    #expect(sameModes(remote.currentModes, remote.initialModes), "termios restored exactly")
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
}
