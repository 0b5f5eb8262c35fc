import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock on a file beside the one it guards, held while a closure runs, so that
/// processes that read, change and write the same file do it one at a time.
///
/// The lock is `flock` on `NAME.lock`: the system lets it go when the process ends, however
/// it ends, so a process killed while holding it never blocks the others.
public enum FileLock {
  /// Runs `body` holding the lock for `url`, waiting for it if another process holds it.
  ///
  /// - Parameters:
  ///   - url: The file the lock guards (the lock file is `url` with `.lock` added).
  ///   - orWithout: Run `body` without the lock where its file cannot be made (a reader in
  ///     a read-only folder, where nobody can write either); otherwise that is an error.
  ///   - body: The work to do under the lock.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or an error if the lock file cannot be opened.
  public static func withLock<Result>(
    on url: URL, orWithout: Bool = false, _ body: () throws -> Result
  ) throws -> Result {
    let path = url.path + ".lock"
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    if fd < 0, orWithout { return try body() }
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path]) }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }
}
