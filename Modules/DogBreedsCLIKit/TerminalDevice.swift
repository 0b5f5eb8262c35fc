import TextRendering

/// What the full-screen app needs of a terminal: keys to read, bytes to write, its size,
/// raw mode on and off, and stopping for the shell (Ctrl-Z).
protocol TerminalDevice: AnyObject, Sendable {
  /// Where keys are read from: a file descriptor the app's input thread polls and reads,
  /// whose end of input ends the app.
  var inputFD: Int32 { get }
  /// Enters raw mode and the app's screen.
  func enter() throws
  /// Gives the terminal back as it was, once; later calls do nothing.
  func restore()
  /// Gives the terminal back, stops the process for the shell, and takes it again when
  /// continued.
  func suspend()
  /// Columns and rows.
  func size() -> (columns: Int, rows: Int)
  /// Writes a whole frame.
  func write(_ bytes: [UInt8])
  /// A cell's size in pixels, as the window reports it; `nil` where it does not say.
  func cellSize() -> TerminalPicture.CellSize?
}

extension TerminalDevice {
  /// A terminal whose window does not say.
  func cellSize() -> TerminalPicture.CellSize? { nil }
}
