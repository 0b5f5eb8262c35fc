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

let hound = Breed(name: "hound", subBreeds: ["afghan", "basset"])
let url1 = URL(string: "https://images.dog.ceo/breeds/hound/1.jpg")!
let url2 = URL(string: "https://images.dog.ceo/breeds/hound/2.jpg")!
let afghanURL = URL(string: "https://images.dog.ceo/breeds/hound-afghan/3.jpg")!

/// An API that will not list a breed's pictures: `n` asks for a random one.
let unlisted: @Sendable (String, String?) async throws(DogAPIError) -> [URL] = {
  (_, _) async throws(DogAPIError) in
  throw .notFound(message: nil)
}

/// A picture's address arriving, whichever it is.
let imageURLResponse = CasePath<BreedFeature.Action, Result<URL, DogAPIError>>(
  embed: BreedFeature.Action.imageURLResponse
) {
  if case .imageURLResponse(let result) = $0 { result } else { nil }
}

/// When a failing fetch failed, in these tests.
let failedAt = Date(timeIntervalSince1970: 1_795_000_000)

/// The feature on `client`, its clock stopped at ``failedAt``.
func breedFeature(
  _ client: DogAPIClient, pictureSize: (@Sendable () -> (width: Int, height: Int))? = nil
) -> BreedFeature {
  BreedFeature(client: client, pictureSize: pictureSize, now: { failedAt })
}

final class Requests: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []
  var all: [String] { lock.withLock { storage } }
  func record(_ breed: String, _ sub: String?) -> Int {
    lock.withLock {
      storage.append(sub.map { "\(breed)/\($0)" } ?? breed)
      return storage.count
    }
  }
}

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
    await store.receive(.imageURLResponse(.success(url1))) { $0.imageURL = .loaded(url1) }
    await store.send(.appeared)  // already has one: no new request
  }

  @Test func anotherPictureFetchesANewOne() async {
    let requests = Requests()
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(client { breed, sub in requests.record(breed, sub) == 1 ? url2 : url1 })
    }
    await store.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url2))) { $0.imageURL = .loaded(url2) }
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
    await store.receive(.imageURLResponse(.success(url2))) { $0.imageURL = .loaded(url2) }
    #expect(requests.all == ["hound", "hound", "hound"])
    let only = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(client { _, _ in url1 })
    }
    await only.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await only.receive(.imageURLResponse(.success(url1))) { $0.imageURL = .loaded(url1) }
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
    await store.receive(.imageURLResponse(.success(url2))) {
      $0.imageURL = .loaded(url2)
      $0.seen = [url2]
    }
    #expect(BreedFeature.ViewState(store.state).position == "2 of 2")
    await store.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1))) {
      $0.imageURL = .loaded(url1)
      $0.seen = [url1]
    }
    #expect(BreedFeature.ViewState(store.state).position == "1 of 2")
    #expect(lists.all == ["hound"])
    // Another dog: its own pictures, asked for when `n` wants them.
    await store.send(.subBreedSelected("afghan")) {
      $0.subBreed = "afghan"
      $0.highlighted = "afghan"
      $0.imageURLs = nil
      $0.seen = []
      $0.imageURL = .loading
    }
    await store.receive(.imageURLResponse(.success(afghanURL))) { $0.imageURL = .loaded(afghanURL) }
    #expect(BreedFeature.ViewState(store.state).position == nil)
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
  /// would only wait as long again); one the API will not give leaves `n` asking at random.
  @Test func aListThatTimesOutFailsAndOneRefusedAsksAtRandom() async {
    var pictures = DogAPIClient.failing
    pictures.images = { (_, _) async throws(DogAPIError) -> [URL] in throw .timedOut(seconds: 10) }
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(pictures)
    }
    await store.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.failure(.timedOut(seconds: 10)))) {
      $0.imageURL = .failed(.timedOut(seconds: 10))
      $0.failures = 1
      $0.lastFailure = failedAt
    }
    pictures.images = { (_, _) async throws(DogAPIError) -> [URL] in throw .server(status: 404, message: nil)
    }
    pictures.randomImage = { _, _ in url2 }
    let refused = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(pictures)
    }
    await refused.send(.anotherPictureRequested) { $0.imageURL = .loading }
    await refused.receive(.imageURLResponse(.success(url2))) { $0.imageURL = .loaded(url2) }
    #expect(BreedFeature.ViewState(refused.state).position == nil)
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
    await store.receive(.imageURLResponse(.failure(.server(status: 500, message: nil)))) {
      $0.imageURL = .failed(.server(status: 500, message: nil))
      $0.failures = 1
      $0.lastFailure = failedAt
    }
    await store.send(.retryRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1))) {
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
    await store.receive(.imageURLResponse(.failure(.timedOut(seconds: 10)))) {
      $0.imageURL = .failed(.timedOut(seconds: 10))
      $0.failures = 1
      $0.lastFailure = failedAt
    }
    guard case .failed(let first, _) = BreedFeature.ViewState(store.state).imageURL else { return }
    #expect(!first.contains("tried"))
    await store.send(.retryRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.failure(.timedOut(seconds: 10)))) {
      $0.imageURL = .failed(.timedOut(seconds: 10))
      $0.failures = 2
      $0.lastFailure = failedAt
    }
    #expect(
      BreedFeature.ViewState(store.state).imageURL
        == .failed(
          message:
            "Couldn't load a picture of Hound. The server took longer than 10 s to answer. (tried 2 times, last at \(String.clockTime(failedAt)))",
          canRetry: true))
  }

  @Test func choosingASubBreedShowsItsPicture() async {
    let requests = Requests()
    let store = TestStore(initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1))) {
      breedFeature(
        client { breed, sub in
          _ = requests.record(breed, sub)
          return afghanURL
        })
    }
    await store.send(.subBreedSelected("afghan")) {
      $0.subBreed = "afghan"
      $0.highlighted = "afghan"
      $0.imageURL = .loading
    }
    await store.receive(.imageURLResponse(.success(afghanURL))) { $0.imageURL = .loaded(afghanURL) }
    await store.send(.subBreedSelected(nil)) {
      $0.subBreed = nil
      $0.imageURL = .loading
    }
    await store.receive(.imageURLResponse(.success(afghanURL))) { $0.imageURL = .loaded(afghanURL) }
    #expect(requests.all == ["hound/afghan", "hound"])
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
    await store.receive(.imageURLResponse(.success(url2))) { $0.imageURL = .loaded(url2) }
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

