import Core

// MARK: - Flat

/// The leaf of every benchmark: a counter, with the two actions a counter has.
struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Sendable { case increment, decrement }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count &+= 1
    case .decrement: state.count &-= 1
    }
    return .none
  }
}

/// A leaf with one action, for the table of what the leaf's action layout costs. Swift stores a one-case enum in no bytes at all, so each level's action enum
/// around it gets a tag byte of its own (its `child` case cannot borrow unused values of
/// the child's), and reducers then test one byte per level to find the leaf's action.
/// Around `Counter`'s two cases, every level's tag fits in the same single byte, and the
/// compiler finds the action with one jump, whatever the depth.
struct Tally: Reducer {
  typealias State = Counter.State
  enum Action: Equatable, Sendable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// A leaf action with an `increment` case, so one benchmark can drive either leaf.
protocol LeafIncrementing {
  static var increment: Self { get }
}
extension Counter.Action: LeafIncrementing {}
extension Tally.Action: LeafIncrementing {}

// MARK: - Nested (depth N = Nest applied N times around a leaf)

struct Nest<Child: Reducer & Sendable>: Reducer, Sendable where Child.Action: Sendable {
  struct State {
    var child: Child.State
    var other = 0
  }
  enum Action: Sendable {
    case child(Child.Action)
    case other
  }
  static var childPath: CasePath<Action, Child.Action> {
    CasePath(embed: Action.child) { if case .child(let action) = $0 { action } else { nil } }
  }
  let child: Child

  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { child }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

protocol Nestable: Reducer where Action: Sendable {
  associatedtype Plain: PlainLevel
  /// The innermost reducer's action: `Counter`'s or `Tally`'s.
  associatedtype LeafAction
  static func make() -> Self
  static func initial() -> State
  /// The leaf's action embedded in every level's `child` case: what a leaf store sends the root.
  static func embedLeaf(_ action: LeafAction) -> Action
  /// Where the leaf's state sits: `\.child.child…`.
  static var leafState: KeyPath<State, Counter.State> { get }
}
extension Counter: Nestable {
  typealias Plain = PlainLeaf
  static func make() -> Counter { Counter() }
  static func initial() -> State { State() }
  static func embedLeaf(_ action: Action) -> Action { action }
  static var leafState: KeyPath<State, Counter.State> { \.self }
}
extension Tally: Nestable {
  typealias Plain = PlainTally
  static func make() -> Tally { Tally() }
  static func initial() -> State { State() }
  static func embedLeaf(_ action: Action) -> Action { action }
  static var leafState: KeyPath<State, Counter.State> { \.self }
}
extension Nest: Nestable where Child: Nestable {
  typealias Plain = PlainNest<Child.Plain>
  static func make() -> Self { Nest(child: Child.make()) }
  static func initial() -> State { State(child: Child.initial()) }
  static func embedLeaf(_ action: Child.LeafAction) -> Action { .child(Child.embedLeaf(action)) }
  static var leafState: KeyPath<State, Counter.State> { (\State.child).appending(path: Child.leafState) }
}

/// Scopes a store of `Nest<…>` down to its leaf's store, level by level: with
/// `scope(state:)` (found by each level's `Scope`), or with an action closure per level.
@MainActor
protocol LeafScopable: Nestable {
  static func leaf(_ store: Store<State, Action>) -> Store<Counter.State, LeafAction>
  static func forwardingLeaf(_ store: Store<State, Action>) -> Store<Counter.State, LeafAction>
}
extension Counter: LeafScopable {
  static func leaf(_ store: Store<State, Action>) -> Store<State, Action> { store }
  static func forwardingLeaf(_ store: Store<State, Action>) -> Store<State, Action> { store }
}
extension Tally: LeafScopable {
  static func leaf(_ store: Store<State, Action>) -> Store<State, Action> { store }
  static func forwardingLeaf(_ store: Store<State, Action>) -> Store<State, Action> { store }
}
extension Nest: LeafScopable where Child: LeafScopable {
  static func leaf(_ store: Store<State, Action>) -> Store<Counter.State, Child.LeafAction> {
    Child.leaf(store.scope(state: \.child, action: Self.childPath))
  }
  static func forwardingLeaf(_ store: Store<State, Action>) -> Store<Counter.State, Child.LeafAction> {
    Child.forwardingLeaf(store.scope(state: \.child, action: Action.child))
  }
}

typealias Depth1 = Nest<Counter>
typealias Depth5 = Nest<Nest<Nest<Nest<Nest<Counter>>>>>
typealias Depth10 = Nest<Nest<Nest<Nest<Nest<Depth5>>>>>
typealias TallyDepth1 = Nest<Tally>
typealias TallyDepth5 = Nest<Nest<Nest<Nest<Nest<Tally>>>>>
typealias TallyDepth10 = Nest<Nest<Nest<Nest<Nest<TallyDepth5>>>>>

// MARK: - Plain Swift baselines

struct PlainCounter { var count = 0 }
enum PlainAction { case increment }

@inline(never)
func plainReduce(_ state: inout PlainCounter, _ action: PlainAction) {
  switch action {
  case .increment: state.count &+= 1
  }
}

/// Nested plain state, one concrete struct and action enum per level, reduced by a
/// `switch` per level: the work a Store does at depth N, without a Store.
protocol PlainLevel: Sendable {
  associatedtype Action: Sendable
  init()
  mutating func apply(_ action: Action)
  static func leafIncrement() -> Action
}
struct PlainLeaf: PlainLevel {
  var count = 0
  enum Action { case increment, decrement }
  mutating func apply(_ action: Action) {
    switch action {
    case .increment: count &+= 1
    case .decrement: count &-= 1
    }
  }
  static func leafIncrement() -> Action { .increment }
}
struct PlainTally: PlainLevel {
  var count = 0
  enum Action { case increment }
  mutating func apply(_ action: Action) { count &+= 1 }
  static func leafIncrement() -> Action { .increment }
}
struct PlainNest<Child: PlainLevel>: PlainLevel {
  var child = Child()
  var other = 0
  enum Action {
    case child(Child.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
  static func leafIncrement() -> Action { .child(Child.leafIncrement()) }
}

@inline(never)
func plainNestedReduce<Level: PlainLevel>(_ state: inout Level, _ action: Level.Action) {
  state.apply(action)
}

// MARK: - forEach

struct Row: Reducer {
  struct State: Identifiable, Equatable {
    let id: Int
    var count = 0
  }
  enum Action: Equatable, Sendable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

struct Rows: Reducer {
  struct State { var rows: IdentifiedArrayOf<Row.State> }
  enum Action: Sendable { case row(Int, Row.Action), removeAll }
  static let rowPath = CasePath<Action, (Int, Row.Action)>(embed: { Action.row($0.0, $0.1) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .removeAll = action { state.rows = [] }
      return .none
    }
    .forEach(\.rows, action: Self.rowPath) { Row() }
  }
}

struct PlainRows {
  var rows: [Row.State]
  var index: [Int: Int]
}

@inline(never)
func plainRowsReduce(_ state: inout PlainRows, id: Int) {
  if let position = state.index[id] { state.rows[position].count &+= 1 }
}

// MARK: - The floor of forwarding

/// The least that passing an action up `levels` separately created stores can cost: a
/// chain of closures that each call the next, made at run time so that the optimiser
/// cannot merge them (as a chain of scoped stores, each created where its parent is only a
/// `Store<State, Action>`). The last closure counts, so the chain cannot be dropped.
@inline(never)
func forwardingChain(levels: Int, into counter: ForwardingCounter) -> (Int) -> Void {
  var forward: (Int) -> Void = { counter.count &+= $0 }
  for _ in 0..<levels { forward = forwardingLink(to: forward) }
  return forward
}

@inline(never)
func forwardingLink(to next: @escaping (Int) -> Void) -> (Int) -> Void {
  { next($0) }
}

final class ForwardingCounter { var count = 0 }
