import Core
import CoreTesting
import DogAPIClient
import FavouritesFeature
import Foundation
import ImageDecoding
import Synchronization
import TestSupport
import Testing

/// A 2×2 PNG: what every thumbnail here downloads.
let thumbnailPNG = PNGWriter.png(
  width: 2, height: 2, rows: [[0, 200, 10, 10, 10, 200, 10], [0, 10, 10, 200, 0, 0, 0]])
/// What it decodes to.
let thumbnail = try! ImageDecoder.decode(thumbnailPNG, fitting: (4, 4))

/// A client whose pictures are ``thumbnailPNG``, each address in the favourite's own folder;
/// `bytes` stands in for the download, given the picture's folder (`hound-afghan`).
func client(
  bytes: @escaping @Sendable (_ folder: String) async throws(DogAPIError) -> Data = { _ in Data(thumbnailPNG)
  }
) -> DogAPIClient {
  var client = DogAPIClient.failing
  client.randomImage = { (breed, subBreed) async throws(DogAPIError) -> URL in
    URL(string: "https://images.dog.ceo/breeds/\(breed)\(subBreed.map { "-\($0)" } ?? "")/1.png")!
  }
  client.imageData = { (url) async throws(DogAPIError) -> Data in
    try await bytes(url.pathComponents.dropLast().last ?? "")
  }
  return client
}

/// How long an answer that decodes a picture may take.
let wait = Duration.seconds(5).scaled

@MainActor
struct FavouritesFeatureTests {
  @Test func rowsFollowTheFavouritesAndLoadTheirThumbnails() async {
    // Each download waits for its own gate, so that the answers come in a known order.
    let gates = ["hound-afghan": Gate(), "pug": Gate()]
    let store = TestStore(initialState: FavouritesFeature.State(favourites: ["pug", "hound/afghan"])) {
      FavouritesFeature(
        client: client { (folder) async throws(DogAPIError) -> Data in
          await gates[folder]?.wait()
          return Data(thumbnailPNG)
        }, thumbnailSize: (4, 4))
    }
    await store.send(.appeared) {
      $0.highlighted = "hound/afghan"
      $0.rows = [FavouriteRow.State(id: "hound/afghan"), FavouriteRow.State(id: "pug")]
    }
    await store.receive(.rows(id: "hound/afghan", action: .cameIntoView)) {
      $0.rows[id: "hound/afghan"]?.thumbnail = .loading
    }
    await store.receive(.rows(id: "pug", action: .cameIntoView)) { $0.rows[id: "pug"]?.thumbnail = .loading }
    await gates["hound-afghan"]?.open()
    await store.receive(
      .rows(id: "hound/afghan", action: .thumbnailResponse(.success(thumbnail))), timeout: wait
    ) {
      $0.rows[id: "hound/afghan"]?.thumbnail = .loaded(thumbnail)
    }
    await gates["pug"]?.open()
    await store.receive(.rows(id: "pug", action: .thumbnailResponse(.success(thumbnail))), timeout: wait) {
      $0.rows[id: "pug"]?.thumbnail = .loaded(thumbnail)
    }
    // Shown again: a loaded row does not load again.
    await store.send(.appeared)
  }

  @Test func withoutPicturesRowsLoadNothing() async {
    let store = TestStore(initialState: FavouritesFeature.State(favourites: ["pug"])) {
      FavouritesFeature(client: .failing)
    }
    await store.send(.appeared) {
      $0.highlighted = "pug"
      $0.rows = [FavouriteRow.State(id: "pug")]
    }
  }

  /// The highlight stays on its row when a favourite added elsewhere sorts before it,
  /// though the user never moved it.
  @Test func aFavouriteAddedElsewhereDoesNotTakeTheHighlight() async {
    let store = TestStore(initialState: FavouritesFeature.State(favourites: ["pug"])) {
      FavouritesFeature(client: .failing)
    }
    await store.send(.appeared) {
      $0.highlighted = "pug"
      $0.rows = [FavouriteRow.State(id: "pug")]
    }
    var state = store.state
    state.favourites.insert("akita")
    let view = FavouritesFeature.ViewState(state)
    #expect(view.highlighted.map { view.rows[$0].id } == "pug")
  }

