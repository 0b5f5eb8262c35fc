#if canImport(Glibc)
  import Glibc
#endif

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
