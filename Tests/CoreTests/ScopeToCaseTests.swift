import Core
import Testing

/// A store scoped to one case of an enum state, named by the case alone.
@MainActor
struct ScopeToCaseTests {
  private enum Session: Equatable {
    case signedOut(name: String)
    case signedIn(Int)
  }
  private struct State: Equatable { var session = Session.signedOut(name: "") }
  private enum Action: Equatable, Sendable { case name(String), signIn }

  private struct Feature: Reducer {
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .name(let name): state.session = .signedOut(name: name)
      case .signIn: state.session = .signedIn(1)
      }
      return .none
    }
  }

  @Test func aStoreOfOneCaseIsThereOnlyWhileTheStateIsInIt() {
    let store = Store(initialState: State()) { Feature() }
    let signedOut = store.scope(state: \.session, case: Session.signedOut, action: Action.name)
    #expect(store.scope(state: \.session, case: Session.signedIn, action: { (_: Int) in .signIn }) == nil)
    signedOut?.send("Ada")
    #expect(signedOut?.state == "Ada")
    store.send(.signIn)
    #expect(store.scope(state: \.session, case: Session.signedOut, action: Action.name) == nil)
    #expect(
      store.scope(state: \.session, case: Session.signedIn, action: { (_: Int) in .signIn })?.state == 1)
    // The store on its way out reads the last payload it saw.
    #expect(signedOut?.state == "Ada")
  }
}
