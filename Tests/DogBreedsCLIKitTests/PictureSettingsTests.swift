import Foundation
import Testing
import TextRendering

@testable import CommandLineInterface
@testable import DogBreedsCLIKit

/// How pictures are shown, resolved once from `--picture`, the colour, the terminal and
/// the environment: one row per case.
struct PictureSettingsTests {
  /// One row: what was asked, where, and what follows.
  struct Case: Sendable, CustomTestStringConvertible {
    var choice: PictureChoice
    var environment: [String: String] = ["TERM": "xterm-256color"]
    var colorMode: ColorMode = .ansi256
    var colorRefused = false
    var isTerminal = true
    var interactive = false
    var unicode = true
    /// The picture mode and protocol that follow, and whether a note says why.
    var mode: PictureMode
    var terminalProtocol: PictureProtocol? = nil
    var pictureColor: ColorMode? = nil
    var hasNote = false
    /// Whether kitty's pictures go through tmux, with placeholders.
    var throughTmux = false

    var testDescription: String {
      "\(choice.rawValue) \(environment) interactive:\(interactive) colour:\(colorMode) refused:\(colorRefused)"
    }
  }

  @Test(arguments: [
    // auto: what the terminal can show.
    Case(choice: .auto, mode: .blocks, pictureColor: .ansi256),
    Case(choice: .auto, colorMode: .truecolor, mode: .blocks, pictureColor: .truecolor),
    Case(choice: .auto, environment: ["TERM": "linux"], colorMode: .ansi16, mode: .ascii),
    Case(choice: .auto, colorMode: .none, mode: .ascii),
    Case(choice: .auto, unicode: false, mode: .ascii),
    Case(choice: .auto, isTerminal: false, mode: .none),
    // auto: a terminal's own protocol where the environment names it, not inside tmux.
    Case(choice: .auto, environment: ["TERM": "xterm-kitty"], mode: .none, terminalProtocol: .kitty),
    Case(
      choice: .auto, environment: ["TERM": "xterm-kitty"], interactive: true, mode: .terminal,
      terminalProtocol: .kitty),
    Case(choice: .auto, environment: ["TERM": "foot"], mode: .none, terminalProtocol: .sixel),
    Case(
      choice: .auto, environment: ["TERM": "foot"], interactive: true, mode: .terminal,
      terminalProtocol: .sixel),
    Case(
      choice: .auto, environment: ["TERM": "mlterm"], colorMode: .ansi16, interactive: true, mode: .terminal,
      terminalProtocol: .sixel),
    // iTerm2's protocol is for `show` only: the full-screen UI draws half blocks, in colour.
    Case(
      choice: .auto, environment: ["LC_TERMINAL": "iTerm2"], colorMode: .ansi16, interactive: true,
      mode: .blocks),
    Case(choice: .auto, environment: ["LC_TERMINAL": "iTerm2"], mode: .none, terminalProtocol: .iterm),
    Case(choice: .auto, environment: ["KONSOLE_VERSION": "210804", "TERM": "xterm-256color"], mode: .blocks),
    // Inside tmux (TMUX, or tmux's TERM), in kitty (its variables stay in tmux's
    // environment): `show` passes kitty's pictures through; the full-screen app, and any
    // other terminal, get colour cells.
    Case(
      choice: .auto, environment: ["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1", "TMUX": "/tmp/t,1,0"],
      mode: .none, terminalProtocol: .kitty, throughTmux: true),
    Case(
      choice: .auto, environment: ["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1"], mode: .none,
      terminalProtocol: .kitty, throughTmux: true),
    Case(
      choice: .auto, environment: ["TERM": "screen-256color", "KITTY_WINDOW_ID": "1", "TMUX": "/tmp/t,1,0"],
      mode: .none, terminalProtocol: .kitty, throughTmux: true),
    Case(
      choice: .auto, environment: ["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1", "TMUX": "/tmp/t,1,0"],
      interactive: true, mode: .blocks),
    Case(choice: .auto, environment: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"], mode: .blocks),
    Case(choice: .auto, environment: ["TERM": "foot", "TMUX": "/tmp/t,1,0"], mode: .blocks),
    Case(choice: .auto, environment: ["LC_TERMINAL": "iTerm2", "TMUX": "/tmp/t,1,0"], mode: .blocks),
    // Asked for by name.
    Case(choice: .blocks, colorMode: .none, isTerminal: false, mode: .blocks, pictureColor: .ansi256),
    Case(choice: .ansi256, environment: ["COLORTERM": "truecolor"], mode: .blocks, pictureColor: .ansi256),
    Case(
      choice: .blocks, colorMode: .none, colorRefused: true, mode: .ascii, pictureColor: ColorMode.none,
      hasNote: true),
    Case(choice: .ansi256, colorMode: .none, colorRefused: true, mode: .ascii, hasNote: true),
    Case(choice: .ascii, colorMode: .ansi16, mode: .ascii, pictureColor: .ansi16),
    Case(choice: .none, mode: .none),
    Case(choice: .kitty, environment: [:], mode: .none, terminalProtocol: .kitty),
    Case(
      choice: .kitty, environment: ["TMUX": "/tmp/t,1,0"], mode: .none, terminalProtocol: .kitty,
      throughTmux: true),
    Case(choice: .sixel, environment: ["TMUX": "/tmp/t,1,0"], mode: .none, terminalProtocol: .sixel),
    Case(choice: .sixel, environment: [:], interactive: true, mode: .terminal, terminalProtocol: .sixel),
    Case(choice: .iterm, environment: [:], interactive: true, mode: .blocks),
  ])
  func picturesAreShownAsTheSettingsSay(_ row: Case) {
    let settings = PictureSettings.resolve(
      row.choice, colorMode: row.colorMode, colorRefused: row.colorRefused, isTerminal: row.isTerminal,
      interactive: row.interactive, unicode: row.unicode, environment: row.environment)
    #expect(settings.mode == row.mode)
    #expect(settings.terminalProtocol == row.terminalProtocol)
    #expect(settings.throughTmux == row.throughTmux)
    if let color = row.pictureColor { #expect(settings.colorMode == color) }
    #expect((settings.note != nil) == row.hasNote)
    // Only an automatic choice may quietly show nothing.
    #expect(settings.explicit == (row.choice != .auto && row.choice != .none))
  }

  /// kitty draws placeholders from 0.28: its version is read from the installation its
  /// environment names; where nothing says, it is taken to.
  @Test func kittysVersionSaysWhetherItDrawsPlaceholders() throws {
    func draws(_ constants: String?, directory: String? = "/usr/lib/kitty") -> Bool {
      var environment = ["KITTY_WINDOW_ID": "1"]
      environment["KITTY_INSTALLATION_DIR"] = directory
      return PictureSettings.kittyDrawsPlaceholders(environment) { path in
        path == "/usr/lib/kitty/kitty/constants.py" ? constants : nil
      }
    }
    let old = "import os\nclass Version(NamedTuple):\n    major: int\nversion: Version = Version(0, 26, 5)\n"
    #expect(!draws(old))
    #expect(!draws("version: Version = Version(0, 27, 1)"))
    #expect(draws("version: Version = Version(0, 28, 0)"))
    #expect(draws("version: Version = Version(1, 0, 0)"))
    #expect(draws(nil) && draws("no version here") && draws(old, directory: nil))
    // Read from the file itself: an old kitty inside tmux gets colour cells.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kitty-\(UUID())")
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("kitty"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(old.utf8).write(to: directory.appendingPathComponent("kitty/constants.py"))
    let settings = PictureSettings.resolve(
      .auto, colorMode: .ansi256, isTerminal: true, interactive: false, unicode: true,
      environment: [
        "TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "1",
        "KITTY_INSTALLATION_DIR": directory.path,
      ])
    #expect(settings.mode == .blocks && settings.terminalProtocol == nil && !settings.throughTmux)
  }

  /// tmux's answer to `display-message -p`: the features of the terminal outside and
  /// whether sequences are passed on. Inside tmux, kitty's pictures go through only where
  /// it passes them (or cannot be asked).
  @Test func tmuxSaysWhatItPassesOn() throws {
    let xterm = try #require(TmuxClient(answer: "256,bpaste,RGB,sixel,title|on|\n"))
    #expect(xterm.drawsSixel && xterm.passesThrough)
    let kitty = try #require(TmuxClient(answer: "bpaste,ccolour,clipboard|off|\n"))
    #expect(!kitty.drawsSixel && !kitty.passesThrough)
    #expect(TmuxClient(answer: "|all|")?.passesThrough == true)
    #expect(TmuxClient(answer: "|0|")?.passesThrough == false)  // tmux 3.3 with no client
    for answer in ["", "no server running", "a|b", "sixel|on|extra"] {
      #expect(TmuxClient(answer: answer) == nil)
    }
    let environment = ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "1"]
    func settings(_ tmux: TmuxClient?) -> PictureSettings {
      PictureSettings.resolve(
        .auto, colorMode: .ansi256, isTerminal: true, interactive: false, unicode: true,
        environment: environment,
        tmux: tmux)
    }
    #expect(settings(xterm).throughTmux && settings(nil).throughTmux)
    #expect(settings(kitty).mode == .blocks && !settings(kitty).throughTmux)
  }

  /// Where the terminal's attributes list sixel, `show`'s automatic picture is sixel
  /// (chosen, not asked for) where it would have been half blocks; inside tmux, only where
  /// tmux found sixel in the terminal outside. The full-screen app, and a terminal without
  /// colour, keep what they had.
  @Test func attributesThatListSixelTurnShowsHalfBlocksIntoSixel() {
    func settings(
      _ environment: [String: String], tmux: TmuxClient? = nil, interactive: Bool = false,
      colorMode: ColorMode = .ansi256
    ) -> PictureSettings {
      PictureSettings.resolve(
        .auto, colorMode: colorMode, isTerminal: true, interactive: interactive, unicode: true,
        environment: environment, tmux: tmux, attributesSaySixel: true)
    }
    let xterm = settings(["TERM": "xterm-256color"])
    #expect(xterm.terminalProtocol == .sixel && xterm.mode == .none && !xterm.explicit)
    let inTmux = ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"]
    #expect(settings(inTmux, tmux: TmuxClient(answer: "RGB,sixel|off|")).terminalProtocol == .sixel)
    #expect(settings(inTmux, tmux: TmuxClient(answer: "RGB|on|")).mode == .blocks)
    #expect(settings(inTmux).mode == .blocks)
    #expect(settings(["TERM": "xterm-256color"], interactive: true).mode == .blocks)
    #expect(settings(["TERM": "xterm"], colorMode: .none).mode == .ascii)
  }

  /// A terminal's own protocol decodes to the terminal's cells in pixels, and so do symbols,
  /// which are fitted on them; ASCII, to one pixel across and two down; nothing, to nothing.
  @Test func picturesAreDecodedForTheCellsTheyFill() {
    let cell = TerminalPicture.CellSize(width: 8, height: 17)
    func pixels(_ choice: PictureChoice) -> (Int, Int)? {
      PictureSettings.resolve(
        choice, colorMode: .ansi256, isTerminal: true, interactive: false, unicode: true,
        environment: ["TERM": "xterm-256color"], cell: cell
      ).pixelsPerCell.map { ($0.width, $0.height) }
    }
    #expect(pixels(.kitty).map { $0 == (8, 17) } == true)
    #expect(pixels(.sixel).map { $0 == (8, 17) } == true)
    #expect(pixels(.blocks).map { $0 == (8, 17) } == true)
    // ASCII: the parts each glyph's shape is matched on, whatever the cell's pixels.
    #expect(pixels(.ascii).map { $0 == (4, 8) } == true)
    #expect(pixels(.none) == nil)
    #expect(pixels(.iterm) == nil)
  }

  /// `show`'s picture box: on a terminal, its window less the text's rows (wrapped) and a
  /// row for the prompt; `--size` as asked, no wider than the window; piped, the columns
  /// alone.
  @Test func showFitsThePictureAndTheTextInTheWindow() {
    let text = "Hound\nPicture: " + String(repeating: "u", count: 70) + "\nSub-breeds:\n  Afghan\n"
    func box(_ asked: PictureBox? = nil, _ window: (Int, Int)?) -> PictureBox {
      PictureSettings.showBox(
        asked: asked, window: window.map { (columns: $0.0, rows: $0.1) }, pipedColumns: 80, text: text)
    }
    // 80 × 24: four lines of text (the address fits) and the prompt's.
    #expect(box(nil, (80, 24)) == PictureBox(columns: 80, rows: 19))
    // 40 × 12: the address wraps onto a second row.
    #expect(box(nil, (40, 12)) == PictureBox(columns: 40, rows: 6))
    // Too little room: what is left, maybe nothing (`show` then draws no picture).
    #expect(box(nil, (40, 6)) == PictureBox(columns: 40, rows: 0))
    #expect(box(nil, (40, 8)) == PictureBox(columns: 40, rows: 2))
    // A wide window is filled, as chafa fills it.
    #expect(box(nil, (200, 60)) == PictureBox(columns: 200, rows: 55))
    #expect(box(PictureBox(columns: 120, rows: 50), (80, 24)) == PictureBox(columns: 80, rows: 50))
    #expect(box(PictureBox(columns: 30, rows: 5), nil) == PictureBox(columns: 30, rows: 5))
    #expect(box(nil, nil) == PictureBox(columns: 80, rows: .max))
  }
}
