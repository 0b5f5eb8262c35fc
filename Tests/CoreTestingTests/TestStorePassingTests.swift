import Core
import CoreTesting
import TestSupport
import Testing

@MainActor
struct TestStorePassingTests {
  @Test func anExhaustiveHappyPathPasses() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 1 }
      await store.send(.load) { $0.isLoading = true }
      await store.receive(.loaded(42)) {
        $0.isLoading = false
        $0.count = 42
      }
      await store.send(.chain)
      await store.receive(.step(1)) { $0.count = 43 }
      await store.receive(.step(2)) { $0.count = 45 }
      await store.finish()
    }
    #expect(issues == [])
  }

  @Test func anActionThatChangesNothingNeedsNoClosure() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.noop)
    }
    #expect(issues == [])
  }

  @Test func receiveByPredicateWorksForAnyAction() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.load) { $0.isLoading = true }
      await store.receive({ if case .loaded = $0 { true } else { false } }) {
        $0.isLoading = false
        $0.count = 42
      }
    }
    #expect(issues == [])
  }

  @Test func skippingReceivedActionsAndInFlightEffectsIsAllowed() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.chain)
      await store.skipReceivedActions()
      #expect(store.state.count == 3)
      await store.send(.longLiving)
      await store.skipInFlightEffects()
      await store.finish()
    }
    #expect(issues == [])
  }

  /// `finish()` waits for an effect that ends by itself, though it sends nothing to wait for.
  @Test func finishWaitsForAnEffectThatEndsByItself() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.settle)
      await store.finish(timeout: Duration.seconds(5).scaled)  // generous: a loaded machine
    }
    #expect(issues == [])
  }

  @Test func cancellingTheTaskOfALongLivingEffectEndsIt() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      let task = await store.send(.longLiving)
      #expect(!task.isEmpty)
      await task.cancel()
      // Generous: the cancelled effect only has to be scheduled once to end.
      await store.finish(timeout: Duration.seconds(5).scaled)
    }
    #expect(issues == [])
  }

  /// A feature that cancels its own effect has ended it, as far as the test is concerned,
  /// when the cancelling action returns: the effect's task may not have run again yet, but
  /// a test that ends there (the store released, or finished) must not see it as running.
  @Test func anEffectTheFeatureCancelledIsNotRunningAfterwards() async {
    let issues = await collectingIssues {
      var store: TestStore<Feature.State, Feature.Action>? = TestStore(initialState: Feature.State()) {
        Feature()
      }
      await store?.send(.longLiving)
      await store?.send(.stopLongLiving)
      store = nil
      let finished = TestStore(initialState: Feature.State()) { Feature() }
      await finished.send(.longLiving)
      await finished.send(.stopLongLiving)
      await finished.finish(timeout: .zero)
    }
    #expect(issues == [])
  }

  @Test func awaitingTheTaskOfAnActionWaitsForItsEffect() async {
    let gate = Gate()
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) {
        Feature(answer: {
          await gate.wait()
          return 7
        })
      }
      let task = await store.send(.load) { $0.isLoading = true }
      await gate.open()
      await task.finish()
      #expect(store.state.count == 7)
      await store.receive(.loaded(7)) {
        $0.isLoading = false
        $0.count = 7
      }
      #expect(await store.send(.increment) { $0.count = 8 }.isEmpty)
    }
    #expect(issues == [])
  }

  @Test func nonExhaustiveModeChecksOnlyWhatIsAsserted() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.increment)  // change not asserted: fine
      await store.send(.chain)
      await store.receive(.step(2)) { $0.count = 4 }  // .step(1) skipped
      await store.send(.longLiving)
      await store.finish()  // cancels the long-living effect
    }
    #expect(issues == [])
  }

  @Test func assertChecksTheCurrentStateInEitherMode() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.chain)
      await store.receive(.step(2))  // .step(1) skipped, the count not asserted
      await store.assert { $0.count = 3 }
      store.exhaustivity = .on
      await store.assert { _ in }  // nothing changed since: fine in exhaustive mode too
      await store.finish()
    }
    #expect(issues == [])
  }

  @Test func assertingTheCurrentStateWronglyFailsWithTheDiff() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.chain)
      await store.skipReceivedActions()
      await store.assert { $0.count = 4 }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation:

          Feature.State(
        -   count: 4
        +   count: 3
            … (2 unchanged)
          )

        (Expected: -, Actual: +)
        """
      ])
  }

  /// Whatever shape a feature's synchronous effects take (random trees of sends, merges,
  /// concatenations, namespaces, cancellations), the test store hands over the actions
  /// they send in the order they were reduced, each with the state it left.
  @Test func receivesTheActionsOfSynchronousEffectsOfAnyShapeInOrder() async {
    var random = RandomEffects(seed: 0xD1B5_4A32_D192_ED03, withTasks: false)
    let issues = await collectingIssues {
      for _ in 0..<300 {
        let trees = random.reducer()
        let store = TestStore(initialState: [Int]()) { trees.reducer }
        await store.send(0) { $0 = [0] }
        for action in trees.expected(0).dropFirst() {
          await store.receive(action) { $0.append(action) }
        }
        await store.finish()
      }
    }
    #expect(issues == [])
  }

  /// Non-exhaustive, a test may receive any of those actions in order and skip the rest:
  /// each `receive` takes the first match after the last one received (the earliest of
  /// equal actions) and asserts the state as it left it.
  @Test func nonExhaustiveReceivesAnyActionsInOrderSkippingTheRest() async {
    var random = RandomEffects(seed: 0x94D0_49BB_1331_11EB, withTasks: false)
    var choices = RandomEffects(seed: 0x2545_F491_4F6C_DD1D, withTasks: false)
    let issues = await collectingIssues {
      for _ in 0..<300 {
        let trees = random.reducer()
        let store = TestStore(initialState: [Int]()) { trees.reducer }
        store.exhaustivity = .off
        await store.send(0)
        let reduced = trees.expected(0)
        var next = 1
        while next < reduced.count, choices.next(6) != 0 {
          let action = reduced[next + choices.next(min(3, reduced.count - next))]
          let match = reduced[next...].firstIndex(of: action)!
          await store.receive(action) { $0 = Array(reduced[...match]) }
          next = match + 1
        }
        await store.finish()
      }
    }
    #expect(issues == [])
  }

  @Test func nonExhaustiveModeStillCatchesAWrongAssertion() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.hasPrefix("A state change does not match expectation") == true)
  }
}
