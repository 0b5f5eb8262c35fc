#if canImport(Glibc)
  import Glibc
#endif

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
