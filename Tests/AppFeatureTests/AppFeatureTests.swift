import AppFeature
import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import DogsFeature
import Foundation
import TestSupport
import Testing

let list = BreedList(
  breeds: [Breed(name: "akita"), Breed(name: "hound", subBreeds: ["afghan", "basset"]), Breed(name: "pug")],
  source: .network)

/// What time it is in these tests: when every answer arrives.
let now = Date(timeIntervalSince1970: 1_795_000_000)

/// The address of a breed's (or sub-breed's) picture, as ``answering`` gives it.
func pictureURL(_ breed: String, _ subBreed: String? = nil) -> URL {
  URL(string: "https://images.dog.ceo/breeds/\(breed)\(subBreed.map { "-\($0)" } ?? "")/1.jpg")!
}

/// A client that answers a picture's address at once (``pictureURL(_:_:)``), and fails
/// everything else as not implemented.
let answering: DogAPIClient = {
  var client = DogAPIClient.failing
  client.randomImage = { breed, subBreed in pictureURL(breed, subBreed) }
  return client
}()

extension TestStore where State == AppFeature.State, Action == AppFeature.Action {
  /// What a Breed screen, `id` of the stack, does as it opens, by itself: it asks for its
  /// picture's address, and ``answering`` gives it.
  func receiveOpening(_ breed: String, _ subBreed: String? = nil, id: StackElementID = 0) async {
    let url = pictureURL(breed, subBreed)
    await receive(.path(.element(id: id, action: .appeared))) { $0.path[id: id]?.imageURL = .loading }
    await receive(.path(.element(id: id, action: .imageURLResponse(.success(url), at: now)))) {
      $0.path[id: id]?.imageURL = .loaded(url)
    }
  }
}

