/// What a terminal answers to a program's questions: read with the keys, but not keys.
public enum TerminalReply: Equatable, Sendable, Codable {
  /// Where the cursor is (`CSI row ; column R`, from 1), in answer to `CSI 6 n`.
  case cursorPosition(row: Int, column: Int)
  /// The terminal's primary attributes (`CSI ? … c`): every terminal answers this, after
  /// the questions before it, so it ends a round of questions.
  case terminalAttributes
  /// The background colour (`OSC 11`), each component from 0 to 1.
  case backgroundColor(red: Double, green: Double, blue: Double)
  /// A cell's size in pixels (`CSI 6 ; height ; width t`), in answer to `CSI 16 t`.
  case cellSize(width: Int, height: Int)
  /// A setting, as DECRQSS reports it (`DCS 1 $ r … ST`), or `nil` for one the terminal
  /// does not know (`DCS 0 $ r`).
  case settingReport(String?)
}
