import Core
import DogAPIClient
import Foundation
import ImageDecoding
import TextRendering

/// The breed detail screen: a random picture of the breed (or of one of its
/// sub-breeds), another one on request, and the list of sub-breeds.
///
/// Choosing a sub-breed (``Action/subBreedSelected(_:)``) is its parent's to act on: the
/// app pushes the sub-breed's screen over the breed's. Leaving the screen cancels whatever
/// it still has in flight (its parent pops it from a stack, or sets it to `nil` inside an
/// `ifLet`); a newer request always cancels an older one, so a slow first answer can
/// never replace a later picture.
///
/// With ``Motion/plays(times:)``, an animated GIF plays: its first frame shows as soon as
/// it is decoded, the other frames are decoded after it (``Action/animationDecoded(_:)``),
/// and each frame shows for its delay, timed on the feature's clock
/// (``Action/frameDelayElapsed``). It stays on its frame while covered
/// (``Action/pictureCovered(_:)``), and another picture, or leaving the screen, stops it.
public struct BreedFeature: Reducer {
  // MARK: State

  /// The Breed screen's state.
  public struct State: Equatable, Identifiable {
    /// The breed, with its sub-breeds.
    public var breed: Breed
    /// The sub-breed whose picture is shown, or `nil` for the breed itself.
    public var subBreed: String?
    /// The picture's address, as far as it has been fetched.
    public var imageURL: ImageURLStatus
    /// The picture itself, when the feature loads pictures.
    public var picture: PictureStatus
    /// The sub-breed the keyboard highlight is on, if any.
    public var highlighted: String?
    /// The user's favourites: breeds and sub-breeds by API name (`hound`, `hound/afghan`).
    /// A parent may own them and project them in (AppFeature does, for both screens).
    public var favourites: Set<String>
    /// The picture that stays on screen while another is fetched, and after fetching
    /// another failed (`n` that fails does not take the dog away).
    public var kept: KeptPicture?
    /// How many times in a row fetching a picture has failed: a retry that fails again
    /// says so, rather than look as if nothing happened.
    public var failures: Int
    /// When fetching a picture last failed, if it has since one last arrived.
    public var lastFailure: Date?
    /// Every picture of what the screen shows, once `n` has asked for them (`nil` until
    /// then; empty where the API would not list them, and `n` asks for random ones): `n`
    /// picks among them, those not yet shown first, and the screen says which is shown.
    public var imageURLs: [URL]?
    /// The pictures shown since ``imageURLs`` arrived; once every one has been, the round
    /// starts again.
    public var seen: Set<URL>

    /// A picture on screen and its address.
    public struct KeptPicture: Equatable, Sendable {
      /// Its address.
      public var url: URL
      /// The picture.
      public var picture: RGBImage
      /// Creates one.
      public init(url: URL, picture: RGBImage) {
        self.url = url
        self.picture = picture
      }
    }

    /// The breed's API name: one Breed screen per breed.
    public var id: String { breed.name }

    /// Creates the state; by default nothing has been fetched yet.
    public init(
      breed: Breed, subBreed: String? = nil, imageURL: ImageURLStatus = .notRequested,
      picture: PictureStatus = .none,
      highlighted: String? = nil, favourites: Set<String> = [], kept: KeptPicture? = nil, failures: Int = 0,
      lastFailure: Date? = nil, imageURLs: [URL]? = nil, seen: Set<URL> = []
    ) {
      self.breed = breed
      self.subBreed = subBreed
      self.imageURL = imageURL
      self.picture = picture
      self.highlighted = highlighted
      self.favourites = favourites
      self.kept = kept
      self.failures = failures
      self.lastFailure = lastFailure
      self.imageURLs = imageURLs
      self.seen = seen
    }

    /// What the screen shows, as a favourite is named: `hound`, or `hound/afghan` while a
    /// sub-breed's picture is shown.
    public var shownFavouriteID: String { BreedName.path(breed.name, subBreed) }

    /// Where downloading and decoding the picture stands.
    public enum PictureStatus: Equatable, Sendable {
      /// Not requested (pictures off, or no address yet).
      case none
      /// Downloading or decoding.
      case loading
      /// Decoded, ready to draw (an animated picture's first frame, until its frames are
      /// decoded, or for good where the screen does not play animations).
      case loaded(RGBImage)
      /// Animated, and playing: its frames and which one shows.
      case animated(Playback)
      /// It cannot be shown; the address still can.
      case failed(PictureError)