struct BreedViewStateTests {
  @Test func titleAndSubBreedsAreCapitalisedWithAHeadingOnlyWhenThereAreAny() {
    let view = BreedFeature.ViewState(
      BreedFeature.State(breed: hound, subBreed: "basset", imageURL: .loaded(url1)))
    #expect(view.title == "Hound")
    #expect(view.subtitle == "Sub-breeds")
    #expect(view.subBreeds.map(\.title) == ["Afghan", "Basset"])
    #expect(view.subBreeds.map(\.isShown) == [false, true])
    #expect(view.subject == "Basset Hound")
    #expect(view.imageURL == .url(url1.absoluteString))
    let pug = BreedFeature.ViewState(BreedFeature.State(breed: Breed(name: "pug")))
    #expect(pug.subtitle == nil)
    #expect(pug.subBreeds.isEmpty)
  }

  @Test func imageStatusText() {
    #expect(BreedFeature.ViewState(BreedFeature.State(breed: hound)).imageURL == .loading)
    #expect(BreedFeature.ViewState(BreedFeature.State(breed: hound, imageURL: .loading)).imageURL == .loading)
    #expect(
      BreedFeature.ViewState(BreedFeature.State(breed: hound, imageURL: .failed(.notFound(message: nil))))
        .imageURL
        == .failed(message: "Couldn't load a picture of Hound. The API has no such breed.", canRetry: false))
    #expect(
      BreedFeature.ViewState(BreedFeature.State(breed: hound, imageURL: .failed(.timedOut(seconds: 10))))
        .imageURL
        == .failed(
          message: "Couldn't load a picture of Hound. The server took longer than 10 s to answer.",
          canRetry: true))
    // After Enter on a sub-breed, the failure names it.
    #expect(
      BreedFeature.ViewState(
        BreedFeature.State(breed: hound, subBreed: "afghan", imageURL: .failed(.timedOut(seconds: 10)))
      ).imageURL
        == .failed(
          message: "Couldn't load a picture of Afghan Hound. The server took longer than 10 s to answer.",
          canRetry: true))
  }
}

@MainActor
struct BreedPictureTests {
  func client(bytes: @escaping @Sendable () async throws(DogAPIError) -> Data) -> DogAPIClient {
    var client = DogAPIClient.failing
    client.randomImage = { _, _ in url1 }
    client.images = unlisted
    client.imageData = { (url) async throws(DogAPIError) -> Data in
      guard url == url1 else { throw .invalidURL(url.absoluteString) }
      return try await bytes()
    }
    return client
  }

  /// The fake client's picture of a hound, as its bytes.
  func houndJPEG() async throws -> Data {
    try await DogAPIClient.fake().imageData(URL(string: "https://images.dog.ceo/breeds/hound/fake_1.jpg")!)
  }

  /// The Breed screen with `picture` on it and nothing in flight.
  func showing(_ picture: RGBImage) -> BreedFeature.State {
    BreedFeature.State(breed: hound, imageURL: .loaded(url1), picture: .loaded(picture))
  }

