import AppFeature
import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import FavouritesClient
import Foundation
import ImageDecoding
import TestSupport
import Testing

/// The Breed screen's animation in the app: it holds its frame while the keys overlay, an
/// alert or a dialog is drawn over it, and stops when the screen closes.
@MainActor
struct AnimationTests {
  /// Red, then blue: two frames of 8 × 6, 100 and 200 ms, looping for ever.
  static let animation: Animation = {
    var gif = GIFWriter(width: 8, height: 6, colors: [[255, 0, 0], [0, 0, 255]])
    gif.loop(0)
    gif.frame([UInt8](repeating: 0, count: 48), delay: 10)
    gif.frame([UInt8](repeating: 1, count: 48), delay: 20)
    return try! GIFDecoder.decodeAnimation(gif.file)
  }()

  static let url = URL(string: "https://images.dog.ceo/breeds/hound/1.gif")!

  /// The app on the Breed screen of Hound, its picture's first frame on screen.
  func store(_ clock: TestClock) -> TestStore<AppFeature.State, AppFeature.Action> {
    let breed = BreedFeature.State(
      breed: list.breeds[1], imageURL: .loaded(Self.url), picture: .loaded(Self.animation.frames[0].image))
    return TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded, breed: breed)) {
      AppFeature(client: .failing, motion: .plays(times: nil), clock: clock)
    }
  }

  func playing(_ frame: Int = 0, covered: Bool = false) -> BreedFeature.State.PictureStatus {
    .animated(BreedFeature.Playback(animation: Self.animation, frame: frame, isCovered: covered))
  }

  @Test func theKeysOverlayHoldsTheFrameUntilItCloses() async {
    let clock = TestClock()
    let store = store(clock)
    await store.send(.breed(.animationDecoded(Self.animation))) { $0.breed?.picture = playing() }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.path(.element(id: 0, action: .frameDelayElapsed))) { $0.breed?.picture = playing(1) }
    await store.send(.helpShown) { $0.help = AppFeature.State.Help() }
    await store.receive(.path(.element(id: 0, action: .pictureCovered(true)))) {
      $0.breed?.picture = playing(1, covered: true)
    }
    await clock.advance(by: .seconds(60))
    #expect(clock.sleeperCount == 0)
    // Scrolling the keys changes nothing under them.
    await store.send(.helpScrolled(to: 2)) { $0.help?.scroll = 2 }
    await store.send(.helpDismissed) { $0.help = nil }
    await store.receive(.path(.element(id: 0, action: .pictureCovered(false)))) {
      $0.breed?.picture = playing(1)
    }
    await clock.advance(by: .milliseconds(200))
    await store.receive(.path(.element(id: 0, action: .frameDelayElapsed))) { $0.breed?.picture = playing(0) }
    await store.skipInFlightEffects()
  }

  /// An alert (favourites that could not be read) holds it too, until dismissed.
  @Test func anAlertHoldsTheFrameUntilDismissed() async {
    let clock = TestClock()
    let store = store(clock)
    await store.send(.breed(.animationDecoded(Self.animation))) { $0.breed?.picture = playing() }
    let error = FavouritesError("Favourites could not be read: Permission denied.")
    await store.send(.favouritesLoaded(.failure(error))) {
      $0.favouritesNotice = error.message
      $0.alert = AlertState(
        title: "Favourites not read", message: error.message, buttons: [ButtonState(role: .cancel, "OK")])
    }
    await store.receive(.path(.element(id: 0, action: .pictureCovered(true)))) {
      $0.breed?.picture = playing(covered: true)
    }
    await clock.advance(by: .seconds(60))
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.receive(.path(.element(id: 0, action: .pictureCovered(false)))) {
      $0.breed?.picture = playing()
    }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.path(.element(id: 0, action: .frameDelayElapsed))) { $0.breed?.picture = playing(1) }
    await store.skipInFlightEffects()
  }

  /// A sub-breed's screen pushed over the breed's holds the breed's frame; going back to
  /// it plays on from there, its picture not asked for again.
  @Test func aScreenPushedOverItHoldsTheFrameUntilItGoes() async {
    let clock = TestClock()
    let hound = BreedFeature.State(
      breed: list.breeds[1], imageURL: .loaded(Self.url), picture: .loaded(Self.animation.frames[0].image))
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded, breed: hound)) {
      AppFeature(client: answering, motion: .plays(times: nil), clock: clock, now: { now })
    }
    await store.send(.breed(.animationDecoded(Self.animation))) { $0.breed?.picture = playing() }
    await store.send(.breed(.subBreedSelected("afghan"))) {
      $0.path.push(BreedFeature.State(breed: list.breeds[1], subBreed: "afghan", highlighted: "afghan"))
    }
    await store.receive(.path(.element(id: 0, action: .pictureCovered(true)))) {
      $0.path[id: 0]?.picture = playing(covered: true)
    }
    await store.receiveOpening("hound", "afghan", id: 1)
    await clock.advance(by: .seconds(60))
    await store.send(.breedScreenDismissed) { $0.path.popLast() }
    await store.receive(.path(.element(id: 0, action: .pictureCovered(false)))) {
      $0.breed?.picture = playing()
    }
    await store.receive(.path(.element(id: 0, action: .appeared)))
    await clock.advance(by: .milliseconds(100))
    await store.receive(.path(.element(id: 0, action: .frameDelayElapsed))) { $0.breed?.picture = playing(1) }
    await store.skipInFlightEffects()
  }

  /// Frames decoded while the keys overlay is up start held.
  @Test func anAnimationThatArrivesUnderTheOverlayStartsHeld() async {
    let clock = TestClock()
    let store = store(clock)
    await store.send(.helpShown) { $0.help = AppFeature.State.Help() }
    await store.send(.breed(.animationDecoded(Self.animation))) { $0.breed?.picture = playing() }
    await store.receive(.path(.element(id: 0, action: .pictureCovered(true)))) {
      $0.breed?.picture = playing(covered: true)
    }
    await clock.advance(by: .seconds(60))
    #expect(clock.sleeperCount == 0)
  }

  /// Leaving the Breed screen stops its animation with the rest of its effects.
  @Test func leavingTheScreenStopsIt() async {
    let clock = TestClock()
    let store = store(clock)
    await store.send(.breed(.animationDecoded(Self.animation))) { $0.breed?.picture = playing() }
    #expect(clock.sleeperCount == 1)
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await clock.advance(by: .seconds(60))
    await store.finish()
  }
}
