import Core
import Observation
import TestSupport
import Testing

@MainActor
struct ObservationTests {
  @Test func observersAreCalledOncePerChangeAndNotForUnchangedState() {
    let store = Store(initialState: Counter.State()) { Counter() }
    var seen: [Int] = []
    let observation = store.observe { seen.append($0.count) }
    store.send(.increment)
    store.send(.set(1))
    store.send(.increment)
    #expect(seen == [1, 2])
    withExtendedLifetime(observation) {}
  }

  @Test func oneSendWithSeveralSynchronousActionsNotifiesOnce() {
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        state += 1
        return action > 0 ? .send(action - 1) : .none
      }
    }
    var calls: [Int] = []
    let observation = store.observe { calls.append($0) }
    store.send(3)
    #expect(calls == [4])
    withExtendedLifetime(observation) {}
  }

  @Test func scopedObserversSeeOnlyTheirValue() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    var childCalls: [Int] = []
    let observation = child.observe({ $0.count }) { childCalls.append($0) }
    store.send(.present)  // changes another part of the state
    store.send(.child(.increment))
    #expect(childCalls == [1])
    withExtendedLifetime(observation) {}
  }

  @Test func cancellingOrReleasingStopsObservation() {
    let store = Store(initialState: Counter.State()) { Counter() }
    var first = 0
    var second = 0
    let observation = store.observe { _ in first += 1 }
    var released: StoreObservation? = store.observe { _ in second += 1 }
    store.send(.increment)
    observation.cancel()
    released = nil
    store.send(.increment)
    #expect(first == 1)
    #expect(second == 1)
    #expect(released == nil)
  }

  @Test func observersSeeChangesMadeByEffects() async {
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        if action == 0 { return .run { send in await send(5) } }
        state = action
        return .none
      }
    }
    var seen: [Int] = []
    let observation = store.observe { seen.append($0) }
    await store.send(0).finish()
    #expect(seen == [5])
    withExtendedLifetime(observation) {}
  }

  @Test func observersSeeEachStepOfAConcatenation() async {
    // The second step is a synchronous send that the concatenation's task delivers
    // itself, not through `send`; observers must still hear of it.
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        if action == 0 { return .concatenate(.run { send in await send(5) }, .send(7)) }
        state = action
        return .none
      }
    }
    var seen: [Int] = []
    let observation = store.observe { seen.append($0) }
    await store.send(0).finish()
    #expect(seen == [5, 7])
    withExtendedLifetime(observation) {}
  }

  /// A store whose state is the last number sent.
  private func makeLatestStore() -> Store<Int, Int> {
    Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        state = action
        return .none
      }
    }
  }

  @Test func anObserverThatSendsLeavesEveryObserverOnTheNewestState() {
    let store = makeLatestStore()
    var first: [Int] = []
    var second: [Int] = []
    let sender = store.observe { value in
      first.append(value)
      if value == 1 { store.send(2) }
    }
    let other = store.observe { second.append($0) }
    store.send(1)
    // When notifications nested, the second observer saw 2 from inside the first, then
    // the stale 1 from the round still going on: it ended on an older state than the store's.
    #expect(first == [1, 2])
    #expect(second == [2])
    #expect(store.state == 2)
    withExtendedLifetime((sender, other)) {}
  }

  @Test func observersSendingInTurnSeeTheStatesInOrder() {
    let store = makeLatestStore()
    var seen: [[Int]] = [[], [], []]
    let observations = (0..<3).map { index in
      store.observe { value in
        seen[index].append(value)
        if value < 4, index == value % 3 { store.send(value + 1) }
      }
    }
    store.send(1)
    #expect(store.state == 4)
    for values in seen {
      #expect(values == values.sorted(), "an observer saw \(values)")
      #expect(values.last == 4)
    }
    withExtendedLifetime(observations) {}
  }

  @Test func observersThatChangeTheStateForeverAreStoppedAndReported() async {
    let store = makeLatestStore()
    var calls = 0
    var observation: StoreObservation?
    let issues = await collectingIssues {
      observation = store.observe { value in
        calls += 1
        store.send(value + 1)
      }
      store.send(1)
    }
    #expect(calls == 1_000)
    #expect(store.state == 1_001)
    #expect(issues.count == 1)
    #expect(issues.first?.hasPrefix("Observers changed the state in each of 1000 rounds") == true)
    withExtendedLifetime(observation) {}
  }

  @Test func anObservationCancelledByAnotherObserverIsNotCalledAgain() {
    let store = makeLatestStore()
    var later: StoreObservation?
    var laterCalls: [Int] = []
    let canceller = store.observe { _ in later?.cancel() }
    later = store.observe { laterCalls.append($0) }
    store.send(1)
    store.send(2)
    #expect(laterCalls.isEmpty)
    _ = canceller
  }

  @Test func anObservationStartedByAnObserverHearsOfTheNextChange() {
    let store = makeLatestStore()
    var started: StoreObservation?
    var heard: [Int] = []
    let starter = store.observe { _ in
      if started == nil { started = store.observe { heard.append($0) } }
    }
    store.send(1)
    store.send(2)
    #expect(heard == [2])
    _ = starter
  }
}

