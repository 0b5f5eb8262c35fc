import Core
import CoreTesting
import TestSupport
import Testing

/// The advice and detail in `TestStore`'s failure messages: what to do about an effect
/// asleep on a test clock, and which row of a collection changed.
@MainActor
struct TestStoreMessageTests {
  /// The store's timeout is an hour: a `finish` that waited on the wall clock for an
  /// effect asleep on a test clock would run into the time limit.
  @Test(.timeLimit(.minutes(1))) func anEffectAsleepOnATestClockAtFinishFailsAtOnceAndSuggestsAdvancingIt()
    async
  {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
      store.timeout = .seconds(3600)
      await store.send(.start)
      await store.finish()
    }
    #expect(
      issues == [
        """
        An effect returned for this action is still running. It must complete before the \
        end of the test:

          .start

        Make the effect finish (a client that returns), receive its actions, cancel it \
        from the feature, or call 'skipInFlightEffects()' if it is meant to outlive the test.

        An effect is asleep on a 'TestClock' until 1.5 seconds (the clock is at 0 seconds): \
        a test clock's time moves only when the test moves it. Advance it, with 'await \
        clock.advance(by: .milliseconds(1500))' or 'await clock.run()'.
        """
      ])
  }

  @Test(.timeLimit(.minutes(1))) func aReceiveThatCannotSucceedWhileEffectsSleepOnATestClockFailsAtOnce()
    async
  {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
      store.timeout = .seconds(3600)
      await store.send(.start)
      await clock.advance(by: .seconds(1))
      await store.receive(.fired)
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        """
        Expected to receive .fired, but received none, and nothing but the test can change \
        that: 1 effect is running, every one asleep on a 'TestClock'.

        An effect is asleep on a 'TestClock' until 1.5 seconds (the clock is at 1 second): \
        a test clock's time moves only when the test moves it. Advance it, with 'await \
        clock.advance(by: .milliseconds(500))' or 'await clock.run()'.
        """
      ])
  }

  /// An endless timer: `finish` out of exhaustivity cancels it at once, however long the
  /// timeout.
  @Test(.timeLimit(.minutes(1))) func aNonExhaustiveFinishCancelsAnEndlessTimerAtOnce() async {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Ticker.State()) { Ticker(clock: clock) }
      store.exhaustivity = .off
      store.timeout = .seconds(3600)
      await store.send(.start)
      await clock.advance(by: .seconds(3))
      await store.receive(.tick)
      await store.finish()
      #expect(clock.sleeperCount == 0)
    }
    #expect(issues == [])
  }

  /// A timer the clock has woken before needs cancelling, not advancing.
  @Test(.timeLimit(.minutes(1))) func anEndlessTimerAtFinishIsToBeCancelled() async {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Ticker.State()) { Ticker(clock: clock) }
      store.timeout = .seconds(3600)
      await store.send(.start)
      await clock.advance(by: .seconds(2))
      await store.receive(.tick) { $0.ticks = 1 }
      await store.receive(.tick) { $0.ticks = 2 }
      await store.finish()
    }
    #expect(
      issues == [
        """
        An effect returned for this action is still running. It must complete before the \
        end of the test:

          .start

        Make the effect finish (a client that returns), receive its actions, cancel it \
        from the feature, or call 'skipInFlightEffects()' if it is meant to outlive the test.

        An effect is asleep on a 'TestClock' until 3 seconds (the clock is at 2 seconds): \
        a test clock's time moves only when the test moves it. It has woken 2 times and \
        slept again: a timer, which no advance ends. Stop it: send the action that cancels \
        it, or call 'skipInFlightEffects()' if it is meant to run on.
        """
      ])
  }

  /// An effect that waits on something outside the test (here a real sleep) beside one
  /// asleep on a test clock: the store waits its timeout, as it must.
  @Test func anEffectWaitingOutsideTheTestIsWaitedForEvenBesideATestClocksSleeper() async {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
      await store.send(.start)
      await store.send(.startOutside)
      await store.finish(timeout: .zero)
    }
    #expect(issues.count == 2)
    #expect(issues.allSatisfy { $0.contains("Waited 0 seconds.") }, "\(issues)")
  }

  /// Only this store's effects count: another store's sleeper on the same clock gives no
  /// advice here.
  @Test func anotherStoresSleepingEffectGivesNoAdvice() async {
    let clock = TestClock()
    let sleeping = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
    sleeping.exhaustivity = .off
    await sleeping.send(.start)
    await untilAsleep(on: clock)
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.longLiving)
      await store.finish(timeout: .zero)
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("'TestClock'") == false, "\(issues)")
    #expect(clock.sleeperCount == 1)
  }

  @Test func aChangedRowOfAnIdentifiedArrayIsShownWithItsID() async {
    let issues = await collectingIssues {
      let store = TestStore(
        initialState: Rows.State(rows: IdentifiedArray([1, 2, 3, 4, 5].map { Rows.Row(id: $0) }))
      ) {
        Rows()
      }
      await store.send(.rename(id: 4, "pug")) { $0.rows[id: 4]?.name = "hound" }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation:

          Rows.State(
            rows: [
              … (3 unchanged)
              Rows.Row(
                id: 4
        -       name: "hound"
        +       name: "pug"
                … (1 unchanged)
              )
              … (1 unchanged)
            ]
          )

        (Expected: -, Actual: +)
        """
      ])
  }
}

/// Returns once a task sleeps on `clock` (an effect's task runs on another thread).
private func untilAsleep(on clock: TestClock) async {
  while clock.sleeperCount == 0 { await Task.yield() }
}

/// Fires once, a second and a half after it starts, on the clock it is given.
private struct Timer: Reducer {
  struct State: Equatable { var fired = false }
  enum Action: Equatable, Sendable { case start, startOutside, fired }
  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(1500))
        await send(.fired)
      }
    case .startOutside:
      return .run { _ in try await Task.sleep(for: .seconds(3600)) }
    case .fired:
      state.fired = true
      return .none
    }
  }
}

/// Ticks every second on the clock it is given, until cancelled.
private struct Ticker: Reducer {
  struct State: Equatable { var ticks = 0 }
  enum Action: Equatable, Sendable { case start, tick }
  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

private struct Rows: Reducer {
  struct Row: Identifiable, Equatable {
    var id: Int
    var name = ""
    var isFavourite = false
  }
  struct State: Equatable { var rows: IdentifiedArrayOf<Row> }
  enum Action: Equatable, Sendable { case rename(id: Int, String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let id, let name):
      state.rows[id: id]?.name = name
      return .none
    }
  }
}
