import Core
import CoreTesting
import Foundation
import TestSupport
import Testing

/// `CasePath(Action.child)`: a case path from the case alone, extracting through the
/// enum's metadata.
struct CasePathTests {
  final class Reference: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
  }
  struct Failure: Error, Equatable { var code: Int }
  enum Inner: Equatable, Sendable { case on(Int), off(String), none }

  /// Cases of every kind of payload, side by side.
  enum Mixed: Sendable {
    case number(Int)
    case other(Int)
    case text(String)
    case reference(Reference)
    case pair(id: Int, name: String)
    case maybe(Int?)
    case failure(any Error)
    case inner(Inner)
    indirect case nested(Mixed)
    case nothing
    case empty
  }

  static let values: [Mixed] = [
    .number(1), .other(2), .text("pug"), .reference(Reference("hound")), .pair(id: 3, name: "pair"),
    .maybe(nil), .maybe(4), .failure(Failure(code: 5)), .inner(.on(6)), .inner(.off("off")),
    .inner(.none), .nested(.number(7)), .nothing, .empty,
  ]

  /// What a hand-written `if case` gives, as text, for each path.
  func expected(_ path: String, _ value: Mixed) -> String? {
    switch (path, value) {
    case ("number", .number(let x)): "\(x)"
    case ("other", .other(let x)): "\(x)"
    case ("text", .text(let x)): x
    case ("reference", .reference(let x)): x.name
    case ("pair", .pair(let id, let name)): "\(id) \(name)"
    case ("maybe", .maybe(let x)): "\(x as Any)"
    case ("failure", .failure(let x)): "\(x)"
    case ("inner", .inner(let x)): "\(x)"
    case ("nested", .nested(let x)): "\(x)"
    default: nil
    }
  }

  /// Each path against every value, three rounds (learning the case, then by its tag),
  /// starting from each value in turn, so that every path learns from every other case.
  @Test(arguments: 0..<values.count)
  func everyPathExtractsExactlyItsCase(start: Int) {
    let paths: [(String, (Mixed) -> String?)] = [
      ("number", { CasePath(Mixed.number).extract($0).map { "\($0)" } }),
      ("other", fresh(Mixed.other) { "\($0)" }),
      ("text", fresh(Mixed.text) { $0 }),
      ("reference", fresh(Mixed.reference) { $0.name }),
      ("pair", fresh(Mixed.pair) { "\($0.0) \($0.1)" }),
      ("maybe", fresh(Mixed.maybe) { "\($0 as Any)" }),
      ("failure", fresh(Mixed.failure) { "\($0)" }),
      ("inner", fresh(Mixed.inner) { "\($0)" }),
      ("nested", fresh(Mixed.nested) { "\($0)" }),
    ]
    let order = Array(Self.values[start...] + Self.values[..<start])
    for (name, extract) in paths {
      for round in 0..<3 {
        for value in order {
          #expect(extract(value) == expected(name, value), "\(name), round \(round), \(value)")
        }
      }
    }
  }

  /// One case path per path name, kept across calls (so it learns), reading through `show`.
  private func fresh<Value>(
    _ embed: @escaping @Sendable (Value) -> Mixed, _ show: @escaping (Value) -> String
  ) -> (Mixed) -> String? {
    let path = CasePath(embed)
    return { path.extract($0).map(show) }
  }

  @Test func embeddingIsTheCase() {
    let path = CasePath(Mixed.text)
    guard case .text("pug") = path.embed("pug") else {
      Issue.record("embedded as another case")
      return
    }
  }

  /// Extracting copies the payload: nothing is leaked, nothing released early.
  @Test func aReferencePayloadIsRetainedOnceAndReleased() {
    weak var released: Reference?
    let path = CasePath(Mixed.reference)
    do {
      let value = Mixed.reference(Reference("pug"))
      for _ in 0..<1_000 {
        #expect(path.extract(value)?.name == "pug")
        #expect(path.extract(.number(1)) == nil)
      }
      if case .reference(let reference) = value { released = reference }
      #expect(released != nil)
    }
    #expect(released == nil)
  }

  /// Two references side by side: the case is told by spare bits of the pointer, which
  /// taking the payload out clears.
  enum References: Sendable {
    case first(Reference)
    case second(Reference)
    case neither
  }

  @Test func aCaseToldBySpareBitsOfItsPayloadIsTakenOutWhole() {
    weak var released: Reference?
    let first = CasePath(References.first)
    let second = CasePath(References.second)
    do {
      let reference = Reference("pug")
      released = reference
      let values: [References] = [.neither, .first(reference), .second(reference)]
      for _ in 0..<100 {
        #expect(values.map { first.extract($0)?.name } == [nil, "pug", nil])
        #expect(values.map { second.extract($0)?.name } == [nil, nil, "pug"])
        #expect(values.map { second.extract($0) === reference } == [false, false, true])
      }
    }
    #expect(released == nil)
  }

  @Test func anOptionalEnumIsReadAndChangedThroughACase() {
    var value: Mixed? = .pair(id: 1, name: "pug")
    #expect(value[case: Mixed.pair]?.1 == "pug")
    #expect(value[case: Mixed.text] == nil)
    value[case: Mixed.pair]?.1 = "hound"
    guard case .pair(1, "hound")? = value else {
      Issue.record("not changed in place: \(value as Any)")
      return
    }
    value[case: Mixed.text]? = "ignored"  // another case: nothing to change
    guard case .pair? = value else {
      Issue.record("changed through another case: \(value as Any)")
      return
    }
    value[case: Mixed.text] = "set"
    guard case .text("set")? = value else {
      Issue.record("not set: \(value as Any)")
      return
    }
    value = nil
    #expect(value[case: Mixed.text] == nil)
  }

  @Test func aCaseOfANestedEnumAction() {
    enum Child: Equatable, Sendable { case tapped, loaded([String]) }
    enum Parent: Equatable, Sendable { case child(Child), other(Child), closed }
    let path = CasePath(Parent.child)
    #expect(path.extract(.other(.tapped)) == nil)
    #expect(path.extract(.closed) == nil)
    #expect(path.extract(.child(.loaded(["pug"]))) == .loaded(["pug"]))
    #expect(path.extract(.child(.tapped)) == .tapped)
    #expect(path.extract(.other(.loaded([]))) == nil)
  }

  @Test func manyTasksExtractingAtOnceAgree() async {
    let path = CasePath(Mixed.text)
    let counts = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var found = 0
          for index in 0..<2_000 {
            let value: Mixed = (index + task) % 2 == 0 ? .text("\(index)") : .other(index)
            if let text = path.extract(value) {
              #expect(text == "\(index)")
              found += 1
            }
          }
          return found
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(counts.sorted() == Array(repeating: 1_000, count: 8))
  }
}

