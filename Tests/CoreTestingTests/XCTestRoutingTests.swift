import Core
import CoreTesting
import XCTest

/// Proves that outside Swift Testing, issues become XCTest failures, by capturing the
/// failures this test case records instead of letting them fail the run.
final class XCTestRoutingTests: XCTestCase {
  private var captured: [String] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    captured.append(description)
  }

  @MainActor
  func testTestStoreFailuresBecomeXCTestFailures() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.increment) { $0.count = 5 }
    XCTAssertEqual(captured.count, 1)
    XCTAssertTrue(captured.first?.contains("A state change does not match expectation") == true)
    XCTAssertTrue(captured.first?.contains("-   count: 5\n+   count: 1") == true)
  }

  func testReportIssueBecomesAnXCTestFailure() {
    reportIssue("unimplemented: Example.endpoint")
    XCTAssertEqual(captured.count, 1)
    XCTAssertTrue(captured.first?.contains("unimplemented: Example.endpoint") == true)
  }
}
