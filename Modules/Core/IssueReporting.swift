#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an issue was raised in source.
public struct IssueLocation: Sendable, Hashable {
  /// The file as `#fileID` gives it (`Module/File.swift`).
  public var fileID: StaticString
  /// The full path of the file, as `#filePath` gives it.
  public var filePath: StaticString
  /// The line, starting at 1.
  public var line: UInt
  /// The column, starting at 1.
  public var column: UInt

  /// Creates a location; the defaults capture the caller's position.
  ///
  /// - Parameters:
  ///   - fileID: The file, as `#fileID` gives it.
  ///   - filePath: The file's full path, as `#filePath` gives it.
  ///   - line: The line.
  ///   - column: The column.
  public init(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// Two locations are equal when file path, line and column are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    "\(lhs.filePath)" == "\(rhs.filePath)" && lhs.line == rhs.line && lhs.column == rhs.column
  }

  /// Hashes file path, line and column.
  public func hash(into hasher: inout Hasher) {
    hasher.combine("\(filePath)")
    hasher.combine(line)
    hasher.combine(column)
  }
}

/// Something that receives issues: a test framework, a log, or a test's own collector.
public protocol IssueReporter: Sendable {
  /// Handles one issue.
  ///
  /// - Parameters:
  ///   - message: What went wrong, in a sentence or a short block.
  ///   - location: Where it was raised.
  func report(_ message: String, at location: IssueLocation)
}

/// Reports a programmer error or an unmet expectation without crashing.
///
/// In a test process this fails the running test (XCTest or Swift Testing) through
/// CoreTesting, which is found at run time so shipped modules never link a test
/// framework. In the app it prints a warning to standard error. Inside
/// ``withIssueReporter(_:operation:)`` it goes to the given reporter instead.
///
/// `failing` dependency clients use it to say "unimplemented: Client.endpoint".
///
/// - Parameters:
///   - message: What went wrong.
///   - fileID: The caller's file, for issues this reports (the default is the caller's).
///   - filePath: The caller's file path, likewise.
///   - line: The caller's line, likewise.
///   - column: The caller's column, likewise.
public func reportIssue(
  _ message: @autoclosure () -> String,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  reportIssue(
    message(),
    at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Reports an issue at an explicit location. See ``reportIssue(_:fileID:filePath:line:column:)``.
///
/// - Parameters:
///   - message: What went wrong.
///   - location: Where to attribute it.
public func reportIssue(_ message: String, at location: IssueLocation) {
  IssueReporting.current.report(message, at: location)
}

/// Runs `operation` with every issue it raises (including from tasks it starts) sent to
/// `reporter`.
///
/// Tests use this to prove that code reports the issue it should.
///
/// - Parameters:
///   - reporter: Receives the issues.
///   - operation: The code to run.
///   - isolation: The actor `operation` runs on: the caller's.
/// - Returns: What `operation` returns.
public func withIssueReporter<R>(
  _ reporter: some IssueReporter,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  try await IssueReporting.$override.withValue(reporter, operation: operation, isolation: isolation)
}

/// Synchronous form of ``withIssueReporter(_:operation:)``.
public func withIssueReporter<R>(
  _ reporter: some IssueReporter,
  operation: () throws -> R
) rethrows -> R {
  try IssueReporting.$override.withValue(reporter, operation: operation)
}

/// The bridge CoreTesting provides, looked up by name so Core does not depend on it.
public protocol _TestFrameworkIssueBridge {
  static var reporter: any IssueReporter { get }
}

/// Chooses where issues go.
enum IssueReporting {
  @TaskLocal static var override: (any IssueReporter)?

  /// The reporter issues go to right now.
  static var current: any IssueReporter {
    override ?? fallback
  }

  /// The test framework bridge when CoreTesting is linked into the process, else
  /// standard error.
  static let fallback: any IssueReporter = {
    if let bridge = _typeByName("CoreTesting._TestFrameworkIssueBridgeType")
      as? any _TestFrameworkIssueBridge.Type
    {
      return bridge.reporter
    }
    return StandardErrorIssueReporter()
  }()
}

/// Prints issues to standard error (or another file descriptor) as warnings.
public struct StandardErrorIssueReporter: IssueReporter {
  /// Where the warnings go.
  public let fileDescriptor: Int32

  /// Creates the reporter.
  ///
  /// - Parameter fileDescriptor: Where to write; standard error unless told otherwise.
  public init(fileDescriptor: Int32 = 2) {
    self.fileDescriptor = fileDescriptor
  }

  /// Writes `warning: <file>:<line>: <message>` to the reporter's file descriptor.
  public func report(_ message: String, at location: IssueLocation) {
    Self.write("warning: \(location.fileID):\(location.line): \(message)\n", to: fileDescriptor)
  }

  /// Writes text to standard error (or `fileDescriptor`), unbuffered.
  ///
  /// - Parameters:
  ///   - text: The text, written as is.
  ///   - fileDescriptor: Where to write.
  public static func write(_ text: String, to fileDescriptor: Int32 = 2) {
    #if canImport(Darwin)
      let write = Darwin.write
    #else
      let write = Glibc.write
    #endif
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        write(fileDescriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }
}
