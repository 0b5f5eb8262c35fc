import Core

// The Core benchmark's features: a counter, and ten levels of features around it, each a
// type of its own with its own state and actions, as real features are (one generic level,
// nested). Each level has a field and an action of its own besides its child's.

/// The simplest feature: a counter with one action.
struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Sendable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// The counter in plain Swift: the baseline of a flat send.
struct PlainCounter { var count = 0 }
enum PlainCounterAction { case increment }

@inline(never)
func plainReduce(_ state: inout PlainCounter, _ action: PlainCounterAction) {
  switch action {
  case .increment: state.count &+= 1
  }
}

/// A feature the levels can nest: made with no arguments, with a state to start from,
/// and a way down to the counter's store from its own.
protocol Nestable: Reducer, SendableMetatype where Action: Sendable {
  init()
  static func initialState() -> State
  /// The counter's store, `scope` by `scope`, from a store of this feature.
  @MainActor static func leaf(of store: Store<State, Action>) -> Store<Counter.State, Counter.Action>
}

extension Counter: Nestable {
  static func initialState() -> State { State() }
  @MainActor static func leaf(of store: Store<State, Action>) -> Store<Counter.State, Counter.Action> {
    store
  }
}

/// One level: a child inside a feature of its own, with a field and an action of its own
/// besides its child's. Each nesting is a type of its own, as real features are.
struct Level<Child: Nestable>: Nestable {
  struct State {
    var other = 0
    var child = Child.initialState()
  }
  enum Action: Sendable {
    case child(Child.Action)
    case other
  }
  /// The child's actions, by a hand-written case path.
  static var childPath: CasePath<Action, Child.Action> {
    CasePath(embed: Action.child) { if case .child(let action) = $0 { action } else { nil } }
  }
  static func initialState() -> State { State() }
  @MainActor static func leaf(of store: Store<State, Action>) -> Store<Counter.State, Counter.Action> {
    Child.leaf(of: store.scope(state: \.child, action: childPath))
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Child() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

typealias Level1 = Level<Counter>
typealias Level2 = Level<Level1>
typealias Level3 = Level<Level2>
typealias Level4 = Level<Level3>
typealias Level5 = Level<Level4>
typealias Level6 = Level<Level5>
typealias Level7 = Level<Level6>
typealias Level8 = Level<Level7>
typealias Level9 = Level<Level8>
typealias Level10 = Level<Level9>

/// The counter's store from a store of any level.
@MainActor
func leafStore<Child>(_ store: Store<Level<Child>.State, Level<Child>.Action>) -> Store<
  Counter.State, Counter.Action
> {
  Level<Child>.leaf(of: store)
}

/// A feature's action as features write it (not generic, as the levels are: a generic
/// enum's metadata is instantiated at run time, which a case path made from the case
/// would pay for and real features do not), for the case path rows.
enum ParentAction: Sendable {
  case child(Counter.Action)
  case other

  /// The child's actions, by a hand-written case path.
  static let childPath = CasePath<ParentAction, Counter.Action>(embed: ParentAction.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
}

/// A level in plain Swift: a `switch` on its action.
protocol PlainNestable {
  associatedtype Action
  init()
  mutating func apply(_ action: Action)
}

extension PlainCounter: PlainNestable {
  mutating func apply(_ action: PlainCounterAction) { count &+= 1 }
}

/// One level in plain Swift, nested as the levels are.
struct PlainLevel<Child: PlainNestable>: PlainNestable {
  var other = 0
  var child = Child()
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
}

typealias PlainLevel1 = PlainLevel<PlainCounter>
typealias PlainLevel2 = PlainLevel<PlainLevel1>
typealias PlainLevel3 = PlainLevel<PlainLevel2>
typealias PlainLevel4 = PlainLevel<PlainLevel3>
typealias PlainLevel5 = PlainLevel<PlainLevel4>
typealias PlainLevel6 = PlainLevel<PlainLevel5>
typealias PlainLevel7 = PlainLevel<PlainLevel6>
typealias PlainLevel8 = PlainLevel<PlainLevel7>
typealias PlainLevel9 = PlainLevel<PlainLevel8>
typealias PlainLevel10 = PlainLevel<PlainLevel9>

// MARK: - The leaf's action embedded at each depth, in plain Swift

@inline(never)
func plainLeafReduce(_ state: inout PlainLevel1) {
  state.apply(.child(.increment))
}

@inline(never)
func plainLeafReduce(_ state: inout PlainLevel5) {
  state.apply(.child(.child(.child(.child(.child(.increment))))))
}

@inline(never)
func plainLeafReduce(_ state: inout PlainLevel10) {
  state.apply(.child(.child(.child(.child(.child(.child(.child(.child(.child(.child(.increment)))))))))))
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

/// The rows in plain Swift: an array, and a dictionary from id to position.
struct PlainRows {
  var rows: [Row.State]
  var index: [Int: Int]
}

@inline(never)
func plainRowsReduce(_ state: inout PlainRows, id: Int) {
  if let position = state.index[id] { state.rows[position].count &+= 1 }
}
