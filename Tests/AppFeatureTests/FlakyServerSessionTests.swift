// A recorded session as a test: written by `DogBreedsCLI replay flaky-server.jsonl --test DIR`
// (Docs/Usage.md, "Reporting a bug with a recording"); `make session-tests` writes it again.
import AppFeature
import CoreTesting
import Foundation
import SessionRecording
import Testing
import TextRendering

/// The session in Recordings/flaky-server.jsonl, recorded by DogBreedsCLI 0.1.0
/// (`DogBreedsCLI --base-url http://127.0.0.1:18768/api`), 42 steps: what the user sent, what
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
    await clock.advance(by: .milliseconds(8))
    await store.send(.appeared)
    await clock.advance(by: .milliseconds(4))
    await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }
    await clock.advance(by: .milliseconds(4))
    await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 2)))) {
      $0.screen.ifAmbiguousWide = nil
    }
    await clock.advance(by: .milliseconds(8))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 7))))
    await clock.advance(by: .milliseconds(8))
    try await store.receive(
      .dogs(
        .breedsResponse(
          .success(recorded.payload(of: 8)), at: Date(timeIntervalSinceReferenceDate: 817591843.4146924)))
    ) {
      $0.breeds = try recorded.payload(of: 8)
      $0.dogsTab.status = .loaded
      $0.dogsTab.highlighted = "hound"
    }
    await clock.advance(by: .milliseconds(2924))
    await store.send(.dogs(.filterChanged("h"))) { $0.dogsTab.filter = "h" }
    await clock.advance(by: .milliseconds(2008))
    await store.send(.dogs(.rowSelected("hound")))
    await clock.advance(by: .milliseconds(8))
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.path = try recorded.state(after: 11).path
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.path(.element(id: 0, action: .appeared))) {
      $0.path[id: 0]?.imageURL = .loading
    }
    await clock.advance(by: .milliseconds(12))
    await store.receive(
      .path(
        .element(
          id: 0,
          action: .imageURLResponse(
            .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
            at: Date(timeIntervalSinceReferenceDate: 817591848.3743545))))
    ) {
      $0.path[id: 0]?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.path[id: 0]?.picture = .loading
    }
    await clock.advance(by: .milliseconds(256))
    try await store.receive(
      .path(
        .element(
          id: 0,
          action: .pictureResponse(
            .success(recorded.payload(of: 14)), at: Date(timeIntervalSinceReferenceDate: 817591848.6300397))))
    ) {
      $0.path[id: 0]?.picture = try .loaded(recorded.payload(of: 14))
    }
    await clock.advance(by: .milliseconds(2724))
    await store.send(.breed(.anotherPictureRequested)) {
      $0.path[id: 0]?.imageURL = .loading
      $0.path[id: 0]?.picture = .none
      $0.path[id: 0]?.kept = try recorded.state(after: 15).path[id: 0]!.kept
    }
    await clock.advance(by: .milliseconds(192))
    await store.receive(
      .path(
        .element(
          id: 0,
          action: .imageURLsResponse(
            [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!],
            shown: URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)))
    ) {
      $0.path[id: 0]?.imageURLs = [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!]
      $0.path[id: 0]?.seen = [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!]
    }
    await clock.advance(by: .milliseconds(36))
    await store.receive(
      .path(
        .element(
          id: 0,
          action: .imageURLResponse(
            .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
            at: Date(timeIntervalSinceReferenceDate: 817591851.5803567))))
    ) {
      $0.path[id: 0]?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.path[id: 0]?.picture = .loading
    }
    await clock.advance(by: .milliseconds(240))
    try await store.receive(
      .path(
        .element(
          id: 0,
          action: .pictureResponse(
            .success(recorded.payload(of: 18)), at: Date(timeIntervalSinceReferenceDate: 817591851.8190777))))
    ) {
      $0.path[id: 0]?.picture = try .loaded(recorded.payload(of: 18))
      $0.path[id: 0]?.kept = nil
    }
    await clock.advance(by: .milliseconds(1540))
    await store.send(.breed(.anotherPictureRequested)) {
      $0.path[id: 0]?.imageURL = .loading
      $0.path[id: 0]?.picture = .none
      $0.path[id: 0]?.kept = try recorded.state(after: 19).path[id: 0]!.kept
    }
    await clock.advance(by: .milliseconds(304))
    await store.receive(
      .path(
        .element(
          id: 0,
          action: .imageURLResponse(
            .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
            at: Date(timeIntervalSinceReferenceDate: 817591853.66464))))
    ) {
      $0.path[id: 0]?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.path[id: 0]?.picture = .loading
    }
    await clock.advance(by: .milliseconds(304))
    try await store.receive(
      .path(
        .element(
          id: 0,
          action: .pictureResponse(
            .success(recorded.payload(of: 21)), at: Date(timeIntervalSinceReferenceDate: 817591853.9711024))))
    ) {
      $0.path[id: 0]?.picture = try .loaded(recorded.payload(of: 21))
      $0.path[id: 0]?.kept = nil
    }
    await clock.advance(by: .milliseconds(396))
    await store.send(.breed(.favouriteToggled)) { $0.favourites = ["hound"] }
    await clock.advance(by: .milliseconds(1056))
    try await store.receive(.favouritesSaved(.success(recorded.payload(of: 23)))) {
      $0.savedFavourites = ["hound"]
    }
    await clock.advance(by: .milliseconds(948))
    await store.send(.favouritesChangedElsewhere)
    await clock.advance(by: .milliseconds(52))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 25))))
    await clock.advance(by: .milliseconds(76))
    await store.send(.breedScreenDismissed) { $0.path = try recorded.state(after: 26).path }
    await clock.advance(by: .milliseconds(4))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 27))))
    await clock.advance(by: .milliseconds(880))
    await store.send(.tabSelected(.favourites)) { $0.tab = .favourites }
    await clock.advance(by: .milliseconds(4))
    await store.receive(.favourites(.appeared)) {
      $0.favouritesTab.rows = try recorded.state(after: 29).favouritesTab.rows
      $0.favouritesTab.highlighted = "hound"
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.favourites(.rows(id: "hound", action: .cameIntoView))) {
      $0.favouritesTab.rows = try recorded.state(after: 30).favouritesTab.rows
    }
    await clock.advance(by: .milliseconds(16))
    try await store.receive(
      .favourites(.rows(id: "hound", action: .thumbnailResponse(.failure(recorded.payload(of: 31)))))
    ) {
      $0.favouritesTab.rows = try recorded.state(after: 31).favouritesTab.rows
    }
    await clock.advance(by: .milliseconds(2976))
    await store.send(.tabSelected(.breeds)) { $0.tab = .breeds }
    await clock.advance(by: .milliseconds(1004))
    await store.send(.dogs(.filterChanged(""))) { $0.dogsTab.filter = "" }
    await clock.advance(by: .milliseconds(1008))
    await store.send(.dogs(.filterChanged("p"))) {
      $0.dogsTab.filter = "p"
      $0.dogsTab.highlighted = "pug"
    }
    await clock.advance(by: .milliseconds(1008))
    await store.send(.dogs(.rowSelected("pug")))
    await clock.advance(by: .milliseconds(4))
    await store.receive(.dogs(.delegate(.breedSelected("pug")))) {
      $0.path = try recorded.state(after: 36).path
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.path(.element(id: 1, action: .appeared))) {
      $0.path[id: 1]?.imageURL = .loading
    }
    await clock.advance(by: .milliseconds(12))
    await store.receive(
      .path(
        .element(
          id: 1,
          action: .imageURLResponse(
            .failure(.server(status: 503, message: "Service unavailable")),
            at: Date(timeIntervalSinceReferenceDate: 817591863.4277196))))
    ) {
      $0.path[id: 1]?.imageURL = .failed(.server(status: 503, message: "Service unavailable"))
      $0.path[id: 1]?.failures = 1
      $0.path[id: 1]?.lastFailure = Date(timeIntervalSinceReferenceDate: 817591863.4277196)
    }
    await clock.advance(by: .milliseconds(3044))
    await store.send(.breedScreenDismissed) { $0.path = try recorded.state(after: 39).path }
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 40))))
    await clock.advance(by: .milliseconds(948))
    await store.send(.quitRequested) { $0.quitting = .ready }
    await clock.advance(by: .milliseconds(8))
    await store.send(.saveFavouritesNow)
    // What was still under way when the recording ended.
    await store.skipInFlightEffects(strict: false)
  }
}
