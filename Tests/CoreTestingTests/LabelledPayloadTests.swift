import Core
import CoreTesting
import TestSupport
import Testing

/// Cases whose values have labels: a path keeps them, and a test store receives such a
/// case with its payload.
@MainActor
struct LabelledPayloadTests {
  private struct Row: Reducer {
    struct State: Equatable, Identifiable {
      let id: Int
      var name = ""
    }
    enum Action: Equatable, Sendable { case load, loaded(name: String) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .load:
        return .send(.loaded(name: "pug"))
      case .loaded(let name):
        state.name = name
        return .none
      }
    }
  }

  private struct List: Reducer {
    struct State: Equatable { var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1)] }
    enum Action: Equatable, Sendable { case rows(id: Int, action: Row.Action) }

    var body: some Reducer<State, Action> {
      EmptyReducer().forEach(\.rows, action: Action.rows) { Row() }
    }
  }

  @Test func aPathGivenItsLabelledTypeKeepsTheLabels() {
    let rows = CasePath<List.Action, (id: Int, action: Row.Action)>(List.Action.rows)
    let payload = rows.extract(.rows(id: 7, action: .load))
    #expect(payload?.id == 7)
    #expect(payload?.action == .load)
    #expect(rows.embed((id: 2, action: .load)) == .rows(id: 2, action: .load))
  }

  @Test func aSingleLabelledValueIsThePayload() {
    let loaded = CasePath(Row.Action.loaded)
    #expect(loaded.extract(.loaded(name: "pug")) == "pug")
    #expect(loaded.extract(.load) == nil)
  }

  @Test func aCaseWithSeveralValuesIsReceivedWithItsPayload() async {
    let store = TestStore(initialState: List.State()) { List() }
    await store.send(.rows(id: 1, action: .load))
    await store.receive(List.Action.rows, (id: 1, action: .loaded(name: "pug"))) {
      $0.rows[id: 1]?.name = "pug"
    }
    await store.finish()
  }

  @Test func anotherPayloadFailsWithTheDiff() async {
    let issues = await collectingIssues {
      let store = TestStore(initialState: List.State()) { List() }
      await store.send(.rows(id: 1, action: .load))
      await store.receive(List.Action.rows, (id: 1, action: .loaded(name: "hound"))) {
        $0.rows[id: 1]?.name = "pug"
      }
    }
    #expect(
      issues == [
        """
        The received action's payload does not match:

          (
            … (1 unchanged)
            .loaded(
        -     name: "hound"
        +     name: "pug"
            )
          )

        (Expected: -, Received: +)
        """
      ])
  }
}
