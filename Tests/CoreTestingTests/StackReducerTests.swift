import Core
import CoreTesting
import TestSupport
import Testing

/// A stack's `forEach`: actions by id, pops, self-dismissal, the cancellation of a popped
/// element's effects, and the issues it reports.
@MainActor
struct StackReducerTests {
  @Test func anActionReachesOnlyTheElementItIsAddressedTo() async {
    let store = TestStore(initialState: Screens.State(path: [Screen.State(), Screen.State()])) {
      Screens()
    }
    await store.send(.path(.element(id: 1, action: .increment))) { $0.path[id: 1]?.count = 1 }
    await store.finish()
  }

  @Test func popToCancelsTheEffectsOfEveryElementAboveAndKeepsTheRest() async {
    let store = TestStore(
      initialState: Screens.State(path: [Screen.State(), Screen.State(), Screen.State()])
    ) {
      Screens()
    }
    await store.send(.path(.element(id: 0, action: .listen)))
    await store.send(.path(.element(id: 1, action: .listen)))
    await store.send(.path(.element(id: 2, action: .listen)))
    await store.send(.popTo(0)) { $0.path.pop(to: 0) }
    // Element 0's effect still runs: the store says so, and names the action.
    let issues = await collectingIssues { await store.finish(timeout: .zero) }
    #expect(issues.count == 1)
    #expect(issues.first?.contains(".element(id: #0, action: .listen)") == true, "\(issues)")
  }

  @Test func anElementThatDismissesItselfFromAnEffectIsPopped() async {
    let store = TestStore(initialState: Screens.State(path: [Screen.State(), Screen.State()])) {
      Screens()
    }
    await store.send(.path(.element(id: 1, action: .closeLater)))
    await store.receive(.path(.popFrom(id: 1))) { $0.path.popLast() }
    await store.finish()
  }

  @Test func aCaseWithSeveralValuesIsReceivedWithItsPayload() async {
    let store = TestStore(initialState: Screens.State(path: [Screen.State()])) { Screens() }
    await store.send(.path(.element(id: 0, action: .closeNow)))
    await store.receive(Screens.Action.path, .popFrom(id: 0)) { $0.path = [] }
    await store.finish()
  }

  @Test func anActionForAnElementNotInTheStackIsReportedAndIgnored() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Screens.State(path: [Screen.State()])) { Screens() }
      await store.send(.path(.element(id: 4, action: .increment)))
    }
    #expect(
      issues == [
        """
        A stack's 'forEach' received an action for an element that is not in the stack:
          id: #4
          .increment
        The action was ignored. Usually a late effect of a popped element.
        """
      ])
  }

  @Test func aPopOfAnElementNotInTheStackIsReportedAndChangesNothing() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Screens.State(path: [Screen.State()])) { Screens() }
      await store.send(.path(.popFrom(id: 3)))
    }
    #expect(
      issues == [
        """
        A stack's 'forEach' received '.popFrom(id: #3)' for an element that is not in the \
        stack; it was ignored. Usually a second pop of the same element.
        """
      ])
  }

  @Test func aWrongAssertionOnAnElementShowsItsId() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Screens.State(path: [Screen.State(), Screen.State()])) {
        Screens()
      }
      await store.send(.path(.element(id: 1, action: .increment))) { $0.path[id: 1]?.count = 2 }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation:

          Screens.State(
            path: Stack<Screen.State>(
              … (1 unchanged)
              #1: Screen.State(
        -       count: 2
        +       count: 1
              )
            )
          )

        (Expected: -, Actual: +)
        """
      ])
  }
}

private struct Screen: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Sendable { case increment, listen, closeLater, closeNow }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .listen:
      return .run { _ in try await Task.sleep(for: .seconds(3600)) }
    case .closeLater:
      return .run { send in await send.dismiss() }
    case .closeNow:
      return .dismiss
    }
  }
}

private struct Screens: Reducer {
  struct State: Equatable { var path = Stack<Screen.State>() }
  enum Action: Equatable, Sendable {
    case popTo(StackElementID)
    case path(StackAction<Screen.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .popTo(let id) = action { state.path.pop(to: id) }
      return .none
    }
    .forEach(\.path, action: Action.path) { Screen() }
  }
}
