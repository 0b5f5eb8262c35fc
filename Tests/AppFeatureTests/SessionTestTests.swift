import AppFeature
import Core
import CoreTesting
import DogAPIClient
import Foundation
import SessionRecording
import Synchronization
import Testing
import TextRendering

/// `replay --test`: what it writes for a small log, and that what it writes fails, at the
/// step, with the state's diff, when the reducer does something else than it did.
@MainActor
struct SessionTestTests {
  /// When the list arrives in ``log()``.
  static let listDate = Date(timeIntervalSinceReferenceDate: 800_000_000.25)

  /// A small session, as `--record` writes one: the app opens on a 100×30 screen and
  /// starts, the list arrives (from an effect), the keys overlay opens and closes, the
  /// highlight moves down and up. Its states are the reducer's, fingerprinted as the
  /// recorder does; `edit` changes the lines before they are read.
  static func log(edit: (inout [String]) -> Void = { _ in }) throws -> SessionReplay {
    let list = BreedList(
      breeds: [Breed(name: "hound", subBreeds: ["afghan"]), Breed(name: "pug")], source: .network,
      fetchedAt: listDate)
    let entries: [RecordedAction<AppFeature.Action>] = [
      RecordedAction(
        .terminal(.opened(Display(columns: 100, rows: 30), ifAmbiguousWide: nil)), origin: .external,
        offset: .zero),
      RecordedAction(.appeared, origin: .external, offset: .milliseconds(10)),
      RecordedAction(.dogs(.appeared), origin: .immediate, offset: .milliseconds(10)),
      RecordedAction(
        .dogs(.breedsResponse(.success(list), at: listDate)), origin: .effect, offset: .milliseconds(60)),
      RecordedAction(.helpShown, origin: .external, offset: .milliseconds(1_000)),
      RecordedAction(.helpDismissed, origin: .external, offset: .milliseconds(1_500)),
      RecordedAction(.dogs(.highlightMoved(.down)), origin: .external, offset: .milliseconds(2_000)),
      RecordedAction(.dogs(.highlightMoved(.up)), origin: .external, offset: .milliseconds(2_250)),
    ]
    let states = AppFeature(client: .failing).states(
      replaying: entries.map(\.action), from: AppFeature.State())
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var lines = [
      String(
        decoding: try encoder.encode(
          SessionLog.Line.header(
            SessionLog.Header(app: "DogBreedsCLI test", arguments: [], pictures: false, favourites: false))),
        as: UTF8.self)
    ]
    for (entry, state) in zip(entries, states) {
      let step = SessionLog.Step(entry: entry, state: Fingerprint(of: state), frame: nil)
      lines.append(String(decoding: try encoder.encode(SessionLog.Line.step(step)), as: UTF8.self))
    }
    edit(&lines)
    return try SessionReplay.parse(Data((lines.joined(separator: "\n") + "\n").utf8), name: "small.jsonl")
  }

