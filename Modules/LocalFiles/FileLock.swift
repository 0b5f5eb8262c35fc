import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock on a file beside the one it guards, held while a closure runs, so that
/// processes that read, change and write the same file do it one at a time. (Readers need
/// no lock where writers replace the file atomically: they see the old or the new.)
///
/// The lock is `flock` on `NAME.lock` (a file made the user's alone, `rw-------`): the
/// system lets it go when the process ends, however it ends, so a process killed while
/// holding it never blocks the others.
public enum FileLock {
  /// The lock was held by another process for longer than the caller would wait.
  public struct Busy: Error, Equatable, Sendable {
    /// The lock file.
    public var path: String
    /// How long the caller waited.
    public var waited: Duration
  }

  /// Runs `body` holding the lock for `url`, waiting for it while another process holds
  /// it, but no longer than `limit`: a process that holds a lock for long (stopped with
  /// Ctrl-Z, or hung) never freezes the others. The wait suspends (it takes no thread) and
  /// ends when the task is cancelled.
  ///
  /// - Parameters:
  ///   - url: The file the lock guards (the lock file is `url` with `.lock` added).
  ///   - limit: How long to wait for the lock at most.
  ///   - body: The work to do under the lock.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws; ``Busy`` when the wait runs out; `CancellationError`;
  ///   a ``FileError`` if the lock file cannot be opened.
  public static func withLock<Result>(
    on url: URL, waitingAtMost limit: Duration, _ body: () throws -> Result
  ) async throws -> Result {
    let path = url.path + ".lock"
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileError(path: path, errno: errno) }
    defer { close(fd) }
    let clock = ContinuousClock()
    let start = clock.now
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      switch errno {
      case EINTR: continue
      case EWOULDBLOCK:
        guard clock.now - start < limit else { throw Busy(path: path, waited: limit) }
        try await Task.sleep(for: .milliseconds(20))
      default: throw FileError(path: path, errno: errno)
      }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }
}
