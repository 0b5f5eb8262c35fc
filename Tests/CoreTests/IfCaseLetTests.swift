import Core
import CoreTesting
import TestSupport
import Testing

/// `ifCaseLet`: a child reducer on one case of an enum state.
@MainActor
struct IfCaseLetTests {
  @Test func theChildRunsOnItsCaseAndThePayloadIsPutBack() async {
    let store = TestStore(initialState: Session.State.signedOut(Counter.State())) { Session() }
    await store.send(.signIn(.increment)) { $0 = .signedOut(Counter.State(count: 1)) }
    await store.send(.signIn(.increment)) { $0 = .signedOut(Counter.State(count: 2)) }
    await store.send(.switchToHome) { $0 = .signedIn(GatedLoader.State()) }
    await store.send(.home(.tick)) { $0 = .signedIn(GatedLoader.State(ticks: 1)) }
  }

  /// A child action for the case the state is not in is reported with the action and the
  /// case, and changes nothing.
  @Test func anActionForAnotherCaseIsReportedNamingTheActionAndTheCase() async {
    let store = Store(initialState: Session.State.signedOut(Counter.State())) { Session() }
    let issues = await collectingIssues { store.send(.home(.tick)) }
    #expect(store.state == .signedOut(Counter.State()))
    #expect(
      issues == [
        """
        An 'ifCaseLet' received a child action while its state was in another case:
          .tick
          state: .signedOut
        The action was ignored. Usually a late effect of a case that was left, or an action \
        sent for a case the state is not in.
        """
      ])
  }

  /// Leaving a case cancels its child's effects. The other case's child and a sibling
  /// feature, whose effects have the same cancel id, keep theirs.
  @Test func leavingACaseCancelsItsEffectsAndNotThoseOfOthersWithTheSameID() async {
    let (stageGate, siblingGate) = (Gate(), Gate())
    let store = TestStore(initialState: Screen.State()) {
      Screen(stageGate: stageGate, siblingGate: siblingGate)
    }
    await store.send(.sibling(.start))
    await store.send(.stage(.first(.start)))
    await store.send(.stage(.switchToSecond)) { $0.stage = .second(GatedLoader.State()) }
    await store.receive(.stage(.second(.start)))
    await stageGate.open()
    await store.receive(.stage(.second(.loaded))) { $0.stage = .second(GatedLoader.State(loaded: true)) }
    await siblingGate.open()
    await store.receive(.sibling(.loaded)) { $0.sibling.loaded = true }
    await store.finish()
  }
}

// MARK: - Features

/// A feature that ticks, and loads through a gate under the cancel id every loader uses.
struct GatedLoader: Reducer {
  struct State: Equatable {
    var ticks = 0
    var loaded = false
  }
  enum Action: Equatable, Sendable { case tick, start, loaded }
  enum CancelID { case load }
  var gate = Gate()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tick:
      state.ticks += 1
      return .none
    case .start:
      return .run { [gate] send in
        await gate.wait()
        await send(.loaded)
      }
      .cancellable(id: CancelID.load)
    case .loaded:
      state.loaded = true
      return .none
    }
  }
}

/// Signed out (a counter) or signed in (a loader).
private struct Session: Reducer {
  enum State: Equatable {
    case signedOut(Counter.State)
    case signedIn(GatedLoader.State)

    static let signedOutPath = CasePath<State, Counter.State>(embed: State.signedOut) {
      if case .signedOut(let state) = $0 { state } else { nil }
    }
    static let signedInPath = CasePath<State, GatedLoader.State>(embed: State.signedIn) {
      if case .signedIn(let state) = $0 { state } else { nil }
    }
  }
  enum Action: Equatable, Sendable {
    case signIn(Counter.Action)
    case home(GatedLoader.Action)
    case switchToHome

    static let signInPath = CasePath<Action, Counter.Action>(embed: Action.signIn) {
      if case .signIn(let action) = $0 { action } else { nil }
    }
    static let homePath = CasePath<Action, GatedLoader.Action>(embed: Action.home) {
      if case .home(let action) = $0 { action } else { nil }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .switchToHome = action { state = .signedIn(GatedLoader.State()) }
      return .none
    }
    .ifCaseLet(State.signedOutPath, action: Action.signInPath) { Counter() }
    .ifCaseLet(State.signedInPath, action: Action.homePath) { GatedLoader() }
  }
}

/// Two stages, each a loader, under the same cancel id.
private struct Stage: Reducer {
  enum State: Equatable {
    case first(GatedLoader.State)
    case second(GatedLoader.State)

    static let firstPath = CasePath<State, GatedLoader.State>(embed: State.first) {
      if case .first(let state) = $0 { state } else { nil }
    }
    static let secondPath = CasePath<State, GatedLoader.State>(embed: State.second) {
      if case .second(let state) = $0 { state } else { nil }
    }
  }
  enum Action: Equatable, Sendable {
    case first(GatedLoader.Action)
    case second(GatedLoader.Action)
    case switchToSecond

    static let firstPath = CasePath<Action, GatedLoader.Action>(embed: Action.first) {
      if case .first(let action) = $0 { action } else { nil }
    }
    static let secondPath = CasePath<Action, GatedLoader.Action>(embed: Action.second) {
      if case .second(let action) = $0 { action } else { nil }
    }
  }
  let gate: Gate

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      guard case .switchToSecond = action else { return .none }
      state = .second(GatedLoader.State())
      return .send(.second(.start))
    }
    .ifCaseLet(State.firstPath, action: Action.firstPath) { GatedLoader(gate: gate) }
    .ifCaseLet(State.secondPath, action: Action.secondPath) { GatedLoader(gate: gate) }
  }
}

/// The stages, and a loader beside them.
private struct Screen: Reducer {
  struct State: Equatable {
    var stage = Stage.State.first(GatedLoader.State())
    var sibling = GatedLoader.State()
  }
  enum Action: Equatable, Sendable {
    case stage(Stage.Action)
    case sibling(GatedLoader.Action)
  }
  let stageGate: Gate
  let siblingGate: Gate

  var body: some Reducer<State, Action> {
    Scope(
      state: \.stage,
      action: CasePath(embed: Action.stage) { if case .stage(let action) = $0 { action } else { nil } }
    ) { Stage(gate: stageGate) }
    Scope(
      state: \.sibling,
      action: CasePath(embed: Action.sibling) { if case .sibling(let action) = $0 { action } else { nil } }
    ) { GatedLoader(gate: siblingGate) }
  }
}