  @Test func unStarringRemovesTheRowAndCancelsItsLoad() async {
    let gate = Gate()
    let store = TestStore(
      initialState: FavouritesFeature.State(favourites: ["akita", "pug"], highlighted: "akita")
    ) {
      FavouritesFeature(
        client: client { (folder) async throws(DogAPIError) -> Data in
          await gate.wait()
          return Data(thumbnailPNG)
        }, thumbnailSize: (4, 4))
    }
    await store.send(.appeared) {
      $0.rows = [FavouriteRow.State(id: "akita"), FavouriteRow.State(id: "pug")]
    }
    await store.receive(.rows(id: "akita", action: .cameIntoView)) {
      $0.rows[id: "akita"]?.thumbnail = .loading
    }
    await store.receive(.rows(id: "pug", action: .cameIntoView)) { $0.rows[id: "pug"]?.thumbnail = .loading }
    // The highlight stays in place, on the row after.
    await store.send(.favouriteToggled) {
      $0.favourites = ["pug"]
      $0.highlighted = "pug"
      $0.rows = [FavouriteRow.State(id: "pug", thumbnail: .loading)]
    }
    await gate.open()
    // Only the row that is left answers: akita's load was cancelled with its row.
    await store.receive(.rows(id: "pug", action: .thumbnailResponse(.success(thumbnail))), timeout: wait) {
      $0.rows[id: "pug"]?.thumbnail = .loaded(thumbnail)
    }
    await store.finish()
  }

  /// Rows far from the highlight stop loading; rows coming near it start.
  @Test func onlyRowsNearTheHighlightLoad() async {
    let names = (0..<30).map { "breed\(String(format: "%02d", $0))" }
    let gate = Gate()
    let store = TestStore(initialState: FavouritesFeature.State(favourites: Set(names))) {
      FavouritesFeature(
        client: client { (folder) async throws(DogAPIError) -> Data in
          await gate.wait()
          return Data(thumbnailPNG)
        }, thumbnailSize: (4, 4))
    }
    let nearby = FavouritesFeature.State.rowsNearby
    await store.send(.appeared) {
      $0.highlighted = "breed00"
      $0.rows = IdentifiedArray(
        names.map {
          FavouriteRow.State(id: $0)
        })
    }
    for name in names[...nearby] {
      await store.receive(.rows(id: name, action: .cameIntoView)) { $0.rows[id: name]?.thumbnail = .loading }
    }
    await store.send(.highlightMoved(.last)) { $0.highlighted = names.last }
    // In the rows' order: the first ones, now far, stop; the last ones start.
    for name in names[...nearby] {
      await store.receive(.rows(id: name, action: .wentOutOfView)) {
        $0.rows[id: name]?.thumbnail = .notLoaded
      }
    }
    for name in names[(names.count - 1 - nearby)...] {
      await store.receive(.rows(id: name, action: .cameIntoView)) { $0.rows[id: name]?.thumbnail = .loading }
    }
    // The rows left loading finish; the others were stopped and send nothing.
    store.exhaustivity = .off
    await gate.open()
    await store.finish()
    let loaded = store.state.rows.filter { $0.thumbnail == .loaded(thumbnail) }.map(\.id)
    #expect(loaded == Array(names[(names.count - 1 - nearby)...]))
  }

  @Test func clearingAllAsksFirst() async {
    let store = TestStore(
      initialState: FavouritesFeature.State(favourites: ["pug", "akita"], highlighted: "pug")
    ) {
      FavouritesFeature(client: .failing)
    }
    let dialog = ConfirmationDialogState<FavouritesFeature.Action.Dialog>(
      title: "Clear all favourites?", message: "This un-stars all 2 favourites.",
      buttons: [
        ButtonState(role: .destructive, "Clear all", action: .clearAll), ButtonState(role: .cancel, "Keep"),
      ])
    await store.send(.clearAllRequested) {
      $0.confirmationDialog = dialog
      $0.dialogFocus = 1  // Enter keeps them unless the user moves
    }
    await store.send(.confirmationDialog(.dismiss)) { $0.confirmationDialog = nil }
    await store.send(.clearAllRequested) { $0.confirmationDialog = dialog }
    await store.send(.dialogFocusMoved(1)) { $0.dialogFocus = 0 }
    await store.send(.confirmationDialog(.presented(.clearAll))) {
      $0.confirmationDialog = nil
      $0.favourites = []
      $0.highlighted = nil
    }
    // With nothing to clear, nothing is asked.
    await store.send(.clearAllRequested)
  }

