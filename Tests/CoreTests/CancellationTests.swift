import Core
import TestSupport
import Testing

/// A feature whose load answers after `delay` with the request number.
private struct Loader: Reducer {
  struct State: Equatable {
    var requests = 0
    var answers: [Int] = []
  }
  enum Action: Equatable, Sendable {
    case load(cancelInFlight: Bool), cancel, answer(Int)
  }
  enum CancelID { case load }
  let delay: Duration

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load(let cancelInFlight):
      state.requests += 1
      let request = state.requests
      let delay = delay
      return .run { send in
        try await Task.sleep(for: delay)
        await send(.answer(request))
      }
      .cancellable(id: CancelID.load, cancelInFlight: cancelInFlight)
    case .cancel:
      return .cancel(id: CancelID.load)
    case .answer(let value):
      state.answers.append(value)
      return .none
    }
  }
}

/// A Loader shown while its state is there: dismissed by setting it to nil, and able to
/// cancel the Loader's own id from outside the child.
private struct DismissableLoader: Reducer {
  struct State: Equatable { var child: Loader.State? = Loader.State() }
  enum Action: Equatable, Sendable { case child(Loader.Action), dismiss, cancelOwn }
  static let path = CasePath<Action, Loader.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .dismiss: state.child = nil
      case .cancelOwn: return .cancel(id: Loader.CancelID.load)
      case .child: break
      }
      return .none
    }
    .ifLet(\.child, action: Self.path) { Loader(delay: .milliseconds(50)) }
  }
}

/// A Loader with an identity: `renumber` changes it from inside.
private struct Shown: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var loader = Loader.State()
  }
  enum Action: Equatable, Sendable { case loader(Loader.Action), renumber(Int) }
  static let path = CasePath<Action, Loader.Action>(embed: Action.loader) {
    if case .loader(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.loader, action: Self.path) { Loader(delay: .milliseconds(50)) }
    Reduce { state, action in
      if case .renumber(let id) = action { state.id = id }
      return .none
    }
  }
}

