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

@MainActor
struct CancellationTests {
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
    struct Host: Reducer {
      struct State: Equatable { var child: Loader.State? = Loader.State() }
      enum Action: Equatable, Sendable { case child(Loader.Action), dismiss }
      static let path = CasePath<Action, Loader.Action>(embed: Action.child) {
        if case .child(let action) = $0 { action } else { nil }
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case .dismiss = action { state.child = nil }
          return .none
        }
        .ifLet(\.child, action: Self.path) { Loader(delay: .milliseconds(50)) }
      }
    }
    let issues = await collectingIssues {
      let store = Store(initialState: Host.State(), reducer: Host())
      let task = store.send(.child(.load(cancelInFlight: false)))
      store.send(.dismiss)
      await task.finish()
      #expect(store.state.child == nil)
    }
    // The late answer was dropped, not delivered to a nil child (which would be reported).
    #expect(issues == [])
  }

  @Test func aParentIDDoesNotCancelAnIfLetChildUsingTheSameID() async {
    struct Host: Reducer {
      struct State: Equatable { var child: Loader.State? = Loader.State() }
      enum Action: Equatable, Sendable { case child(Loader.Action), cancelOwn }
      static let path = CasePath<Action, Loader.Action>(embed: Action.child) {
        if case .child(let action) = $0 { action } else { nil }
      }
      var body: some Reducer<State, Action> {
        Reduce { _, action in
          if case .cancelOwn = action { return .cancel(id: Loader.CancelID.load) }
          return .none
        }
        .ifLet(\.child, action: Self.path) { Loader(delay: .milliseconds(20)) }
      }
    }
    let store = Store(initialState: Host.State(), reducer: Host())
    let task = store.send(.child(.load(cancelInFlight: false)))
    store.send(.cancelOwn)
    await task.finish()
    #expect(store.state.child?.answers == [1])
  }
}
