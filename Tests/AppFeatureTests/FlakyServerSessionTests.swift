// A recorded session as a test: written by `DogBreedsCLI replay flaky-server.jsonl --test DIR`
// (Docs/Usage.md, "Reporting a bug with a recording"); `make session-tests` writes it again.
import AppFeature
import CoreTesting
import Foundation
import SessionRecording
import Testing
import TextRendering

/// The session in Recordings/flaky-server.jsonl, recorded by DogBreedsCLI 0.1.0
/// (`DogBreedsCLI --base-url http://127.0.0.1:18768/api --record /tmp/tmp.PCJgHHMsmM/flaky-server.jsonl`), 41 steps: what the user sent, what
/// the effects delivered, and what each changed. The clients answer as the log recorded.
@MainActor
struct FlakyServerSessionTests {
  @Test func flakyServer() async throws {
    let recorded = try RecordedSession("flaky-server.jsonl")
    let clock = TestClock()
    let store = TestStore(initialState: AppFeature.State()) { recorded.feature(clock: clock) }

    try await store.send(.terminal(recorded.payload(of: 1))) {
      $0.screen.display.columns = 100
      $0.screen.display.rows = 30
      $0.screen.display.colorMode = .ansi256
      $0.screen.display.cell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
      $0.screen.ifAmbiguousWide = try recorded.state(after: 1).screen.ifAmbiguousWide
    }
    await clock.advance(by: .milliseconds(21))
    await store.send(.terminal(.recording)) { $0.screen.isRecording = true }
    await clock.advance(by: .milliseconds(4))
    await store.send(
      .terminal(
        .resized(columns: 100, rows: 30, cell: TextRendering.TerminalPicture.CellSize(width: 16, height: 32)))
    ) {
      $0.screen.windowCell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
    }
    await clock.advance(by: .milliseconds(4))
    await store.send(.appeared)
    await clock.advance(by: .milliseconds(4))
    await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }
    await clock.advance(by: .milliseconds(8))
    await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 2)))) {
      $0.screen.ifAmbiguousWide = nil
    }
    await clock.advance(by: .milliseconds(8))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 7))))
    await clock.advance(by: .milliseconds(8))
    try await store.receive(
      .dogs(
        .breedsResponse(
          .success(recorded.payload(of: 8)), at: Date(timeIntervalSinceReferenceDate: 817591583.6531609)))
    ) {
      $0.breeds = try recorded.payload(of: 8)
      $0.dogsTab.status = .loaded
      $0.dogsTab.highlighted = "hound"
    }
    await clock.advance(by: .milliseconds(2928))
    await store.send(.dogs(.filterChanged("h"))) { $0.dogsTab.filter = "h" }
    await clock.advance(by: .milliseconds(2016))
    await store.send(.dogs(.rowSelected("hound")))
    await clock.advance(by: .milliseconds(4))
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.breed = try recorded.state(after: 11).breed
    }
    await clock.advance(by: .milliseconds(16))
    await store.receive(.breed(.appeared)) { $0.breed?.imageURL = .loading }
    await clock.advance(by: .milliseconds(16))
    await store.receive(
      .breed(
        .imageURLResponse(
          .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
          at: Date(timeIntervalSinceReferenceDate: 817591588.632252)))
    ) {
      $0.breed?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.breed?.picture = .loading
    }
    await clock.advance(by: .milliseconds(296))
    try await store.receive(
      .breed(
        .pictureResponse(
          .success(recorded.payload(of: 14)), at: Date(timeIntervalSinceReferenceDate: 817591588.9279977)))
    ) {
      $0.breed?.picture = try .loaded(recorded.payload(of: 14))
    }
    await clock.advance(by: .milliseconds(2684))
    await store.send(.breed(.anotherPictureRequested)) {
      $0.breed?.imageURL = .loading
      $0.breed?.picture = .none
      $0.breed?.kept = try recorded.state(after: 15).breed!.kept
    }
    await clock.advance(by: .milliseconds(268))
    await store.receive(
      .breed(
        .imageURLsResponse(
          [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!],
          shown: URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!))
    ) {
      $0.breed?.imageURLs = [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!]
      $0.breed?.seen = [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!]
    }
    await clock.advance(by: .milliseconds(72))
    await store.receive(
      .breed(
        .imageURLResponse(
          .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
          at: Date(timeIntervalSinceReferenceDate: 817591591.9538707)))
    ) {
      $0.breed?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.breed?.picture = .loading
    }
    await clock.advance(by: .milliseconds(296))
    try await store.receive(
      .breed(
        .pictureResponse(
          .success(recorded.payload(of: 18)), at: Date(timeIntervalSinceReferenceDate: 817591592.249169)))
    ) {
      $0.breed?.picture = try .loaded(recorded.payload(of: 18))
      $0.breed?.kept = nil
    }
    await clock.advance(by: .milliseconds(1368))
    await store.send(.breed(.anotherPictureRequested)) {
      $0.breed?.imageURL = .loading
      $0.breed?.picture = .none
      $0.breed?.kept = try recorded.state(after: 19).breed!.kept
    }
    await clock.advance(by: .milliseconds(220))
    await store.receive(
      .breed(
        .imageURLResponse(
          .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
          at: Date(timeIntervalSinceReferenceDate: 817591593.8353541)))
    ) {
      $0.breed?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.breed?.picture = .loading
    }
    await clock.advance(by: .milliseconds(320))
    try await store.receive(
      .breed(
        .pictureResponse(
          .success(recorded.payload(of: 21)), at: Date(timeIntervalSinceReferenceDate: 817591594.1554217)))
    ) {
      $0.breed?.picture = try .loaded(recorded.payload(of: 21))
      $0.breed?.kept = nil
    }
    await clock.advance(by: .milliseconds(468))
    await store.send(.breed(.favouriteToggled)) { $0.favourites = ["hound"] }
    await clock.advance(by: .milliseconds(1076))
    try await store.receive(.favouritesSaved(.success(recorded.payload(of: 23)))) {
      $0.savedFavourites = ["hound"]
    }
    await clock.advance(by: .milliseconds(916))
    await store.send(.favouritesChangedElsewhere)
    await clock.advance(by: .milliseconds(80))
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await clock.advance(by: .milliseconds(8))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 26))))
    await clock.advance(by: .milliseconds(936))
    await store.send(.tabSelected(.favourites)) { $0.tab = .favourites }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.favourites(.appeared)) {
      $0.favouritesTab.rows = try recorded.state(after: 28).favouritesTab.rows
      $0.favouritesTab.highlighted = "hound"
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.favourites(.rows(id: "hound", action: .cameIntoView))) {
      $0.favouritesTab.rows = try recorded.state(after: 29).favouritesTab.rows
    }
    await clock.advance(by: .milliseconds(12))
    try await store.receive(
      .favourites(.rows(id: "hound", action: .thumbnailResponse(.failure(recorded.payload(of: 30)))))
    ) {
      $0.favouritesTab.rows = try recorded.state(after: 30).favouritesTab.rows
    }
    await clock.advance(by: .milliseconds(2980))
    await store.send(.tabSelected(.breeds)) { $0.tab = .breeds }
    await clock.advance(by: .milliseconds(1024))
    await store.send(.dogs(.filterChanged(""))) { $0.dogsTab.filter = "" }
    await clock.advance(by: .milliseconds(1004))
    await store.send(.dogs(.filterChanged("p"))) {
      $0.dogsTab.filter = "p"
      $0.dogsTab.highlighted = "pug"
    }
    await clock.advance(by: .milliseconds(1016))
    await store.send(.dogs(.rowSelected("pug")))
    await clock.advance(by: .milliseconds(4))
    await store.receive(.dogs(.delegate(.breedSelected("pug")))) {
      $0.breed = try recorded.state(after: 35).breed
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.breed(.appeared)) { $0.breed?.imageURL = .loading }
    await clock.advance(by: .milliseconds(24))
    await store.receive(
      .breed(
        .imageURLResponse(
          .failure(.server(status: 503, message: "Service unavailable")),
          at: Date(timeIntervalSinceReferenceDate: 817591603.7273664)))
    ) {
      $0.breed?.imageURL = .failed(.server(status: 503, message: "Service unavailable"))
      $0.breed?.failures = 1
      $0.breed?.lastFailure = Date(timeIntervalSinceReferenceDate: 817591603.7273664)
    }
    await clock.advance(by: .milliseconds(3032))
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await clock.advance(by: .milliseconds(8))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 39))))
    await clock.advance(by: .milliseconds(944))
    await store.send(.quitRequested) { $0.quitting = .ready }
    await clock.advance(by: .milliseconds(12))
    await store.send(.saveFavouritesNow)
    // What was still under way when the recording ended.
    await store.skipInFlightEffects(strict: false)
  }
}