/// Presents one `Shown` at a time; showing one starts its load.
private struct Presenter: Reducer {
  struct State: Equatable { var shown: Shown.State? }
  enum Action: Equatable, Sendable {
    case shown(Shown.Action), show(id: Int), dismiss, reopen(id: Int), touch, swap(id: Int)
  }
  static let path = CasePath<Action, Shown.Action>(embed: Action.shown) {
    if case .shown(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    // Starts the load of the child a swap brings in, though the swap is made below.
    Reduce { _, action in
      guard case .swap = action else { return .none }
      return .send(.shown(.loader(.load(cancelInFlight: false))))
    }
    Reduce { state, action in
      switch action {
      case .swap(let id):
        state.shown = Shown.State(id: id)
      case .show(let id):
        state.shown = Shown.State(id: id)
        return .send(.shown(.loader(.load(cancelInFlight: false))))
      case .dismiss:
        state.shown = nil
      case .reopen(let id):
        state.shown = nil
        return .send(.show(id: id))
      case .touch:
        state.shown?.loader.requests += 10
      case .shown:
        break
      }
      return .none
    }
    .ifLet(\.shown, action: Self.path) { Shown() }
  }
}

@MainActor
struct CancellationTests {
  /// Starts `work` under the id "work" (its actions are appended to the state), cancels
  /// that id at once, and waits for the effect to end.
  func startThenCancel(_ work: Effect<String>) async -> (task: StoreTask, state: [String]) {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        switch action {
        case "go": return work
        case "stop": return .cancel(id: "work")
        default:
          state.append(action)
          return .none
        }
      }
    }
    let task = store.send("go")
    store.send("stop")
    await task.finish()
    return (task, store.state)
  }

  @Test func cancelByIDStopsTheEffect() async {
    let store = Store(initialState: Loader.State(), reducer: Loader(delay: .milliseconds(200)))
    let task = store.send(.load(cancelInFlight: false))
    store.send(.cancel)
    await task.finish()
    #expect(store.state.answers == [])
  }

  @Test func cancelInFlightLetsOnlyTheLatestAnswer() async {
    let store = Store(initialState: Loader.State(), reducer: Loader(delay: .milliseconds(50)))
    let first = store.send(.load(cancelInFlight: true))
    let second = store.send(.load(cancelInFlight: true))
    await first.finish()
    await second.finish()
    #expect(store.state.answers == [2])
  }

  @Test func aNoneEffectWithCancelInFlightStillCancelsTheRunningOne() async {
    // "Latest request wins" when the latest request needs no work (an empty search).
    let store = Store(initialState: Loader.State()) {
      Reduce<Loader.State, Loader.Action> { state, action in
        if case .cancel = action {
          return Effect.none.cancellable(id: Loader.CancelID.load, cancelInFlight: true)
        }
        return Loader(delay: .milliseconds(200)).reduce(into: &state, action: action)
      }
    }
    let task = store.send(.load(cancelInFlight: false))
    store.send(.cancel)
    await task.finish()
    #expect(task.isCancelled)
    #expect(store.state.answers == [])
  }

  @Test func anEffectIDGivenAsTheIDIsTheSameID() async {
    let work = Effect<String>.run { send in
      try await Task.sleep(for: .seconds(30))
      await send("late")
    }
    let (task, state) = await startThenCancel(work.cancellable(id: EffectID("work")))
    #expect(task.isCancelled && state == [])
    #expect(EffectID(EffectID("work")) == EffectID("work"))
  }

  /// Cancelling is not a failure: a `catch` handler hears only other errors, and an error
  /// an operation throws because it was cancelled (a client's own "cancelled") is not
  /// reported as unhandled.
  @Test func cancellationReachesNeitherTheCatchHandlerNorTheIssueReporter() async {
    struct Stopped: Error {}
    let log = Log<String>()
    let issues = await collectingIssues {
      let handled = Effect<String>.run { _ in
        try await Task.sleep(for: .seconds(30))
      } catch: { error, _ in
        log.append("handler: \(error)")
      }
      let unhandled = Effect<String>.run { _ in
        do { try await Task.sleep(for: .seconds(30)) } catch { throw Stopped() }
      }
      for effect in [handled, unhandled] {
        let (task, state) = await startThenCancel(effect.cancellable(id: "work"))
        #expect(task.isCancelled && state == [])
      }
    }
    #expect(log.values == [])
    #expect(issues == [])
  }

  @Test func withoutCancelInFlightBothAnswer() async {
    let store = Store(initialState: Loader.State(), reducer: Loader(delay: .milliseconds(20)))
    let first = store.send(.load(cancelInFlight: false))
    let second = store.send(.load(cancelInFlight: false))
    await first.finish()
    await second.finish()
    #expect(store.state.answers.sorted() == [1, 2])
  }

  @Test func cancellingAFinishedEffectIsHarmless() async {
    let store = Store(initialState: Loader.State(), reducer: Loader(delay: .zero))
    await store.send(.load(cancelInFlight: false)).finish()
    store.send(.cancel)
    store.send(.cancel)
    #expect(store.state.answers == [1])
  }

  @Test func cancellingAnUnknownIDIsHarmless() {
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, _ in
        state += 1
        return .cancel(id: "never used")
      }
    }
    store.send(1)
    #expect(store.state == 1)
  }

  @Test func cancellingAParentIDCancelsTheChildEffectsItWraps() async {
    // The parent wraps the child's (mapped) effect in its own cancellable id.
    struct Wrapper: Reducer {
      enum Action: Equatable, Sendable { case child(Loader.Action), cancelAll }
      static let path = CasePath<Action, Loader.Action>(embed: Action.child) {
        if case .child(let action) = $0 { action } else { nil }
      }
      var body: some Reducer<Loader.State, Action> {
        Reduce { state, action in
          switch action {
          case .child(let child):
            return Loader(delay: .milliseconds(100)).reduce(into: &state, action: child)
              .map(Action.child).cancellable(id: "parent")
          case .cancelAll:
            return .cancel(id: "parent")
          }
        }
      }
    }
    let store = Store(initialState: Loader.State(), reducer: Wrapper())
    let task = store.send(.child(.load(cancelInFlight: false)))
    store.send(.cancelAll)
    await task.finish()
    #expect(store.state.answers == [])
  }

  @Test func dismissingAnIfLetChildCancelsItsEffects() async {
    let issues = await collectingIssues {
      let store = Store(initialState: DismissableLoader.State(), reducer: DismissableLoader())
      let task = store.send(.child(.load(cancelInFlight: false)))
      store.send(.dismiss)
      await task.finish()
      #expect(store.state.child == nil)
    }
    // The late answer was dropped, not delivered to a nil child (which would be reported).
    #expect(issues == [])
  }

  @Test func dismissingANestedIfLetChildCancelsItsEffects() async {
    // The grandchild's effects live in a namespace inside the child's; the child clears
    // the grandchild, so the cancellation must name that nested namespace.
    struct Host: Reducer {
      struct State: Equatable { var child: DismissableLoader.State? = DismissableLoader.State() }
      enum Action: Equatable, Sendable { case child(DismissableLoader.Action) }
      static let path = CasePath<Action, DismissableLoader.Action>(embed: Action.child) {
        if case .child(let action) = $0 { action } else { nil }
      }
      var body: some Reducer<State, Action> {
        EmptyReducer().ifLet(\.child, action: Self.path) { DismissableLoader() }
      }
    }
    let issues = await collectingIssues {
      let store = Store(initialState: Host.State(), reducer: Host())
      let task = store.send(.child(.child(.load(cancelInFlight: false))))
      store.send(.child(.dismiss))
      await task.finish()
      #expect(task.isCancelled)
      #expect(store.state.child == DismissableLoader.State(child: nil))
    }
    #expect(issues == [])
  }

  @Test func cancelInFlightStillAppliesToAScopedChildsEffects() async {
    // A child's effect reaches the store mapped into the parent's actions; the mapping
    // must keep its cancellation settings.
    struct Host: Reducer {
      struct State: Equatable { var child = Loader.State() }
      enum Action: Equatable, Sendable { case child(Loader.Action) }
      static let path = CasePath<Action, Loader.Action>(embed: Action.child) {
        if case .child(let action) = $0 { action } else { nil }
      }
      var body: some Reducer<State, Action> {
        Scope(state: \.child, action: Self.path) { Loader(delay: .milliseconds(50)) }
      }
    }
    let store = Store(initialState: Host.State(), reducer: Host())
    let first = store.send(.child(.load(cancelInFlight: true)))
    let second = store.send(.child(.load(cancelInFlight: true)))
    #expect(first.isCancelled)
    await first.finish()
    await second.finish()
    #expect(store.state.child.answers == [2])
  }

  /// After cancellation nothing more may arrive: not a concatenation's next step, nor a
  /// send from an effect that swallows the cancellation (`try?`) and runs on.
  @Test(arguments: [true, false])
  func aCancelledEffectDeliversNothingMore(concatenated: Bool) async {
    let wait = Effect<String>.run { _ in try? await Task.sleep(for: .seconds(30)) }
    let ignoring = Effect<String>.run { send in
      try? await Task.sleep(for: .seconds(30))
      await send("late")
    }
    let work = concatenated ? .concatenate(wait, .send("late")) : ignoring
    let (_, state) = await startThenCancel(work.cancellable(id: "work"))
    #expect(state == [])
  }

  @Test func replacingAnIfLetChildByAnotherIdentityCancelsTheOldOnesEffects() async {
    let issues = await collectingIssues {
      let store = Store(initialState: Presenter.State(), reducer: Presenter())
      let first = store.send(.show(id: 1))
      let second = store.send(.show(id: 2))
      await first.finish()
      await second.finish()
      #expect(first.isCancelled)
      // Only the second child's own answer: the first one's (also request 1) was dropped.
      #expect(store.state.shown == Shown.State(id: 2, loader: Loader.State(requests: 1, answers: [1])))
    }
    #expect(issues == [])
  }

  @Test func aReplacedChildsCancellationSparesTheNewOnesEffectsStartedBeforeIt() async {
    // The sibling reducer's effect starts the new child's load before the ifLet's
    // cancellation of the old child runs: only the old one's id is cancelled.
    let store = Store(initialState: Presenter.State(), reducer: Presenter())
    let first = store.send(.show(id: 1))
    let second = store.send(.swap(id: 2))
    await first.finish()
    await second.finish()
    #expect(first.isCancelled)
    #expect(!second.isCancelled)
    #expect(store.state.shown == Shown.State(id: 2, loader: Loader.State(requests: 1, answers: [1])))
  }

  @Test func anIfLetChildWhoseIdentityStaysKeepsItsEffects() async {
    let store = Store(initialState: Presenter.State(), reducer: Presenter())
    let task = store.send(.show(id: 1))
    store.send(.touch)
    await task.finish()
    #expect(store.state.shown?.loader == Loader.State(requests: 11, answers: [1]))
  }

  @Test func anIfLetChildShownAgainInTheSameSendKeepsTheNewOnesEffects() async {
    // Dismissing cancels the old child's effects before the parent's own effects run, so
    // the new child's load, started by them, lives on.
    let store = Store(initialState: Presenter.State(), reducer: Presenter())
    let first = store.send(.show(id: 1))
    let second = store.send(.reopen(id: 1))
    await first.finish()
    await second.finish()
    #expect(first.isCancelled)
    #expect(!second.isCancelled)
    #expect(store.state.shown?.loader.answers == [1])
  }

  @Test func aChildThatChangedItsOwnIdentityLosesAllItsEffectsWhenDismissed() async {
    let issues = await collectingIssues {
      let store = Store(initialState: Presenter.State(), reducer: Presenter())
      let task = store.send(.show(id: 1))
      store.send(.shown(.renumber(5)))
      store.send(.dismiss)
      await task.finish()
      #expect(task.isCancelled)
    }
    #expect(issues == [])
  }

  /// Work an effect starts without awaiting it (an unstructured `Task`) outlives the
  /// effect, and cancellation cannot reach it: its sends must not land.
  @Test(arguments: [false, true])
  func aSendUsedAfterItsEffectEndedIsReportedAndDropped(cancelled: Bool) async {
    let gate = Gate()
    let sent = Log<String>()
    let issues = await collectingIssues {
      let store = Store(initialState: [String]()) {
        Reduce<[String], String> { state, action in
          switch action {
          case "go":
            return .run { send in
              Task {
                await gate.wait()
                await send("late")
                sent.append("late")
              }
              if cancelled { try await Task.sleep(for: .seconds(30)) }
            }
            .cancellable(id: "work")
          case "stop":
            return .cancel(id: "work")
          default:
            state.append(action)
            return .none
          }
        }
      }
      let task = store.send("go")
      if cancelled { store.send("stop") }
      await task.finish()
      await gate.open()
      #expect(await eventually { sent.values == ["late"] })
      #expect(store.state == [])
    }
    #expect(
      issues == [
        """
        An effect sent an action after it had ended (finished or cancelled); it was dropped:
          "late"
        The effect's 'send' was used from work the effect did not await (an unstructured \
        'Task', say). Await that work inside the effect, so that cancelling the effect \
        reaches it too.
        """
      ])
  }

  @Test func aParentIDDoesNotCancelAnIfLetChildUsingTheSameID() async {
    let store = Store(initialState: DismissableLoader.State(), reducer: DismissableLoader())
    let task = store.send(.child(.load(cancelInFlight: false)))
    store.send(.cancelOwn)
    await task.finish()
    #expect(store.state.child?.answers == [1])
  }
}