  @Test func enterOpensTheHighlightedFavourite() async {
    let store = TestStore(initialState: FavouritesFeature.State(favourites: ["pug", "hound/afghan"])) {
      FavouritesFeature(client: .failing)
    }
    await store.send(.highlightedRowOpened)
    await store.receive(.delegate(.open(breed: "hound", subBreed: "afghan")))
    await store.send(.highlightMoved(.down)) {
      $0.highlighted = "pug"
      $0.rows = [FavouriteRow.State(id: "hound/afghan"), FavouriteRow.State(id: "pug")]
    }
    await store.send(.highlightedRowOpened)
    await store.receive(.delegate(.open(breed: "pug", subBreed: nil)))
  }

  /// A click names a favourite: the highlight goes to it wherever it is now (favourites
  /// starred elsewhere since the click's frame was drawn sort before it), and stays where
  /// it is no longer a favourite; a click that opens one opens that one, or nothing.
  @Test func aClickFindsTheFavouriteByName() async {
    let drawn = ["hound/afghan", "akita", "pug"].map { FavouriteRow.State(id: $0) }
    // Affenpinscher and Basset Hound starred elsewhere since: they sort before Pug.
    let starred = TestStore(
      initialState: FavouritesFeature.State(
        favourites: ["pug", "akita", "hound/afghan", "affenpinscher", "hound/basset"],
        rows: IdentifiedArray(drawn), highlighted: "akita")
    ) {
      FavouritesFeature(client: .failing)
    }
    await starred.send(.highlightMoved(.item("pug"))) {
      $0.highlighted = "pug"
      $0.rows = IdentifiedArray(
        ["affenpinscher", "hound/afghan", "akita", "hound/basset", "pug"].map { FavouriteRow.State(id: $0) })
    }
    await starred.send(.rowOpened("hound/basset"))
    await starred.receive(.delegate(.open(breed: "hound", subBreed: "basset")))
    // Akita un-starred elsewhere since: the highlight stays, and nothing opens.
    let unstarred = TestStore(
      initialState: FavouritesFeature.State(
        favourites: ["pug", "hound/afghan"], rows: IdentifiedArray(drawn), highlighted: "pug")
    ) {
      FavouritesFeature(client: .failing)
    }
    await unstarred.send(.highlightMoved(.item("akita")))
    await unstarred.send(.rowOpened("akita"))
    // With no favourites, nothing moves.
    let none = TestStore(initialState: FavouritesFeature.State()) { FavouritesFeature(client: .failing) }
    await none.send(.highlightMoved(.item("pug")))
  }

  @Test func aThumbnailThatCannotBeHadSaysSo() async {
    let store = TestStore(initialState: FavouritesFeature.State(favourites: ["pug"])) {
      FavouritesFeature(
        client: client { (folder) async throws(DogAPIError) -> Data in Data("no".utf8) },
        thumbnailSize: (4, 4))
    }
    await store.send(.appeared) {
      $0.highlighted = "pug"
      $0.rows = [FavouriteRow.State(id: "pug")]
    }
    await store.receive(.rows(id: "pug", action: .cameIntoView)) { $0.rows[id: "pug"]?.thumbnail = .loading }
    var reason = ""
    do throws(ImageDecodingError) {
      _ = try ImageDecoder.decode(Array("no".utf8), fitting: (4, 4))
    } catch {
      reason = error.message
    }
    await store.receive(
      .rows(id: "pug", action: .thumbnailResponse(.failure(.init("No picture: \(reason)")))), timeout: wait
    ) {
      $0.rows[id: "pug"]?.thumbnail = .failed("No picture: \(reason)")
    }
  }
}

