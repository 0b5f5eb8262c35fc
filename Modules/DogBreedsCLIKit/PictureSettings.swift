import CommandLineInterface
import Foundation
import TextRendering

/// How pictures are shown, resolved once from `--picture`, the colour mode, the terminal
/// and the environment.
///
/// - `auto`: nothing when the output is not a terminal; kitty, iTerm2 or sixel for `show`
///   (kitty and sixel also in the full-screen UI, half blocks in colour for iTerm2) when the
///   environment names such a terminal (inside tmux, kitty alone and for `show` alone,
///   through tmux with placeholders: ``throughTmux``); for `show`, sixel where the
///   terminal's attributes say it draws it (`attributesSaySixel`: xterm as a VT340; tmux
///   built with sixel in a terminal that draws it); otherwise half blocks when the
///   terminal has 256 or more colours and the locale is UTF-8, ASCII when it has fewer
///   colours or none (NO_COLOR: ASCII in the terminal's own colours), or a locale without Unicode (LANG=C).
/// - `blocks`/`256`: half blocks in 24-bit (when COLORTERM says so) or 256 colours. Half
///   blocks are nothing without colour: where the user turned colour off (`--color never`,
///   or NO_COLOR under `--color auto`), ASCII is drawn instead, and ``note`` says
///   so. Elsewhere asking for a picture overrides the colour default (output to a file or
///   a pipe gets the colours asked for).
/// - `kitty`/`iterm`/`sixel`: those protocols for `show` (kitty's through tmux inside it). The full-screen UI uses kitty's
///   too (placed over blank cells, taken away by its id when the screen changes) and sixel
///   (drawn into blank cells, with the whole screen painted again when the picture or a
///   cell over it changes, which is what takes sixel pixels away); for iTerm2's it draws
///   half blocks.
/// - `ascii`, `none`: as named. With `none` no picture is downloaded.
struct PictureSettings: Sendable {

  /// The pixels a picture is decoded to for each cell it covers.
  struct CellPixels: Sendable {
    var width: Int
    var height: Int

    /// The pixels for a picture `columns` × `rows` cells large.
    func size(columns: Int, rows: Int) -> (width: Int, height: Int) { (columns * width, rows * height) }

    /// The pixels for `show`'s `box`: where the picture may be as tall as it likes (written
    /// to a file), its width bounds it, and the largest box `--size` takes stands for "any".
    func pixels(of box: PictureBox) -> (width: Int, height: Int) {
      size(columns: box.columns, rows: min(box.rows, PictureBox.largest))
    }
  }

  var mode: PictureMode
  var terminalProtocol: PictureProtocol?
  var colorMode: ColorMode
  /// Pixels to decode to per cell, across and down; `nil`: download nothing (or, for
  /// iTerm2, only raw bytes).
  var pixelsPerCell: CellPixels?
  /// Whether the user asked for a picture explicitly (a failure is then an error).
  var explicit: Bool
  /// Why the picture is not drawn as asked, for standard error, if it is not.
  var note: String?
  /// Whether kitty's pictures are sent compressed (``TerminalLink/compressesPictures``).
  var compressed = false
  /// Whether `show` runs inside tmux, which draws no kitty pictures itself: they are
  /// passed through to the terminal outside and shown by placeholder characters
  /// (``TerminalPicture/kittyPlaceholders(_:columns:rows:cell:id:compressed:throughTmux:)``).
  var throughTmux = false

  /// Whether the kitty outside tmux draws Unicode placeholders (kitty 0.28 and later): `false`
  /// where the kitty named by `KITTY_INSTALLATION_DIR` (on this machine) is older, as its
  /// `kitty/constants.py` says; `true` where nothing says (a kitty over SSH, an
  /// installation laid out otherwise). `read` reads a file, or gives `nil`.
  static func kittyDrawsPlaceholders(
    _ environment: [String: String],
    read: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
  ) -> Bool {
    guard let directory = environment["KITTY_INSTALLATION_DIR"], !directory.isEmpty,
      let constants = read(directory + "/kitty/constants.py"),
      let line = constants.split(separator: "\n").first(where: { $0.hasPrefix("version") }),
      let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close
    else { return true }
    let numbers = line[line.index(after: open)..<close].split(separator: ",").compactMap {
      Int($0.trimmingCharacters(in: .whitespaces))
    }
    guard numbers.count >= 2 else { return true }
    return numbers[0] > 0 || numbers[1] >= 28
  }

  /// Whether the environment says this runs inside tmux: `TMUX` (set in every pane), or a
  /// `TERM` of tmux's own.
  static func isInsideTmux(_ environment: [String: String]) -> Bool {
    !(environment["TMUX"] ?? "").isEmpty || (environment["TERM"] ?? "").hasPrefix("tmux")
  }