@MainActor
struct AppFeatureTests {
  /// Opening a breed is the reducer's business from start to end: the screen opens and
  /// loads its picture with no action sent but the user's.
  @Test func selectingABreedOpensItFromTheSharedListAndDismissingClosesIt() async {
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: answering, now: { now })
    }
    await store.send(.dogs(.rowSelected("hound"))) { $0.dogsTab.highlighted = "hound" }
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.breed = BreedFeature.State(breed: Breed(name: "hound", subBreeds: ["afghan", "basset"]))
    }
    await store.receiveOpening("hound")
    await store.send(.breedScreenDismissed) { $0.breed = nil }
  }

  /// The Dogs screen's store, scoped as its `Scope` names it, on the app's projection of the
  /// shared list: its actions reach the app's reducer, which opens the breed.
  @Test func theDogsStoreScopedAsItsScopeNamesItDrivesTheApp() async {
    let store = Store(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: answering)
    }
    let issues = await collectingIssues {
      let dogs: Store<DogsFeature.State, DogsFeature.Action> = store.scope(
        state: \.dogs, action: AppFeature.Action.dogs)
      dogs.send(.filterChanged("pu"))
      #expect(store.state.dogsTab.filter == "pu")
      #expect(dogs.state.filter == "pu")
      dogs.send(.rowSelected("pug"))
    }
    #expect(issues == [])
    #expect(store.state.breed?.breed == Breed(name: "pug"))
  }

  /// The Breed screen's store, scoped to the top screen and unwrapped while the screen is
  /// open: its actions reach the open breed; once it closes, the store keeps the last breed
  /// it saw, and a send is reported.
  @Test func theBreedStoreIsThereWhileTheScreenIsOpen() async throws {
    let store = Store(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: answering)
    }
    let breed: Store<BreedFeature.State?, BreedFeature.Action> = store.scope(
      state: \.breed, action: AppFeature.Action.breed)
    #expect(breed.unwrapped() == nil)
    store.send(.dogs(.rowSelected("hound")))
    let hound = try #require(breed.unwrapped())
    hound.send(.highlightMoved(.down))
    #expect(store.state.breed?.highlighted == "afghan")
    store.send(.breedScreenDismissed)
    #expect(hound.state.breed == Breed(name: "hound", subBreeds: ["afghan", "basset"]))
    let issues = await collectingIssues { hound.send(.highlightMoved(.down)) }
    #expect(issues.count == 1)
    #expect(
      issues.first?.hasPrefix("An action for the Breed screen on top arrived while none is open") == true)
  }

  @Test func aSubBreedFoundByTheFilterOpensItsBreedShowingIt() async {
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: answering, now: { now })
    }
    await store.send(.dogs(.subBreedMatchSelected(breed: "hound", subBreed: "basset")))
    await store.receive(.dogs(.delegate(.subBreedSelected(breed: "hound", subBreed: "basset")))) {
      $0.breed = BreedFeature.State(
        breed: Breed(name: "hound", subBreeds: ["afghan", "basset"]), subBreed: "basset",
        highlighted: "basset")
    }
    // The sub-breed's own picture, from the start.
    await store.receiveOpening("hound", "basset")
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    // A sub-breed the list does not have under that breed stays on the list, with a notice.
    await store.send(.dogs(.subBreedMatchSelected(breed: "pug", subBreed: "basset")))
    await store.receive(.dogs(.delegate(.subBreedSelected(breed: "pug", subBreed: "basset")))) {
      $0.notice = "“basset pug” is not in the breed list."
    }
    await store.send(.dogs(.subBreedMatchSelected(breed: "hound", subBreed: "afghan")))
    await store.receive(.dogs(.delegate(.subBreedSelected(breed: "hound", subBreed: "afghan")))) {
      $0.notice = nil
      $0.breed = BreedFeature.State(
        breed: Breed(name: "hound", subBreeds: ["afghan", "basset"]), subBreed: "afghan",
        highlighted: "afghan")
    }
    await store.receiveOpening("hound", "afghan", id: 1)
  }

  @Test func anUnknownBreedStaysOnTheListWithANotice() async {
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: answering, now: { now })
    }
    await store.send(.dogs(.rowSelected("unicorn"))) { $0.dogsTab.highlighted = "unicorn" }
    await store.receive(.dogs(.delegate(.breedSelected("unicorn")))) {
      $0.notice = "“unicorn” is not in the breed list."
    }
    await store.send(.noticeDismissed) { $0.notice = nil }
    // Opening a breed that is listed clears a notice left from an earlier choice.
    await store.send(.dogs(.rowSelected("unicorn")))
    await store.receive(.dogs(.delegate(.breedSelected("unicorn")))) {
      $0.notice = "“unicorn” is not in the breed list."
    }
    await store.send(.dogs(.rowSelected("pug"))) { $0.dogsTab.highlighted = "pug" }
    await store.receive(.dogs(.delegate(.breedSelected("pug")))) {
      $0.notice = nil
      $0.breed = BreedFeature.State(breed: Breed(name: "pug"))
    }
    await store.receiveOpening("pug")
    let empty = TestStore(initialState: AppFeature.State()) { AppFeature(client: .failing) }
    await empty.send(.dogs(.rowSelected("hound"))) { $0.dogsTab.highlighted = "hound" }
    await empty.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.notice = "“hound” is not in the breed list."
    }
  }

  @Test func dismissingCancelsAPictureRequestAndItsLateAnswerNeverAppears() async {
    let gate = Gate()
    var client = DogAPIClient.failing
    client.randomImage = { _, _ in
      await gate.wait()
      return URL(string: "https://images.dog.ceo/breeds/hound/late.jpg")!
    }
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
        AppFeature(client: client)
      }
      await store.send(.dogs(.rowSelected("hound"))) { $0.dogsTab.highlighted = "hound" }
      await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
        $0.breed = BreedFeature.State(breed: list.breeds[1])
      }
      await store.receive(.path(.element(id: 0, action: .appeared))) { $0.breed?.imageURL = .loading }
      await store.send(.breedScreenDismissed) { $0.breed = nil }
      await gate.open()
      try? await Task.sleep(for: .milliseconds(50))
      await store.finish()
      #expect(store.state.breed == nil)
    }
    // Nothing was received, and no late child action reached the nil breed state.
    #expect(issues.messages == [])
  }

  @Test func aBreedOpenedAgainStartsFresh() async {
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: answering, now: { now })
    }
    await store.send(.dogs(.rowSelected("pug"))) { $0.dogsTab.highlighted = "pug" }
    await store.receive(.dogs(.delegate(.breedSelected("pug")))) {
      $0.breed = BreedFeature.State(breed: Breed(name: "pug"))
    }
    await store.receiveOpening("pug")
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await store.send(.dogs(.rowSelected("akita"))) { $0.dogsTab.highlighted = "akita" }
    await store.receive(.dogs(.delegate(.breedSelected("akita")))) {
      $0.breed = BreedFeature.State(breed: Breed(name: "akita"))
    }
    await store.receiveOpening("akita", id: 1)
  }

  @Test func loadingThroughTheDogsFeatureFillsTheSharedList() async {
    var client = DogAPIClient.failing
    client.breeds = { list }
    let store = TestStore(initialState: AppFeature.State()) { AppFeature(client: client, now: { now }) }
    await store.send(.dogs(.appeared)) { $0.dogsTab.status = .loading }
    await store.receive(.dogs(.breedsResponse(.success(list), at: now))) {
      $0.breeds = list
      $0.dogsTab.status = .loaded
      $0.dogsTab.highlighted = "akita"
    }
  }

  /// The screen's size, asked as each picture arrives, reaches the Breed screen's decoder.
  @Test(arguments: [(40, 30), (400, 300)])
  func theScreenSizeDecidesThePicturesSize(width: Int, height: Int) async throws {
    let store = Store(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: .fake()) { (width, height) }
    }
    // Opening the breed loads its picture: the send's task ends once it has.
    await store.send(.dogs(.rowSelected("hound"))).finish()
    guard case .loaded(let picture) = store.state.breed?.picture else {
      Issue.record("no picture: \(String(describing: store.state.breed?.picture))")
      return
    }
    // The decoder picks the smallest of its scales that covers the size.
    #expect(picture.width >= width && picture.height >= height)
    #expect(picture.width < width * 4, "\(picture.width) wide for \(width)")
  }

  @Test func theWholeAppThroughTheFakeClient() async {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature(client: .fake()) }
    store.exhaustivity = .off
    await store.send(.dogs(.appeared))
    await store.receive({ if case .dogs(.breedsResponse(.success, _)) = $0 { true } else { false } }) {
      $0.dogsTab.status = .loaded
    }
    #expect(store.state.breeds?.breeds.count == 108)
    await store.send(.dogs(.filterChanged("hou"))) { $0.dogsTab.filter = "hou" }
    await store.send(.dogs(.rowSelected("hound")))
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.breed?.breed.name = "hound"
    }
    #expect(store.state.breed?.breed.subBreeds.count == 7)
    await store.receive(.path(.element(id: 0, action: .appeared))) { $0.breed?.imageURL = .loading }
    await store.receive({
      if case .path(.element(0, .imageURLResponse(.success, _))) = $0 { true } else { false }
    })
    guard case .loaded(let url) = store.state.breed?.imageURL else {
      Issue.record("no picture")
      return
    }
    #expect(url.absoluteString.hasPrefix("https://images.dog.ceo/breeds/hound/"))
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await store.finish()
  }
}
