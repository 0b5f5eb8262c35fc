import Core
import CoreTesting
import Testing

// The example of the "Dependencies" article in Core's documentation, verbatim, so that it
// keeps compiling and passing.

/// The server's user endpoints: one closure per endpoint.
struct UserClient: Sendable {
  var name: @Sendable (Int) async throws -> String
  var rename: @Sendable (Int, String) async throws -> Void

  /// Every endpoint fails the test that calls it: tests replace the ones they expect.
  static let failing = UserClient(
    name: { _ in
      reportIssue("unimplemented: UserClient.name")
      throw CancellationError()
    },
    rename: { _, _ in reportIssue("unimplemented: UserClient.rename") }
  )
}

/// Everything the app's features need from outside, made once where the app starts.
struct AppClients: Sendable {
  var user: UserClient
  var clock: any Clock<Duration>
}

/// The root: holds the profile screen, and passes down what it needs.
struct AppRoot: Reducer {
  struct State: Equatable { var profile = Profile.State() }
  enum Action: Equatable, Sendable { case profile(Profile.Action) }
  let clients: AppClients

  var body: some Reducer<State, Action> {
    Scope(state: \.profile, action: Action.profile) {
      Profile(user: clients.user, clock: clients.clock)
    }
  }
}

/// A screen that loads the user's name, and saves a new one a moment after the last edit.
struct Profile: Reducer {
  struct State: Equatable {
    var name = ""
    var isSaving = false
  }
  enum Action: Equatable, Sendable {
    case appeared
    case nameLoaded(String)
    case nameEdited(String)
    case saved
  }
  let user: UserClient
  let clock: any Clock<Duration>
  enum CancelID { case save }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .appeared:
      return .run { [user] send in await send(.nameLoaded(try await user.name(1))) }
    case .nameLoaded(let name):
      state.name = name
      return .none
    case .nameEdited(let name):
      state.name = name
      state.isSaving = true
      return .run { [user, clock] send in
        try await clock.sleep(for: .milliseconds(500))
        try await user.rename(1, name)
        await send(.saved)
      }
      .cancellable(id: CancelID.save, cancelInFlight: true)
    case .saved:
      state.isSaving = false
      return .none
    }
  }
}

@Test @MainActor
func editingTheNameSavesItOnceAfterThePause() async {
  let clock = TestClock()
  var user = UserClient.failing
  let renamed = Names()
  user.rename = { _, name in await renamed.append(name) }
  let store = TestStore(initialState: AppRoot.State()) {
    AppRoot(clients: AppClients(user: user, clock: clock))
  }

  await store.send(.profile(.nameEdited("Ad"))) {
    $0.profile.name = "Ad"
    $0.profile.isSaving = true
  }
  await store.send(.profile(.nameEdited("Ada"))) { $0.profile.name = "Ada" }
  await clock.advance(by: .milliseconds(500))
  await store.receive(.profile(.saved)) { $0.profile.isSaving = false }
  #expect(await renamed.all == ["Ada"])
  await store.finish()
}

/// What a test records from inside a client's endpoint.
actor Names {
  var all: [String] = []
  func append(_ name: String) { all.append(name) }
}

@Test @MainActor
func theProfileAloneTakesOnlyWhatItUses() async {
  var user = UserClient.failing
  user.name = { _ in "Ada" }
  let store = TestStore(initialState: Profile.State()) {
    Profile(user: user, clock: ImmediateClock())
  }

  await store.send(.appeared)
  await store.receive(.nameLoaded("Ada")) { $0.name = "Ada" }
  await store.finish()
}