/// The case alone in the composition APIs: a feature with a scoped child, an optional
/// one, a collection, and an enum destination with a screen and an alert, written without
/// one hand-written case path.
@MainActor
struct ShortCasePathTests {
  struct Row: Reducer {
    struct State: Equatable, Identifiable {
      var id: Int
      var count = 0
    }
    enum Action: Equatable, Sendable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case edit(Counter.State)
      case alert(AlertState<Action.Alert>)
    }
    enum Action: Equatable, Sendable {
      case edit(Counter.Action)
      case alert(Alert)
      enum Alert: Equatable, Sendable { case confirm }
    }
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(State.edit, action: Action.edit) { Counter() }
    }
  }

  struct Screen: Reducer {
    struct State: Equatable {
      var counter = Counter.State()
      var optional: Counter.State?
      var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
      var destination: Destination.State?
      var confirmed = false
    }
    enum Action: Equatable, Sendable {
      case counter(Counter.Action)
      case optional(Counter.Action)
      case rows(id: Int, action: Row.Action)
      case destination(PresentationAction<Destination.Action>)
      case show, edit, ask
      case answer(Int)
    }

    var body: some Reducer<State, Action> {
      Scope(state: \.counter, action: Action.counter) { Counter() }
      Reduce { state, action in
        switch action {
        case .show: state.optional = Counter.State()
        case .edit: state.destination = .edit(Counter.State())
        case .ask:
          state.destination = .alert(
            AlertState(title: "Sure?", buttons: [ButtonState("Yes", action: .confirm)]))
        case .destination(.presented(.alert(.confirm))): state.confirmed = true
        case .counter(.set(let value)): return .send(.answer(value * 2))
        default: break
        }
        return .none
      }
      .ifLet(\.optional, action: Action.optional) { Counter() }
      .forEach(\.rows, action: Action.rows) { Row() }
      .ifLet(\.destination, action: Action.destination) { Destination() }
    }
  }

  @Test func everyCompositionTakesTheCase() async {
    let store = TestStore(initialState: Screen.State()) { Screen() }
    await store.send(.counter(.increment)) { $0.counter.count = 1 }
    await store.send(.show) { $0.optional = Counter.State() }
    await store.send(.optional(.increment)) { $0.optional?.count = 1 }
    await store.send(.rows(id: 2, action: .increment)) { $0.rows[id: 2]?.count = 1 }
    await store.send(.edit) { $0.destination = .edit(Counter.State()) }
    await store.send(.destination(.presented(.edit(.increment)))) {
      $0.destination[case: Destination.State.edit]?.count = 1
    }
    await store.send(.ask) {
      $0.destination = .alert(AlertState(title: "Sure?", buttons: [ButtonState("Yes", action: .confirm)]))
    }
    await store.send(.destination(.presented(.alert(.confirm)))) {
      $0.destination = nil
      $0.confirmed = true
    }
    await store.send(.counter(.set(4))) { $0.counter.count = 4 }
    await store.receive(Screen.Action.answer, 8)
    await store.send(.counter(.set(5))) { $0.counter.count = 5 }
    await store.receive(Screen.Action.answer)
    await store.finish()
  }

  @Test func aStoreScopesWithTheCase() {
    let store = Store(initialState: Screen.State()) { Screen() }
    let counter = store.scope(state: \.counter, action: Screen.Action.counter)
    counter.send(.increment)
    #expect(store.state.counter.count == 1)
  }

  @Test func receivingTheCaseWithAnotherPayloadFailsWithTheDiff() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Screen.State()) { Screen() }
      await store.send(.counter(.set(4))) { $0.counter.count = 4 }
      await store.receive(Screen.Action.answer, 9)
    }
    #expect(
      issues == [
        "The received action's payload does not match:\n\n- 9\n+ 8\n\n(Expected: -, Received: +)"
      ])
  }

  @Test func receivingAnotherCaseFails() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: Screen.State()) { Screen() }
      await store.send(.counter(.set(4))) { $0.counter.count = 4 }
      await store.receive(Screen.Action.optional)
    }
    #expect(issues.count == 1)
    #expect(issues.first?.hasPrefix("Received unexpected action:") == true, "\(issues)")
  }
}
