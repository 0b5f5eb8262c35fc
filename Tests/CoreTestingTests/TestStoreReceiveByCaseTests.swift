import Core
import CoreTesting
import TestSupport
import Testing

extension Feature.Action {
  static let loadedPath = CasePath<Self, Int>(embed: Self.loaded) {
    if case .loaded(let value) = $0 { value } else { nil }
  }
  static let stepPath = CasePath<Self, Int>(embed: Self.step) {
    if case .step(let value) = $0 { value } else { nil }
  }
}

/// `receive` by case path, and skipping in-flight effects strictly.
@MainActor
struct TestStoreReceiveByCaseTests {
  @Test func anActionIsReceivedByItsCaseWithOrWithoutItsPayload() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.load) { $0.isLoading = true }
      await store.receive(Feature.Action.loadedPath) {
        $0.isLoading = false
        $0.count = 42
      }
      await store.send(.chain)
      await store.receive(Feature.Action.stepPath, 1) { $0.count = 43 }
      await store.receive(Feature.Action.stepPath, 2) { $0.count = 45 }
    }
    #expect(issues == [])
  }

  @Test func anotherPayloadFailsWithTheDiff() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.chain)
      await store.receive(Feature.Action.stepPath, 2) { $0.count = 1 }
      await store.receive(Feature.Action.stepPath, 2) { $0.count = 3 }
    }
    #expect(
      issues == [
        """
        The received action's payload does not match:

        - 2
        + 1

        (Expected: -, Received: +)
        """
      ])
  }

  @Test func anotherCaseFailsNamingTheActionReceived() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.chain)
      await store.receive(Feature.Action.loadedPath) { $0.count = 1 }
      await store.skipReceivedActions()
    }
    #expect(issues == ["Received unexpected action:\n\n  .step(1)"])
  }

  /// Out of exhaustivity, actions of other cases are skipped until one of the case arrives.
  @Test func nonExhaustiveReceiveByCaseSkipsOtherCases() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.chain)
      await store.receive(Feature.Action.stepPath, 2) { $0.count = 3 }
    }
    #expect(issues == [])
  }

  @Test(arguments: [false, true])
  func skippingInFlightEffectsWhenThereAreNoneFailsUnlessNotStrict(strict: Bool) async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 1 }
      await store.skipInFlightEffects(strict: strict)
    }
    #expect(issues == (strict ? ["There were no in-flight effects to skip."] : []))
  }
}
