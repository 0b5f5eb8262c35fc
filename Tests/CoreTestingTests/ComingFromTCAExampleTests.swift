import Core
import CoreTesting
import Testing

// The example of the "Coming from The Composable Architecture" article in Core's
// documentation, verbatim, so that it keeps compiling and passing.

struct Row: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var isDone = false
  }
  enum Action: Equatable, Sendable { case toggled }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isDone.toggle()
    return .none
  }
}

struct Todos: Reducer {  // @Reducer struct Todos
  struct State: Equatable {  // @ObservableState struct State
    var rows: IdentifiedArrayOf<Row.State> = []
    var destination: Destination.State?  // @Presents var destination
    var path = Stack<Row.State>()  // StackState<Row.State>
  }
  enum Action: Equatable, Sendable {  // @CasePathable enum Action
    case rows(id: Row.State.ID, action: Row.Action)  // rows(IdentifiedActionOf<Row>)
    case destination(PresentationAction<Destination.Action>)
    case path(StackAction<Row.Action>)  // path(StackActionOf<Row>)
    case rowTapped(Row.State.ID)
    case editTapped(Row.State.ID)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rowTapped(let id):
        if let row = state.rows[id: id] { state.path.push(row) }
        return .none
      case .editTapped(let id):
        state.destination = .edit(Row.State(id: id))
        return .none
      case .rows, .destination, .path:
        return .none
      }
    }
    .forEach(\.rows, action: Action.rows) { Row() }  // action: \.rows
    .ifLet(\.destination, action: Action.destination) { Destination() }  // \.$destination, \.destination
    .forEach(\.path, action: Action.path) { Row() }  // action: \.path
  }

  struct Destination: Reducer {  // @Reducer enum Destination { case edit(Row) }
    enum State: Equatable { case edit(Row.State) }
    enum Action: Equatable, Sendable { case edit(Row.Action) }

    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(State.edit, action: Action.edit) { Row() }
    }
  }
}

@Test @MainActor
func theFormsThatReplaceTheMacros() async {
  let store = TestStore(initialState: Todos.State(rows: [Row.State(id: 1)])) { Todos() }

  await store.send(.rows(id: 1, action: .toggled)) { $0.rows[id: 1]?.isDone = true }
  await store.send(.rowTapped(1)) { $0.path.push(Row.State(id: 1, isDone: true)) }
  await store.send(.path(.element(id: 0, action: .toggled))) { $0.path[id: 0]?.isDone = false }
  await store.send(.editTapped(1)) { $0.destination = .edit(Row.State(id: 1)) }
  await store.send(.destination(.presented(.edit(.toggled)))) {
    $0.destination[case: Todos.Destination.State.edit]?.isDone = true
  }
  await store.finish()
}
