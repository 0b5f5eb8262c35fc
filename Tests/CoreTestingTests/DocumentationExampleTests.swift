import Core
import CoreTesting
import Testing

// The worked example of `TestStore`'s documentation, verbatim, so that it keeps compiling
// and passing; then the three failures the documentation promises for it.

struct FactClient: Sendable {
  var fact: @Sendable (Int) async throws -> String

  /// Tests start from this and replace the endpoints they expect to be called; a call
  /// to any other fails the test with "unimplemented: FactClient.fact".
  static let failing = FactClient { _ in
    reportIssue("unimplemented: FactClient.fact")
    throw CancellationError()
  }
}

struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
  }
  enum Action: Equatable, Sendable {
    case incrementTapped
    case factTapped
    case factResponse(String)
  }
  let client: FactClient

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += 1
      state.fact = nil
      return .none
    case .factTapped:
      return .run { [count = state.count, client] send in
        await send(.factResponse(try await client.fact(count)))
      }
    case .factResponse(let fact):
      state.fact = fact
      return .none
    }
  }
}

@Test @MainActor
func factAboutTheCount() async {
  var client = FactClient.failing
  client.fact = { "\($0) is a good number." }
  let store = TestStore(initialState: Counter.State()) { Counter(client: client) }

  await store.send(.incrementTapped) { $0.count = 1 }
  await store.send(.factTapped)  // changes no state, so there is nothing to assert
  await store.receive(.factResponse("1 is a good number.")) {
    $0.fact = "1 is a good number."
  }
  await store.finish()  // fails the test if an effect is still running
}

@MainActor
struct DocumentationExampleFailureTests {
  var client: FactClient {
    var client = FactClient.failing
    client.fact = { "\($0) is a good number." }
    return client
  }

  @Test func leavingOutTheReceiveFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter(client: client) }
      await store.send(.incrementTapped) { $0.count = 1 }
      await store.send(.factTapped)
      await store.finish()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("The store received 1 unexpected action") }
    }
  }

  @Test func aWrongExpectationFailsWithTheDiff() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter(client: client) }
      await store.send(.incrementTapped) { $0.count = 2 }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("A state change does not match expectation")
          && $0.rawValue.contains("-   count: 2") && $0.rawValue.contains("+   count: 1")
      }
    }
  }

  @Test func leavingOutTheEndpointFailsAsUnimplemented() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter(client: .failing) }
      await store.send(.factTapped)
      await store.finish()
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "unimplemented: FactClient.fact" }
    }
  }
}
