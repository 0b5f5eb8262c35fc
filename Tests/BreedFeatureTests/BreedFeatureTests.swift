import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import Foundation
import ImageDecoding
import Synchronization
import TestSupport
import Testing
import TextRendering

@MainActor
struct BreedFeatureTests {
  func client(_ answer: @escaping @Sendable (String, String?) async throws(DogAPIError) -> URL)
    -> DogAPIClient
  {
    var client = DogAPIClient.failing
    client.randomImage = answer
    client.images = unlisted
    return client
  }

  @Test func appearingFetchesAPicture() async {
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(client { _, _ in url1 })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1), at: now)) { $0.imageURL = .loaded(url1) }
    await store.send(.appeared)  // already has one: no new request
  }

  @Test func anotherPictureFetchesANewOne() async {
    let requests = Requests()
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(client { breed, sub in requests.record(breed, sub) == 1 ? url2 : url1 })
    }
    await store.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLsResponse([], shown: url1)) { $0.imageURLs = [] }
    await store.receive(.imageURLResponse(.success(url2), at: now)) { $0.imageURL = .loaded(url2) }
    #expect(requests.all == ["hound"])
  }

  /// `n` never shows the picture already on screen: where the API will not list the
  /// breed's pictures, a random answer that is the same is asked again (a few times; a
  /// breed with one picture shows it again).
  @Test func anotherPictureIsNeverTheOneShown() async {
    let requests = Requests()
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(client { breed, sub in requests.record(breed, sub) < 3 ? url1 : url2 })
    }
    await store.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLsResponse([], shown: url1)) { $0.imageURLs = [] }
    await store.receive(.imageURLResponse(.success(url2), at: now)) { $0.imageURL = .loaded(url2) }
    #expect(requests.all == ["hound", "hound", "hound"])
    let only = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(client { _, _ in url1 })
    }
    await only.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await only.receive(.imageURLsResponse([], shown: url1)) { $0.imageURLs = [] }
    await only.receive(.imageURLResponse(.success(url1), at: now)) { $0.imageURL = .loaded(url1) }
  }

  /// `n` asks for the breed's pictures once, then picks among them another than the one
  /// shown, and the screen says which of how many it is.
  @Test func anotherPictureComesFromTheBreedsPictures() async {
    let lists = Requests()
    var pictures = DogAPIClient.failing
    pictures.images = { breed, sub in
      _ = lists.record(breed, sub)
      return [url1, url2]
    }
    pictures.randomImage = { _, _ in afghanURL }
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(pictures)
    }
    #expect(BreedFeature.ViewState(store.state).position == nil)
    await store.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLsResponse([url1, url2], shown: url1)) {
      $0.imageURLs = [url1, url2]
      $0.seen = [url1]
    }
    await store.receive(.imageURLResponse(.success(url2), at: now)) {
      $0.imageURL = .loaded(url2)
      $0.seen = [url2]
    }
    #expect(BreedFeature.ViewState(store.state).position == "2 of 2")
    await store.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.seen = [url1]
    }
    #expect(BreedFeature.ViewState(store.state).position == "1 of 2")
    #expect(lists.all == ["hound"])
  }

  /// `n` goes round every picture of the breed before it shows one again, and never shows
  /// the same twice in a row.
  @Test func anotherPictureGoesRoundThemAll() async {
    let all = (1...5).map { URL(string: "https://images.dog.ceo/breeds/hound/\($0).jpg")! }
    var pictures = DogAPIClient.failing
    pictures.images = { _, _ in all }
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(all[0]))) {
      breedFeature(pictures)
    }
    store.exhaustivity = .off
    var shown = [all[0]]
    for _ in 0..<9 {
      await store.send(.anotherPictureRequested)
      await store.receive(imageURLResponse)
      guard case .loaded(let url) = store.state.imageURL else {
        Issue.record("no picture: \(store.state.imageURL)")
        return
      }
      shown.append(url)
    }
    // The first round counts the picture shown before it; the last of a round is the
    // first of the next.
    #expect(Set(shown[0...4]) == Set(all))
    #expect(Set(shown[4...8]) == Set(all))
    #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 })
  }

  /// A list that does not come in time is a failure like any other (asking at random
  /// would only wait as long again); one the API will not give leaves `n` asking at random,
  /// without asking for the list again.
  @Test func aListThatTimesOutFailsAndOneRefusedAsksAtRandom() async {
    var pictures = DogAPIClient.failing
    pictures.images = { (_, _) async throws(DogAPIError) -> [URL] in throw .timedOut(seconds: 10) }
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(pictures)
    }
    await store.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.failure(.timedOut(seconds: 10)), at: now)) {
      $0.imageURL = .failed(.timedOut(seconds: 10))
      $0.failures = 1
      $0.lastFailure = now
    }
    pictures.images = { (_, _) async throws(DogAPIError) -> [URL] in throw .server(status: 404, message: nil)
    }
    pictures.randomImage = { _, _ in url2 }
    let refused = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(pictures)
    }
    await refused.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await refused.receive(.imageURLsResponse([], shown: url1)) { $0.imageURLs = [] }
    await refused.receive(.imageURLResponse(.success(url2), at: now)) { $0.imageURL = .loaded(url2) }
    #expect(BreedFeature.ViewState(refused.state).position == nil)
    // Not asked for again while the screen shows the same dog.
    await refused.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await refused.receive(.imageURLResponse(.success(url2), at: now)) { $0.imageURL = .loaded(url2) }
  }

  @Test func aFailureIsShownAndRetryWorks() async {
    let requests = Requests()
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(
        client { (breed, sub) async throws(DogAPIError) -> URL in
          if requests.record(breed, sub) == 1 { throw .server(status: 500, message: nil) }
          return url1
        })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.failure(.server(status: 500, message: nil)), at: now)) {
      $0.imageURL = .failed(.server(status: 500, message: nil))
      $0.failures = 1
      $0.lastFailure = now
    }
    await store.send(.retryRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLsResponse([], shown: nil)) { $0.imageURLs = [] }
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.failures = 0
      $0.lastFailure = nil
    }
  }

  /// A retry that fails again says how many tries it has been: it must not look as if
  /// nothing happened.
  @Test func aRetryThatFailsAgainSaysSo() async {
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(client { (_, _) async throws(DogAPIError) -> URL in throw .timedOut(seconds: 10) })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.failure(.timedOut(seconds: 10)), at: now)) {
      $0.imageURL = .failed(.timedOut(seconds: 10))
      $0.failures = 1
      $0.lastFailure = now
    }
    guard case .failed(let first, _) = BreedFeature.ViewState(store.state).imageURL else { return }
    #expect(!first.contains("tried"))
    await store.send(.retryRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLsResponse([], shown: nil)) { $0.imageURLs = [] }
    await store.receive(.imageURLResponse(.failure(.timedOut(seconds: 10)), at: now)) {
      $0.imageURL = .failed(.timedOut(seconds: 10))
      $0.failures = 2
      $0.lastFailure = now
    }
    #expect(
      BreedFeature.ViewState(store.state).imageURL
        == .failed(
          message:
            "Couldn't load a picture of Hound. The server took longer than 10 s to answer. (tried 2 times, last at \(String.clockTime(now)))",
          canRetry: true))
  }

  /// Choosing a sub-breed is the parent's to act on (the app pushes its screen): the
  /// screen itself changes nothing and asks for nothing.
  @Test func choosingASubBreedLeavesTheScreenAsItIs() async {
    let requests = Requests()
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(
        client { breed, sub in
          _ = requests.record(breed, sub)
          return afghanURL
        })
    }
    await store.send(.subBreedSelected("afghan"))
    await store.send(.subBreedSelected(nil))
    #expect(requests.all == [])
  }

  /// A screen opened on a sub-breed shows the sub-breed's picture.
  @Test func aSubBreedsScreenShowsItsPicture() async {
    let requests = Requests()
    let store = TestStore(initialState: BreedFeature.State(breed: hound, subBreed: "afghan")) {
      breedFeature(
        client { breed, sub in
          _ = requests.record(breed, sub)
          return afghanURL
        })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(afghanURL), at: now)) { $0.imageURL = .loaded(afghanURL) }
    // Shown again (a screen over it went): it has its picture, and asks for no other.
    await store.send(.appeared)
    #expect(requests.all == ["hound/afghan"])
  }

  @Test func aSlowFirstAnswerNeverOverwritesASecondRequest() async {
    // The first request is known to be in flight (it has started) before the second is
    // made; its answer is released only after the second has landed.
    let requests = Requests()
    let firstStarted = Gate()
    let releaseFirst = Gate()
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(
        client { breed, sub in
          if requests.record(breed, sub) == 1 {
            await firstStarted.open()
            await releaseFirst.wait()
            return url1  // late: must be dropped
          }
          return url2
        })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await firstStarted.wait()
    await store.send(.anotherPictureRequested)
    await store.receive(.imageURLsResponse([], shown: nil)) { $0.imageURLs = [] }
    await store.receive(.imageURLResponse(.success(url2), at: now)) { $0.imageURL = .loaded(url2) }
    await releaseFirst.open()
    try? await Task.sleep(for: .milliseconds(50))
    await store.finish()
    #expect(store.state.imageURL == .loaded(url2))
  }

  @Test func theHighlightMovesThroughSubBreeds() async {
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(.failing)
    }
    await store.send(.highlightMoved(.down)) { $0.highlighted = "afghan" }
    await store.send(.highlightMoved(.down)) { $0.highlighted = "basset" }
    await store.send(.highlightMoved(.down))
    await store.send(.highlightMoved(.first)) { $0.highlighted = "afghan" }
    let none = TestStore(initialState: BreedFeature.State(breed: Breed(name: "pug"))) {
      breedFeature(.failing)
    }
    await none.send(.highlightMoved(.down))
  }

  /// A click names a sub-breed: the highlight goes to it, and stays where the breed has no
  /// such sub-breed (a click on another screen's row).
  @Test func aMoveToASubBreedFindsItByName() async {
    let store = TestStore(
      initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1), highlighted: "afghan")
    ) {
      breedFeature(.failing)
    }
    await store.send(.highlightMoved(.item("basset"))) { $0.highlighted = "basset" }
    await store.send(.highlightMoved(.item("pug")))
    let none = TestStore(initialState: BreedFeature.State(breed: Breed(name: "pug"))) {
      breedFeature(.failing)
    }
    await none.send(.highlightMoved(.item("afghan")))
  }

  @Test func pageKeysMoveByAPageAndStopAtTheEnds() async {
    let many = Breed(name: "terrier", subBreeds: (1...10).map { "t\($0)" })
    let store = TestStore(initialState: BreedFeature.State(breed: many, imageURL: .loaded(url1))) {
      breedFeature(.failing)
    }
    await store.send(.highlightMoved(.pageDown(rows: 4))) { $0.highlighted = "t5" }
    await store.send(.highlightMoved(.pageDown(rows: 4))) { $0.highlighted = "t9" }
    await store.send(.highlightMoved(.pageDown(rows: 4))) { $0.highlighted = "t10" }
    await store.send(.highlightMoved(.pageUp(rows: 3))) { $0.highlighted = "t7" }
    // A page of no rows still moves one.
    await store.send(.highlightMoved(.pageUp(rows: 0))) { $0.highlighted = "t6" }
    await store.send(.highlightMoved(.pageUp(rows: 9))) { $0.highlighted = "t1" }
    await store.send(.highlightMoved(.pageDown(rows: 0))) { $0.highlighted = "t2" }
  }
}
