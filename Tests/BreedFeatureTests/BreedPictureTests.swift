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
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(expected), at: now)) { $0.picture = .loaded(expected) }
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
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(small), at: now)) { $0.picture = .loaded(small) }
    screen.withLock { $0 = (400, 300) }
    await store.send(.anotherPictureRequested) {
      $0.imageURL = .loading
      $0.picture = .none
      $0.kept = BreedFeature.State.KeptPicture(url: url1, picture: small)
    }
    await store.receive(.imageURLsResponse([], shown: url1)) { $0.imageURLs = [] }
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(large), at: now)) {
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
    await store.receive(.pictureResponse(.success(large), at: now)) { $0.picture = .loaded(large) }
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
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    let picture = RGBImage(width: 1, height: 2, pixels: [9, 8, 7, 1, 2, 3])
    await store.receive(.pictureResponse(.success(picture), at: now)) { $0.picture = .loaded(picture) }
  }

  @Test func anAVIFIsReportedNotDrawn() async {
    let avif = Data("\u{0}\u{0}\u{0}\u{1C}ftypavif\u{0}\u{0}\u{0}\u{0}".utf8)
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      breedFeature(client { avif }, pictureSize: { (40, 30) })
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.failure(.decode(.unsupportedFormat(.avif))), at: now)) {
      $0.picture = .failed(.decode(.unsupportedFormat(.avif)))
      $0.failures = 1
      $0.lastFailure = now
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
    await store.receive(.imageURLsResponse([], shown: url1)) { $0.imageURLs = [] }
    await store.receive(.imageURLResponse(.failure(.server(status: 502, message: nil)), at: now)) {
      $0.imageURL = .failed(.server(status: 502, message: nil))
      $0.failures = 1
      $0.lastFailure = now
    }
    let view = BreedFeature.ViewState(store.state)
    #expect(view.picture == picture && view.imageURL == .url(url1.absoluteString))
    #expect(view.another == .failed("Couldn't load a picture of Hound. The server had an error (HTTP 502)."))
    #expect(view.offersRetry)
    let text = BreedView.render(view, width: 60, height: 20).text
    #expect(text.contains("Couldn't load a picture of Hound. The server had an error"))
    #expect(text.contains("Press r to try again."))
    await store.send(.retryRequested) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url2), at: now)) {
      $0.imageURL = .loaded(url2)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(picture), at: now), timeout: .seconds(5)) {
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
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.failure(.download(.server(status: 404, message: nil))), at: now)) {
      $0.picture = .failed(.download(.server(status: 404, message: nil)))
      $0.failures = 1
      $0.lastFailure = now
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
    let dump = dumpValue(BreedFeature.Action.pictureResponse(.success(black), at: now))
    // A line per field, and one for the time (24,000 bytes would be thousands).
    #expect(dump.split(separator: "\n").count <= 11)
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
