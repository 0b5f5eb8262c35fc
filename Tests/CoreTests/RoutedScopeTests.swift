import Core
import TestSupport
import Testing

/// `Store.scope(state:)`: a child store found by its `Scope` (or `ifLet`), whose sends the
/// root embeds for the whole path at once.
@MainActor
struct RoutedScopeTests {
  @Test func aStoreScopedByStateSendsThroughTheScopesCasePath() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child: Store<Counter.State, Counter.Action> = store.scope(state: \.child)
    child.send(.increment)
    child.send(.set(5))
    #expect(child.state.count == 5)
    #expect(store.state.log == ["child increment", "child set(5)"])
  }

  @Test func aStoreScopedByStateTwiceSendsTheActionEmbeddedAtEveryLevel() {
    let store = Store(initialState: Outer.State()) { Outer() }
    let parent: Store<Parent.State, Parent.Action> = store.scope(state: \.parent)
    let child: Store<Counter.State, Counter.Action> = parent.scope(state: \.child)
    child.send(.increment)
    parent.send(.present)
    #expect(store.state.parent.child.count == 1)
    #expect(store.state.parent.optional == Counter.State())
    #expect(store.state.log == [.parent(.child(.increment)), .parent(.present)])
    #expect(child.state.count == 1)
  }

  /// Five `Scope`s have a `Counter` child and two a `Twins` child: each store reaches its
  /// own, in an order that goes down into a child before going on to the next scope.
  @Test func scopesWhoseChildrenShareAnActionTypeEachReachTheirOwn() {
    let store = Store(initialState: Family.State()) { Family() }
    let first: Store<Twins.State, Twins.Action> = store.scope(state: \.first)
    let second: Store<Twins.State, Twins.Action> = store.scope(state: \.second)
    let counters: [Store<Counter.State, Counter.Action>] = [
      first.scope(state: \.left), first.scope(state: \.right),
      second.scope(state: \.left), second.scope(state: \.right), store.scope(state: \.solo),
    ]
    for (index, counter) in counters.enumerated() { counter.send(.set(index + 1)) }
    first.send(.left(.increment))
    let state = store.state
    #expect(
      [state.first.left, state.first.right, state.second.left, state.second.right, state.solo].map(\.count)
        == [2, 2, 3, 4, 5])
    #expect(state.first.log == [.left(.set(1)), .right(.set(2)), .left(.increment)])
    #expect(state.second.log == [.left(.set(3)), .right(.set(4))])
  }

  @Test func aScopeIsFoundInsideCombineReducersAndTheParentsOfIfLetAndForEach() {
    let store = Store(initialState: Wrapped.State()) { Wrapped() }
    let child: Store<Counter.State, Counter.Action> = store.scope(state: \.child)
    child.send(.increment)
    #expect(store.state.child.count == 1)
  }

  @Test func aChildsEffectsComeBackToItThroughEveryLevel() async {
    let store = Store(initialState: EchoRoot.State()) { EchoRoot() }
    let host: Store<EchoHost.State, EchoHost.Action> = store.scope(state: \.host)
    let echo: Store<Counter.State, Counter.Action> = host.scope(state: \.echo)
    await echo.send(.set(3)).finish()
    #expect(echo.state.count == 4)
    #expect(store.state.log == [.host(.echo(.set(3))), .host(.echo(.increment))])
  }

  @Test func anIfLetChildIsFoundByStateAndUnwrappedWhileItIsThere() async throws {
    let store = Store(initialState: Parent.State()) { Parent() }
    let optional: Store<Counter.State?, Counter.Action> = store.scope(state: \.optional)
    #expect(optional.unwrapped() == nil)
    store.send(.present)
    let child = try #require(optional.unwrapped())
    var seen: [Int] = []
    let observation = child.observe({ $0.count }) { seen.append($0) }
    child.send(.increment)
    optional.send(.set(5))
    #expect(store.state.optional?.count == 5 && child.state.count == 5)
    // Gone: the child's store keeps the last state it saw, its observer is not called,
    // and its sends reach the `ifLet`, which reports them.
    store.send(.dismiss)
    #expect(optional.state == nil && child.state.count == 5)
    let issues = await collectingIssues { child.send(.increment) }
    #expect(issues.count == 1)
    #expect(
      issues.first?.hasPrefix("An 'ifLet' received a child action while its child state was nil") == true)
    #expect(seen == [1, 5])
    // A child state that comes back is the one the store reads and observes.
    store.send(.present)
    child.send(.set(7))
    #expect(store.state.optional?.count == 7 && child.state.count == 7)
    #expect(seen == [1, 5, 0, 7])
    observation.cancel()
  }

  /// Four `Counter` children: one by a `Scope` inside the parent of two `ifLet`s, two inside
  /// the first `ifLet`'s `Parent`, one the second `ifLet`'s own; each store reaches its own.
  @Test func scopesInsideAnIfLetChildAreFoundThroughItsUnwrappedStore() throws {
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.open)
    let guestOrNil: Store<Parent.State?, Parent.Action> = store.scope(state: \.guest)
    let guest = try #require(guestOrNil.unwrapped())
    guest.send(.present)
    let optional: Store<Counter.State?, Counter.Action> = guest.scope(state: \.optional)
    let spare: Store<Counter.State?, Counter.Action> = store.scope(state: \.spare)
    let solo: Store<Counter.State, Counter.Action> = store.scope(state: \.solo)
    let child: Store<Counter.State, Counter.Action> = guest.scope(state: \.child)
    let counters = [solo, child, try #require(optional.unwrapped()), try #require(spare.unwrapped())]
    for (index, counter) in counters.enumerated() { counter.send(.set(index + 1)) }
    let state = store.state
    #expect(
      [state.solo.count, state.guest?.child.count, state.guest?.optional?.count, state.spare?.count] == [
        1, 2, 3, 4,
      ])
    #expect(state.guest?.log == ["child set(2)"])
  }

  @Test func aStateNoScopeRunsIsReportedAndItsSendsDoNothing() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    let issues = await collectingIssues {
      let log: Store<[String], Parent.Action> = store.scope(state: \.log)
      log.send(.child(.increment))
    }
    let message = """
      'scope(state: \\State.log)' on a store of Parent.State: no 'Scope' or 'ifLet' in its reducer \
      runs that state; use 'scope(state:action:)'.
      """
    #expect(issues == [message, message])
    #expect(store.state.child.count == 0 && store.state.log.isEmpty)
  }

  @Test func aScopeOfAnotherChildActionTypeIsReported() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    let issues = await collectingIssues {
      let wrong: Store<Counter.State, Parent.Action> = store.scope(state: \.child)
      wrong.send(.present)
    }
    let message = """
      'scope(state: \\State.child)' on a store of Parent.State: the child there takes actions of \
      type Counter.Action, not Parent.Action.
      """
    #expect(issues == [message, message])
    #expect(store.state.optional == nil)
  }

  @Test func twoScopesOnOneStateAreReportedAsAmbiguous() async {
    let store = Store(initialState: Parent.State()) {
      CombineReducers {
        Scope(state: \.child, action: Parent.childPath) { Counter() }
        Scope(state: \.child, action: Parent.optionalPath) { Counter() }
      }
    }
    let issues = await collectingIssues {
      let child: Store<Counter.State, Counter.Action> = store.scope(state: \.child)
      child.send(.increment)
    }
    #expect(
      issues.first
        == """
        'scope(state: \\State.child)' on a store of Parent.State: more than one 'Scope' or 'ifLet' \
        runs that state; use 'scope(state:action:)' to say which.
        """)
    #expect(issues.count == 2)
    #expect(store.state.child.count == 0)
  }

  @Test func aStoreScopedWithAnActionClosureCannotBeScopedByState() async {
    let store = Store(initialState: Outer.State()) { Outer() }
    let parent = store.scope(state: \.parent, action: Outer.Action.parent)
    let issues = await collectingIssues {
      let child: Store<Counter.State, Counter.Action> = parent.scope(state: \.child)
      child.send(.increment)
    }
    let message = """
      'scope(state: \\State.child)' on a store of Parent.State: 'scope(state:)' needs a store \
      scoped only by state from the root; this one was scoped with an action closure. Use \
      'scope(state:action:)'.
      """
    #expect(issues == [message, message])
    #expect(store.state.parent.child.count == 0)
  }

  /// A `Scope` inside a builder's `if` may be there at one send and not the next, so it
  /// is not listed.
  @Test func aScopeInsideABuildersIfIsNotFound() async {
    let included = true
    let store = Store(initialState: Parent.State()) {
      if included {
        Scope(state: \.child, action: Parent.childPath) { Counter() }
      }
    }
    let issues = await collectingIssues {
      let child: Store<Counter.State, Counter.Action> = store.scope(state: \.child)
      child.send(.increment)
    }
    #expect(issues.count == 2)
    #expect(issues.first?.contains("no 'Scope' or 'ifLet' in its reducer runs") == true)
    #expect(store.state.child.count == 0)
    store.send(.child(.increment))
    #expect(store.state.child.count == 1)
  }
}