      /// The picture to draw now, if there is one: an animation's frame shown.
      public var image: RGBImage? {
        switch self {
        case .loaded(let image): image
        case .animated(let playback): playback.image
        case .none, .loading, .failed: nil
        }
      }
    }

    /// Where fetching the picture's address stands.
    public enum ImageURLStatus: Equatable, Sendable {
      /// Not asked for yet (the screen has not appeared).
      case notRequested
      /// The request is in flight.
      case loading
      /// The picture's address.
      case loaded(URL)
      /// The request failed.
      case failed(DogAPIError)
    }
  }

  // MARK: Action

  /// What can happen on the Breed screen.
  public enum Action: Equatable, Sendable, Codable {
    /// The screen appeared, or showed again (a screen over it went): it fetches its picture
    /// if it has none yet, or, as after ``screenResized``, a sharper one if the screen grew.
    case appeared
    /// The user asked for another picture.
    case anotherPictureRequested
    /// The user asked to try again after a failure.
    case retryRequested
    /// The user chose a sub-breed (`nil`: the breed itself): the parent opens it, the
    /// screen itself changes nothing.
    case subBreedSelected(String?)
    /// The user starred or un-starred what the screen shows: the breed, or the sub-breed
    /// whose picture is shown.
    case favouriteToggled
    /// The highlight moved in the sub-breed list: by a key, or to the sub-breed clicked (by
    /// API name; where the breed has no such sub-breed, the highlight stays).
    case highlightMoved(HighlightMove)
    /// The screen changed size: a picture decoded for a smaller screen is downloaded again
    /// and decoded for the size the feature's `pictureSize` function gives now.
    case screenResized
    /// The addresses of every picture of what the screen shows arrived (none: the API
    /// would not list them), asked for while `shown` was on screen (it counts as seen).
    case imageURLsResponse([URL], shown: URL?)
    /// The picture's address arrived, or fetching it failed, at this time (what
    /// ``State/lastFailure`` is set to when it failed).
    case imageURLResponse(Result<URL, DogAPIError>, at: Date)
    /// The picture was downloaded and decoded, or could not be, at this time (what
    /// ``State/lastFailure`` is set to when it could not).
    case pictureResponse(Result<RGBImage, PictureError>, at: Date)
    /// The picture on screen is animated: its frames, decoded after its first (in an
    /// effect of their own, off the main actor), playing as many times as the screen plays
    /// them.
    case animationDecoded(Animation)
    /// The animation's frame on screen has stayed its delay: the next one shows.
    case frameDelayElapsed
    /// Something came over the picture (the keys overlay, an alert), or went: an animation
    /// stays on its frame while covered, and plays on, from that frame, once uncovered.
    case pictureCovered(Bool)
  }

  /// Why a picture could not be shown, in one sentence.
  public enum PictureError: Error, Equatable, Sendable, Codable {
    /// The image could not be downloaded.
    case download(DogAPIError)
    /// The bytes arrived but are not a picture the decoder can read.
    case decode(ImageDecodingError)

    /// The sentence shown to the user.
    public var message: String {
      switch self {
      case .download(let error): return "Couldn't download the picture. \(error.message)"
      case .decode(let error): return error.message
      }
    }
  }

  // MARK: Dependencies

  let client: DogAPIClient
  /// How many pixels to decode each picture to, asked as it arrives; `nil`: no pictures.
  let pictureSize: (@Sendable () -> (width: Int, height: Int))?
  /// Whether animated pictures play.
  let motion: Motion
  /// What an animation's frames are timed on.
  let clock: any Clock<Duration>

  /// Creates the feature.
  ///
  /// - Parameters:
  ///   - client: The API; tests start from `DogAPIClient.failing`.
  ///   - pictureSize: When set, each picture is also downloaded and decoded (off the main
  ///     actor) to at least the pixels this gives when the picture arrives: a terminal
  ///     enlarged since the last picture gets a sharper one, not a blown-up one. `nil` shows
  ///     only each picture's address and downloads nothing.
  ///   - motion: Whether animated pictures play (with `pictureSize`), and how many times.
  ///   - clock: What an animation's frames are timed on (tests give a `TestClock`).
  ///   - now: What time it is, read as an answer arrives and carried in
  ///     ``Action/imageURLResponse(_:at:)`` and ``Action/pictureResponse(_:at:)`` (tests
  ///     give a fixed one).
  public init(
    client: DogAPIClient, pictureSize: (@Sendable () -> (width: Int, height: Int))? = nil,
    motion: Motion = .still, clock: any Clock<Duration> = ContinuousClock(),
    now: @escaping @Sendable () -> Date = Date.init
  ) {
    self.client = client
    self.pictureSize = pictureSize
    self.motion = motion
    self.clock = clock
    self.now = now
  }

