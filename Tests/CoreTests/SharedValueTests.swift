import Core
import CoreTesting
import TestSupport
import Testing

/// The shared-value recipe: one owner, a projection into each feature that shares the
/// value, and `onChange` to save it through a client, coalesced on a clock.
@MainActor
struct SharedValueTests {
  @Test func twoFeaturesSeeEachOthersChangesAndABurstIsSavedOnce() async {
    let clock = TestClock()
    let saved = Log<Set<String>>()
    let store = TestStore(initialState: Root.State()) {
      Root(clock: clock, save: { saved.append($0) })
    }
    await store.send(.list(.toggle("pug"))) { $0.favourites = ["pug"] }
    #expect(store.state.detail.favourites == ["pug"])
    await store.send(.detail(.toggleShown)) {
      $0.favourites = ["pug", "hound"]
    }
    #expect(store.state.list.favourites == ["pug", "hound"])
    await store.send(.list(.toggle("pug"))) { $0.favourites = ["hound"] }
    await clock.advance(by: .milliseconds(999))
    #expect(saved.values == [])
    await clock.advance(by: .milliseconds(1))
    await store.finish()
    #expect(saved.values == [["hound"]])
  }

  /// The projection's laws: what a feature writes is what it reads back, and writing what
  /// it read changes nothing.
  @Test func theProjectionKeepsTheLaws() {
    var state = Root.State(favourites: ["pug"])
    var list = state.list
    list.favourites.insert("hound")
    state.list = list
    #expect(state.list == list)
    #expect(state.detail.favourites == ["pug", "hound"])
    let before = state
    state.detail = state.detail
    #expect(state == before)
  }
}

/// A list that stars any breed.
private struct List: Reducer {
  struct State: Equatable { var favourites: Set<String> = [] }
  enum Action: Equatable, Sendable { case toggle(String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggle(let name):
      if state.favourites.remove(name) == nil { state.favourites.insert(name) }
      return .none
    }
  }
}

/// A detail screen that stars the breed it shows.
private struct Detail: Reducer {
  struct State: Equatable {
    var shown = "hound"
    var favourites: Set<String> = []
  }
  enum Action: Equatable, Sendable { case toggleShown }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if state.favourites.remove(state.shown) == nil { state.favourites.insert(state.shown) }
    return .none
  }
}

/// Owns the favourites once; each feature sees them through a projection.
private struct Root: Reducer {
  struct State: Equatable {
    var favourites: Set<String> = []
    var shown = "hound"

    var list: List.State {
      get { List.State(favourites: favourites) }
      set { favourites = newValue.favourites }
    }
    var detail: Detail.State {
      get { Detail.State(shown: shown, favourites: favourites) }
      set {
        shown = newValue.shown
        favourites = newValue.favourites
      }
    }
  }
  enum Action: Equatable, Sendable {
    case list(List.Action)
    case detail(Detail.Action)
  }
  enum CancelID { case save }
  let clock: any Clock<Duration>
  let save: @Sendable (Set<String>) -> Void

  var body: some Reducer<State, Action> {
    // `onChange` watches what the reducers it wraps do: both features' here.
    CombineReducers {
      Scope(
        state: \.list, action: CasePath(embed: Action.list) { if case .list(let a) = $0 { a } else { nil } }
      ) {
        List()
      }
      Scope(
        state: \.detail,
        action: CasePath(embed: Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
      ) { Detail() }
    }
    .onChange(of: \.favourites) { _, favourites, _ in
      .run { [clock, save] _ in
        try await clock.sleep(for: .seconds(1))
        save(favourites)
      }
      .cancellable(id: CancelID.save, cancelInFlight: true)
    }
  }
}