/// A store takes part in Swift's Observation without macros.
@MainActor
struct StoreObservationTests {
  /// Tracks `read` once; returns how often the change handler has run so far.
  private final class Changes: @unchecked Sendable {
    var count = 0
  }

  private func track(_ read: @escaping () -> Void) -> Changes {
    let changes = Changes()
    withObservationTracking(read) { changes.count += 1 }
    return changes
  }

  @Test func aSendThatChangesTheStateTellsATrackedReaderOnce() {
    let store = Store(initialState: Counter.State()) { Counter() }
    let changes = track { _ = store.state }
    store.send(.increment)
    store.send(.increment)
    #expect(changes.count == 1)
  }

  @Test func aSendThatChangesNothingTellsNothing() {
    let store = Store(initialState: Counter.State()) { Counter() }
    let changes = track { _ = store.count }
    store.send(.set(0))
    #expect(changes.count == 0)
    store.send(.set(4))
    #expect(changes.count == 1)
  }

  /// A reader that tracks again after each change hears of each change.
  @Test func readingAgainTracksTheNextChange() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let view = CountView(store: store)
    view.render()
    store.send(.increment)
    #expect(await eventually { view.seen == [0, 1] })
    store.send(.increment)
    #expect(await eventually { view.seen == [0, 1, 2] })
  }

  @Test func aScopedStoresReadIsToldOfItsOwnChanges() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    let changes = track { _ = child.state }
    child.send(.increment)
    #expect(changes.count == 1)
    #expect(child.state.count == 1)
  }

  @Test func aStoreIsObservable() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    #expect((store as Any) is any Observable)
    #expect((child as Any) is any Observable)
    // Generic code constrained to `Observable` takes a store.
    func identity(of observed: some Observable & AnyObject) -> ObjectIdentifier { ObjectIdentifier(observed) }
    #expect(identity(of: child) == ObjectIdentifier(child))
  }

  @Test func aScopedStoresReadIsNotToldOfChangesElsewhereInTheRoot() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    let changes = track { _ = child.state }
    store.send(.present)  // changes the optional child only
    store.send(.dismiss)
    #expect(changes.count == 0)
    store.send(.child(.increment))
    #expect(changes.count == 1)
  }

  @Test func aProjectedScopedStoresReadIsToldOnlyOfItsOwnChanges() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let count = store.scope(state: \.child.count.description, action: { (_: Never) -> Parent.Action in })
    let changes = track { _ = count.state }
    store.send(.present)
    #expect(changes.count == 0)
    store.send(.child(.set(0)))  // changes the log, not the count
    #expect(changes.count == 0)
    store.send(.child(.set(3)))
    #expect(changes.count == 1)
    #expect(count.state == "3")
  }

  @Test func anUnwrappedStoresReadIsToldOnlyOfItsOwnChanges() throws {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.present)
    let optional = try #require(store.scope(state: \.optional, action: Parent.Action.optional).unwrapped())
    let changes = track { _ = optional.count }
    store.send(.child(.increment))
    #expect(changes.count == 0)
    optional.send(.increment)
    #expect(changes.count == 1)
  }

  @Test func aRootStoresReadIsToldOfAnyChange() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let changes = track { _ = store.state }
    store.send(.present)
    #expect(changes.count == 1)
  }

  @Test func aTrackedScopedStoreIsNotKeptByTheRoot() {
    let store = Store(initialState: Parent.State()) { Parent() }
    weak var released: Store<Counter.State, Counter.Action>?
    var changes: Changes?
    do {
      let child = store.scope(state: \.child, action: Parent.Action.child)
      released = child
      changes = track { _ = child.state }
    }
    #expect(released == nil)
    store.send(.child(.increment))
    #expect(changes?.count == 0)
  }

  /// Changes made by an effect's action count too.
  @Test func aChangeFromAnEffectTellsTheReader() async {
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        state = action
        return action == 1 ? .run { send in await send(2) } : .none
      }
    }
    let changes = track { _ = store.state }
    await store.send(1).finish()
    #expect(changes.count == 1)
    let again = track { _ = store.state }
    #expect(store.state == 2)
    store.send(2)
    #expect(again.count == 0)
  }
}

/// Renders a count each time it changes, as a view over a store would.
@MainActor
private final class CountView {
  let store: Store<Counter.State, Counter.Action>
  var seen: [Int] = []
  init(store: Store<Counter.State, Counter.Action>) { self.store = store }

  func render() {
    withObservationTracking {
      seen.append(store.state.count)
    } onChange: {
      // Called as the change is made; render again once it is done.
      Task { @MainActor [weak self] in self?.render() }
    }
  }
}
