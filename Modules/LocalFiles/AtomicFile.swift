import Foundation

#if canImport(Glibc)
  import Glibc
  private let posixWrite = Glibc.write
#elseif canImport(Darwin)
  import Darwin
  private let posixWrite = Darwin.write
#endif

/// Writes a file so that readers see either the old contents or the new, never a mix.
public enum AtomicFile {
  /// Writes `data` to a temporary file beside `url`, flushes it to disk, renames it over
  /// `url`, and flushes the directory. The new file keeps the permissions of the one it
  /// replaces (a file the user let others read stays so); a new file is the user's alone
  /// (`rw-------`).
  ///
  /// The temporary file is `.NAME.PID.RANDOM.tmp`. One that a process killed mid-write
  /// left behind is removed by the next successful write: one whose process is gone and
  /// that has not changed for a minute (a writer in another PID namespace sharing the
  /// folder, whose process cannot be seen, is done long before).
  ///
  /// - Parameters:
  ///   - data: The new contents.
  ///   - url: The destination file.
  /// - Throws: A ``FileError`` with the system's reason (the folder's, where the temporary
  ///   file cannot be made); `url` is untouched on failure.
  public static func write(_ data: Data, to url: URL) throws(FileError) {
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      "\(temporaryPrefix(of: url))\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileError(path: folder.path, errno: errno) }
    // The first failure's errno (a short write without one is a full disk's).
    var failure: Int32?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = posixWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 {
          failure = written < 0 ? errno : ENOSPC
          return
        }
        offset += written
      }
    }
    var replaced = stat()
    if failure == nil, stat(url.path, &replaced) == 0, fchmod(fd, replaced.st_mode & 0o7777) != 0 {
      failure = errno
    }
    if failure == nil, fsync(fd) != 0 { failure = errno }
    close(fd)
    if failure == nil, rename(temporary.path, url.path) != 0 { failure = errno }
    if let failure {
      unlink(temporary.path)
      throw FileError(path: url.path, errno: failure)
    }
    // The rename is a change to the directory: flushed too, so that after a power cut the
    // name holds the new contents rather than the old (or, for a first save, nothing).
    let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
    removeLeftovers(of: url)
  }

  /// How the names of `url`'s temporary files start: `.NAME.`.
  private static func temporaryPrefix(of url: URL) -> String { ".\(url.lastPathComponent)." }

  /// Removes the temporary files of earlier writes to `url` whose process has ended and
  /// that are older than a minute; every failure is ignored (a leftover stays).
  private static func removeLeftovers(of url: URL) {
    let folder = url.deletingLastPathComponent()
    let prefix = temporaryPrefix(of: url)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      // PID.RANDOM between the prefix and the suffix, both decimal.
      let middle = name.dropFirst(prefix.count).dropLast(".tmp".count).split(separator: ".")
      guard middle.count == 2, let pid = pid_t(middle[0]), pid > 0, UInt32(middle[1]) != nil,
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      let path = folder.appendingPathComponent(name).path
      // (Of the name itself: a symbolic link is not followed.)
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        attributes[.type] as? FileAttributeType == .typeRegular,
        let modified = attributes[.modificationDate] as? Date, -modified.timeIntervalSinceNow > 60
      else { continue }
      unlink(path)
    }
  }
}
