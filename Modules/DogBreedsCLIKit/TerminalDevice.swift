import Dispatch
import Foundation
import Synchronization
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

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

/// Whether a SIGCONT has arrived since ``install()``: how `suspend` knows it was stopped
/// and continued.
enum Continuation {
  static let happened = Atomic<Bool>(false)

  static func install() {
    happened.store(false, ordering: .releasing)
    signal(SIGCONT, handler)
  }

  /// Stops the process group for the shell, as Ctrl-Z would (SIGTSTP with its default
  /// action), and waits until it is continued (or, should it not have stopped, half a
  /// second).
  static func stopForTheShell() {
    install()
    signal(SIGTSTP, SIG_DFL)
    kill(0, SIGTSTP)
    var waited = 0
    while !happened.load(ordering: .acquiring), waited < 500 {
      usleep(2_000)
      waited += 2
    }
  }

  private static let handler: @convention(c) (Int32) -> Void = { _ in
    Continuation.happened.store(true, ordering: .releasing)
  }
}

/// The crash path: a signal handler that restores the terminal, then lets the signal do
/// what it would have done.
enum CrashRestore {
  nonisolated(unsafe) private static var bytes: UnsafeMutablePointer<UInt8>?
  nonisolated(unsafe) private static var length = 0
  nonisolated(unsafe) private static var capacity = 0
  nonisolated(unsafe) private static var termiosCopy: UnsafeMutablePointer<termios>?
  nonisolated(unsafe) private static var outputFD: Int32 = 1
  nonisolated(unsafe) private static var inputFD: Int32 = 0
  nonisolated(unsafe) private static var armed: Int32 = 0

  static let signals: [Int32] = [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE]

  /// Arms the handler for the crash signals, and `also` for other signals that end the
  /// process while nothing else handles them.
  static func install(
    fd: Int32, inputFD input: Int32, saved: termios, bytes restore: [UInt8], also: [Int32] = []
  ) {
    // Disarmed while the copies change: the handler reads them.
    armed = 0
    if termiosCopy == nil { termiosCopy = .allocate(capacity: 1) }
    // A later install may restore more than an earlier one (the terminal's probe restores
    // no bytes; the full-screen app, its modes): the copy grows to fit.
    if bytes == nil || capacity < restore.count {
      bytes?.deallocate()
      bytes = .allocate(capacity: max(1, restore.count))
      capacity = max(1, restore.count)
    }
    bytes!.update(from: restore, count: restore.count)
    length = restore.count
    termiosCopy!.pointee = saved
    outputFD = fd
    inputFD = input
    armed = 1
    for signal in signals + also {
      Glibc.signal(signal, handler)
    }
  }

  static func disarm() {
    armed = 0
  }

  private static let handler: @convention(c) (Int32) -> Void = { signal in
    if CrashRestore.armed == 1 {
      CrashRestore.armed = 0
      _ = Glibc.write(CrashRestore.outputFD, CrashRestore.bytes, CrashRestore.length)
      _ = tcsetattr(CrashRestore.inputFD, TCSANOW, CrashRestore.termiosCopy)
    }
    Glibc.signal(signal, SIG_DFL)
    raise(signal)
  }
}

/// Signals as bytes on a pipe: the handler, installed at once, writes the signal's number
/// (async-signal-safe), and the app reads the pipe on its main queue.
///
/// Dispatch's own signal sources were used first, with the signals ignored meanwhile as
/// its documentation asks. On Linux a signal source is set up later, on Dispatch's manager
/// thread; a signal that came before (a resize or Ctrl-C right at start, or later on a
/// busy machine) was ignored and lost. A pipe keeps it until it is read.
enum SignalPipe {
  nonisolated(unsafe) private static var writeFD: Int32 = -1

  /// Starts catching `signals`; returns the pipe's read end (non-blocking), or `nil` if no
  /// pipe could be made (the signals then keep their default actions).
  static func install(_ signals: [Int32]) -> Int32? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    writeFD = ends[1]
    for signal in signals { Glibc.signal(signal, handler) }
    return ends[0]
  }

  /// Catches `signal` on the pipe again, after its default action was put back for a while
  /// (to stop the process for the shell, say).
  static func catchAgain(_ signal: Int32) {
    guard writeFD >= 0 else { return }
    Glibc.signal(signal, handler)
  }

  /// The signals waiting on the pipe, oldest first.
  static func drain(_ fd: Int32) -> [Int32] {
    var signals: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count > 0 {
        signals += buffer[0..<count].map(Int32.init)
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        return signals
      }
    }
  }

  private static let handler: @convention(c) (Int32) -> Void = { signal in
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(SignalPipe.writeFD, &byte, 1)
    errno = savedErrno
  }
}
