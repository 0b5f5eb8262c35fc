import Core
import Testing
import XCTest

/// Routes Core's `reportIssue` to the test framework that is running.
///
/// Core finds this type by name (`CoreTesting._TestFrameworkIssueBridgeType`) when
/// CoreTesting is linked into the process, so a `failing` client in a shipped module
/// fails the current test without importing a test framework. Inside a Swift Testing test
/// an issue is recorded; otherwise the issue goes to `XCTFail`. Public so that nothing
/// strips it from a build, and underscored: it is not for users.
public final class _TestFrameworkIssueBridgeType: _TestFrameworkIssueBridge {
  /// The reporter Core uses while CoreTesting is linked: a `TestFrameworkIssueReporter`.
  public static var reporter: any IssueReporter { TestFrameworkIssueReporter() }
}

/// Reports issues to Swift Testing (inside a `@Test`) or XCTest (otherwise).
struct TestFrameworkIssueReporter: IssueReporter {
  /// Records the issue in the running Swift Testing test, or calls `XCTFail` outside one.
  func report(_ message: String, at location: IssueLocation) {
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
