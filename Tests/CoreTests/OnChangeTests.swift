import Core
import CoreTesting
import Testing

/// `onChange(of:)`: a reaction to a value of the state, whichever action changed it.
@MainActor
struct OnChangeTests {
  @Test func theReactionGetsTheOldAndNewValuesAndMayChangeTheState() async {
    let store = TestStore(initialState: Watched.State()) { Watched() }
    await store.send(.set(3)) {
      $0.value = 3
      $0.changes = ["0 → 3"]
    }
    await store.send(.set(5)) {
      $0.value = 5
      $0.changes = ["0 → 3", "3 → 5"]
    }
  }

  /// No change, and a change undone within the same action, call nothing.
  @Test func aValueThatEndsTheSameCallsNothing() async {
    let store = TestStore(initialState: Watched.State()) { Watched() }
    await store.send(.set(0))
    await store.send(.bounce)
  }

  /// The reaction's effect runs after the reducer's, and its actions arrive as any others.
  @Test func theReactionsEffectIsMergedAfterTheReducers() async {
    let store = TestStore(initialState: Watched.State()) { Watched() }
    await store.send(.setAndAnnounce(7)) {
      $0.value = 7
      $0.changes = ["0 → 7"]
    }
    await store.receive(.announced("reducer"))
    await store.receive(.announced("changed to 7"))
  }
}

private struct Watched: Reducer {
  struct State: Equatable {
    var value = 0
    var changes: [String] = []
  }
  enum Action: Equatable, Sendable {
    case set(Int)
    case bounce
    case setAndAnnounce(Int)
    case announced(String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .set(let value):
        state.value = value
        return .none
      case .bounce:
        state.value += 1
        state.value -= 1
        return .none
      case .setAndAnnounce(let value):
        state.value = value
        return .send(.announced("reducer"))
      case .announced:
        return .none
      }
    }
    .onChange(of: \.value) { old, new, state in
      state.changes.append("\(old) → \(new)")
      return new == 7 ? .send(.announced("changed to 7")) : .none
    }
  }
}
