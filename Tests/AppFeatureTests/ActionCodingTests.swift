import AppFeature
import BreedFeature
import Core
import DogAPIClient
import DogsFeature
import FavouritesClient
import FavouritesFeature
import Foundation
import ImageDecoding
import TestSupport
import Testing
import TextRendering

/// A sample of every case of every action, and of every enum an action carries, for the
/// round trip through JSON that a session log makes. A case without a sample fails
/// ``ActionCodingTests/everyCaseOfEveryEnumHasASample()``.
enum ActionSamples {
  static let picture = RGBImage(width: 2, height: 2, pixels: Array(0..<12), isReduced: true)
  static let animations = [
    Animation(
      frames: [
        AnimationFrame(image: picture, delay: .milliseconds(100)),
        AnimationFrame(
          image: RGBImage(width: 2, height: 2, pixels: Array(12..<24)), delay: .milliseconds(40)),
      ], plays: .forever),
    Animation(
      frames: [AnimationFrame(image: picture, delay: .seconds(1))], plays: .times(3), isComplete: false),
  ]
  static let url = URL(string: "https://images.dog.ceo/breeds/hound-afghan/n02088094_1003.jpg")!
  static let fetchedAt = Date(timeIntervalSince1970: 1_795_000_000.25)

  static let apiErrors: [DogAPIError] = [
    .unreachable(host: "dog.ceo"), .connectionRefused(server: "[::1]:80"),
    .secureConnectionFailed(host: "dog.ceo"), .proxyUnreachable(proxy: "proxy:3128"),
    .proxySecureConnectionFailed(proxy: ""), .proxyRefused(host: "dog.ceo", status: 407),
    .proxyRefused(host: "dog.ceo", status: nil), .connectionLost(host: "dog.ceo"), .timedOut(seconds: 2.5),
    .offline, .notFound(message: "Breed not found (main breed does not exist)"), .notFound(message: nil),
    .server(status: 503, message: "Unavailable"), .malformedResponse(detail: "not JSON"),
    .responseTooLarge(limit: 1 << 20), .invalidBreedName("Hound"), .invalidURL("ftp://x"), .cancelled,
    .unimplemented(endpoint: "DogAPIClient.breeds"),
  ]

  static let formats: [ImageFormat] = [.jpeg, .png, .webp, .gif, .avif, .bmp, .tiff, .unknown]

  static let decodingErrors: [ImageDecodingError] =
    formats.map { .unsupportedFormat($0) } + [
      .unsupportedFeature("CMYK"), .truncated, .corrupt("bad Huffman table"),
      .tooLarge(width: 70_000, height: 2),
    ]

  static let moves: [HighlightMove] = [
    .up, .down, .first, .last, .pageUp(rows: 5), .pageDown(rows: 5), .row(3), .item("hound"),
  ]

  static let lists: [BreedList] = [
    BreedList(
      breeds: [Breed(name: "hound", subBreeds: ["afghan", "basset"]), Breed(name: "akita")], source: .network,
      fetchedAt: fetchedAt),
    BreedList(
      breeds: [Breed(name: "pug")], source: .cache, fetchedAt: fetchedAt, fallbackReason: .offline,
      leftOutNames: 2),
    BreedList(breeds: [Breed(name: "boxer")], source: .bundled, fallbackReason: .timedOut(seconds: 10)),
  ]

  static let dogs: [DogsFeature.Action] =
    [
      .appeared, .filterChanged("hou nd"), .rowSelected("hound"), .favouriteToggled,
      .subBreedMatchSelected(breed: "hound", subBreed: "afghan"), .retryRequested,
      .savedBreedsLoaded(lists[1]), .breedsResponse(.failure(.offline), at: now),
      .delegate(.breedSelected("hound")), .delegate(.subBreedSelected(breed: "hound", subBreed: "afghan")),
    ] + moves.map { .highlightMoved($0) } + lists.map { .breedsResponse(.success($0), at: now) }

