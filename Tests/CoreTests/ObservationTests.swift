import Core
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
    _ = observation
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
    _ = observation
  }

  @Test func scopedObserversSeeOnlyTheirValue() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    var childCalls: [Int] = []
    let observation = child.observe({ $0.count }) { childCalls.append($0) }
    store.send(.present)  // changes another part of the state
    store.send(.child(.increment))
    #expect(childCalls == [1])
    _ = observation
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
    _ = observation
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
    _ = observation
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
    _ = (sender, other)
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
    _ = observations
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
    _ = observation
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
