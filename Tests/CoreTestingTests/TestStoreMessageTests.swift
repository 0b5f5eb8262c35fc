import Core
import CoreTesting
import TestSupport
import Testing

/// The advice and detail in `TestStore`'s failure messages: what to do about an effect
/// asleep on a test clock, and which row of a collection changed.
@MainActor
struct TestStoreMessageTests {
  @Test func anEffectAsleepOnATestClockAtFinishSuggestsAdvancingIt() async {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
      await store.send(.start)
      await untilAsleep(on: clock)
      await store.finish(timeout: .zero)
    }
    #expect(
      issues == [
        """
        An effect returned for this action is still running. It must complete before the \
        end of the test: …

          .start

        Waited 0 seconds. Make the effect finish (a client that returns), receive its \
        actions, cancel it from the feature, or call 'skipInFlightEffects()' if it is meant \
        to outlive the test.

        An effect is asleep on a 'TestClock' until 1.5 seconds (the clock is at 0 seconds): \
        a test clock's time moves only when the test moves it. Advance it, with 'await \
        clock.advance(by: .milliseconds(1500))' or 'await clock.run()'.
        """
      ])
  }

  @Test func aReceiveThatTimesOutWhileAnEffectSleepsOnATestClockSuggestsAdvancingIt() async {
    let clock = TestClock()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
      await store.send(.start)
      await untilAsleep(on: clock)
      await clock.advance(by: .seconds(1))
      await store.receive(.fired, timeout: .zero)
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        """
        Expected to receive .fired, but received none after 0 seconds.

        1 effect is still running. An effect is asleep on a 'TestClock' until 1.5 seconds \
        (the clock is at 1 second): a test clock's time moves only when the test moves it. \
        Advance it, with 'await clock.advance(by: .milliseconds(500))' or 'await clock.run()'.
        """
      ])
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
        A state change does not match expectation: …

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
  enum Action: Equatable, Sendable { case start, fired }
  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(1500))
        await send(.fired)
      }
    case .fired:
      state.fired = true
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
