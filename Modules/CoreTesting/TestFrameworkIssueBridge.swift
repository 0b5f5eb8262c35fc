import Core
import Testing
import XCTest

/// Routes Core's `reportIssue` to the test framework that is running.
///
/// Core finds this type by name when CoreTesting is linked into the process, so a
/// `failing` client in a shipped module fails the current test without importing a
/// test framework. Inside a Swift Testing test an issue is recorded; otherwise the
/// issue goes to `XCTFail`.
public final class TestFrameworkIssueBridge: _TestFrameworkIssueBridge {
  /// The reporter Core uses while CoreTesting is linked: a ``TestFrameworkIssueReporter``.
  public static var reporter: any IssueReporter { TestFrameworkIssueReporter() }
}

/// Reports issues to Swift Testing (inside a `@Test`) or XCTest (otherwise).
public struct TestFrameworkIssueReporter: IssueReporter {
  /// Creates the reporter.
  public init() {}

  /// Records the issue in the running Swift Testing test, or calls `XCTFail` outside one.
  public func report(_ message: String, at location: IssueLocation) {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: "\(location.fileID)", filePath: "\(location.filePath)",
          line: Int(location.line), column: Int(location.column)))
    } else {
      XCTFail(message, file: location.filePath, line: location.line)
    }
  }
}
