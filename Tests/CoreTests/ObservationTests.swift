import Core
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
}
