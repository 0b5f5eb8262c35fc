import Core
import CoreTesting
import TestSupport
import Testing

// The example of the "Stack navigation" article in Core's documentation, verbatim, so that
// it keeps compiling and passing.

/// Fetches the pictures of a sub-breed.
struct ImagesClient: Sendable {
  var images: @Sendable (String) async throws -> [String]
}

/// A list of breeds; choosing one pushes its screen, and choosing a sub-breed there pushes
/// the sub-breed's.
struct Browser: Reducer {
  struct State: Equatable {
    var subBreeds: [String: [String]] = ["hound": ["afghan", "basset"]]
    var path = Stack<Path.State>()
  }
  enum Action: Equatable, Sendable {
    case breedTapped(String)
    case backTapped
    case path(StackAction<Path.Action>)
  }
  let client: ImagesClient

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .breedTapped(let name):
        state.path.push(.breed(Breed.State(name: name, subBreeds: state.subBreeds[name] ?? [])))
        return .none
      case .backTapped:
        state.path.popLast()
        return .none
      case .path(.element(id: _, action: .breed(.delegate(.subBreedChosen(let name))))):
        state.path.push(.subBreed(SubBreed.State(name: name)))
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) { Path(client: client) }
  }

  /// Every screen the browser can push: one case per screen.
  struct Path: Reducer {
    enum State: Equatable {
      case breed(Breed.State)
      case subBreed(SubBreed.State)
    }
    enum Action: Equatable, Sendable {
      case breed(Breed.Action)
      case subBreed(SubBreed.Action)
    }
    let client: ImagesClient

    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(State.breed, action: Action.breed) { Breed() }
        .ifCaseLet(State.subBreed, action: Action.subBreed) { SubBreed(client: client) }
    }
  }
}

/// A breed's screen: its sub-breeds, and which one was chosen.
struct Breed: Reducer {
  struct State: Equatable {
    var name: String
    var subBreeds: [String]
  }
  enum Action: Equatable, Sendable {
    case subBreedTapped(String)
    case delegate(Delegate)

    enum Delegate: Equatable, Sendable { case subBreedChosen(String) }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .subBreedTapped(let name):
      return .send(.delegate(.subBreedChosen(name)))
    case .delegate:
      return .none
    }
  }
}

/// A sub-breed's screen: its pictures, loaded when it appears; "Done" pops it.
struct SubBreed: Reducer {
  struct State: Equatable {
    var name: String
    var images: [String] = []
  }
  enum Action: Equatable, Sendable {
    case appeared
    case imagesLoaded([String])
    case doneTapped
  }
  let client: ImagesClient

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .appeared:
      return .run { [name = state.name, client] send in
        await send(.imagesLoaded(try await client.images(name)))
      }
    case .imagesLoaded(let images):
      state.images = images
      return .none
    case .doneTapped:
      return .dismiss
    }
  }
}

@Test @MainActor
func browsingIntoASubBreedAndBack() async {
  let client = ImagesClient { ["\($0)-1.jpg"] }
  let store = TestStore(initialState: Browser.State()) { Browser(client: client) }

  await store.send(.breedTapped("hound")) {
    $0.path.push(.breed(Breed.State(name: "hound", subBreeds: ["afghan", "basset"])))  // id 0
  }
  await store.send(.path(.element(id: 0, action: .breed(.subBreedTapped("afghan")))))
  await store.receive(.path(.element(id: 0, action: .breed(.delegate(.subBreedChosen("afghan")))))) {
    $0.path.push(.subBreed(SubBreed.State(name: "afghan")))  // id 1
  }
  await store.send(.path(.element(id: 1, action: .subBreed(.appeared))))
  await store.receive(.path(.element(id: 1, action: .subBreed(.imagesLoaded(["afghan-1.jpg"]))))) {
    $0.path[id: 1][case: Browser.Path.State.subBreed]?.images = ["afghan-1.jpg"]
  }
  await store.send(.path(.element(id: 1, action: .subBreed(.doneTapped))))
  await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
  await store.send(.backTapped) { $0.path.popLast() }
  await store.finish()
}

@Test @MainActor
func poppingASubBreedCancelsItsLoading() async {
  let client = ImagesClient { _ in
    try await Task.sleep(for: .seconds(3600))  // an answer that never comes in time
    return []
  }
  let store = TestStore(
    initialState: Browser.State(path: [.subBreed(SubBreed.State(name: "afghan"))])
  ) {
    Browser(client: client)
  }

  await store.send(.path(.element(id: 0, action: .subBreed(.appeared))))
  await store.send(.path(.popFrom(id: 0))) { $0.path = [] }
  await store.finish()  // passes: popping the screen cancelled its effect
}

/// The article's other promises: the view code, and the diff of a wrong assertion.
@MainActor
struct StackNavigationArticleTests {
  /// Stands in for a view of the sub-breed's screen.
  struct SubBreedView {
    let store: Store<SubBreed.State, SubBreed.Action>
  }

  @Test func theViewCodeDrawsTheHeaderScopesTheTopScreenAndGoesBack() {
    let store = Store(
      initialState: Browser.State(
        path: [
          .breed(Breed.State(name: "hound", subBreeds: ["afghan"])),
          .subBreed(SubBreed.State(name: "afghan")),
        ])
    ) {
      Browser(client: ImagesClient { _ in [] })
    }
    var drawn: [SubBreedView] = []

    let path = store.state.path
    let header = path.map { screen in
      switch screen {
      case .breed(let breed): breed.name
      case .subBreed(let subBreed): subBreed.name
      }
    }.joined(separator: " › ")  // "hound › afghan"

    if let id = path.ids.last,
      let subBreed = store.scope(
        state: \.path[id: id], case: Browser.Path.State.subBreed,
        action: { .path(.element(id: id, action: .subBreed($0))) })
    {
      drawn.append(SubBreedView(store: subBreed))
    }

    // The back key: pop the top screen, whichever it is.
    if let id = store.state.path.ids.last { store.send(.path(.popFrom(id: id))) }

    #expect(header == "hound › afghan")
    #expect(drawn.map(\.store.state.name) == ["afghan"])
    #expect(store.state.path.ids == [0])
  }

  @Test func aWrongAssertionOnAScreenNamesItById() async {
    let issues = await collectingIssues {
      let client = ImagesClient { ["\($0)-1.jpg"] }
      let store = TestStore(
        initialState: Browser.State(
          path: [
            .breed(Breed.State(name: "hound", subBreeds: ["afghan"])),
            .subBreed(SubBreed.State(name: "afghan")),
          ])
      ) {
        Browser(client: client)
      }
      store.exhaustivity = .off
      await store.send(.path(.element(id: 1, action: .subBreed(.appeared))))
      await store.receive(.path(.element(id: 1, action: .subBreed(.imagesLoaded(["afghan-1.jpg"])))))
      store.exhaustivity = .on
      await store.send(.path(.element(id: 1, action: .subBreed(.imagesLoaded(["afghan-2.jpg"]))))) {
        $0.path[id: 1][case: Browser.Path.State.subBreed]?.images = ["afghan-1.jpg"]
      }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation:

          Browser.State(
            … (1 unchanged)
            path: Stack<Browser.Path.State>(
              … (1 unchanged)
              #1: .subBreed(
                SubBreed.State(
                  … (1 unchanged)
                  images: [
        -           "afghan-1.jpg"
        +           "afghan-2.jpg"
                  ]
                )
              )
            )
          )

        (Expected: -, Actual: +)
        """
      ])
  }
}