  @Test func aPictureIsDownloadedAndDecodedOffTheMainActor() async throws {
    let jpeg = try await houndJPEG()
    let expected = try JPEGDecoder.decode([UInt8](jpeg), fitting: (40, 30))
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(client { jpeg }, pictureSize: { (40, 30) })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1))) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(expected))) { $0.picture = .loaded(expected) }
    await store.finish()
    #expect(expected.width >= 40 && expected.height >= 30)
  }

  /// For a screen that can be resized, each picture is decoded to the size asked when it
  /// arrives: a larger screen gets a larger picture, not the old one blown up.
  @Test func eachPictureIsDecodedToTheSizeOfTheScreenThen() async throws {
    let jpeg = try await houndJPEG()
    let small = try JPEGDecoder.decode([UInt8](jpeg), fitting: (40, 30))
    let large = try JPEGDecoder.decode([UInt8](jpeg), fitting: (400, 300))
    #expect(large.width > small.width)
    let screen = Mutex((width: 40, height: 30))
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(client { jpeg }) { screen.withLock { $0 } }
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1))) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(small))) { $0.picture = .loaded(small) }
    screen.withLock { $0 = (400, 300) }
    await store.send(.anotherPictureRequested) {
      $0.imageURL = .loading
      $0.picture = .none
      $0.kept = BreedFeature.State.KeptPicture(url: url1, picture: small)
    }
    await store.receive(.imageURLResponse(.success(url1))) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(large))) {
      $0.picture = .loaded(large)
      $0.kept = nil
    }
    await store.finish()
  }

  /// A screen that grows gets the picture on it again, decoded for its new size; one that
  /// does not need more pixels (or has no picture yet) fetches nothing.
  @Test func aGrownScreenDecodesThePictureOnItAgain() async throws {
    let jpeg = try await houndJPEG()
    let small = try JPEGDecoder.decode([UInt8](jpeg), fitting: (40, 30))
    let large = try JPEGDecoder.decode([UInt8](jpeg), fitting: (400, 300))
    let screen = Mutex((width: 40, height: 30))
    let store = TestStore(initialState: showing(small)) {
      breedFeature(client { jpeg }) { screen.withLock { $0 } }
    }
    // The same size, or more pixels only one way: nothing to gain.
    await store.send(.screenResized)
    screen.withLock { $0 = (small.width, 300) }
    await store.send(.screenResized)
    screen.withLock { $0 = (400, small.height) }
    await store.send(.screenResized)
    await store.finish()
    screen.withLock { $0 = (400, 300) }
    await store.send(.screenResized)
    await store.receive(.pictureResponse(.success(large))) { $0.picture = .loaded(large) }
    await store.finish()
  }

  @Test func aPictureThatCannotBeFetchedAgainStaysOnScreen() async throws {
    let jpeg = try await houndJPEG()
    let small = try JPEGDecoder.decode([UInt8](jpeg), fitting: (40, 30))
    let fetches = Mutex(0)
    let store = TestStore(initialState: showing(small)) {
      breedFeature(
        client { () async throws(DogAPIError) -> Data in
          fetches.withLock { $0 += 1 }
          throw .offline
        }
      ) { (400, 300) }
    }
    await store.send(.screenResized)
    await store.finish()
    #expect(fetches.withLock { $0 } == 1)
  }

  @Test func aPictureAtFullSizeIsNeverFetchedAgain() async throws {
    let jpeg = try await houndJPEG()
    let full = try JPEGDecoder.decode([UInt8](jpeg))
    #expect(!full.isReduced)
    let store = TestStore(initialState: showing(full)) {
      breedFeature(.failing) { (full.width * 4, full.height * 4) }
    }
    await store.send(.screenResized)
    await store.finish()
  }

  @Test func aResizeWhileAPictureIsLoadingFetchesNothingMore() async {
    let store = TestStore(
      initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1), picture: .loading)
    ) {
      breedFeature(.failing) { (400, 300) }
    }
    await store.send(.screenResized)
    await store.finish()
  }

  @Test func aPNGBehindAJPGNameIsDrawn() async {
    let png = Data(PNGWriter.png(width: 1, height: 2, rows: [[0, 9, 8, 7], [0, 1, 2, 3]]))
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(client { png }, pictureSize: { (1, 2) })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1))) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    let picture = RGBImage(width: 1, height: 2, pixels: [9, 8, 7, 1, 2, 3])
    await store.receive(.pictureResponse(.success(picture))) { $0.picture = .loaded(picture) }
  }

  @Test func anAVIFIsReportedNotDrawn() async {
    let avif = Data("\u{0}\u{0}\u{0}\u{1C}ftypavif\u{0}\u{0}\u{0}\u{0}".utf8)
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(client { avif }, pictureSize: { (40, 30) })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1))) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.failure(.decode(.unsupportedFormat(.avif))))) {
      $0.picture = .failed(.decode(.unsupportedFormat(.avif)))
      $0.failures = 1
      $0.lastFailure = failedAt
    }
    let view = BreedFeature.ViewState(store.state)
    #expect(view.pictureNote == "The picture is an AVIF, an unsupported image format.")
    #expect(view.imageURL == .url(url1.absoluteString))
    // Every picture failure offers r, in the text as in the key hints.
    #expect(view.offersRetry)
    #expect(BreedView.render(view, width: 60, height: 12).text.contains("Press r to try again."))
  }

  /// `n` that fails leaves the picture on screen with the failure under it, and offers r;
  /// the next picture that arrives takes its place.
  @Test func aFailedAnotherPictureKeepsTheOneShown() async throws {
    let jpeg = try await houndJPEG()
    let picture = try JPEGDecoder.decode([UInt8](jpeg), fitting: (40, 30))
    let attempts = Requests()
    var pictures = DogAPIClient.failing
    pictures.randomImage = { (breed, sub) async throws(DogAPIError) -> URL in
      if attempts.record(breed, sub) == 1 { throw .server(status: 502, message: nil) }
      return url2
    }
    pictures.images = unlisted
    pictures.imageData = { _ in jpeg }
    let store = TestStore(
      initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1), picture: .loaded(picture))
    ) {
      breedFeature(pictures, pictureSize: { (40, 30) })
    }
    let kept = BreedFeature.State.KeptPicture(url: url1, picture: picture)
    await store.send(.anotherPictureRequested) {
      $0.imageURL = .loading
      $0.picture = .none
      $0.kept = kept
    }
    await store.receive(.imageURLResponse(.failure(.server(status: 502, message: nil)))) {
      $0.imageURL = .failed(.server(status: 502, message: nil))
      $0.failures = 1
      $0.lastFailure = failedAt
    }
    let view = BreedFeature.ViewState(store.state)
    #expect(view.picture == picture && view.imageURL == .url(url1.absoluteString))
    #expect(view.another == .failed("Couldn't load a picture of Hound. The server had an error (HTTP 502)."))
    #expect(view.offersRetry)
    let text = BreedView.render(view, width: 60, height: 20).text
    #expect(text.contains("Couldn't load a picture of Hound. The server had an error"))
    #expect(text.contains("Press r to try again."))
    await store.send(.retryRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url2))) {
      $0.imageURL = .loaded(url2)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(picture)), timeout: .seconds(5)) {
      $0.picture = .loaded(picture)
      $0.kept = nil
      $0.failures = 0
      $0.lastFailure = nil
    }
  }

  @Test func aFailedDownloadIsReported() async {
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(
        client { () async throws(DogAPIError) -> Data in throw .server(status: 404, message: nil) },
        pictureSize: { (40, 30) })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1))) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.failure(.download(.server(status: 404, message: nil))))) {
      $0.picture = .failed(.download(.server(status: 404, message: nil)))
      $0.failures = 1
      $0.lastFailure = failedAt
    }
    #expect(BreedFeature.ViewState(store.state).offersRetry)
  }

  @Test func anotherPictureClearsTheOldOne() async throws {
    let jpeg = try await houndJPEG()
    let picture = try JPEGDecoder.decode([UInt8](jpeg), scale: .eighth)
    let store = TestStore(
      initialState: BreedFeature.State(breed: hound, imageURL: .loaded(url1), picture: .loaded(picture))
    ) {
      breedFeature(client { jpeg }, pictureSize: { (40, 30) })
    }
    store.exhaustivity = .off
    await store.send(.anotherPictureRequested) {
      $0.imageURL = .loading
      $0.picture = .none
    }
    await store.skipReceivedActions(strict: false)
    await store.finish()
  }
}

/// A decoded picture sits in the Breed state, so `--trace` and TestStore failures dump it.
struct PictureDumpTests {
  let black = RGBImage(width: 100, height: 80, pixels: [UInt8](repeating: 0, count: 100 * 80 * 3))

  @Test func aPictureDumpsAsItsSizeNotItsBytes() {
    let dump = dumpValue(BreedFeature.Action.pictureResponse(.success(black)))
    // A line per field (24,000 bytes would be thousands).
    #expect(dump.split(separator: "\n").count <= 10)
    #expect(dump.contains("width: 100") && dump.contains("height: 80") && dump.contains("24000 bytes"))
    #expect(dump.contains("isReduced: false"))
  }

  @Test func twoPicturesOfOneSizeStillDiffer() throws {
    var pixels = black.pixels
    pixels[1234] = 255
    let brighter = RGBImage(width: 100, height: 80, pixels: pixels)
    let diff = try #require(diffValues(black, brighter))
    #expect(
      diff.contains("-   pixels: 24000 bytes, FNV-1a") && diff.contains("+   pixels: 24000 bytes, FNV-1a"))
  }
}
