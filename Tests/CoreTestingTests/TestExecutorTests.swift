import Core
import CoreTesting
import TestSupport
import Testing

/// `TestExecutor`: effects run until they are idle, however many hops that takes, and
/// nothing waits for the clock on the wall.
@MainActor
struct TestExecutorTests {
  /// A task that hops a thousand times, through child tasks and the main actor, has ended
  /// when `idle()` returns.
  @Test func idleReturnsOnceTheWorkHasEnded() async {
    let executor = TestExecutor()
    let log = Log<Int>()
    let task = Task(executorPreference: executor) { @Sendable () async -> Void in
      for step in 1...1000 {
        await Task.yield()
        async let child: Int = step
        if step.isMultiple(of: 100) { await MainActor.run { log.append(step) } }
        _ = await child
      }
    }
    await executor.idle()
    #expect(log.values == Array(stride(from: 100, through: 1000, by: 100)))
    await task.value
  }

  /// A sleeper on a test clock is idle: `idle()` returns with it asleep, and an advance
  /// lets it run to its next sleep.
  @Test func aSleeperIsIdleAndRunsToItsNextSleepWhenWoken() async {
    let executor = TestExecutor()
    let clock = TestClock()
    let log = Log<Int>()
    let task = Task(executorPreference: executor) { @Sendable () async -> Void in
      for tick in 1...2 {
        try? await clock.sleep(for: .seconds(1))
        for _ in 0..<100 { await Task.yield() }
        log.append(tick)
      }
    }
    await executor.idle()
    #expect(clock.sleeperCount == 1 && log.values == [])
    await clock.advance(by: .seconds(1))
    #expect(clock.sleeperCount == 1 && log.values == [1])
    await clock.advance(by: .seconds(1))
    #expect(log.values == [1, 2])
    await task.value
  }

  /// An effect that hops many times before it sends has sent by the time `send` returns
  /// (the store's state includes the actions not yet asserted).
  @Test func aSendReturnsOnceItsEffectsAreIdle() async {
    let store = TestStore(initialState: Hops.State()) { Hops() }
    await store.send(.start)
    #expect(store.state.done)
    await store.receive(.done) { $0.done = true }
    await store.finish()
  }
}

private struct Hops: Reducer {
  struct State: Equatable { var done = false }
  enum Action: Equatable, Sendable { case start, done }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        for _ in 0..<500 { await Task.yield() }
        await send(.done)
      }
    case .done:
      state.done = true
      return .none
    }
  }
}
