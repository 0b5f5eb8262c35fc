import Core
import CoreTesting
import TestSupport
import Testing

/// The rule the documentation gives for `withKnownIssue` and effects: an effect's issue
/// belongs to where its action was sent.
@MainActor
struct KnownIssueTests {
  @Test func anEffectsIssueIsKnownWhenItsActionIsSentAndAwaitedInside() async {
    let store = TestStore(initialState: Thrower.State()) { Thrower(gate: Gate()) }
    let seen = Log<String>()
    await withKnownIssue {
      await store.send(.throwNow)
      await store.finish()
    } matching: { issue in
      seen.append("\(issue)")
      return true
    }
    #expect(seen.values.count == 1)
    #expect(seen.values.first?.contains("An 'Effect.run' threw an error it did not handle") == true)
  }

  /// The effect's action is sent before the inner `withKnownIssue`, and its issue raised
  /// inside it: the inner one does not cover it, and says it saw no issue. The outer one
  /// catches both, so that this test can look at them.
  @Test func anEffectWhoseActionWasSentBeforeIsNotCovered() async {
    let gate = Gate()
    let store = TestStore(initialState: Thrower.State()) { Thrower(gate: gate) }
    let seen = Log<String>()
    await withKnownIssue {
      await store.send(.throwWhenOpened)
      await withKnownIssue {
        await gate.open()
        await store.finish()
      }
    } matching: { issue in
      seen.append("\(issue)")
      return true
    }
    #expect(seen.values.count == 2, "\(seen.values)")
    #expect(seen.values.contains { $0.contains("An 'Effect.run' threw an error it did not handle") })
    #expect(seen.values.contains { $0.contains("Known issue was not recorded") })
  }
}

/// Its effects throw an error they do not handle: at once, or once the gate opens.
private struct Thrower: Reducer {
  struct State: Equatable {}
  enum Action: Equatable, Sendable { case throwNow, throwWhenOpened }
  struct Failure: Error {}
  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .throwNow:
      return .run { _ in throw Failure() }
    case .throwWhenOpened:
      return .run { [gate] _ in
        await gate.wait()
        throw Failure()
      }
    }
  }
}