/// A counter of its own beside two optional children, a `Parent` (with a scoped and an
/// optional counter of its own) and a counter.
private struct Host: Reducer {
  struct State: Equatable {
    var solo = Counter.State()
    var guest: Parent.State?
    var spare: Counter.State?
  }
  enum Action: Equatable, Sendable {
    case solo(Counter.Action), guest(Parent.Action), spare(Counter.Action), open
  }
  var body: some Reducer<State, Action> {
    CombineReducers {
      Scope(
        state: \.solo, action: CasePath(embed: Action.solo) { if case .solo(let a) = $0 { a } else { nil } }
      ) { Counter() }
      Reduce { state, action in
        if case .open = action { (state.guest, state.spare) = (Parent.State(), Counter.State()) }
        return .none
      }
    }
    .ifLet(\.guest, action: CasePath(embed: Action.guest) { if case .guest(let a) = $0 { a } else { nil } }) {
      Parent()
    }
    .ifLet(\.spare, action: CasePath(embed: Action.spare) { if case .spare(let a) = $0 { a } else { nil } }) {
      Counter()
    }
  }
}

/// `Parent` one level down, logging every action it receives.
private struct Outer: Reducer {
  struct State: Equatable {
    var parent = Parent.State()
    var log: [Action] = []
  }
  enum Action: Equatable, Sendable { case parent(Parent.Action) }
  var body: some Reducer<State, Action> {
    Scope(
      state: \.parent,
      action: CasePath(embed: Action.parent) { if case .parent(let action) = $0 { action } else { nil } }
    ) { Parent() }
    Reduce { state, action in
      state.log.append(action)
      return .none
    }
  }
}

