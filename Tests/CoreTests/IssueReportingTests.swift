import Core
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Records messages with where they were raised.
private final class LocatingCollector: IssueReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [(message: String, location: IssueLocation)] = []
  var issues: [(message: String, location: IssueLocation)] { lock.withLock { storage } }
  func report(_ message: String, at location: IssueLocation) {
    lock.withLock { storage.append((message, location)) }
  }
}

struct IssueReportingTests {
  @Test func anIssueCarriesWhereItWasRaised() {
    let collector = LocatingCollector()
    let line: UInt = #line + 1
    withIssueReporter(collector) { reportIssue("unimplemented: Client.load") }
    #expect(collector.issues.map(\.message) == ["unimplemented: Client.load"])
    let location = collector.issues.first?.location
    #expect(location.map { "\($0.fileID)" } == "CoreTests/IssueReportingTests.swift")
    #expect(
      location.map { "\($0.filePath)" }?.hasSuffix("/Tests/CoreTests/IssueReportingTests.swift") == true)
    #expect(location?.line == line)
  }

  @Test func theInnermostReporterGetsTheIssueAndTheOuterOneIsBackAfterwards() {
    let outer = LocatingCollector()
    let inner = LocatingCollector()
    withIssueReporter(outer) {
      reportIssue("first")
      withIssueReporter(inner) { reportIssue("second") }
      reportIssue("third")
    }
    #expect(outer.issues.map(\.message) == ["first", "third"])
    #expect(inner.issues.map(\.message) == ["second"])
  }

  @Test func tasksStartedInsideReportToTheSameReporter() async {
    let collector = LocatingCollector()
    await withIssueReporter(collector) {
      await Task { reportIssue("from a child task") }.value
    }
    #expect(collector.issues.map(\.message) == ["from a child task"])
  }

  @Test func locationsAreEqualByPathLineAndColumn() {
    let here = IssueLocation(fileID: "A/B.swift", filePath: "/x/A/B.swift", line: 3, column: 5)
    let same = IssueLocation(fileID: "A/B.swift", filePath: "/x/A/B.swift", line: 3, column: 5)
    #expect(here == same && here.hashValue == same.hashValue)
    #expect(here != IssueLocation(fileID: "A/B.swift", filePath: "/x/A/B.swift", line: 3, column: 6))
    #expect(here != IssueLocation(fileID: "A/B.swift", filePath: "/x/A/B.swift", line: 4, column: 5))
    #expect(here != IssueLocation(fileID: "A/B.swift", filePath: "/y/A/B.swift", line: 3, column: 5))
    #expect(Set([here, same]).count == 1)
  }

  @Test func withoutATestFrameworkAnIssueIsAWarning() throws {
    // What an app sees on standard error: `warning: file:line: message`. Written into a
    // pipe here: the test process's own standard error carries other tests' output.
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    StandardErrorIssueReporter(fileDescriptor: ends[1]).report(
      "forEach got an action for a missing id",
      at: IssueLocation(
        fileID: "Feature/Rows.swift", filePath: "/src/Feature/Rows.swift", line: 42, column: 1))
    close(ends[1])
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      if count <= 0 { break }
      bytes += buffer[..<count]
    }
    close(ends[0])
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "warning: Feature/Rows.swift:42: forEach got an action for a missing id\n")
    #expect(StandardErrorIssueReporter().fileDescriptor == 2)
  }
}
