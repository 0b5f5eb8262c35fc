import CommandLineInterface
import Foundation
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// The interactive terminal: raw mode, alternate screen, size, and restoring all of it on
/// every way out.
///
/// Modes are entered in one order and undone in the reverse order; the saved `termios`
/// is written back exactly as it was read (never rebuilt by OR-ing flags). The restore
/// bytes and the saved `termios` are also copied to plain memory at start-up, so the crash
/// handler can restore the terminal with nothing but `write` and `tcsetattr`, which are
/// async-signal-safe.
final class Terminal: TerminalDevice, @unchecked Sendable {
  let inputFD: Int32
  let outputFD: Int32
  /// Whether the app takes the mouse's clicks and wheel.
  let mouse: Bool
  private var saved = termios()
  private var active = false

  static let enterSequence = ControlSequence.enterScreen
  static let restoreSequence = ControlSequence.leaveScreen

  init(inputFD: Int32, outputFD: Int32, mouse: Bool = true) {
    self.inputFD = inputFD
    self.outputFD = outputFD
    self.mouse = mouse
  }

  /// Saves the current modes, then enters raw mode and the alternate screen.
  func enter() throws {
    guard tcgetattr(inputFD, &saved) == 0 else { throw POSIXError(.ENOTTY) }
    var raw = saved
    cfmakeraw(&raw)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    guard tcsetattr(inputFD, TCSAFLUSH, &raw) == 0 else { throw POSIXError(.ENOTTY) }
    active = true
    CrashRestore.install(
      fd: outputFD, inputFD: inputFD, saved: saved, bytes: Array(Self.restoreSequence.utf8))
    write(Array((Self.enterSequence + (mouse ? ControlSequence.mouseOn : "")).utf8))
  }

  /// Undoes `enter`, once; later calls do nothing.
  func restore() {
    guard active else { return }
    active = false
    write(Array(Self.restoreSequence.utf8))
    tcsetattr(inputFD, TCSAFLUSH, &saved)
    CrashRestore.disarm()
  }

  /// Restores the terminal, stops the process (Ctrl-Z), and re-enters when continued.
  ///
  /// `kill` can return before the stop takes hold: another thread may take the signal and
  /// stop the process a moment later. Re-entering at once then set raw mode *before* the
  /// stop, and the shell's `fg` came back to a cooked terminal. So this waits for SIGCONT
  /// (or, if nothing stops the process, as in an orphaned process group that ignores
  /// SIGTSTP, for half a second) before taking the terminal back. A session leader (the
  /// app started directly by a terminal, `ssh host DogBreedsCLI`) can never be stopped,
  /// so there Ctrl-Z does nothing rather than flash the shell's screen.
  func suspend() {
    guard getsid(0) != getpid() else { return }
    restore()
    Continuation.stopForTheShell()
    try? enter()
  }

  /// Columns and rows, or 80×24 if the terminal does not say.
  func size() -> (columns: Int, rows: Int) { Self.window(outputFD)?.cells ?? (80, 24) }

  /// A cell's size in pixels: the window's over its cells, where it gives them.
  func cellSize() -> TerminalPicture.CellSize? { Self.window(outputFD)?.cell }

  /// What the terminal on `fd` says of its window (`TIOCGWINSZ`): its cells and a cell's
  /// size in pixels, each where it gives them (many leave the pixel fields at zero); `nil`
  /// where `fd` is no terminal.
  static func window(_ fd: Int32) -> (
    cells: (columns: Int, rows: Int)?, cell: TerminalPicture.CellSize?
  )? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
    let (columns, rows) = (Int(size.ws_col), Int(size.ws_row))
    let cell = TerminalPicture.CellSize.of(
      pixels: (Int(size.ws_xpixel), Int(size.ws_ypixel)), columns: columns, rows: rows)
    return (columns > 0 && rows > 0 ? (columns, rows) : nil, cell)
  }

  /// Writes a whole frame. A terminal that is gone (EIO, EPIPE) is not an error to
  /// report: the app ends when its input does.
  func write(_ bytes: [UInt8]) {
    _ = Output.writeFully(bytes, to: outputFD)
  }
}
