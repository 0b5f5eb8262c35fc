import Core

// The Core benchmark's features: a counter, and ten levels of features around it, each a
// type of its own with its own state and actions, as real features are. Each level has a
// field and an action of its own besides its child's.

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

/// Level 1: the counter inside a feature of its own.
struct Level1: Reducer {
  struct State {
    var other = 0
    var child = Counter.State()
  }
  enum Action: Sendable {
    case child(Counter.Action)
    case other
  }
  static let childPath = CasePath<Action, Counter.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Counter() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 1 in plain Swift: a `switch` on its action.
struct PlainLevel1 {
  var other = 0
  var child = PlainCounter()
  enum Action {
    case child(PlainCounterAction)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): _ = action; child.count &+= 1
    case .other: other &+= 1
    }
  }
}

/// Level 2: level 1 inside a feature of its own.
struct Level2: Reducer {
  struct State {
    var other = 0
    var child = Level1.State()
  }
  enum Action: Sendable {
    case child(Level1.Action)
    case other
  }
  static let childPath = CasePath<Action, Level1.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level1() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 2 in plain Swift: a `switch` on its action.
struct PlainLevel2 {
  var other = 0
  var child = PlainLevel1()
  enum Action {
    case child(PlainLevel1.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

/// Level 3: level 2 inside a feature of its own.
struct Level3: Reducer {
  struct State {
    var other = 0
    var child = Level2.State()
  }
  enum Action: Sendable {
    case child(Level2.Action)
    case other
  }
  static let childPath = CasePath<Action, Level2.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level2() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 3 in plain Swift: a `switch` on its action.
struct PlainLevel3 {
  var other = 0
  var child = PlainLevel2()
  enum Action {
    case child(PlainLevel2.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

/// Level 4: level 3 inside a feature of its own.
struct Level4: Reducer {
  struct State {
    var other = 0
    var child = Level3.State()
  }
  enum Action: Sendable {
    case child(Level3.Action)
    case other
  }
  static let childPath = CasePath<Action, Level3.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level3() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 4 in plain Swift: a `switch` on its action.
struct PlainLevel4 {
  var other = 0
  var child = PlainLevel3()
  enum Action {
    case child(PlainLevel3.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

/// Level 5: level 4 inside a feature of its own.
struct Level5: Reducer {
  struct State {
    var other = 0
    var child = Level4.State()
  }
  enum Action: Sendable {
    case child(Level4.Action)
    case other
  }
  static let childPath = CasePath<Action, Level4.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level4() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 5 in plain Swift: a `switch` on its action.
struct PlainLevel5 {
  var other = 0
  var child = PlainLevel4()
  enum Action {
    case child(PlainLevel4.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

/// Level 6: level 5 inside a feature of its own.
struct Level6: Reducer {
  struct State {
    var other = 0
    var child = Level5.State()
  }
  enum Action: Sendable {
    case child(Level5.Action)
    case other
  }
  static let childPath = CasePath<Action, Level5.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level5() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 6 in plain Swift: a `switch` on its action.
struct PlainLevel6 {
  var other = 0
  var child = PlainLevel5()
  enum Action {
    case child(PlainLevel5.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

/// Level 7: level 6 inside a feature of its own.
struct Level7: Reducer {
  struct State {
    var other = 0
    var child = Level6.State()
  }
  enum Action: Sendable {
    case child(Level6.Action)
    case other
  }
  static let childPath = CasePath<Action, Level6.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level6() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 7 in plain Swift: a `switch` on its action.
struct PlainLevel7 {
  var other = 0
  var child = PlainLevel6()
  enum Action {
    case child(PlainLevel6.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

/// Level 8: level 7 inside a feature of its own.
struct Level8: Reducer {
  struct State {
    var other = 0
    var child = Level7.State()
  }
  enum Action: Sendable {
    case child(Level7.Action)
    case other
  }
  static let childPath = CasePath<Action, Level7.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level7() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 8 in plain Swift: a `switch` on its action.
struct PlainLevel8 {
  var other = 0
  var child = PlainLevel7()
  enum Action {
    case child(PlainLevel7.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

/// Level 9: level 8 inside a feature of its own.
struct Level9: Reducer {
  struct State {
    var other = 0
    var child = Level8.State()
  }
  enum Action: Sendable {
    case child(Level8.Action)
    case other
  }
  static let childPath = CasePath<Action, Level8.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level8() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 9 in plain Swift: a `switch` on its action.
struct PlainLevel9 {
  var other = 0
  var child = PlainLevel8()
  enum Action {
    case child(PlainLevel8.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

/// Level 10: level 9 inside a feature of its own.
struct Level10: Reducer {
  struct State {
    var other = 0
    var child = Level9.State()
  }
  enum Action: Sendable {
    case child(Level9.Action)
    case other
  }
  static let childPath = CasePath<Action, Level9.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Level9() }
    Reduce { state, action in
      if case .other = action { state.other &+= 1 }
      return .none
    }
  }
}

/// Level 10 in plain Swift: a `switch` on its action.
struct PlainLevel10 {
  var other = 0
  var child = PlainLevel9()
  enum Action {
    case child(PlainLevel9.Action)
    case other
  }
  mutating func apply(_ action: Action) {
    switch action {
    case .child(let action): child.apply(action)
    case .other: other &+= 1
    }
  }
}

// MARK: - The leaf's store at each depth, through `scope(state:action:)`, level by level

@MainActor
func leafStore(_ store: Store<Level1.State, Level1.Action>) -> Store<Counter.State, Counter.Action> {
  store.scope(state: \.child, action: Level1.childPath)
}

@MainActor
func leafStore(_ store: Store<Level2.State, Level2.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level2.childPath))
}

@MainActor
func leafStore(_ store: Store<Level3.State, Level3.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level3.childPath))
}

@MainActor
func leafStore(_ store: Store<Level4.State, Level4.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level4.childPath))
}

@MainActor
func leafStore(_ store: Store<Level5.State, Level5.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level5.childPath))
}

@MainActor
func leafStore(_ store: Store<Level6.State, Level6.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level6.childPath))
}

@MainActor
func leafStore(_ store: Store<Level7.State, Level7.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level7.childPath))
}

@MainActor
func leafStore(_ store: Store<Level8.State, Level8.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level8.childPath))
}

@MainActor
func leafStore(_ store: Store<Level9.State, Level9.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level9.childPath))
}

@MainActor
func leafStore(_ store: Store<Level10.State, Level10.Action>) -> Store<Counter.State, Counter.Action> {
  leafStore(store.scope(state: \.child, action: Level10.childPath))
}

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