/// Two counters side by side, logging their actions.
private struct Twins: Reducer {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
    var log: [Action] = []
  }
  enum Action: Equatable, Sendable { case left(Counter.Action), right(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(
      state: \.left, action: CasePath(embed: Action.left) { if case .left(let a) = $0 { a } else { nil } }
    ) {
      Counter()
    }
    Scope(
      state: \.right, action: CasePath(embed: Action.right) { if case .right(let a) = $0 { a } else { nil } }
    ) {
      Counter()
    }
    Reduce { state, action in
      state.log.append(action)
      return .none
    }
  }
}

/// Two pairs of twins and a counter of their own.
private struct Family: Reducer {
  struct State: Equatable {
    var first = Twins.State()
    var second = Twins.State()
    var solo = Counter.State()
  }
  enum Action: Equatable, Sendable { case first(Twins.Action), second(Twins.Action), solo(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(
      state: \.first, action: CasePath(embed: Action.first) { if case .first(let a) = $0 { a } else { nil } }
    ) {
      Twins()
    }
    Scope(
      state: \.second,
      action: CasePath(embed: Action.second) { if case .second(let a) = $0 { a } else { nil } }
    ) { Twins() }
    Scope(
      state: \.solo, action: CasePath(embed: Action.solo) { if case .solo(let a) = $0 { a } else { nil } }
    ) {
      Counter()
    }
  }
}

/// A `Scope` inside `CombineReducers`, inside the parent of an `ifLet`, inside the parent of
/// a `forEach`.
private struct Wrapped: Reducer {
  struct State: Equatable {
    var child = Counter.State()
    var optional: Counter.State?
    var rows: IdentifiedArrayOf<Row> = []
  }
  struct Row: Equatable, Identifiable {
    let id: Int
    var count = 0
  }
  enum Action: Equatable, Sendable {
    case child(Counter.Action), optional(Counter.Action), row(Int, Counter.Action)
  }
  var body: some Reducer<State, Action> {
    CombineReducers {
      Scope(
        state: \.child,
        action: CasePath(embed: Action.child) { if case .child(let a) = $0 { a } else { nil } }
      ) {
        Counter()
      }
    }
    .ifLet(
      \.optional,
      action: CasePath(embed: Action.optional) { if case .optional(let a) = $0 { a } else { nil } }
    ) {
      Counter()
    }
    .forEach(
      \.rows,
      action: CasePath(embed: { Action.row($0.0, $0.1) }) {
        if case .row(let id, let a) = $0 { (id, a) } else { nil }
      }
    ) {
      Reduce<Row, Counter.Action> { _, _ in .none }
    }
  }
}

/// A counter that, once set, increments itself from an effect.
private struct Echo: Reducer {
  func reduce(into state: inout Counter.State, action: Counter.Action) -> Effect<Counter.Action> {
    switch action {
    case .set(let value):
      state.count = value
      return .run { send in await send(.increment) }
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    }
    return .none
  }
}

private struct EchoHost: Reducer {
  struct State: Equatable { var echo = Counter.State() }
  enum Action: Equatable, Sendable { case echo(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(
      state: \.echo, action: CasePath(embed: Action.echo) { if case .echo(let a) = $0 { a } else { nil } }
    ) {
      Echo()
    }
  }
}

/// `EchoHost` one level down, logging every action it receives.
private struct EchoRoot: Reducer {
  struct State: Equatable {
    var host = EchoHost.State()
    var log: [Action] = []
  }
  enum Action: Equatable, Sendable { case host(EchoHost.Action) }
  var body: some Reducer<State, Action> {
    Scope(
      state: \.host, action: CasePath(embed: Action.host) { if case .host(let a) = $0 { a } else { nil } }
    ) {
      EchoHost()
    }
    Reduce { state, action in
      state.log.append(action)
      return .none
    }
  }
}