  /// What time it is: read by the effects as answers arrive, never by the reducer.
  let now: @Sendable () -> Date

  enum CancelID { case image, animation }

  // MARK: Reducer

  /// Fetches a picture's address (and, with `pictureSize`, the picture) on appear and on
  /// request; the newest request cancels older ones.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .appeared:
      guard state.imageURL == .notRequested else { return reduce(into: &state, action: .screenResized) }
      return fetchImage(&state)

    case .anotherPictureRequested, .retryRequested:
      // The picture on screen stays there until another replaces it (an animation, on
      // the frame it shows).
      if case .loaded(let url) = state.imageURL, let picture = state.picture.image {
        state.kept = State.KeptPicture(url: url, picture: picture)
      }
      // Another picture is another picture: the one on screen is not shown again.
      let shown: URL? = if case .loaded(let url) = state.imageURL { url } else { state.kept?.url }
      return fetchAnotherImage(&state, avoiding: shown)

    case .favouriteToggled:
      let id = state.shownFavouriteID
      if state.favourites.remove(id) == nil { state.favourites.insert(id) }
      return .none

    case .subBreedSelected:
      return .none

    case .highlightMoved(let move):
      let names = state.breed.subBreeds
      let current = state.highlighted.flatMap { names.firstIndex(of: $0) }
      guard let target = move.target(in: names, from: current) else { return .none }
      state.highlighted = names[target]
      return .none

    case .screenResized:
      // Only a picture on screen with nothing in flight (a fetch in flight decodes for the
      // new size anyway, as it asks for the size when its picture arrives).
      guard let pictureSize, case .loaded(let url) = state.imageURL, let shown = state.picture.image
      else { return .none }
      let (client, now) = (client, now)
      return .run { send in
        let size = pictureSize()
        // Only a reduced decode can gain detail, and only if it is short of the size both
        // ways (a full-size picture is never downloaded again).
        guard shown.isReduced, shown.width < size.width, shown.height < size.height else { return }
        // A picture that cannot be had again (offline, say) leaves the one on screen.
        let sharper = await Self.picture(from: url, client: client, fitting: size)
        if case .success = sharper { await send(.pictureResponse(sharper, at: now())) }
      }
      .cancellable(id: CancelID.image, cancelInFlight: true)

    case .imageURLsResponse(let urls, let shown):
      state.imageURLs = urls
      state.seen = urls.isEmpty ? [] : Set(shown.map { [$0] } ?? [])
      return .none

    case .imageURLResponse(.success(let url), _):
      state.imageURL = .loaded(url)
      if let all = state.imageURLs, !all.isEmpty {
        // A round ends when every picture has been shown; the next starts after this one.
        state.seen.insert(url)
        if state.seen.count >= all.count { state.seen = [url] }
      }
      if pictureSize != nil {
        state.picture = .loading
      } else {
        state.failures = 0
        state.lastFailure = nil
      }
      return .none

    case .imageURLResponse(.failure(let error), let time):
      state.imageURL = .failed(error)
      state.failures += 1
      state.lastFailure = time
      return .none

    case .pictureResponse(.success(let picture), _):
      state.picture = .loaded(picture)
      state.kept = nil
      state.failures = 0
      state.lastFailure = nil
      return animate(picture)

    case .pictureResponse(.failure(let error), let time):
      state.picture = .failed(error)
      state.failures += 1
      state.lastFailure = time
      return .none

    case .animationDecoded(let animation):
      // For the picture on screen (a newer one cancels its decoding), if it has frames to play.
      guard case .loaded = state.picture, animation.frames.count > 1 else { return .none }
      let playback = Playback(animation: animation)
      state.picture = .animated(playback)
      return waitForNextFrame(playback)