  static func resolve(
    _ choice: PictureChoice, colorMode: ColorMode, colorRefused: Bool = false, isTerminal: Bool,
    interactive: Bool, unicode: Bool, environment: [String: String],
    cell: TerminalPicture.CellSize = .default,
    tmux: TmuxClient? = nil, attributesSaySixel: Bool = false
  ) -> PictureSettings {
    // ASCII cells: the parts each glyph's shape is matched on.
    let cells = CellPixels(
      width: PictureRenderer.asciiSamplesPerCell.across, height: PictureRenderer.asciiSamplesPerCell.down)
    // Symbols: the pixels each cell is fitted on.
    let samples = SymbolSet.samplesPerCell(cell)
    let symbolPixels = CellPixels(width: samples.across, height: samples.down)
    // For a terminal's own protocol: a cell's size in pixels, as the terminal reports it.
    let cellPixels = CellPixels(width: cell.width, height: cell.height)
    // What an asked-for picture is drawn in, whatever the text's colour mode (which, where
    // it has 256 colours or more, is this too).
    let richColor: ColorMode = ColorPolicy.advertisesTrueColor(environment) ? .truecolor : .ansi256
    func blocks(_ mode: ColorMode) -> PictureSettings {
      guard !colorRefused || choice == .auto else {
        // Colour is turned off, and half blocks without colour show nothing: ASCII.
        var ascii = PictureSettings(mode: .ascii, colorMode: .none, pixelsPerCell: cells, explicit: true)
        ascii.note =
          "--picture \(choice.rawValue) needs colour, which is turned off (--color never or NO_COLOR): drawing the picture in ASCII."
        return ascii
      }
      return PictureSettings(
        mode: .blocks, colorMode: mode, pixelsPerCell: symbolPixels, explicit: choice != .auto)
    }
    switch choice {
    case .none:
      return PictureSettings(mode: .none, colorMode: colorMode, pixelsPerCell: nil, explicit: false)
    case .ascii:
      return PictureSettings(mode: .ascii, colorMode: colorMode, pixelsPerCell: cells, explicit: true)
    case .blocks:
      return blocks(richColor)
    case .ansi256:
      return blocks(.ansi256)
    case .kitty where !interactive, .sixel where !interactive:
      var settings = PictureSettings(
        mode: .none, terminalProtocol: choice == .kitty ? .kitty : .sixel, colorMode: colorMode,
        pixelsPerCell: cellPixels, explicit: true)
      settings.throughTmux = choice == .kitty && isInsideTmux(environment)
      return settings
    case .iterm where !interactive:
      return PictureSettings(
        mode: .none, terminalProtocol: .iterm, colorMode: colorMode, pixelsPerCell: nil, explicit: true)
    case .kitty, .sixel:
      // The full-screen UI leaves the picture's cells blank and has the terminal draw the
      // picture there.
      return PictureSettings(
        mode: .terminal, terminalProtocol: choice == .kitty ? .kitty : .sixel, colorMode: colorMode,
        pixelsPerCell: cellPixels, explicit: true)
    case .iterm:
      return blocks(richColor)
    case .auto:
      guard isTerminal else {
        return PictureSettings(mode: .none, colorMode: colorMode, pixelsPerCell: nil, explicit: false)
      }
      // Inside tmux, where the environment names kitty as the terminal outside (its
      // variables stay in tmux's environment), that kitty draws placeholders and tmux
      // passes sequences on (as `tmux`, where it answers, says), `show` passes kitty's
      // pictures through and has tmux keep placeholders for them; other protocols are not
      // passed through.
      if isInsideTmux(environment) {
        if !interactive, terminalProtocol(named: environment) == .kitty, kittyDrawsPlaceholders(environment),
          tmux?.passesThrough ?? true
        {
          return resolve(
            .kitty, colorMode: colorMode, colorRefused: colorRefused, isTerminal: true, interactive: false,
            unicode: unicode, environment: environment, cell: cell
          ).automatic
        }
      } else if let named = terminalProtocol(named: environment) {
        // Outside tmux, the terminal's own protocol where the environment names it: every
        // protocol for `show`, kitty's and sixel in the full-screen UI. (iTerm2's gives no
        // control over where a picture ends, so the UI draws as for any terminal, below.)
        if !interactive || named != .iterm {
          return resolve(
            named, colorMode: colorMode, colorRefused: colorRefused, isTerminal: true,
            interactive: interactive,
            unicode: unicode, environment: environment, cell: cell
          ).automatic
        }
        // A terminal that draws iTerm2 pictures has the colours for half blocks, whatever
        // TERM says: the browser draws the picture in colour too, as `show` does, not in
        // ASCII.
        if unicode, !colorRefused { return blocks(richColor) }
      }
      if unicode, colorMode == .truecolor || colorMode == .ansi256 {
        // Where the terminal's attributes (which `show` asks for: ``TerminalProbe``) say it
        // draws sixel, `show` draws that instead; inside tmux, where tmux also found sixel
        // in the terminal outside (tmux built with sixel lists it whatever that terminal
        // draws).
        if !interactive, attributesSaySixel, !isInsideTmux(environment) || tmux?.drawsSixel == true {
          return resolve(
            .sixel, colorMode: colorMode, colorRefused: colorRefused, isTerminal: true, interactive: false,
            unicode: unicode, environment: environment, cell: cell
          ).automatic
        }
        return blocks(colorMode)
      }
      return PictureSettings(mode: .ascii, colorMode: colorMode, pixelsPerCell: cells, explicit: false)
    }
  }

