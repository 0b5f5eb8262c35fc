import Core
import TestSupport
import Testing

@MainActor
struct IfLetTests {
  @Test func childActionsRunTheChildWhilePresent() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.present)
    store.send(.optional(.increment))
    store.send(.optional(.increment))
    #expect(store.state.optional?.count == 2)
  }

  @Test func childActionWhileNilIsReportedAndIgnored() async {
    let issues = await collectingIssues {
      let store = Store(initialState: Parent.State()) { Parent() }
      store.send(.optional(.increment))
      #expect(store.state.optional == nil)
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.contains("An 'ifLet' received a child action while its child state was nil") == true)
    #expect(issues.first?.contains(".increment") == true)
  }

  /// The teardown is an effect only where the child goes away: an action that leaves it
  /// absent, or present, returns what the parent returns (here `none`, which the store
  /// handles without starting anything).
  @Test func onlyTheActionThatRemovesTheChildReturnsItsTeardown() {
    let parent = Parent()
    var state = Parent.State()
    #expect(parent.reduce(into: &state, action: .child(.increment)).isNone)
    #expect(parent.reduce(into: &state, action: .dismiss).isNone)
    #expect(parent.reduce(into: &state, action: .present).isNone)
    #expect(parent.reduce(into: &state, action: .optional(.increment)).isNone)
    #expect(!parent.reduce(into: &state, action: .dismiss).isNone)
    #expect(state.optional == nil)
  }

  @Test func dismissSetsStateToNil() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.present)
    store.send(.dismiss)
    #expect(store.state.optional == nil)
  }
}