  static let breed: [BreedFeature.Action] =
    [
      .appeared, .anotherPictureRequested, .retryRequested, .subBreedSelected("afghan"),
      .subBreedSelected(nil),
      .favouriteToggled, .highlightMoved(.down), .screenResized, .imageURLsResponse([url], shown: url),
      .imageURLsResponse([], shown: nil), .imageURLResponse(.success(url), at: now),
      .pictureResponse(.success(picture), at: now), .frameDelayElapsed, .pictureCovered(true),
      .pictureCovered(false),
    ] + animations.map { .animationDecoded($0) } + apiErrors.map { .imageURLResponse(.failure($0), at: now) }
    + apiErrors.map { .pictureResponse(.failure(.download($0)), at: now) }
    + decodingErrors.map { .pictureResponse(.failure(.decode($0)), at: now) }

  static let row: [FavouriteRow.Action] = [
    .cameIntoView, .wentOutOfView, .thumbnailResponse(.success(picture)),
    .thumbnailResponse(.failure(FavouriteRow.ThumbnailError("No picture: the picture file is incomplete."))),
  ]

  static let favourites: [FavouritesFeature.Action] =
    [
      .appeared, .highlightMoved(.pageDown(rows: 3)), .favouriteToggled, .highlightedRowOpened,
      .rowOpened("hound/afghan"),
      .clearAllRequested, .failedThumbnailsRetried, .confirmationDialog(.presented(.clearAll)),
      .confirmationDialog(.dismiss), .dialogFocusMoved(-1),
      .delegate(.open(breed: "hound", subBreed: "afghan")),
      .delegate(.open(breed: "pug", subBreed: nil)),
    ] + row.map { .rows(id: "hound/afghan", action: $0) }

  static let loads: [FavouritesLoad] = [
    FavouritesLoad(favourites: ["hound", "hound/afghan"]),
    FavouritesLoad(
      favourites: [], notice: "The favourites file was damaged; it is kept aside.", isDamaged: true),
  ]
  static let favouritesError = FavouritesError(
    "Favourites could not be saved: the disk is full.", isBusy: true)

  static let terminal: [AppFeature.TerminalEvent] =
    [
      .opened(
        Display(
          columns: 120, rows: 40, unicode: true, colorMode: .ansi256, lightBackground: true,
          cell: TerminalPicture.CellSize(width: 9, height: 18), pictureMode: .terminal,
          pictureProtocol: .sixel,
          compressesPictures: true, symbols: .sextant),
        ifAmbiguousWide: Display(unicode: false, colorMode: ColorMode.none, pictureMode: .ascii)),
      .opened(Display(colorMode: .ansi16, pictureMode: .none, pictureProtocol: .kitty), ifAmbiguousWide: nil),
      .opened(
        Display(colorMode: .truecolor, pictureMode: .blocks, pictureProtocol: .iterm), ifAmbiguousWide: nil),
      .resized(columns: 200, rows: 60, cell: nil),
      .resized(columns: 1, rows: 1, cell: TerminalPicture.CellSize(width: 7, height: 15)), .recording,
      .replied(.cursorPosition(row: 1, column: 3)), .replied(.terminalAttributes(drawsSixel: false)),
      .replied(.terminalAttributes(drawsSixel: true)),
      .replied(.backgroundColor(red: 1, green: 0.5, blue: 0)), .replied(.cellSize(width: 10, height: 21)),
      .replied(.settingReport("2;1$r48:2::1:2:3m")), .replied(.settingReport(nil)),
    ] + SymbolSet.allCases.map { .opened(Display(symbols: $0), ifAmbiguousWide: nil) }

  static let app: [AppFeature.Action] =
    [
      .tabSelected(.breeds), .tabSelected(.favourites), .breedScreenDismissed, .noticeDismissed, .appeared,
      .path(.element(id: 1, action: .subBreedSelected("afghan"))), .path(.popFrom(id: 2)),
      .favouritesLoaded(.failure(favouritesError)), .favouritesSaved(.failure(FavouritesError("No room."))),
      .favouritesChangedElsewhere, .saveFavouritesNow, .favouritesSaveWaiting, .quitRequested, .helpShown,
      .helpScrolled(to: 12), .helpDismissed, .alert(.presented(.retrySave)),
      .alert(.presented(.quitWithoutSaving)),
      .alert(.dismiss), .alertFocusMoved(1),
    ] + terminal.map { .terminal($0) } + loads.map { .favouritesLoaded(.success($0)) }
    + loads.map { .favouritesSaved(.success($0)) }
    + dogs.map { .dogs($0) } + breed.map { .breed($0) } + favourites.map { .favourites($0) }
}