  @Test func aSmallLogBecomesATestOfOneLinePerStep() throws {
    let log = try Self.log()
    let test = try SessionTest(Replayed(log), logName: "small-session.jsonl")
    #expect(test.typeName == "SmallSessionSessionTests")
    #expect(test.functionName == "smallSession")
    let lines = test.source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    for expected in [
      "let recorded = try RecordedSession(\"small-session.jsonl\")",
      "let clock = TestClock()",
      "let store = TestStore(initialState: AppFeature.State()) { recorded.feature(clock: clock) }",
      "$0.screen.display.columns = 100",
      "await clock.advance(by: .milliseconds(10))",
      "await store.send(.appeared)",
      "await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }",
      "await clock.advance(by: .milliseconds(50))",
      "try await store.receive(.dogs(.breedsResponse(.success(recorded.payload(of: 4)), at: Date(timeIntervalSinceReferenceDate: 800000000.25)))) {",
      "$0.breeds = try recorded.payload(of: 4)",
      "await store.send(.helpShown) { $0.help = try recorded.state(after: 5).help }",
      "await store.send(.helpDismissed) { $0.help = nil }",
      "await store.send(.dogs(.highlightMoved(.down))) { $0.dogsTab.highlighted = \"pug\" }",
      "await clock.advance(by: .milliseconds(250))",
      "await store.send(.dogs(.highlightMoved(.up))) { $0.dogsTab.highlighted = \"hound\" }",
      "await store.skipInFlightEffects(strict: false)",
    ] {
      #expect(lines.contains(expected), "\(expected)\nnot in:\n\(test.source)")
    }
    // One send or receive per step.
    #expect(
      lines.filter { $0.contains("await store.send(") || $0.contains("await store.receive(") }.count == 8)
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
        try await store.send(recorded.action(1)) { $0.screen = try recorded.state(after: 1).screen }
        await clock.advance(by: .milliseconds(10))
        await store.send(.appeared)
        await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }
        await clock.advance(by: .milliseconds(50))
        try await store.receive(
          .dogs(.breedsResponse(.success(recorded.payload(of: 4)), at: Self.listDate))
        ) {
          $0.breeds = try recorded.payload(of: 4)
          $0.dogsTab.status = .loaded
          $0.dogsTab.highlighted = "hound"
        }
        await clock.advance(by: .milliseconds(940))
        await store.send(.helpShown) { $0.help = try recorded.state(after: 5).help }
        await clock.advance(by: .milliseconds(500))
        dismissedAt = #line + 1
        await store.send(.helpDismissed) { $0.help = nil }
        await clock.advance(by: .milliseconds(500))
        await store.send(.dogs(.highlightMoved(.down))) { $0.dogsTab.highlighted = "pug" }
        await clock.advance(by: .milliseconds(250))
        await store.send(.dogs(.highlightMoved(.up))) { $0.dogsTab.highlighted = "hound" }
        await store.skipInFlightEffects(strict: false)
      } catch {
        reportIssue("thrown: \(error)")
      }
    }
    return (reporter.issues, dismissedAt)
  }

  @Test func theStepsPassWithTheReducerThatRecordedThem() async throws {
    let issues = await run(try Self.log()) { _ in false }.issues
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test func aReducerChangedByHandFailsAtTheStepWithTheStatesDiff() async throws {
    // The reducer, changed: the keys overlay never closes.
    let (issues, dismissedAt) = await run(try Self.log()) {
      if case .helpDismissed = $0 { true } else { false }
    }
    try #require(!issues.isEmpty)
    let first = issues[0]
    #expect(first.line == dismissedAt, "\(issues)")
    #expect(first.message.contains("A state change does not match expectation"), "\(first.message)")
    #expect(first.message.contains("-   help: nil"), "\(first.message)")
    #expect(first.message.contains("+   help: AppFeature.State.Help(scroll: 0)"), "\(first.message)")
  }

  @Test func aFrameDrawnOtherwiseStillMakesATest() throws {
    // Step 2's frame fingerprint is not the one this version draws; its state is.
    let log = try Self.log { lines in
      lines[2] = lines[2].replacingOccurrences(
        of: "{", with: #"{"frame":"0000000000000000","#, options: .anchored)
    }
    #expect(Replayed(log).firstDifference?.step == 2)
    #expect(Replayed(log).firstDifference?.difference == .frame)
    #expect(
      try SessionTest(Replayed(log), logName: "drawn.jsonl").source.contains("await store.send(.appeared)"))
  }

  @Test func theStateReadFromTheRecordingIsTheRecordedOneOrFails() throws {
    #expect(try RecordedSession(Self.log()).state(after: 5).help == AppFeature.State.Help())
    // The recording says step 5 reached another state than the reducer does.
    let recorded = try Self.log().steps[4].state.description
    let log = try Self.log { lines in
      lines[5] = lines[5].replacingOccurrences(of: recorded, with: String(recorded.reversed()))
    }
    #expect(Replayed(log).firstDifference?.step == 5)
    #expect {
      try RecordedSession(log).state(after: 5)
    } throws: { error in
      "\(error)".contains("does not reach the state recorded at step 5")
    }
    // Nor is such a log made into a test: it would assert this version's states.
    #expect {
      try SessionTest(Replayed(log), logName: "edited.jsonl")
    } throws: { error in
      (error as? SessionTest.Refusal)?.message.hasPrefix("Step 5 of 8 does not replay") == true
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
