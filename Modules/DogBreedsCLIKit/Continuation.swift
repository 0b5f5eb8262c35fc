import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

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