/// Thumbnails that failed while the picture server was down load again.
@MainActor
struct FavouritesRetryTests {

  /// A server that fails while `down`, then serves ``thumbnailPNG``; a folder's download may
  /// also wait at a gate.
  final class Server: Sendable {
    let down = Mutex(true)
    let gates: [String: Gate]
    init(gates: [String: Gate] = [:]) { self.gates = gates }
    var api: DogAPIClient {
      client { (folder) async throws(DogAPIError) -> Data in
        await self.gates[folder]?.wait()
        if self.down.withLock({ $0 }) { throw .unreachable(host: "images.dog.ceo") }
        return Data(thumbnailPNG)
      }
    }
  }

  static let failure = FavouriteRow.ThumbnailError(
    "No picture: \(DogAPIError.unreachable(host: "images.dog.ceo").message)")

  @Test func rRetriesEveryFailedThumbnail() async {
    let server = Server()
    let store = TestStore(initialState: FavouritesFeature.State(favourites: ["pug"])) {
      FavouritesFeature(client: server.api, thumbnailSize: (4, 4))
    }
    await store.send(.appeared) {
      $0.highlighted = "pug"
      $0.rows = [FavouriteRow.State(id: "pug")]
    }
    await store.receive(.rows(id: "pug", action: .cameIntoView)) { $0.rows[id: "pug"]?.thumbnail = .loading }
    await store.receive(.rows(id: "pug", action: .thumbnailResponse(.failure(Self.failure))), timeout: wait) {
      $0.rows[id: "pug"]?.thumbnail = .failed(Self.failure.message)
    }
    #expect(FavouritesFeature.ViewState(store.state).anyThumbnailFailed)
    server.down.withLock { $0 = false }
    await store.send(.failedThumbnailsRetried) { $0.rows[id: "pug"]?.thumbnail = .notLoaded }
    await store.receive(.rows(id: "pug", action: .cameIntoView)) { $0.rows[id: "pug"]?.thumbnail = .loading }
    await store.receive(.rows(id: "pug", action: .thumbnailResponse(.success(thumbnail))), timeout: wait) {
      $0.rows[id: "pug"]?.thumbnail = .loaded(thumbnail)
    }
    #expect(!FavouritesFeature.ViewState(store.state).anyThumbnailFailed)
  }

  @Test func aRowThatFailedLoadsAgainOnceAnotherRowsThumbnailArrives() async {
    let server = Server(gates: ["pug": Gate()])
    let store = TestStore(initialState: FavouritesFeature.State(favourites: ["akita", "pug"])) {
      FavouritesFeature(client: server.api, thumbnailSize: (4, 4))
    }
    await store.send(.appeared) {
      $0.highlighted = "akita"
      $0.rows = [FavouriteRow.State(id: "akita"), FavouriteRow.State(id: "pug")]
    }
    await store.receive(.rows(id: "akita", action: .cameIntoView)) {
      $0.rows[id: "akita"]?.thumbnail = .loading
    }
    await store.receive(.rows(id: "pug", action: .cameIntoView)) { $0.rows[id: "pug"]?.thumbnail = .loading }
    await store.receive(.rows(id: "akita", action: .thumbnailResponse(.failure(Self.failure))), timeout: wait)
    {
      $0.rows[id: "akita"]?.thumbnail = .failed(Self.failure.message)
    }
    // The network comes back: pug's picture arrives, and akita's is asked for again.
    server.down.withLock { $0 = false }
    await server.gates["pug"]?.open()
    await store.receive(.rows(id: "pug", action: .thumbnailResponse(.success(thumbnail))), timeout: wait) {
      $0.rows[id: "pug"]?.thumbnail = .loaded(thumbnail)
      $0.rows[id: "akita"]?.thumbnail = .notLoaded
    }
    await store.receive(.rows(id: "akita", action: .cameIntoView)) {
      $0.rows[id: "akita"]?.thumbnail = .loading
    }
    await store.receive(.rows(id: "akita", action: .thumbnailResponse(.success(thumbnail))), timeout: wait) {
      $0.rows[id: "akita"]?.thumbnail = .loaded(thumbnail)
    }
  }
}