    case .frameDelayElapsed:
      guard case .animated(var playback) = state.picture, !playback.isCovered else { return .none }
      playback.advance()
      state.picture = .animated(playback)
      return waitForNextFrame(playback)

    case .pictureCovered(let covered):
      guard case .animated(var playback) = state.picture, playback.isCovered != covered else { return .none }
      playback.isCovered = covered
      state.picture = .animated(playback)
      return waitForNextFrame(playback)
    }
  }

  // MARK: Helpers

  /// Fetches a random picture's address, then (when pictures are on) its bytes.
  private func fetchImage(_ state: inout State) -> Effect<Action> {
    fetch(&state) { client, breed, subBreed, _ throws(DogAPIError) in
      try await client.randomImage(breed, subBreed)
    }
  }

  /// Fetches another picture than `shown`: from the breed's list of pictures, which is
  /// asked for the first time, the next one not yet seen after `shown` in the list's order
  /// (the first picture is the API's random one, so where a round starts varies; the choice
  /// itself is not random, so a recorded session replays as a test). Where the API will not list them
  /// (other than by being too slow, which asking at random would only repeat), a random
  /// one, asked again a few times while it is the one on screen; the list is not asked for
  /// again while the screen shows the same dog.
  private func fetchAnotherImage(_ state: inout State, avoiding shown: URL?) -> Effect<Action> {
    let known = state.imageURLs
    let seen = state.seen
    return fetch(&state) { client, breed, subBreed, send throws(DogAPIError) in
      var all = known
      if all == nil {
        var listed: [URL] = []
        do throws(DogAPIError) {
          listed = try await client.images(breed, subBreed)
        } catch {
          switch error {
          case .cancelled, .timedOut: throw error
          default: break
          }
        }
        all = listed
        await send(.imageURLsResponse(listed, shown: shown))
      }
      if let all, !all.isEmpty {
        // The list's order from just after the picture shown, round to its start.
        let next = shown.flatMap { all.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        let round = all[next...] + all[..<next]
        if let url = round.first(where: { $0 != shown && !seen.contains($0) })
          ?? round.first(where: { $0 != shown }) ?? all.first
        {
          return url
        }
      }
      var url = try await client.randomImage(breed, subBreed)
      // A few more tries at most: a breed with one picture shows it again.
      for _ in 0..<Self.triesForAnotherPicture where url == shown {
        url = try await client.randomImage(breed, subBreed)
      }
      return url
    }
  }

  /// How many more times a random picture is asked for when it is the one on screen.
  static let triesForAnotherPicture = 3

  /// Fetches a picture's address with `address`, then (when pictures are on) its bytes,
  /// decoded right here in the effect, off the main actor. One cancellable effect: a newer
  /// request or leaving the screen stops all of it. The animation on screen, if any, stops.
  private func fetch(
    _ state: inout State,
    address:
      @escaping @Sendable (DogAPIClient, String, String?, Send<Action>) async throws(DogAPIError) -> URL
  ) -> Effect<Action> {
    state.imageURL = .loading
    state.picture = .none
    let (client, now) = (client, now)
    let breed = state.breed.name
    let subBreed = state.subBreed
    let pictureSize = pictureSize
    return .run { send in
      let url: URL
      do throws(DogAPIError) {
        url = try await address(client, breed, subBreed, send)
      } catch {
        await send(.imageURLResponse(.failure(error), at: now()))
        return
      }
      await send(.imageURLResponse(.success(url), at: now()))
      guard let pictureSize else { return }
      let picture = await Self.picture(from: url, client: client, fitting: pictureSize())
      await send(.pictureResponse(picture, at: now()))
    }
    .cancellable(id: CancelID.image, cancelInFlight: true)
    .merge(with: .cancel(id: CancelID.animation))
  }

  /// Downloads the picture at `url` and decodes it to at least `size` pixels.
  private static func picture(
    from url: URL, client: DogAPIClient, fitting size: (width: Int, height: Int)
  ) async -> Result<RGBImage, PictureError> {
    do throws(DogAPIError) {
      let bytes = [UInt8](try await client.imageData(url))
      do throws(ImageDecodingError) {
        return .success(try ImageDecoder.decode(bytes, fitting: size))
      } catch {
        return .failure(.decode(error))
      }
    } catch {
      return .failure(.download(error))
    }
  }
}
