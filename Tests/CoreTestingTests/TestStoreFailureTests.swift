import Core
import CoreTesting
import TestSupport
import Testing

@MainActor
struct TestStoreFailureTests {
  @Test func aWrongAssertionFailsWithTheDiff() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation:

          Feature.State(
        -   count: 2
        +   count: 1
            … (2 unchanged)
          )

        (Expected: -, Actual: +)
        """
      ])
  }

  @Test func aWrongAssertionOnAReceivedActionFailsWithTheDiff() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.load) { $0.isLoading = true }
      await store.receive(.loaded(42)) {
        $0.isLoading = false
        $0.count = 41
      }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation:

          Feature.State(
        -   count: 41
        +   count: 42
            … (2 unchanged)
          )

        (Expected: -, Actual: +)
        """
      ])
  }

  @Test func anUnassertedChangeByAReceivedActionFails() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.chain)
      await store.receive(.step(1)) { $0.count = 1 }
      await store.receive(.step(2))
    }
    #expect(
      issues == [
        """
        State was not expected to change, but a change occurred:

          Feature.State(
        -   count: 1
        +   count: 3
            … (2 unchanged)
          )

        (Expected: -, Actual: +)
        """
      ])
  }

  @Test func oneUnhandledReceivedActionIsNamedInTheSingular() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.load) { $0.isLoading = true }.finish()
      await store.send(.increment) { $0.count += 1 }
    }
    #expect(
      issues == [
        """
        Must handle 1 received action before sending an action:

        Unhandled actions:
          .loaded(42)

        Assert each with 'receive', drop them with 'skipReceivedActions()', or set 'exhaustivity' \
        to '.off' to check only what the test asserts.
        """
      ])
  }

  /// A long list of unhandled actions (a runaway chain) shows the first ten and a count.
  @Test func aLongListOfUnhandledActionsShowsTheFirstTenAndACount() async {
    let issues = await collectingIssues {
      // Each action sends the next, to 24.
      let store = TestStore(initialState: 0) {
        Reduce<Int, Int> { state, action in
          state = action
          return action < 24 ? .send(action + 1) : .none
        }
      }
      await store.send(0)
      await store.finish()
    }
    #expect(
      issues == [
        """
        The store received 24 unexpected actions by the end of this test:

        Unhandled actions:
        \((1...10).map { "  \($0)" }.joined(separator: "\n"))
          … and 14 more

        Assert each with 'receive', drop them with 'skipReceivedActions()', or set 'exhaustivity' \
        to '.off' to check only what the test asserts.
        """
      ])
  }

  @Test func anUnassertedChangeFails() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.setText("hi"))
    }
    #expect(
      issues == [
        """
        State was not expected to change, but a change occurred:

          Feature.State(
            … (1 unchanged)
        -   text: ""
        +   text: "hi"
            … (1 unchanged)
          )

        (Expected: -, Actual: +)
        """
      ])
  }

  @Test func aClosureThatChangesNothingFails() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.noop) { $0.count = 0 }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.hasPrefix("Expected state to change, but no change occurred.") == true)
  }

  @Test func anUnexpectedReceivedActionFailsWithADiff() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.load) { $0.isLoading = true }
      await store.receive(.loaded(1)) {
        $0.isLoading = false
        $0.count = 42
      }
    }
    #expect(
      issues == [
        """
        Received unexpected action:

          .loaded(
        -   1
        +   42
          )

        (Expected: -, Received: +)
        """
      ])
  }

  /// With no effect running nothing can arrive, so it fails at once, not after the timeout. The
  /// timeout is an hour, so the bound below holds however loaded the machine is.
  @Test func anActionThatNoEffectCanSendFailsAtOnce() async {
    let start = ContinuousClock.now
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 1 }
      await store.receive(.loaded(1), timeout: .seconds(3600))
    }
    #expect(
      issues == [
        "Expected to receive .loaded(1), but received none, and no effect is running that could send it."
      ])
    #expect(ContinuousClock.now - start < .seconds(600))
  }

  @Test func anActionThatNeverArrivesWhileAnEffectRunsSaysSo() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.longLiving)
      await store.receive(.loaded(1), timeout: .milliseconds(50))
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        "Expected to receive .loaded(1), but received none after 0.05 seconds.\n\n1 effect is still running."
      ])
  }

  @Test(arguments: [false, true])
  func skippingReceivedActionsWhenThereAreNoneFailsUnlessNotStrict(strict: Bool) async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 1 }
      await store.skipReceivedActions(strict: strict)
    }
    #expect(issues == (strict ? ["There were no received actions to skip."] : []))
  }

  @Test func assertingWithUnhandledReceivedActionsFails() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.chain)
      await store.assert { $0.count = 3 }
    }
    #expect(
      issues == [
        """
        Must handle 2 received actions before asserting the state:

        Unhandled actions:
          .step(1)
          .step(2)

        Assert each with 'receive', drop them with 'skipReceivedActions()', or set 'exhaustivity' \
        to '.off' to check only what the test asserts.
        """
      ])
  }

  @Test func sendingWithUnhandledReceivedActionsFails() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.chain)
      // Relative to the state the unhandled actions left: one failure, not a second
      // for their changes.
      await store.send(.increment) { $0.count += 1 }
    }
    #expect(
      issues == [
        """
        Must handle 2 received actions before sending an action:

        Unhandled actions:
          .step(1)
          .step(2)

        Assert each with 'receive', drop them with 'skipReceivedActions()', or set 'exhaustivity' \
        to '.off' to check only what the test asserts.
        """
      ])
  }

  /// Reported once: a test that goes on after `finish()` starts from the state the
  /// unasserted actions left (1 + 2), and they are not reported again.
  @Test func unreceivedActionsFailAtFinish() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.chain)
      await store.receive(.step(1)) { $0.count = 1 }
      await store.finish()
      await store.send(.increment) { $0.count += 1 }
      #expect(store.state.count == 4)
      await store.finish()
    }
    #expect(
      issues == [
        """
        The store received 1 unexpected action by the end of this test:

        Unhandled actions:
          .step(2)

        Assert each with 'receive', drop them with 'skipReceivedActions()', or set 'exhaustivity' \
        to '.off' to check only what the test asserts.
        """
      ])
  }

  @Test func anEffectStillRunningFailsAtFinishNamingItsAction() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.longLiving)
      await store.finish(timeout: Duration.milliseconds(20).scaled)
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.hasPrefix(
        """
        An effect returned for this action is still running. It must complete before the \
        end of the test:

          .longLiving
        """) == true)
  }

  /// Several effects still running are reported in the order their actions were sent.
  @Test func effectsStillRunningAreReportedInTheOrderTheyStarted() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Int> { _, _ in .run { _ in try await Task.sleep(for: .seconds(3600)) } }
      }
      for action in 1...8 { await store.send(action) }
      await store.finish(timeout: Duration.milliseconds(20).scaled)
    }
    #expect(
      issues.map { $0.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).first }
        == (1...8).map { "  \($0)" })
  }

  /// An effect `finish()` reports as still running is ended there, not left to outlive the
  /// test.
  @Test func finishEndsTheEffectsItReportsStillRunning() async {
    var task: TestStoreTask?
    // Kept alive: releasing the store would end its effects anyway.
    var store: TestStore<Feature.State, Feature.Action>?
    let issues = await collectingIssues {
      store = TestStore(initialState: Feature.State()) { Feature() }
      task = await store?.send(.longLiving)
      await store?.finish(timeout: .zero)
    }
    #expect(issues.count == 1)
    defer { store = nil }
    guard let task else { return }
    let ended = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await task.finish(); return true
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(5)); return false
      }
      let first = await group.next() ?? false
      group.cancelAll()  // ends the effect if it was still running
      return first
    }
    #expect(ended, "the effect reported at finish() was still running 5 s later")
  }

  @Test func anEffectStillRunningAtFinishSaysHowLongItWaited() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.longLiving)
      await store.finish(timeout: .seconds(1))
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.contains("\n\nWaited 1 second. Make the effect finish (a client that returns),") == true)
  }

  /// What a non-exhaustive part left unasserted is the starting point of an exhaustive
  /// part after it.
  @Test func anExhaustivePartAfterANonExhaustiveOneStartsFromTheCurrentState() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.chain)
      await store.finish()
      store.exhaustivity = .on
      await store.send(.increment) { $0.count += 1 }
      #expect(store.state.count == 4)
      await store.finish()
    }
    #expect(issues == [])
  }

  @Test func aNonExhaustiveReceiveThatMatchesNothingSaysSo() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.chain)
      await store.receive(.loaded(1))
    }
    #expect(
      issues == [
        "Expected to receive .loaded(1), but no received action matched, and no effect is running that could send it."
      ])
  }

  @Test func aNonExhaustiveStoreMayBeLeftUnfinishedAndAssertValuesUnchanged() async {
    let issues = await collectingIssues {
      var store: TestStore<Feature.State, Feature.Action>? = TestStore(initialState: Feature.State()) {
        Feature()
      }
      store?.exhaustivity = .off
      await store?.send(.noop) { $0.isLoading = false }  // already false: fine here
      await store?.send(.chain)  // its actions never received
      await store?.send(.longLiving)  // never finished
      store = nil
    }
    #expect(issues == [])
  }

  /// A store released with an effect still running cancels it (an effect outliving its
  /// test would run on into the tests after it), reported or not.
  @Test func releasingAStoreCancelsTheEffectsItLeftRunning() async {
    actor Flag {
      var isSet = false
      func set() { isSet = true }
    }
    let cancelled = Flag()
    let issues = await collectingIssues {
      var store: TestStore<Int, Int>? = TestStore(initialState: 0) {
        Reduce { _, _ in
          .run { _ in
            do { try await Task.sleep(for: .seconds(3600)) } catch { await cancelled.set() }
          }
        }
      }
      store?.exhaustivity = .off
      await store?.send(1)
      store = nil
    }
    #expect(issues == [])
    let deadline = ContinuousClock.now + .seconds(10 * timeScale)
    while await !cancelled.isSet, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    #expect(await cancelled.isSet, "the effect was not cancelled")
  }

  @Test func anEffectStillRunningWhenTheStoreIsReleasedFails() async {
    let issues = await collectingIssues {
      var store: TestStore<Feature.State, Feature.Action>? = TestStore(initialState: Feature.State()) {
        Feature()
      }
      await store?.send(.longLiving)
      store = nil
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains(".longLiving") == true)
  }

  /// `finish()` checks what was sent before it, not what a test sends after it.
  @Test func anEffectStartedAfterFinishIsStillCheckedAtRelease() async {
    let issues = await collectingIssues {
      var store: TestStore<Feature.State, Feature.Action>? = TestStore(initialState: Feature.State()) {
        Feature()
      }
      await store?.send(.increment) { $0.count = 1 }
      await store?.finish()
      await store?.send(.longLiving)
      store = nil
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("An effect returned for this action is still running") == true)
    #expect(issues.first?.contains(".longLiving") == true)
  }

  @Test func aThrowingAssertionIsReported() async {
    struct Nope: Error {}
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { _ in throw Nope() }
    }
    #expect(issues == ["The assertion closure threw an error: Nope()"])
  }

  @Test func failuresReachSwiftTestingWithoutAnInjectedReporter() async {
    await withKnownIssue {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 99 }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("A state change does not match expectation") }
    }
  }

  @Test func coreReportIssueReachesSwiftTesting() {
    withKnownIssue {
      reportIssue("unimplemented: Example.endpoint")
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "unimplemented: Example.endpoint" }
    }
  }
}
