import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file operation that failed: the file or folder, and the system's reason for it
/// ("Permission denied", "No space left on device"), as the user needs both to mend it.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file or folder the operation was on.
  public var path: String
  /// Why it failed, as the system says it.
  public var reason: String

  /// An error with the system's reason for `code`.
  ///
  /// - Parameters:
  ///   - path: The file or folder.
  ///   - code: An `errno` value.
  public init(path: String, errno code: Int32) {
    self.init(path: path, reason: String(cString: strerror(code)))
  }

  /// An error with a reason of its own.
  ///
  /// - Parameters:
  ///   - path: The file or folder.
  ///   - reason: Why the operation failed.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `path: reason`.
  public var description: String { "\(path): \(reason)" }
}
