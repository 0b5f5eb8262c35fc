// A recorded session as a test: written by `DogBreedsCLI replay bug-report.jsonl --test DIR`
// (Docs/Usage.md, "Reporting a bug with a recording"); `make session-tests` writes it again.
import AppFeature
import CoreTesting
import Foundation
import SessionRecording
import Testing
import TextRendering

/// The session in Recordings/bug-report.jsonl, recorded by DogBreedsCLI 0.1.0
/// (`DogBreedsCLI --base-url http://127.0.0.1:18770/api`), 42 steps: what the user sent, what
/// the effects delivered, and what each changed. The clients answer as the log recorded.
@MainActor
struct BugReportSessionTests {
  @Test func bugReport() async throws {
    let recorded = try RecordedSession("bug-report.jsonl")
    let clock = TestClock()
    let store = TestStore(initialState: AppFeature.State()) { recorded.feature(clock: clock) }

    await clock.advance(by: .milliseconds(4))
    try await store.send(.terminal(recorded.payload(of: 1))) {
      $0.screen.display.columns = 120
      $0.screen.display.rows = 32
      $0.screen.display.colorMode = .ansi256
      $0.screen.display.cell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
      $0.screen.ifAmbiguousWide = try recorded.state(after: 1).screen.ifAmbiguousWide
    }
    await clock.advance(by: .milliseconds(21))
    await store.send(.terminal(.recording)) { $0.screen.isRecording = true }
    await clock.advance(by: .milliseconds(8))
    await store.send(
      .terminal(
        .resized(columns: 120, rows: 32, cell: TextRendering.TerminalPicture.CellSize(width: 16, height: 32)))
    ) {
      $0.screen.windowCell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
    }
    await clock.advance(by: .milliseconds(8))
    await store.send(.appeared)
    await clock.advance(by: .milliseconds(4))
    await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }
    await clock.advance(by: .milliseconds(8))
    await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 2)))) {
      $0.screen.ifAmbiguousWide = nil
    }
    await clock.advance(by: .milliseconds(16))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 7))))
    await clock.advance(by: .milliseconds(8))
    try await store.receive(
      .dogs(
        .breedsResponse(
          .success(recorded.payload(of: 8)), at: Date(timeIntervalSinceReferenceDate: 817592485.9070069)))
    ) {
      $0.breeds = try recorded.payload(of: 8)
      $0.dogsTab.status = .loaded
      $0.dogsTab.highlighted = "hound"
    }
    await clock.advance(by: .milliseconds(2908))
    await store.send(.tabSelected(.favourites)) { $0.tab = .favourites }
    await clock.advance(by: .milliseconds(12))
    await store.receive(.favourites(.appeared))
    await clock.advance(by: .milliseconds(996))
    await store.send(.tabSelected(.breeds)) { $0.tab = .breeds }
    await clock.advance(by: .milliseconds(1004))
    await store.send(.dogs(.filterChanged("p"))) {
      $0.dogsTab.filter = "p"
      $0.dogsTab.highlighted = "pug"
    }
    await clock.advance(by: .milliseconds(1020))
    await store.send(.dogs(.filterChanged("pu"))) { $0.dogsTab.filter = "pu" }
    await clock.advance(by: .milliseconds(1008))
    await store.send(.dogs(.rowSelected("pug")))
    await clock.advance(by: .milliseconds(12))
    await store.receive(.dogs(.delegate(.breedSelected("pug")))) {
      $0.path = try recorded.state(after: 15).path
    }
    await clock.advance(by: .milliseconds(20))
    await store.receive(.path(.element(id: 0, action: .appeared))) {
      $0.path[id: 0]?.imageURL = .loading
    }
    await clock.advance(by: .milliseconds(48))
    await store.receive(
      .path(
        .element(
          id: 0,
          action: .imageURLResponse(
            .failure(.server(status: 503, message: "Service unavailable")),
            at: Date(timeIntervalSinceReferenceDate: 817592492.9332539))))
    ) {
      $0.path[id: 0]?.imageURL = .failed(.server(status: 503, message: "Service unavailable"))
      $0.path[id: 0]?.failures = 1
      $0.path[id: 0]?.lastFailure = Date(timeIntervalSinceReferenceDate: 817592492.9332539)
    }
    await clock.advance(by: .milliseconds(1924))
    await store.send(.breed(.retryRequested)) { $0.path[id: 0]?.imageURL = .loading }
    await clock.advance(by: .milliseconds(36))
    await store.receive(.path(.element(id: 0, action: .imageURLsResponse([], shown: nil)))) {
      $0.path[id: 0]?.imageURLs = []
    }
    await clock.advance(by: .milliseconds(16))
    await store.receive(
      .path(
        .element(
          id: 0,
          action: .imageURLResponse(
            .failure(.server(status: 503, message: "Service unavailable")),
            at: Date(timeIntervalSinceReferenceDate: 817592494.9083204))))
    ) {
      $0.path[id: 0]?.imageURL = .failed(.server(status: 503, message: "Service unavailable"))
      $0.path[id: 0]?.failures = 2
      $0.path[id: 0]?.lastFailure = Date(timeIntervalSinceReferenceDate: 817592494.9083204)
    }
    await clock.advance(by: .milliseconds(1464))
    await store.send(.breed(.favouriteToggled)) { $0.favourites = ["pug"] }
    await clock.advance(by: .milliseconds(1036))
    try await store.receive(.favouritesSaved(.success(recorded.payload(of: 22)))) {
      $0.savedFavourites = ["pug"]
    }
    await clock.advance(by: .milliseconds(428))
    await store.send(.favouritesChangedElsewhere)
    await clock.advance(by: .milliseconds(8))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 24))))
    await clock.advance(by: .milliseconds(96))
    await store.send(.breedScreenDismissed) { $0.path = try recorded.state(after: 25).path }
    await clock.advance(by: .milliseconds(12))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 26))))
    await clock.advance(by: .milliseconds(1460))
    await store.send(.tabSelected(.favourites)) { $0.tab = .favourites }
    await clock.advance(by: .milliseconds(12))
    await store.receive(.favourites(.appeared)) {
      $0.favouritesTab.rows = try recorded.state(after: 28).favouritesTab.rows
      $0.favouritesTab.highlighted = "pug"
    }
    await clock.advance(by: .milliseconds(12))
    await store.receive(.favourites(.rows(id: "pug", action: .cameIntoView))) {
      $0.favouritesTab.rows = try recorded.state(after: 29).favouritesTab.rows
    }
    await clock.advance(by: .milliseconds(20))
    try await store.receive(
      .favourites(.rows(id: "pug", action: .thumbnailResponse(.failure(recorded.payload(of: 30)))))
    ) {
      $0.favouritesTab.rows = try recorded.state(after: 30).favouritesTab.rows
    }
    await clock.advance(by: .milliseconds(1456))
    await store.send(.favourites(.highlightedRowOpened))
    await clock.advance(by: .milliseconds(16))
    await store.receive(.favourites(.delegate(.open(breed: "pug", subBreed: nil)))) {
      $0.path = try recorded.state(after: 32).path
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.path(.element(id: 1, action: .appeared))) {
      $0.path[id: 1]?.imageURL = .loading
    }
    await clock.advance(by: .milliseconds(24))
    await store.receive(
      .path(
        .element(
          id: 1,
          action: .imageURLResponse(
            .failure(.server(status: 503, message: "Service unavailable")),
            at: Date(timeIntervalSinceReferenceDate: 817592500.9597453))))
    ) {
      $0.path[id: 1]?.imageURL = .failed(.server(status: 503, message: "Service unavailable"))
      $0.path[id: 1]?.failures = 1
      $0.path[id: 1]?.lastFailure = Date(timeIntervalSinceReferenceDate: 817592500.9597453)
    }
    await clock.advance(by: .milliseconds(1968))
    await store.send(.breed(.anotherPictureRequested)) { $0.path[id: 1]?.imageURL = .loading }
    await clock.advance(by: .milliseconds(52))
    await store.receive(.path(.element(id: 1, action: .imageURLsResponse([], shown: nil)))) {
      $0.path[id: 1]?.imageURLs = []
    }
    await clock.advance(by: .milliseconds(16))
    await store.receive(
      .path(
        .element(
          id: 1,
          action: .imageURLResponse(
            .failure(.server(status: 503, message: "Service unavailable")),
            at: Date(timeIntervalSinceReferenceDate: 817592502.9963387))))
    ) {
      $0.path[id: 1]?.imageURL = .failed(.server(status: 503, message: "Service unavailable"))
      $0.path[id: 1]?.failures = 2
      $0.path[id: 1]?.lastFailure = Date(timeIntervalSinceReferenceDate: 817592502.9963387)
    }
    await clock.advance(by: .milliseconds(1504))
    await store.send(.breedScreenDismissed) { $0.path = try recorded.state(after: 38).path }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.favourites(.appeared))
    await clock.advance(by: .milliseconds(32))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 40))))
    await clock.advance(by: .milliseconds(920))
    await store.send(.quitRequested) { $0.quitting = .ready }
    await clock.advance(by: .milliseconds(8))
    await store.send(.saveFavouritesNow)
    // What was still under way when the recording ended.
    await store.skipInFlightEffects(strict: false)
  }
}