  init(
    mode: PictureMode, terminalProtocol: PictureProtocol? = nil, colorMode: ColorMode,
    pixelsPerCell: CellPixels?, explicit: Bool
  ) {
    self.mode = mode
    self.terminalProtocol = terminalProtocol
    self.colorMode = colorMode
    self.pixelsPerCell = pixelsPerCell
    self.explicit = explicit
  }

  /// Whether an animated picture plays in these settings, in `show` and on the Breed
  /// screen alike: drawn in colour cells (symbols, half blocks, 256 colours), where a frame
  /// is a few kilobytes of cells that change. ASCII stays still (the first frame): its
  /// characters, redrawn ten times a second, would flicker like noise, not move. So do a
  /// terminal's own graphics (kitty, sixel, iTerm2), where each frame would be the whole
  /// picture sent again.
  var playsAnimations: Bool { mode == .blocks }

  /// The picture protocol of the terminal the environment names, if it has one.
  static func terminalProtocol(named environment: [String: String]) -> PictureChoice? {
    let term = environment["TERM"] ?? ""
    let program = environment["TERM_PROGRAM"] ?? ""
    // kitty, and Ghostty, which speaks kitty's protocol.
    if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil || term == "xterm-ghostty"
      || program == "ghostty"
    {
      return .kitty
    }
    // iTerm2's protocol: iTerm2, WezTerm, mintty, and Konsole from 22.04 (older ones print
    // it as text). VS Code has it only behind a setting, so it is not assumed.
    if ["iTerm.app", "WezTerm", "mintty"].contains(program) || environment["LC_TERMINAL"] == "iTerm2"
      || Int(environment["KONSOLE_VERSION"] ?? "") ?? 0 >= 220_400
    {
      return .iterm
    }
    // Terminals that have drawn sixel for years; others (Windows Terminal before 1.22,
    // xterm unless run as a VT340) may not: ask for it with --picture sixel.
    if term.hasPrefix("foot") || term.hasPrefix("mlterm") { return .sixel }
    return nil
  }

  private var automatic: PictureSettings {
    var copy = self
    copy.explicit = false
    return copy
  }
}

extension PictureSettings {
  /// The cells `show` may draw its picture in, above `text` (what it prints after it).
  ///
  /// - `--size` (`asked`): that box, no wider than the window on a terminal.
  /// - On a terminal (`window`): the whole window, as chafa draws: its columns, and its
  ///   rows less the rows the text takes (a line longer than the window wraps) and one for
  ///   the shell's prompt after it, so the whole output fits and stays in view. Where the text leaves fewer than
  ///   ``fewestRows``, the box has what is left (maybe nothing) and `show` draws no
  ///   picture, saying so: a picture that scrolled away at once would show nothing.
  /// - Otherwise (a file, a pipe): `pipedColumns` across, as tall as its shape makes it.
  static func showBox(
    asked: PictureBox?, window: (columns: Int, rows: Int)?, pipedColumns: Int, text: String
  ) -> PictureBox {
    guard let window, window.columns > 0, window.rows > 0 else {
      return asked ?? PictureBox(columns: max(1, pipedColumns), rows: .max)
    }
    if let asked { return PictureBox(columns: min(asked.columns, window.columns), rows: asked.rows) }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    let textRows = lines.reduce(0) {
      $0 + max(1, (DisplayWidth.of($1) + window.columns - 1) / window.columns)
    }
    return PictureBox(columns: window.columns, rows: max(0, window.rows - textRows - 1))
  }

  /// The fewest rows a picture is drawn in: fewer show nothing recognisable.
  static let fewestRows = 3
}
