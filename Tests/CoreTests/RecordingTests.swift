import Core
import Foundation
import Testing

/// A feature whose actions come from all three origins: `start` returns an immediate
/// `.send` and an effect that delivers `.loaded` later.
private struct Loader: Reducer {
  struct State: Equatable {
    var log: [String] = []
    var child = Counter.State()
  }
  enum Action: Equatable, Sendable {
    case start, started, loaded(Int), child(Counter.Action)
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Counter() }
    Reduce { state, action in
      switch action {
      case .start:
        state.log.append("start")
        return .merge(.send(.started), .run { send in await send(.loaded(7)) })
      case .started:
        state.log.append("started")
        return .none
      case .loaded(let value):
        state.log.append("loaded \(value)")
        return .none
      case .child:
        return .none
      }
    }
  }
}

/// Collects issues raised through Core's reporting.
private final class Issues: IssueReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []
  var messages: [String] { lock.withLock { storage } }
  func report(_ message: String, at location: IssueLocation) { lock.withLock { storage.append(message) } }
}

@MainActor
struct RecordingTests {
  @Test func aRecordingHasEveryActionInOrderWithItsOriginAndTheStateItMade() async {
    let store = Store(initialState: Loader.State()) { Loader() }
    var log: [RecordedAction<Loader.Action>] = []
    var states: [Loader.State] = []
    store.startRecording { entry, state in
      log.append(entry)
      states.append(state)
    }
    await store.send(.start).finish()
    store.scope(state: \.child, action: Loader.Action.child).send(.increment)

    #expect(log.map(\.action) == [.start, .started, .loaded(7), .child(.increment)])
    #expect(log.map(\.origin) == [.external, .immediate, .effect, .external])
    #expect(states.last == store.state)
    #expect(states.map(\.log.count) == [1, 2, 3, 3])
    #expect(zip(log, log.dropFirst()).allSatisfy { $0.offset <= $1.offset })
    #expect(log.allSatisfy { $0.offset >= .zero })
  }

  @Test func replayingARecordingArrivesAtTheSameStatesStepByStep() async {
    let store = Store(initialState: Loader.State()) { Loader() }
    var log: [RecordedAction<Loader.Action>] = []
    var fingerprints: [Fingerprint] = []
    store.startRecording { entry, state in
      log.append(entry)
      fingerprints.append(Fingerprint(of: state))
    }
    await store.send(.start).finish()
    store.send(.child(.increment))
    store.send(.child(.increment))

    let replayed = Array(Loader().states(replaying: log.map(\.action), from: Loader.State()))
    #expect(replayed.map { Fingerprint(of: $0) } == fingerprints)
    #expect(replayed.last == store.state)

    // A log with one action changed parts from the recording at that step, and only there.
    var edited = log.map(\.action)
    edited[3] = .child(.decrement)
    let diverged = Loader().states(replaying: edited, from: Loader.State()).map { Fingerprint(of: $0) }
    #expect(zip(diverged, fingerprints).map { $0 == $1 } == [true, true, true, false, false])
  }

  @Test func replayRunsNoEffect() {
    let states = Loader().states(replaying: [.start], from: Loader.State())
    // `.start` alone: the `.started` it sends at once and the effect's `.loaded` are not
    // run; in a recording they are entries of their own.
    #expect(Array(states).map(\.log) == [["start"]])
  }

  @Test func aRootsBodyIsBuiltOnceForAWholeReplay() {
    final class Counts: @unchecked Sendable { var body = 0 }
    struct Feature: Reducer {
      let counts: Counts
      var body: some Reducer<Int, Bool> {
        let _ = counts.body += 1
        Reduce { state, _ in
          state += 1
          return .none
        }
      }
    }
    let counts = Counts()
    let states = Array(Feature(counts: counts).states(replaying: Array(repeating: true, count: 50), from: 0))
    #expect(states == Array(1...50))
    #expect(counts.body == 1)
  }

  @Test func stoppingEndsTheRecording() {
    let store = Store(initialState: Counter.State()) { Counter() }
    var actions: [Counter.Action] = []
    store.startRecording { entry, _ in actions.append(entry.action) }
    store.send(.increment)
    store.stopRecording()
    store.send(.decrement)
    #expect(actions == [.increment])
    #expect(store.state.count == 0)
  }

  @Test func aScopedStoreDoesNotRecordAndSaysWhy() {
    let store = Store(initialState: Loader.State()) { Loader() }
    let child = store.scope(state: \.child, action: Loader.Action.child)
    let issues = Issues()
    var recorded = 0
    withIssueReporter(issues) { child.startRecording { _, _ in recorded += 1 } }
    child.send(.increment)
    #expect(recorded == 0)
    #expect(issues.messages.count == 1)
    #expect(issues.messages.first?.contains("'startRecording' was called on a scoped store") == true)
    #expect(issues.messages.first?.contains("Record from the root store") == true)
  }

  @Test func aScopedStoreDoesNotStopTheRootsRecordingAndSaysWhy() {
    let store = Store(initialState: Loader.State()) { Loader() }
    let child = store.scope(state: \.child, action: Loader.Action.child)
    var recorded = 0
    store.startRecording { _, _ in recorded += 1 }
    let issues = Issues()
    withIssueReporter(issues) { child.stopRecording() }
    child.send(.increment)
    #expect(recorded == 1)
    #expect(
      issues.messages == [
        "'stopRecording' was called on a scoped store of State. Stop the recording where it started, on the root store."
      ])
  }

  @Test func anEntryEncodesItsOffsetInWholeNanosecondsAndDecodesAgain() throws {
    enum Action: Equatable, Codable { case loaded(Int) }
    let entry = RecordedAction(Action.loaded(3), origin: .effect, offset: .milliseconds(1_250))
    let data = try JSONEncoder().encode(entry)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(object?["offset"] as? Int == 1_250_000_000)
    #expect(object?["origin"] as? String == "effect")
    #expect(try JSONDecoder().decode(RecordedAction<Action>.self, from: data) == entry)
  }

  @Test func aFingerprintIsTheFNV1aHashOfTheDump() throws {
    // FNV-1a 64 of the dumps "42" and "\"dog\"", worked out by hand.
    #expect(Fingerprint(of: 42).description == "07ee7e07b4b19223")
    #expect(Fingerprint(of: "dog").description == "4d06ec9d91a81731")
    #expect(Fingerprint(of: Counter.State(count: 1)) == Fingerprint(of: Counter.State(count: 1)))
    #expect(Fingerprint(of: Counter.State(count: 1)) != Fingerprint(of: Counter.State(count: 2)))

    let encoded = try JSONEncoder().encode([Fingerprint(of: 42)])
    #expect(String(decoding: encoded, as: UTF8.self) == #"["07ee7e07b4b19223"]"#)
    #expect(try JSONDecoder().decode([Fingerprint].self, from: encoded) == [Fingerprint(of: 42)])
    let error = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Fingerprint].self, from: Data(#"["xyz"]"#.utf8))
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    #expect(context.debugDescription == "A fingerprint is 16 hexadecimal digits, not 'xyz'.")
  }
}
