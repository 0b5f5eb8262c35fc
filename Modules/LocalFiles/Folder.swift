import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Folders made as `mkdir -p` makes them, with the system's reason when one cannot be.
public enum Folder {
  /// Makes `url` and the folders above it that are missing; a folder that exists is fine.
  ///
  /// - Parameter url: The folder.
  /// - Throws: A ``FileError`` naming the folder that could not be made and why (a file in
  ///   the way: "Not a directory"; a read-only parent: "Permission denied").
  public static func make(_ url: URL) throws(FileError) {
    let path = url.path
    if mkdir(path, 0o755) == 0 { return }
    switch errno {
    case EEXIST:
      var status = stat()
      guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
        throw FileError(path: path, errno: ENOTDIR)
      }
    case ENOENT where url.pathComponents.count > 1:
      try make(url.deletingLastPathComponent())
      guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw FileError(path: path, errno: errno) }
    default:
      throw FileError(path: path, errno: errno)
    }
  }
}
