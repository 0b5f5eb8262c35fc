import Core
import CoreTesting
import Testing

// The example of the "Enum destinations" article in Core's documentation, verbatim, so
// that it keeps compiling and passing.

struct Contacts: Reducer {
  struct State: Equatable {
    var names: [String] = []
    var destination: Destination.State?
  }
  enum Action: Equatable, Sendable {
    case addTapped
    case deleteTapped(String)
    case destination(PresentationAction<Destination.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addTapped:
        state.destination = .add(AddContact.State())
        return .none
      case .deleteTapped(let name):
        state.destination = .alert(
          AlertState(
            title: "Delete \(name)?",
            buttons: [
              ButtonState(role: .destructive, "Delete", action: .confirmDelete(name)),
              ButtonState(role: .cancel, "Keep"),
            ]))
        return .none
      case .destination(.presented(.add(.delegate(.save(let name))))):
        state.names.append(name)
        return .none
      case .destination(.presented(.alert(.confirmDelete(let name)))):
        state.names.removeAll { $0 == name }  // the alert is already gone
        return .none
      case .destination:
        return .none
      }
    }
    .ifLet(\.destination, action: Action.destination) { Destination() }
  }

  /// Everything the list presents: one at a time.
  struct Destination: Reducer {
    enum State: Equatable {
      case add(AddContact.State)
      case alert(AlertState<Action.Alert>)
    }
    enum Action: Equatable, Sendable {
      case add(AddContact.Action)
      case alert(Alert)

      enum Alert: Equatable, Sendable { case confirmDelete(String) }
    }

    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(State.add, action: Action.add) { AddContact() }
    }
  }
}

struct AddContact: Reducer {
  struct State: Equatable { var name = "" }
  enum Action: Equatable, Sendable {
    case nameChanged(String)
    case saveTapped
    case delegate(Delegate)

    enum Delegate: Equatable, Sendable { case save(String) }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .nameChanged(let name):
      state.name = name
      return .none
    case .saveTapped:
      return .merge(.send(.delegate(.save(state.name))), .dismiss)
    case .delegate:
      return .none
    }
  }
}

@Test @MainActor
func addingAndDeletingAContact() async {
  let store = TestStore(initialState: Contacts.State()) { Contacts() }

  await store.send(.addTapped) { $0.destination = .add(AddContact.State()) }
  await store.send(.destination(.presented(.add(.nameChanged("Ada"))))) {
    $0.destination = .add(AddContact.State(name: "Ada"))
  }
  await store.send(.destination(.presented(.add(.saveTapped))))
  await store.receive(.destination(.presented(.add(.delegate(.save("Ada")))))) {
    $0.names = ["Ada"]
  }
  await store.receive(.destination(.dismiss)) { $0.destination = nil }

  await store.send(.deleteTapped("Ada")) {
    $0.destination = .alert(
      AlertState(
        title: "Delete Ada?",
        buttons: [
          ButtonState(role: .destructive, "Delete", action: .confirmDelete("Ada")),
          ButtonState(role: .cancel, "Keep"),
        ]))
  }
  await store.send(.destination(.presented(.alert(.confirmDelete("Ada"))))) {
    $0.destination = nil
    $0.names = []
  }
  await store.finish()
}

/// The article's assertion through a case, without a computed optional.
@Test @MainActor
func editingAContactThroughTheCase() async {
  let store = TestStore(initialState: Contacts.State(destination: .add(AddContact.State()))) { Contacts() }
  await store.send(.destination(.presented(.add(.nameChanged("Ada"))))) {
    $0.destination[case: Contacts.Destination.State.add]?.name = "Ada"
  }
}

/// The article's view code: a store scoped to the `add` case from the case alone, there
/// only while that case is, and the alert read through its case.
@Test @MainActor
func theViewReachesACaseFromTheCaseAlone() {
  struct AddContactView { let store: Store<AddContact.State, AddContact.Action> }
  var views: [AddContactView] = []
  var alerts: [AlertState<Contacts.Destination.Action.Alert>] = []
  func draw(_ alert: AlertState<Contacts.Destination.Action.Alert>) { alerts.append(alert) }
  let store = Store(initialState: Contacts.State()) { Contacts() }

  func render() {
    if let addStore = store.scope(
      state: \.destination, case: Contacts.Destination.State.add,
      action: { .destination(.presented(.add($0))) })
    {
      views.append(AddContactView(store: addStore))
    }
    if let alert = store.state.destination[case: Contacts.Destination.State.alert] {
      draw(alert)  // a button sends `.destination(.presented(.alert(action)))`, or dismisses
    }
  }

  render()
  #expect(views.isEmpty && alerts.isEmpty)
  store.send(.addTapped)
  render()
  #expect(views.count == 1)
  views.first?.store.send(.nameChanged("Ada"))
  #expect(views.first?.store.state.name == "Ada")
  store.send(.deleteTapped("Bo"))
  render()
  #expect(views.count == 1)
  #expect(alerts.map(\.title) == ["Delete Bo?"])
}
