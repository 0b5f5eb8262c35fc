import AppFeature
import Core
import CoreTesting
import Foundation
import SessionRecording
import Synchronization
import Testing

/// `replay --test`: what it writes for a small log, and that what it writes fails, at the
/// step, with the state's diff, when the reducer does something else than it did.
@MainActor
struct SessionTestTests {
  /// The first `steps` steps of a log kept beside these tests.
  static func log(_ name: String, steps: Int) throws -> SessionReplay {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Recordings").appendingPathComponent(name)
    let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n")
    var kept: [Substring] = []
    var count = 0
    for line in lines {
      if line.hasPrefix("{\"frame\"") || line.contains("\"step\":") { count += 1 }
      if count > steps { break }
      kept.append(line)
    }
    return try SessionReplay.parse(Data((kept.joined(separator: "\n") + "\n").utf8), name: name)
  }

  @Test func aSmallLogBecomesATestOfOneLinePerStep() throws {
    let log = try Self.log("breeds-and-tabs.jsonl", steps: 11)
    #expect(log.steps.count == 11)
    let test = try SessionTest(Replayed(log), logName: "breeds-and-tabs.jsonl")
    #expect(test.typeName == "BreedsAndTabsSessionTests")
    #expect(test.functionName == "breedsAndTabs")
    let lines = test.source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    for expected in [
      "let recorded = try RecordedSession(\"breeds-and-tabs.jsonl\")",
      "let store = TestStore(initialState: AppFeature.State()) { recorded.feature(clock: clock) }",
      "await store.send(.appeared)",
      "await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }",
      "try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 6))))",
      "$0.breeds = try recorded.payload(of: 7)",
      "await store.send(.helpShown) { $0.help = try recorded.state(after: 8).help }",
      "await store.send(.helpDismissed) { $0.help = nil }",
      "await store.send(.dogs(.highlightMoved(.down))) { $0.dogsTab.highlighted = \"pug\" }",
      "await store.send(.dogs(.highlightMoved(.up))) { $0.dogsTab.highlighted = \"hound\" }",
      "await clock.advance(by: .milliseconds(460))",
      "await store.skipInFlightEffects(strict: false)",
    ] {
      #expect(lines.contains(expected), "\(expected)\nnot in:\n\(test.source)")
    }
    // One send or receive per step.
    #expect(
      lines.filter { $0.contains("await store.send(") || $0.contains("await store.receive(") }.count == 11)
  }

  /// The lines `aSmallLogBecomesATestOfOneLinePerStep` finds in the test written, run on
  /// `reducer`: the issues they raise, each with its line.
  func run(_ log: SessionReplay, altering alter: @escaping @Sendable (AppFeature.Action) -> Bool) async
    -> (issues: [(message: String, line: UInt)], dismissedAt: UInt)
  {
    let reporter = LocatedIssues()
    var dismissedAt: UInt = 0
    await withIssueReporter(reporter) {
      do {
        let recorded = RecordedSession(log)
        let clock = TestClock()
        let store = TestStore(initialState: AppFeature.State()) {
          Altered(base: recorded.feature(clock: clock), ignores: alter)
        }
        try await store.send(.terminal(recorded.payload(of: 1))) {
          $0.screen.display = try recorded.state(after: 1).screen.display
          $0.screen.ifAmbiguousWide = try recorded.state(after: 1).screen.ifAmbiguousWide
        }
        await clock.advance(by: .milliseconds(13))
        try await store.send(recorded.action(2)) { $0.screen = try recorded.state(after: 2).screen }
        await clock.advance(by: .milliseconds(4))
        await store.send(.appeared)
        await clock.advance(by: .milliseconds(4))
        await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }
        await clock.advance(by: .milliseconds(4))
        await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 2)))) {
          $0.screen.ifAmbiguousWide = nil
        }
        await clock.advance(by: .milliseconds(4))
        try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 6))))
        await clock.advance(by: .milliseconds(8))
        try await store.receive(recorded.action(7)) {
          $0.breeds = try recorded.payload(of: 7)
          $0.dogsTab.status = .loaded
          $0.dogsTab.highlighted = "hound"
        }
        await clock.advance(by: .milliseconds(2948))
        await store.send(.helpShown) { $0.help = try recorded.state(after: 8).help }
        await clock.advance(by: .milliseconds(1064))
        dismissedAt = #line + 1
        await store.send(.helpDismissed) { $0.help = nil }
        await clock.advance(by: .milliseconds(460))
        await store.send(.dogs(.highlightMoved(.down))) { $0.dogsTab.highlighted = "pug" }
        await clock.advance(by: .milliseconds(504))
        await store.send(.dogs(.highlightMoved(.up))) { $0.dogsTab.highlighted = "hound" }
        await store.skipInFlightEffects(strict: false)
      } catch {
        reportIssue("thrown: \(error)")
      }
    }
    return (reporter.issues, dismissedAt)
  }

  @Test func theStepsPassWithTheReducerThatRecordedThem() async throws {
    let log = try Self.log("breeds-and-tabs.jsonl", steps: 11)
    let issues = await run(log) { _ in false }.issues
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test func aReducerChangedByHandFailsAtTheStepWithTheStatesDiff() async throws {
    let log = try Self.log("breeds-and-tabs.jsonl", steps: 11)
    // The keys overlay no longer closes.
    let (issues, dismissedAt) = await run(log) { if case .helpDismissed = $0 { true } else { false } }
    try #require(!issues.isEmpty)
    let first = issues[0]
    #expect(first.line == dismissedAt, "\(issues)")
    #expect(first.message.contains("A state change does not match expectation"), "\(first.message)")
    #expect(first.message.contains("-   help: nil"), "\(first.message)")
    #expect(first.message.contains("+   help: AppFeature.State.Help(scroll: 0)"), "\(first.message)")
  }

  @Test func theStateReadFromTheRecordingIsTheRecordedOneOrFails() throws {
    var log = try Self.log("breeds-and-tabs.jsonl", steps: 11)
    let recorded = RecordedSession(log)
    #expect(try recorded.state(after: 8).help == AppFeature.State.Help())
    // The recording says step 8 reached another state than the reducer does.
    let lines = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Recordings/breeds-and-tabs.jsonl"), encoding: .utf8)
    let fingerprint = log.steps[7].state.description
    let edited = lines.replacingOccurrences(of: fingerprint, with: String(fingerprint.reversed()))
    log = try SessionReplay.parse(Data(edited.utf8), name: "edited.jsonl")
    #expect(throws: RecordedSession.Missing.self) { try RecordedSession(log).state(after: 8) }
    #expect {
      try RecordedSession(log).state(after: 8)
    } throws: { error in
      "\(error)".contains("does not reach the state recorded at step 8")
    }
    // And the log is no longer made into a test: it would assert this version's states.
    #expect {
      try SessionTest(Replayed(log), logName: "edited.jsonl")
    } throws: { error in
      (error as? SessionTest.Refusal)?.message.hasPrefix("Step 8 of \(log.steps.count) does not replay")
        == true
    }
  }
}

/// The app's reducer, ignoring the actions `ignores` picks: a reducer changed by hand.
struct Altered: Reducer {
  let base: AppFeature
  let ignores: @Sendable (AppFeature.Action) -> Bool

  func reduce(into state: inout AppFeature.State, action: AppFeature.Action) -> Effect<AppFeature.Action> {
    ignores(action) ? .none : base.reduce(into: &state, action: action)
  }
}

/// The issues raised, with the line each was raised at.
final class LocatedIssues: IssueReporter {
  private let storage = Mutex<[(message: String, line: UInt)]>([])
  var issues: [(message: String, line: UInt)] { storage.withLock { $0 } }
  func report(_ message: String, at location: IssueLocation) {
    storage.withLock { $0.append((message, location.line)) }
  }
}
