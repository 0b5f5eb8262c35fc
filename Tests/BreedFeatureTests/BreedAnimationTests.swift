import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import Foundation
import ImageDecoding
import TestSupport
import Testing
import TextRendering

/// Animated GIFs on the Breed screen: their frames decoded after the first is on screen,
/// each shown for its delay on the feature's clock, as many times as they play; still
/// while covered, stopped by another picture.
@MainActor
struct BreedAnimationTests {
  /// Red, then green over the left half, then blue over the right: three frames of 8 × 6,
  /// of 100, 200 and 300 ms. `loop`: the NETSCAPE2.0 loop count (0: for ever), if any.
  static func gif(loop: Int? = nil) -> [UInt8] {
    var gif = GIFWriter(width: 8, height: 6, colors: [[255, 0, 0], [0, 200, 0], [0, 0, 255]])
    if let loop { gif.loop(loop) }
    gif.frame([UInt8](repeating: 0, count: 48), delay: 10)
    gif.frame([UInt8](repeating: 1, count: 24), width: 4, height: 6, delay: 20)
    gif.frame([UInt8](repeating: 2, count: 24), left: 4, top: 0, width: 4, height: 6, delay: 30)
    return gif.file
  }

  nonisolated static let size = (width: 8, height: 6)

  /// An API whose every picture is `bytes`, at ``url1`` (then ``url2``, for another, whose
  /// bytes come once `gate` yields, if given).
  func client(_ bytes: [UInt8], gate: AsyncStream<Void>? = nil) -> DogAPIClient {
    var client = DogAPIClient.failing
    let requests = Requests()
    client.randomImage = { breed, sub in requests.record(breed, sub) == 1 ? url1 : url2 }
    client.images = unlisted
    client.imageData = { url in
      if url == url2, let gate {
        for await _ in gate { break }
      }
      return Data(bytes)
    }
    return client
  }

  func feature(
    _ bytes: [UInt8], motion: BreedFeature.Motion = .plays(times: nil), clock: TestClock,
    gate: AsyncStream<Void>? = nil
  ) -> BreedFeature {
    BreedFeature(
      client: client(bytes, gate: gate), pictureSize: { Self.size }, motion: motion, clock: clock,
      now: { now })
  }

