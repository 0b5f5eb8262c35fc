import Core
import TestSupport
import Testing

private struct Row: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var value = 0
    var answers: [Int] = []
  }
  enum Action: Equatable, Sendable { case increment, load, cancel, answer(Int) }
  enum CancelID { case load }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.value += 1
      return .none
    case .load:
      let id = state.id
      return .run { send in
        try await Task.sleep(for: .milliseconds(40))
        await send(.answer(id))
      }
      .cancellable(id: CancelID.load)
    case .cancel:
      return .cancel(id: CancelID.load)
    case .answer(let value):
      state.answers.append(value)
      return .none
    }
  }
}

private struct List: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<Row.State> = [] }
  enum Action: Equatable, Sendable {
    case rows(id: Int, action: Row.Action)
    case remove(id: Int)
    case add(id: Int)
    case replace(id: Int)
  }
  static let rowsPath = CasePath<Action, (Int, Row.Action)>(embed: { Action.rows(id: $0.0, action: $0.1) }) {
    if case .rows(let id, let action) = $0 { (id, action) } else { nil }
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .remove(let id):
        state.rows.remove(id: id)
      case .add(let id):
        state.rows.append(Row.State(id: id))
        return .send(.rows(id: id, action: .load))
      case .replace(let id):
        state.rows.remove(id: id)
        return .send(.add(id: id))
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: Self.rowsPath) { Row() }
  }
}

@MainActor
struct ForEachTests {
  private func makeStore() -> Store<List.State, List.Action> {
    Store(initialState: List.State(rows: [Row.State(id: 1), Row.State(id: 2), Row.State(id: 3)])) { List() }
  }

  @Test func anActionReachesOnlyItsElement() {
    let store = makeStore()
    store.send(.rows(id: 2, action: .increment))
    #expect(store.state.rows.map(\.value) == [0, 1, 0])
  }

  /// An element's own store: its key path by id, its actions embedded with the id, and
  /// `unwrapped()` for the element while it is there.
  @Test func anElementsStoreIsScopedByItsIDAndUnwrapped() async throws {
    let store = makeStore()
    let rowStore = try #require(
      store.scope(state: \.rows[id: 2], action: { .rows(id: 2, action: $0) }).unwrapped())
    #expect(store.scope(state: \.rows[id: 9], action: { .rows(id: 9, action: $0) }).unwrapped() == nil)
    rowStore.send(.increment)
    #expect(store.state.rows.map(\.value) == [0, 1, 0])
    #expect(rowStore.state.value == 1)
    store.send(.remove(id: 2))
    #expect(rowStore.state.value == 1)
    let issues = await collectingIssues { rowStore.send(.increment) }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("id: 2") == true)
  }

  @Test func anActionForAMissingIDIsReportedNotCrashed() async {
    let issues = await collectingIssues {
      let store = makeStore()
      store.send(.rows(id: 99, action: .increment))
      #expect(store.state.rows.map(\.value) == [0, 0, 0])
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.contains("A 'forEach' received an action for an element that is not in the collection")
        == true)
    #expect(issues.first?.contains("id: 99") == true)
  }

  @Test func removingAnElementCancelsItsEffects() async {
    let issues = await collectingIssues {
      let store = makeStore()
      let task = store.send(.rows(id: 1, action: .load))
      let other = store.send(.rows(id: 2, action: .load))
      store.send(.remove(id: 1))
      await task.finish()
      await other.finish()
      #expect(store.state.rows.ids == [2, 3])
      #expect(store.state.rows[id: 2]?.answers == [2])
    }
    #expect(issues == [])
  }

  @Test func anElementAddedAgainInTheSameSendKeepsTheNewOnesEffects() async {
    // The removed element's effects are cancelled before the parent's own effects run, so
    // the new element's load, started by them, lives on.
    let store = makeStore()
    let old = store.send(.rows(id: 1, action: .load))
    let new = store.send(.replace(id: 1))
    await old.finish()
    await new.finish()
    #expect(old.isCancelled)
    #expect(!new.isCancelled)
    #expect(store.state.rows[id: 1]?.answers == [1])
  }

  @Test func siblingsSharingACancelIDDoNotCancelEachOther() async {
    let store = makeStore()
    let first = store.send(.rows(id: 1, action: .load))
    let second = store.send(.rows(id: 2, action: .load))
    store.send(.rows(id: 1, action: .cancel))
    await first.finish()
    await second.finish()
    #expect(store.state.rows[id: 1]?.answers == [])
    #expect(store.state.rows[id: 2]?.answers == [2])
  }
}
