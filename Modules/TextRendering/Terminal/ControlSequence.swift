/// Every escape sequence the app writes to a terminal, by what it does: the one place they
/// are spelled out.
public enum ControlSequence {
  /// ESC, which starts every sequence.
  public static let escape = "\u{1B}"
  /// Control Sequence Introducer.
  public static let csi = escape + "["
  /// String Terminator, which ends the strings of the picture protocols.
  public static let stringTerminator = escape + "\\"
  /// BEL, which ends an OSC string as iTerm2 expects.
  public static let bell = "\u{07}"

  // MARK: The screen

  /// Takes the full-screen app's screen: the alternate screen, bracketed paste on, no
  /// wrapping at the right margin, the cursor hidden, and the screen cleared.
  public static let enterScreen =
    csi + "?1049h" + csi + "?2004h" + autowrapOff + hideCursor + home + clearScreen
  /// Gives the terminal back as it was: ends any synchronized update, resets the style,
  /// and undoes what ``enterScreen`` did.
  public static let leaveScreen =
    endSynchronizedUpdate + resetStyle + mouseOff + csi + "?2004l" + csi + "?7h" + showCursor + csi + "?1049l"
  /// Asks the terminal to report mouse buttons and the wheel (mode 1000), in SGR form
  /// (mode 1006, which has no limit on the column); Shift with the mouse still selects
  /// text in terminals that allow it. The reports are ``InputEvent/mouse(_:)``.
  public static let mouseOn = csi + "?1000h" + csi + "?1006h"
  /// Stops mouse reports.
  public static let mouseOff = csi + "?1006l" + csi + "?1000l"
  /// Holds the terminal's drawing until ``endSynchronizedUpdate`` (terminals without it
  /// ignore both).
  public static let beginSynchronizedUpdate = csi + "?2026h"
  /// Draws what came since ``beginSynchronizedUpdate``.
  public static let endSynchronizedUpdate = csi + "?2026l"
  /// Stops text from wrapping at the right margin.
  public static let autowrapOff = csi + "?7l"
  /// Hides the cursor.
  public static let hideCursor = csi + "?25l"
  /// Shows the cursor.
  public static let showCursor = csi + "?25h"
  /// The default colours and no attributes.
  public static let resetStyle = csi + "0m"
  /// Moves the cursor to the top left.
  public static let home = csi + "H"
  /// Clears the screen.
  public static let clearScreen = csi + "2J"
  /// Clears from the cursor to the end of the line.
  public static let clearToEndOfLine = csi + "K"
  /// Saves the cursor's position (DECSC).
  public static let saveCursor = escape + "7"
  /// Returns the cursor to where ``saveCursor`` saved it (DECRC).
  public static let restoreCursor = escape + "8"

  /// Moves the cursor `rows` up, in its column (at most to the top row).
  public static func cursorUp(_ rows: Int) -> String { csi + "\(rows)A" }
  /// Moves the cursor `columns` right.
  public static func cursorForward(_ columns: Int) -> String { csi + "\(columns)C" }
  /// Moves the cursor to the first column of `row` (both from 0).
  public static func cursorTo(row: Int) -> String { csi + "\(row + 1)H" }
  /// Moves the cursor to `row` and `column` (both from 0).
  public static func cursorTo(row: Int, column: Int) -> String { csi + "\(row + 1);\(column + 1)H" }
  /// Sets the style with Select Graphic Rendition codes.
  public static func style(_ codes: [String]) -> String { csi + codes.joined(separator: ";") + "m" }

  // MARK: Questions

  /// Asks where the cursor is; the terminal answers `CSI row ; column R`.
  public static let reportCursorPosition = csi + "6n"
  /// Asks what the terminal is (primary device attributes); every terminal answers, so the
  /// answer marks the end of the answers to the questions before it.
  public static let deviceAttributes = csi + "c"
  /// Asks for the background colour (`OSC 11 ; ?`); the answer is
  /// ``TerminalReply/backgroundColor(red:green:blue:)``. Terminals that do not know it say nothing.
  public static let reportBackgroundColor = escape + "]11;?" + stringTerminator
  /// Asks for a cell's size in pixels (`CSI 16 t`); the answer, `CSI 6 ; height ; width
  /// t`, is ``TerminalReply/cellSize(width:height:)``. Terminals that do not know it say nothing.
  public static let reportCellSize = csi + "16t"
  /// Asks whether the terminal draws 24-bit colour: sets a background of 24-bit colour,
  /// asks what the graphic rendition is now (DECRQSS, `DCS $ q m ST`) and resets it, all
  /// before any character is drawn. A terminal that keeps the colour as given reports it
  /// back (``TerminalReply/settingReport(_:)``, read by ``reportsDirectColor(_:)``); one that maps
  /// it to its palette reports the palette's colour; many say nothing.
  public static let askDirectColor =
    style(["48", "2", "1", "2", "3"]) + escape + "P$qm" + stringTerminator + style(["0"])

  /// Whether a terminal's report of its graphic rendition, after ``askDirectColor`` set
  /// it, still holds the 24-bit colour it was given (`48;2;1;2;3`, or with colons, with
  /// the colour space's field empty, given or left out).
  public static func reportsDirectColor(_ setting: String) -> Bool {
    let text = setting.hasSuffix("m") ? String(setting.dropLast()) : setting
    let fields = text.replacingOccurrences(of: ":", with: ";").split(separator: ";").map(String.init)
    guard let start = fields.firstIndex(of: "48"), fields.count > start + 1, fields[start + 1] == "2" else {
      return false
    }
    let rest = Array(fields[(start + 2)...])
    return rest.starts(with: ["1", "2", "3"]) || (rest.count >= 4 && Array(rest[1...3]) == ["1", "2", "3"])
  }

  /// What a terminal sends at the end of a bracketed paste.
  public static let pasteEnd = csi + "201~"

  // MARK: Pictures

  /// Starts a kitty graphics command (an APC string; end it with ``stringTerminator``).
  public static let kittyGraphics = escape + "_G"
  /// Starts a sixel picture (a DCS string; end it with ``stringTerminator``).
  public static let sixel = escape + "P"
  /// Starts an iTerm2 inline file (an OSC string; end it with ``bell``).
  public static let itermFile = escape + "]1337;File="
}