  /// The screen opened and its picture arrived: the first frame on screen, the animation
  /// decoded after it.
  func opened(
    _ store: TestStore<BreedFeature.State, BreedFeature.Action>, _ bytes: [UInt8],
    plays: Animation.Plays? = nil
  ) async throws -> Animation {
    let first = try ImageDecoder.decode(bytes, fitting: Self.size)
    var animation = try GIFDecoder.decodeAnimation(bytes, fitting: Self.size)
    if let plays { animation.plays = plays }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(first), at: now)) { $0.picture = .loaded(first) }
    await store.receive(.animationDecoded(animation)) {
      $0.picture = .animated(BreedFeature.Playback(animation: animation))
    }
    return animation
  }

  /// Each frame stays its delay, and not a millisecond less; the file's loop count (1: a
  /// repeat, so twice) is how many times the frames play, and the last stays.
  @Test func framesAdvanceOnTheirDelaysAsManyTimesAsTheFileSays() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      feature(Self.gif(loop: 1), clock: clock)
    }
    let animation = try await opened(store, Self.gif(loop: 1))
    #expect(animation.plays == .times(2))
    #expect(animation.frames.map(\.delay) == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
    var playback = BreedFeature.Playback(animation: animation)
    for (frame, played) in [(1, 0), (2, 0), (0, 1), (1, 1), (2, 1)] {
      let delay = animation.frames[playback.frame].delay
      await clock.advance(by: delay - .milliseconds(1))
      #expect(clock.sleeperCount == 1, "the frame's delay is not over yet")
      await clock.advance(by: .milliseconds(1))
      playback.frame = frame
      playback.played = played
      await store.receive(.frameDelayElapsed) { $0.picture = .animated(playback) }
    }
    #expect(playback.isOver)
    // The last frame stays: nothing more is waited for.
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  /// One that loops for ever plays on while on screen; leaving the screen (the parent's
  /// `ifLet`, here the store's end) is what stops it.
  @Test func aGIFThatLoopsForEverPlaysOn() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      feature(Self.gif(loop: 0), clock: clock)
    }
    let animation = try await opened(store, Self.gif(loop: 0))
    #expect(animation.plays == .forever)
    var playback = BreedFeature.Playback(animation: animation)
    for _ in 0..<7 {
      await clock.advance(by: animation.frames[playback.frame].delay)
      playback.advance()
      await store.receive(.frameDelayElapsed) { $0.picture = .animated(playback) }
    }
    #expect(playback.frame == 1 && !playback.isOver)
    await store.skipInFlightEffects()
  }

  /// `--loops N` is how many times the screen plays it, whatever the file says.
  @Test func theScreensPlaysOverrideTheFiles() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      feature(Self.gif(loop: 0), motion: .plays(times: 1), clock: clock)
    }
    let animation = try await opened(store, Self.gif(loop: 0), plays: .times(1))
    var playback = BreedFeature.Playback(animation: animation)
    for frame in [1, 2] {
      await clock.advance(by: animation.frames[playback.frame].delay)
      playback.frame = frame
      await store.receive(.frameDelayElapsed) { $0.picture = .animated(playback) }
    }
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  /// Covered (the keys overlay, an alert), the frame shown stays however long it is
  /// covered; uncovered, it stays its whole delay again, and the animation plays on.
  @Test func coveredItStaysOnItsFrameAndPlaysOnWhenUncovered() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      feature(Self.gif(loop: 0), clock: clock)
    }
    let animation = try await opened(store, Self.gif(loop: 0))
    var playback = BreedFeature.Playback(animation: animation)
    await clock.advance(by: .milliseconds(50))
    playback.isCovered = true
    await store.send(.pictureCovered(true)) { $0.picture = .animated(playback) }
    await clock.advance(by: .seconds(60))
    #expect(clock.sleeperCount == 0)
    // Covered again: nothing changes.
    await store.send(.pictureCovered(true))
    playback.isCovered = false
    await store.send(.pictureCovered(false)) { $0.picture = .animated(playback) }
    await clock.advance(by: .milliseconds(99))
    #expect(clock.sleeperCount == 1, "the frame's whole delay again")
    await clock.advance(by: .milliseconds(1))
    playback.frame = 1
    await store.receive(.frameDelayElapsed) { $0.picture = .animated(playback) }
    await store.skipInFlightEffects()
  }

  /// Another picture stops the animation at once: the frame on screen stays, still, while
  /// the next comes; the next is a picture of its own (here the same file, played anew).
  @Test func anotherPictureStopsTheAnimation() async throws {
    let clock = TestClock()
    let bytes = Self.gif(loop: 0)
    let (gate, open) = AsyncStream<Void>.makeStream()
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      feature(bytes, clock: clock, gate: gate)
    }
    let animation = try await opened(store, bytes)
    await clock.advance(by: .milliseconds(100))
    var playback = BreedFeature.Playback(animation: animation, frame: 1)
    await store.receive(.frameDelayElapsed) { $0.picture = .animated(playback) }
    await store.send(.anotherPictureRequested) {
      $0.imageURL = .loading
      $0.picture = .none
      $0.kept = BreedFeature.State.KeptPicture(url: url1, picture: animation.frames[1].image)
    }
    await store.receive(.imageURLsResponse([], shown: url1)) { $0.imageURLs = [] }
    await store.receive(.imageURLResponse(.success(url2), at: now)) {
      $0.imageURL = .loaded(url2)
      $0.picture = .loading
    }
    // While the next picture downloads, no frame comes, however long (one would be
    // received before the picture below).
    await clock.advance(by: .seconds(60))
    open.yield()
    let first = try ImageDecoder.decode(bytes, fitting: Self.size)
    await store.receive(.pictureResponse(.success(first), at: now)) {
      $0.picture = .loaded(first)
      $0.kept = nil
    }
    playback = BreedFeature.Playback(animation: animation)
    await store.receive(.animationDecoded(animation)) { $0.picture = .animated(playback) }
    await store.skipInFlightEffects()
  }

  /// An animation decoded for a picture no longer on screen is not played.
  @Test func anAnimationForAPictureGoneIsNotPlayed() async throws {
    let animation = try GIFDecoder.decodeAnimation(Self.gif(), fitting: Self.size)
    let store = TestStore(
      initialState: BreedFeature.State(breed: hound, imageURL: .loading, picture: .none)
    ) { feature(Self.gif(), clock: TestClock()) }
    await store.send(.animationDecoded(animation))
    await store.send(.frameDelayElapsed)
    await store.send(.pictureCovered(true))
  }

  /// Still: an animated GIF shows its first frame, and nothing more is decoded.
  @Test func stillTheFirstFrameAlone() async throws {
    let bytes = Self.gif(loop: 0)
    let first = try ImageDecoder.decode(bytes, fitting: Self.size)
    let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
      feature(bytes, motion: .still, clock: TestClock())
    }
    await store.send(.appeared) { $0.imageURL = .loading }
    await store.receive(.imageURLResponse(.success(url1), at: now)) {
      $0.imageURL = .loaded(url1)
      $0.picture = .loading
    }
    await store.receive(.pictureResponse(.success(first), at: now)) { $0.picture = .loaded(first) }
    await store.finish()
  }

  /// A GIF of one frame, and pictures of other kinds, are still whatever the motion.
  @Test func aStillGIFOrAJPEGHasNothingToPlay() async throws {
    var one = GIFWriter(width: 8, height: 6, colors: [[255, 0, 0]])
    one.frame([UInt8](repeating: 0, count: 48))
    for bytes in [one.file, JPEGFixture.bytes("g-420-64x48.jpg")] {
      let first = try ImageDecoder.decode(bytes, fitting: Self.size)
      let store = TestStore(initialState: BreedFeature.State(breed: hound)) {
        feature(bytes, clock: TestClock())
      }
      await store.send(.appeared) { $0.imageURL = .loading }
      await store.receive(.imageURLResponse(.success(url1), at: now)) {
        $0.imageURL = .loaded(url1)
        $0.picture = .loading
      }
      await store.receive(.pictureResponse(.success(first), at: now)) { $0.picture = .loaded(first) }
      await store.finish()
    }
  }

  /// A playback's frames, in order, and when it is over.
  @Test func aPlaybackGoesRoundItsFramesAndStopsOnTheLast() throws {
    var animation = try GIFDecoder.decodeAnimation(Self.gif(loop: 2))
    #expect(animation.plays == .times(3))
    var playback = BreedFeature.Playback(animation: animation)
    var shown: [Int] = [playback.frame]
    while !playback.isOver {
      playback.advance()
      shown.append(playback.frame)
    }
    #expect(shown == [0, 1, 2, 0, 1, 2, 0, 1, 2])
    playback.advance()
    #expect(playback.frame == 2 && playback.image == animation.frames[2].image)
    animation.plays = .forever
    playback = BreedFeature.Playback(animation: animation, frame: 2, played: 0)
    #expect(!playback.isOver)
    playback.advance()
    #expect(playback.frame == 0)
  }

  /// The screen draws the frame shown: each differs from the others, and is drawn as that
  /// frame alone would be.
  @Test func theScreenDrawsTheFrameShown() throws {
    let animation = try GIFDecoder.decodeAnimation(Self.gif(), fitting: (80, 60))
    func screen(_ picture: BreedFeature.State.PictureStatus) -> Frame {
      BreedView.render(
        BreedFeature.ViewState(BreedFeature.State(breed: hound, imageURL: .loaded(url1), picture: picture)),
        width: 40, height: 16)
    }
    let frames = (0..<3).map { screen(.animated(BreedFeature.Playback(animation: animation, frame: $0))) }
    #expect(frames[0] != frames[1] && frames[1] != frames[2] && frames[0] != frames[2])
    for (index, frame) in frames.enumerated() {
      #expect(frame == screen(.loaded(animation.frames[index].image)))
    }
  }
}
