import Core
import CoreTesting
import Foundation
import TestSupport
import Testing

/// `TestClock` and `ImmediateClock`: time that tests control.
@MainActor
struct ClockTests {
  /// Sleeps on `clock` for each duration in its own task on `executor`, logging the
  /// duration on waking (its negative if cancelled); returns once every task is asleep. (A
  /// task that has not started yet when time moves would sleep from the new time.)
  private func sleepers(
    _ durations: [Int], on clock: TestClock, executor: TestExecutor, log: Log<Int>
  ) async -> [Task<Void, Never>] {
    let tasks = durations.map { seconds in
      Task(executorPreference: executor) { @Sendable () async -> Void in
        do {
          try await clock.sleep(for: .seconds(seconds))
          log.append(seconds)
        } catch {
          log.append(-seconds)
        }
      }
    }
    await executor.idle()
    #expect(clock.sleeperCount == durations.count)
    return tasks
  }

  @Test func sleepersWakeInTheOrderOfTheirDeadlines() async {
    let clock = TestClock()
    let log = Log<Int>()
    let tasks = await sleepers([3, 1, 2], on: clock, executor: TestExecutor(), log: log)
    await clock.advance(by: .seconds(3))
    for task in tasks { await task.value }
    #expect(log.values == [1, 2, 3])
    #expect(clock.now == TestClock.Instant(offset: .seconds(3)))
  }

  /// Sleepers due at the same instant wake in the order they went to sleep, each running
  /// until it waits again before the next wakes. Repeated: woken together, they ran in
  /// whatever order the threads took them, about one time in three.
  @Test func sleepersDueTogetherWakeInTheOrderTheyWentToSleep() async {
    for round in 0..<40 {
      let clock = TestClock()
      let log = Log<Int>()
      let executor = TestExecutor()
      var tasks: [Task<Void, Never>] = []
      for index in 1...3 {
        tasks.append(
          Task(executorPreference: executor) { @Sendable () async -> Void in
            try? await clock.sleep(until: TestClock.Instant(offset: .seconds(1)))
            log.append(index)
          })
        await executor.idle()
        #expect(clock.sleeperCount == index)
      }
      await clock.advance(by: .seconds(1))
      for task in tasks { await task.value }
      #expect(log.values == [1, 2, 3], "round \(round)")
    }
  }

  @Test func advancingPartWayWakesOnlyThoseDue() async {
    let clock = TestClock()
    let log = Log<Int>()
    let tasks = await sleepers([1, 2], on: clock, executor: TestExecutor(), log: log)
    await clock.advance(by: .milliseconds(1500))
    #expect(log.values == [1])
    #expect(clock.sleeperCount == 1)
    #expect(clock.now.offset == .milliseconds(1500))
    await clock.advance(by: .milliseconds(500))
    for task in tasks { await task.value }
    #expect(log.values == [1, 2])
  }

  /// A sleeper that sleeps again on waking is woken again within the same advance.
  @Test func aSleeperThatSleepsAgainWakesAgainWithinOneAdvance() async {
    let clock = TestClock()
    let log = Log<Int>()
    let executor = TestExecutor()
    let task = Task(executorPreference: executor) { @Sendable () async -> Void in
      for tick in 1...3 {
        try? await clock.sleep(for: .seconds(1))
        log.append(tick)
      }
    }
    await executor.idle()
    await clock.advance(by: .seconds(2))
    #expect(log.values == [1, 2])
    await clock.run()
    await task.value
    #expect(log.values == [1, 2, 3])
    #expect(clock.now.offset == .seconds(3))
  }

  @Test func aCancelledSleeperWakesAtOnceWithCancellation() async {
    let clock = TestClock()
    let log = Log<Int>()
    let tasks = await sleepers([5], on: clock, executor: TestExecutor(), log: log)
    await clock.advance()
    #expect(clock.sleeperCount == 1)
    tasks[0].cancel()
    await tasks[0].value
    #expect(log.values == [-5])
    #expect(clock.sleeperCount == 0)
  }

  @Test func anImmediateClockNeverWaits() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(3600))
    #expect(clock.now.offset == .seconds(3600))
  }

  /// The debounce recipe: each change restarts the wait (`cancelInFlight`), and only the
  /// last one searches.
  @Test func debounceSearchesOnceAfterTheTypingStops() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) { Search(clock: clock) }
    await store.send(.queryChanged("h")) { $0.query = "h" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("ho")) { $0.query = "ho" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("hou")) { $0.query = "hou" }
    await clock.advance(by: .milliseconds(299))
    #expect(store.state.searches == [])
    await clock.advance(by: .milliseconds(1))
    await store.receive(.search) { $0.searches = ["hou"] }
    await store.finish()
  }
}

/// Searches for the query once it has not changed for 300 ms.
private struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var searches: [String] = []
  }
  enum Action: Equatable, Sendable { case queryChanged(String), search }
  enum CancelID { case debounce }
  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(300))
        await send(.search)
      }
      .cancellable(id: CancelID.debounce, cancelInFlight: true)
    case .search:
      state.searches.append(state.query)
      return .none
    }
  }
}