struct ActionCodingTests {
  /// Every sample, written as JSON and read back, is the value written.
  @Test func everyActionReadsBackAsWritten() throws {
    for action in ActionSamples.app {
      let data = try JSONEncoder().encode(action)
      let decoded = try JSONDecoder().decode(AppFeature.Action.self, from: data)
      #expect(decoded == action, "\(String(decoding: data, as: UTF8.self))")
    }
  }

  /// A terminal's attributes, written in a log before their sixel feature was kept, read
  /// back with it unknown.
  @Test func attributesWithoutTheirFeaturesStillRead() throws {
    let written = #"{"terminal":{"_0":{"replied":{"_0":{"terminalAttributes":{}}}}}}"#
    let action = try JSONDecoder().decode(AppFeature.Action.self, from: Data(written.utf8))
    #expect(action == .terminal(.replied(.terminalAttributes(drawsSixel: nil))))
  }

  /// The errors actions carry read back whole: what they say is what they said.
  @Test func errorsReadBackWithTheirMessages() throws {
    func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
      try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
    }
    for error in ActionSamples.apiErrors {
      #expect(try roundTrip(error).message == error.message)
      let picture = BreedFeature.PictureError.download(error)
      #expect(try roundTrip(picture).message == picture.message)
    }
    for error in ActionSamples.decodingErrors {
      #expect(try roundTrip(error).message == error.message)
    }
    let thumbnail = FavouriteRow.ThumbnailError("No picture: the server had an error (HTTP 500).")
    #expect(try roundTrip(thumbnail).message == thumbnail.message)
    let saving = try roundTrip(ActionSamples.favouritesError)
    #expect(saving.message == ActionSamples.favouritesError.message && saving.isBusy)
    // Lists compare by breeds and provenance: what else they hold reads back too.
    for list in ActionSamples.lists {
      #expect(try roundTrip(list).leftOutNames == list.leftOutNames)
    }
  }

  /// Every case of every enum the samples reach, the actions and what they carry (errors,
  /// moves, lists' sources, results, presentation actions), has a sample: the cases
  /// covered are compared with the enum's own, read from its metadata.
  @Test func everyCaseOfEveryEnumHasASample() {
    var covered: [ObjectIdentifier: (type: Any.Type, cases: Set<String>)] = [:]
    for action in ActionSamples.app { Self.collectCases(of: action, into: &covered) }
    let required: [Any.Type] = [
      AppFeature.Action.self, AppFeature.Action.Alert.self, AppFeature.State.Tab.self,
      PresentationAction<AppFeature.Action.Alert>.self, DogsFeature.Action.self,
      DogsFeature.Action.Delegate.self,
      BreedFeature.Action.self, BreedFeature.PictureError.self, FavouritesFeature.Action.self,
      FavouritesFeature.Action.Dialog.self, FavouritesFeature.Action.Delegate.self,
      PresentationAction<FavouritesFeature.Action.Dialog>.self, FavouriteRow.Action.self, HighlightMove.self,
      DogAPIError.self, BreedListSource.self, ImageDecodingError.self, ImageFormat.self,
      Animation.Plays.self, AppFeature.TerminalEvent.self, TerminalReply.self, ColorMode.self,
      PictureMode.self,
      PictureProtocol.self, SymbolSet.self,
    ]
    for type in required {
      #expect(covered[ObjectIdentifier(type)] != nil, "no sample carries a \(String(reflecting: type))")
    }
    #expect(covered.count >= required.count)
    for (type, cases) in covered.values {
      guard let all = EnumCases.names(of: type) else {
        Issue.record("the cases of \(String(reflecting: type)) could not be read")
        continue
      }
      let missing = Set(all).subtracting(cases)
      #expect(missing.isEmpty, "no sample of \(String(reflecting: type)): \(missing.sorted())")
    }
  }

  /// The cases of the enums of the package, and of `Result`, that `value` is or holds.
  static func collectCases(
    of value: Any, into covered: inout [ObjectIdentifier: (type: Any.Type, cases: Set<String>)]
  ) {
    let type = Swift.type(of: value)
    let name = String(reflecting: type)
    // Foundation's values (addresses, dates) are leaves: their insides are not the package's.
    guard !name.hasPrefix("Foundation.") else { return }
    if !name.hasPrefix("Swift.Optional<"), let caseName = EnumCases.name(of: value) {
      covered[ObjectIdentifier(type), default: (type, [])].cases.insert(caseName)
    }
    for child in Mirror(reflecting: value).children { collectCases(of: child.value, into: &covered) }
  }

  /// Two actions that carry the same picture, written with a pixel store, hold its bytes
  /// once, in the store; read with a store that has them, they are what was written.
  @Test func aPictureInManyActionsIsStoredOnce() throws {
    let store = RGBImage.PixelStore()
    let encoder = JSONEncoder()
    encoder.userInfo[RGBImage.pixelStoreKey] = store
    let actions: [AppFeature.Action] = [
      .breed(.pictureResponse(.success(ActionSamples.picture), at: now)),
      .favourites(.rows(id: "hound", action: .thumbnailResponse(.success(ActionSamples.picture)))),
    ]
    let lines = try actions.map { try encoder.encode($0) }
    let blobs = store.takeNew()
    #expect(blobs.map(\.bytes) == [ActionSamples.picture.pixels])
    let key = try #require(blobs.first?.key)
    for line in lines {
      #expect(String(decoding: line, as: UTF8.self).contains("\"pixels\":\"\(key)\""))
    }

    let reader = RGBImage.PixelStore()
    for blob in blobs { reader.add(blob) }
    let decoder = JSONDecoder()
    decoder.userInfo[RGBImage.pixelStoreKey] = reader
    #expect(try lines.map { try decoder.decode(AppFeature.Action.self, from: $0) } == actions)

    // Without the blob: an error that names it.
    decoder.userInfo[RGBImage.pixelStoreKey] = RGBImage.PixelStore()
    #expect {
      try decoder.decode(AppFeature.Action.self, from: lines[0])
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription.contains(key)
    }
  }

  /// An animation's action, written with a pixel store, holds its GIF as the key of the
  /// blob its first frame's picture is kept as: the log gains a line, not the frames.
  @Test func anAnimationInALogIsTheFileItsFirstFrameIsKeptAs() throws {
    var gif = GIFWriter(width: 8, height: 6, colors: [[255, 0, 0], [0, 0, 255]])
    gif.loop(0)
    gif.frame([UInt8](repeating: 0, count: 48))
    gif.frame([UInt8](repeating: 1, count: 48))
    let first = try ImageDecoder.decode(gif.file, fitting: (8, 6))
    var animation = try GIFDecoder.decodeAnimation(gif.file, fitting: (8, 6))
    animation.plays = .times(2)
    let actions: [AppFeature.Action] = [
      .breed(.pictureResponse(.success(first), at: now)), .breed(.animationDecoded(animation)),
    ]
    let store = RGBImage.PixelStore()
    let encoder = JSONEncoder()
    encoder.userInfo[RGBImage.pixelStoreKey] = store
    let lines = try actions.map { try encoder.encode($0) }
    let blobs = store.takeNew()
    #expect(blobs.map(\.bytes) == [gif.file])
    #expect(lines[1].count < 250, "\(String(decoding: lines[1], as: UTF8.self))")
    let reader = RGBImage.PixelStore()
    for blob in blobs { reader.add(blob) }
    let decoder = JSONDecoder()
    decoder.userInfo[RGBImage.pixelStoreKey] = reader
    #expect(try lines.map { try decoder.decode(AppFeature.Action.self, from: $0) } == actions)
  }
}
