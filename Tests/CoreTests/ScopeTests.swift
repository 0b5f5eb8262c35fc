import Core
import TestSupport
import Testing

@MainActor
struct ScopeTests {
  @Test func childStoreSendsReachTheParentReducer() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    child.send(.increment)
    #expect(child.state.count == 1)
    #expect(store.state.log == ["child increment"])
  }

  @Test func parentChangesAreVisibleInTheChildStore() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    store.send(.child(.set(42)))
    #expect(child.state.count == 42)
  }

  @Test func aStoreScopedWithTheReducersCasePathSendsThroughIt() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.childPath)
    child.send(.increment)
    child.send(.increment)
    #expect(child.state.count == 2)
    #expect(store.state.log == ["child increment", "child increment"])
  }

  @Test func aScopedStoreOfAScopedStore() {
    let store = Store(initialState: Outer.State()) { Outer() }
    let parent = store.scope(state: \.parent, action: Outer.Action.parent)
    let child = parent.scope(state: \.child, action: Parent.Action.child)
    child.send(.increment)
    child.send(.increment)
    #expect(store.state.parent.child.count == 2)
    #expect(child.state.count == 2)
    #expect(parent.state.log.count == 2)
  }

  /// A send two scopes down reaches the root's reducer once, embedded at both levels.
  @Test func aSendThroughTwoScopesIsReducedOnceByTheRoot() {
    let reduced = Log<Outer.Action>()
    let store = Store(initialState: Outer.State()) {
      Reduce<Outer.State, Outer.Action> { _, action in
        reduced.append(action)
        return .none
      }
      Outer()
    }
    let child = store.scope(state: \.parent, action: Outer.Action.parent)
      .scope(state: \.child, action: Parent.childPath)
    child.send(.increment)
    #expect(reduced.values == [.parent(.child(.increment))])
    #expect(store.state.parent.child.count == 1)
  }

  /// Scoping sees only the paths it is given: a wrapper around the parent's reducer
  /// changes nothing.
  @Test func scopingComposesWithPrintChanges() {
    let log = Log<String>()
    let store = Store(initialState: Parent.State()) { Parent()._printChanges { log.append($0) } }
    let child = store.scope(state: \.child, action: Parent.childPath)
    child.send(.increment)
    #expect(child.state.count == 1)
    #expect(store.state.log == ["child increment"])
    #expect(log.values.count == 1)
    #expect(log.values.first?.contains(".child(.increment)") == true)
  }

  @Test func storesScopedAtEveryDepthReadTheirOwnState() {
    // Each level's child comes after other fields, so each level adds its own offset to
    // where the store reads in place.
    struct Leaf: Equatable {
      var before = "leaf"
      var value = 0
    }
    struct Middle: Equatable {
      var flag = true
      var tag = "middle"
      var leaf = Leaf()
    }
    struct Top: Equatable {
      var count = 41
      var name = "top"
      var middle = Middle()
    }
    enum LeafAction { case set(Int) }
    enum MiddleAction { case leaf(LeafAction) }
    enum TopAction { case middle(MiddleAction) }
    let store = Store(initialState: Top()) {
      Reduce<Top, TopAction> { state, action in
        switch action {
        case .middle(.leaf(.set(let value))): state.middle.leaf.value = value
        }
        return .none
      }
    }
    let middle = store.scope(state: \.middle, action: TopAction.middle)
    let leaf = middle.scope(state: \.leaf, action: MiddleAction.leaf)
    let value = leaf.scope(state: \.value, action: { $0 })
    var seen: [Int] = []
    let observation = value.observe({ $0 }) { seen.append($0) }
    leaf.send(.set(5))
    #expect(middle.state == Middle(leaf: Leaf(value: 5)))
    #expect(leaf.state == Leaf(value: 5))
    #expect(value.state == 5)
    #expect(leaf.before == "leaf")
    #expect(seen == [5])
    withExtendedLifetime(observation) {}
  }

  @Test func oneScopeWithTheWholePathActsLikeAScopeOfAScope() {
    let store = Store(initialState: Outer.State()) { Outer() }
    let child = store.scope(state: \.parent.child, action: { .parent(.child($0)) })
    var seen: [Int] = []
    let observation = child.observe(\.count) { seen.append($0) }
    child.send(.increment)
    child.send(.set(7))
    #expect(child.state.count == 7)
    #expect(store.state.parent.child.count == 7)
    #expect(store.state.parent.log == ["child increment", "child set(7)"])
    #expect(seen == [1, 7])
    observation.cancel()
  }

  @Test func storesScopedThroughStoredAndComputedPropertiesReadAndObserveAlike() {
    // Stored properties all the way from the root: the store reads in place from the
    // root's state. A computed property on the way: it reads through its parent.
    let store = Store(initialState: Outer.State()) { Outer() }
    let parent = store.scope(state: \.parent, action: Outer.Action.parent)
    let viaStored = parent.scope(state: \.child, action: Parent.Action.child)
      .scope(state: \.count, action: { (action: Counter.Action) in action })
    let viaComputed = parent.scope(state: \.childCopy, action: Parent.Action.child)
      .scope(state: \.count, action: { (action: Counter.Action) in action })
    let optional = parent.scope(state: \.optional, action: Parent.Action.optional)
    var stored: [Int] = []
    var computed: [Int] = []
    var optionals: [Int?] = []
    let observations = [
      viaStored.observe({ $0 }) { stored.append($0) }, viaComputed.observe({ $0 }) { computed.append($0) },
      optional.observe({ $0?.count }) { optionals.append($0) },
    ]
    viaStored.send(.increment)
    viaComputed.send(.set(5))
    parent.send(.present)
    optional.send(.set(3))
    parent.send(.dismiss)
    #expect(viaStored.state == 5 && viaComputed.state == 5)
    #expect(stored == [1, 5] && computed == [1, 5])
    #expect(optionals == [0, 3, nil])
    #expect(optional.state == nil)
    #expect(parent.state.log == ["child increment", "child set(5)"])
    withExtendedLifetime(observations) {}
  }

  @Test func actionsForOtherChildrenPassThroughAScope() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.present)
    store.send(.optional(.increment))
    #expect(store.state.child.count == 0)
    #expect(store.state.optional?.count == 1)
  }

  @Test func aScopeMapsChildEffectsIntoParentActions() async {
    struct Child: Reducer {
      enum Action: Equatable, Sendable { case start, done }
      func reduce(into state: inout Int, action: Action) -> Effect<Action> {
        switch action {
        case .start: return .run { send in await send(.done) }
        case .done:
          state += 1
          return .none
        }
      }
    }
    struct Host: Reducer {
      struct State: Equatable { var value = 0 }
      enum Action: Equatable, Sendable { case child(Child.Action) }
      var body: some Reducer<State, Action> {
        Scope(
          state: \.value,
          action: CasePath(embed: Action.child) {
            if case .child(let action) = $0 { action } else { nil }
          }
        ) { Child() }
      }
    }
    let store = Store(initialState: Host.State()) { Host() }
    await store.send(.child(.start)).finish()
    #expect(store.state.value == 1)
  }
}

/// `Parent` one level further down.
private struct Outer: Reducer {
  struct State: Equatable { var parent = Parent.State() }
  enum Action: Equatable, Sendable { case parent(Parent.Action) }
  var body: some Reducer<State, Action> {
    Scope(
      state: \.parent,
      action: CasePath(embed: Action.parent) {
        if case .parent(let action) = $0 { action } else { nil }
      }
    ) { Parent() }
  }
}

extension Parent.State {
  /// A computed projection of the child's state, as a shared-state projection would be.
  var childCopy: Counter.State { child }
}
