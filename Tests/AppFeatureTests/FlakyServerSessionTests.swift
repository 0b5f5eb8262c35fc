// A recorded session as a test: written by `DogBreedsCLI replay flaky-server.jsonl --test DIR`
// (Docs/Usage.md, "Reporting a bug with a recording"); `make session-tests` writes it again.
import AppFeature
import CoreTesting
import Foundation
import SessionRecording
import Testing
import TextRendering

/// The session in Recordings/flaky-server.jsonl, recorded by DogBreedsCLI 0.1.0
/// (`DogBreedsCLI --base-url http://127.0.0.1:18768/api --record /tmp/tmp.U4uZFO0PJN/flaky-server.jsonl`), 36 steps: what the user sent, what
/// the effects delivered, and what each changed. The clients answer as the log recorded.
@MainActor
struct FlakyServerSessionTests {
  @Test func flakyServer() async throws {
    let recorded = try RecordedSession("flaky-server.jsonl")
    let clock = TestClock()
    let store = TestStore(initialState: AppFeature.State()) { recorded.feature(clock: clock) }

    await clock.advance(by: .milliseconds(12))
    try await store.send(.terminal(recorded.payload(of: 1))) {
      $0.screen.display.columns = 100
      $0.screen.display.rows = 30
      $0.screen.display.colorMode = .ansi256
      $0.screen.display.cell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
      $0.screen.ifAmbiguousWide = try recorded.state(after: 1).screen.ifAmbiguousWide
    }
    await clock.advance(by: .milliseconds(57))
    await store.send(.terminal(.recording)) { $0.screen.isRecording = true }
    await clock.advance(by: .milliseconds(20))
    await store.send(
      .terminal(
        .resized(columns: 100, rows: 30, cell: TextRendering.TerminalPicture.CellSize(width: 16, height: 32)))
    ) {
      $0.screen.windowCell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
    }
    await clock.advance(by: .milliseconds(12))
    await store.send(.appeared)
    await clock.advance(by: .milliseconds(12))
    await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }
    await clock.advance(by: .milliseconds(8))
    await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 2)))) {
      $0.screen.ifAmbiguousWide = nil
    }
    await clock.advance(by: .milliseconds(12))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 7))))
    await clock.advance(by: .milliseconds(12))
    try await store.receive(
      .dogs(
        .breedsResponse(
          .success(recorded.payload(of: 8)), at: Date(timeIntervalSinceReferenceDate: 817590668.7797363)))
    ) {
      $0.breeds = try recorded.payload(of: 8)
      $0.dogsTab.status = .loaded
      $0.dogsTab.highlighted = "hound"
    }
    await clock.advance(by: .milliseconds(2824))
    await store.send(.dogs(.filterChanged("h"))) { $0.dogsTab.filter = "h" }
    await clock.advance(by: .milliseconds(2008))
    await store.send(.dogs(.rowSelected("hound")))
    await clock.advance(by: .milliseconds(16))
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.breed = try recorded.state(after: 11).breed
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.breed(.appeared)) { $0.breed?.imageURL = .loading }
    await clock.advance(by: .milliseconds(32))
    await store.receive(
      .breed(
        .imageURLResponse(
          .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
          at: Date(timeIntervalSinceReferenceDate: 817590673.6691322)))
    ) {
      $0.breed?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.breed?.picture = .loading
    }
    await clock.advance(by: .milliseconds(412))
    try await store.receive(
      .breed(
        .pictureResponse(
          .success(recorded.payload(of: 14)), at: Date(timeIntervalSinceReferenceDate: 817590674.0615348)))
    ) {
      $0.breed?.picture = try .loaded(recorded.payload(of: 14))
    }
    await clock.advance(by: .milliseconds(2540))
    await store.send(.breed(.anotherPictureRequested)) {
      $0.breed?.imageURL = .loading
      $0.breed?.picture = .none
      $0.breed?.kept = try recorded.state(after: 15).breed!.kept
    }
    await clock.advance(by: .milliseconds(384))
    await store.receive(
      .breed(
        .imageURLsResponse(
          [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!],
          shown: URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!))
    ) {
      $0.breed?.imageURLs = [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!]
      $0.breed?.seen = [URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!]
    }
    await clock.advance(by: .milliseconds(108))
    await store.receive(
      .breed(
        .imageURLResponse(
          .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
          at: Date(timeIntervalSinceReferenceDate: 817590677.104005)))
    ) {
      $0.breed?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.breed?.picture = .loading
    }
    await clock.advance(by: .milliseconds(420))
    try await store.receive(
      .breed(
        .pictureResponse(
          .success(recorded.payload(of: 18)), at: Date(timeIntervalSinceReferenceDate: 817590677.5327983)))
    ) {
      $0.breed?.picture = try .loaded(recorded.payload(of: 18))
      $0.breed?.kept = nil
    }
    await clock.advance(by: .milliseconds(1100))
    await store.send(.breed(.anotherPictureRequested)) {
      $0.breed?.imageURL = .loading
      $0.breed?.picture = .none
      $0.breed?.kept = try recorded.state(after: 19).breed!.kept
    }
    await clock.advance(by: .milliseconds(360))
    await store.receive(
      .breed(
        .imageURLResponse(
          .success(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!),
          at: Date(timeIntervalSinceReferenceDate: 817590678.9927288)))
    ) {
      $0.breed?.imageURL = .loaded(URL(string: "http://127.0.0.1:18768/breeds/hound-afghan/dog.jpg")!)
      $0.breed?.picture = .loading
    }
    await clock.advance(by: .milliseconds(320))
    try await store.receive(
      .breed(
        .pictureResponse(
          .success(recorded.payload(of: 21)), at: Date(timeIntervalSinceReferenceDate: 817590679.3124298)))
    ) {
      $0.breed?.picture = try .loaded(recorded.payload(of: 21))
      $0.breed?.kept = nil
    }
    await clock.advance(by: .milliseconds(360))
    await store.send(.breed(.favouriteToggled)) { $0.favourites = ["hound"] }
    await clock.advance(by: .milliseconds(1100))
    try await store.receive(.favouritesSaved(.success(recorded.payload(of: 23)))) {
      $0.savedFavourites = ["hound"]
    }
    await clock.advance(by: .milliseconds(872))
    await store.send(.favouritesChangedElsewhere)
    await clock.advance(by: .milliseconds(112))
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await clock.advance(by: .milliseconds(16))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 26))))
    await clock.advance(by: .milliseconds(900))
    await store.send(.dogs(.filterChanged(""))) { $0.dogsTab.filter = "" }
    await clock.advance(by: .milliseconds(1008))
    await store.send(.dogs(.filterChanged("p"))) {
      $0.dogsTab.filter = "p"
      $0.dogsTab.highlighted = "pug"
    }
    await clock.advance(by: .milliseconds(1012))
    await store.send(.dogs(.rowSelected("pug")))
    await clock.advance(by: .milliseconds(4))
    await store.receive(.dogs(.delegate(.breedSelected("pug")))) {
      $0.breed = try recorded.state(after: 30).breed
    }
    await clock.advance(by: .milliseconds(4))
    await store.receive(.breed(.appeared)) { $0.breed?.imageURL = .loading }
    await clock.advance(by: .milliseconds(12))
    await store.receive(
      .breed(
        .imageURLResponse(
          .failure(.server(status: 503, message: "Service unavailable")),
          at: Date(timeIntervalSinceReferenceDate: 817590684.7125129)))
    ) {
      $0.breed?.imageURL = .failed(.server(status: 503, message: "Service unavailable"))
      $0.breed?.failures = 1
      $0.breed?.lastFailure = Date(timeIntervalSinceReferenceDate: 817590684.7125129)
    }
    await clock.advance(by: .milliseconds(3052))
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await clock.advance(by: .milliseconds(12))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 34))))
    await clock.advance(by: .milliseconds(948))
    await store.send(.quitRequested) { $0.quitting = .ready }
    await clock.advance(by: .milliseconds(16))
    await store.send(.saveFavouritesNow)
    // What was still under way when the recording ended.
    await store.skipInFlightEffects(strict: false)
  }
}
