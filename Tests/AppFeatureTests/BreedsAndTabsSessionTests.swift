// A recorded session as a test: written by `DogBreedsCLI replay breeds-and-tabs.jsonl --test DIR`
// (Docs/Usage.md, "Reporting a bug with a recording"); `make session-tests` writes it again.
import AppFeature
import CoreTesting
import Foundation
import SessionRecording
import Testing
import TextRendering

/// The session in Recordings/breeds-and-tabs.jsonl, recorded by DogBreedsCLI 0.1.0
/// (`DogBreedsCLI --base-url http://127.0.0.1:18769/api --record /tmp/tmp.PCJgHHMsmM/breeds-and-tabs.jsonl`), 36 steps: what the user sent, what
/// the effects delivered, and what each changed. The clients answer as the log recorded.
@MainActor
struct BreedsAndTabsSessionTests {
  @Test func breedsAndTabs() async throws {
    let recorded = try RecordedSession("breeds-and-tabs.jsonl")
    let clock = TestClock()
    let store = TestStore(initialState: AppFeature.State()) { recorded.feature(clock: clock) }

    try await store.send(.terminal(recorded.payload(of: 1))) {
      $0.screen.display.columns = 90
      $0.screen.display.rows = 28
      $0.screen.display.colorMode = .ansi256
      $0.screen.display.cell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
      $0.screen.ifAmbiguousWide = try recorded.state(after: 1).screen.ifAmbiguousWide
    }
    await clock.advance(by: .milliseconds(13))
    await store.send(.terminal(.recording)) { $0.screen.isRecording = true }
    await clock.advance(by: .milliseconds(4))
    await store.send(
      .terminal(
        .resized(columns: 90, rows: 28, cell: TextRendering.TerminalPicture.CellSize(width: 16, height: 32)))
    ) {
      $0.screen.windowCell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
    }
    await clock.advance(by: .milliseconds(4))
    await store.send(.appeared)
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
          .success(recorded.payload(of: 8)), at: Date(timeIntervalSinceReferenceDate: 817591614.5482179)))
    ) {
      $0.breeds = try recorded.payload(of: 8)
      $0.dogsTab.status = .loaded
      $0.dogsTab.highlighted = "hound"
    }
    await clock.advance(by: .milliseconds(2940))
    await store.send(.helpShown) { $0.help = try recorded.state(after: 9).help }
    await clock.advance(by: .milliseconds(1056))
    await store.send(.helpDismissed) { $0.help = nil }
    await clock.advance(by: .milliseconds(956))
    await store.send(.dogs(.highlightMoved(.down))) { $0.dogsTab.highlighted = "pug" }
    await clock.advance(by: .milliseconds(1008))
    await store.send(.dogs(.highlightMoved(.up))) { $0.dogsTab.highlighted = "hound" }
    await clock.advance(by: .milliseconds(1004))
    await store.send(.dogs(.rowSelected("hound")))
    await clock.advance(by: .milliseconds(8))
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.breed = try recorded.state(after: 14).breed
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.breed(.appeared)) { $0.breed?.imageURL = .loading }
    await clock.advance(by: .milliseconds(12))
    await store.receive(
      .breed(
        .imageURLResponse(
          .success(URL(string: "http://127.0.0.1:18769/breeds/hound-afghan/dog.jpg")!),
          at: Date(timeIntervalSinceReferenceDate: 817591621.540999)))
    ) {
      $0.breed?.imageURL = .loaded(URL(string: "http://127.0.0.1:18769/breeds/hound-afghan/dog.jpg")!)
      $0.breed?.picture = .loading
    }
    await clock.advance(by: .milliseconds(272))
    try await store.receive(
      .breed(
        .pictureResponse(
          .success(recorded.payload(of: 17)), at: Date(timeIntervalSinceReferenceDate: 817591621.8126141)))
    ) {
      $0.breed?.picture = try .loaded(recorded.payload(of: 17))
    }
    await clock.advance(by: .milliseconds(1708))
    await store.send(.breed(.highlightMoved(.down))) { $0.breed?.highlighted = "afghan" }
    await clock.advance(by: .milliseconds(1004))
    await store.send(.breed(.subBreedSelected("afghan"))) {
      $0.breed?.subBreed = "afghan"
      $0.breed?.imageURL = .loading
      $0.breed?.picture = .none
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(
      .breed(
        .imageURLResponse(
          .success(URL(string: "http://127.0.0.1:18769/breeds/hound-afghan/dog.jpg")!),
          at: Date(timeIntervalSinceReferenceDate: 817591624.5339001)))
    ) {
      $0.breed?.imageURL = .loaded(URL(string: "http://127.0.0.1:18769/breeds/hound-afghan/dog.jpg")!)
      $0.breed?.picture = .loading
    }
    await clock.advance(by: .milliseconds(220))
    try await store.receive(
      .breed(
        .pictureResponse(
          .success(recorded.payload(of: 21)), at: Date(timeIntervalSinceReferenceDate: 817591624.7541552)))
    ) {
      $0.breed?.picture = try .loaded(recorded.payload(of: 21))
    }
    await clock.advance(by: .milliseconds(1780))
    await store.send(
      .terminal(
        .resized(columns: 110, rows: 34, cell: TextRendering.TerminalPicture.CellSize(width: 16, height: 32)))
    ) {
      $0.screen.display.columns = 110
      $0.screen.display.rows = 34
    }
    await clock.advance(by: .milliseconds(528))
    await store.receive(.breed(.screenResized))
    await clock.advance(by: .milliseconds(1484))
    await store.send(.breed(.favouriteToggled)) { $0.favourites = ["hound/afghan"] }
    await clock.advance(by: .milliseconds(1064))
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await clock.advance(by: .milliseconds(8))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 26))))
    await clock.advance(by: .milliseconds(28))
    try await store.receive(.favouritesSaved(.success(recorded.payload(of: 27)))) {
      $0.savedFavourites = ["hound/afghan"]
    }
    await clock.advance(by: .milliseconds(868))
    await store.send(.favouritesChangedElsewhere)
    await clock.advance(by: .milliseconds(8))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 29))))
    await clock.advance(by: .milliseconds(40))
    await store.send(.tabSelected(.favourites)) { $0.tab = .favourites }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.favourites(.appeared)) {
      $0.favouritesTab.rows = try recorded.state(after: 31).favouritesTab.rows
      $0.favouritesTab.highlighted = "hound/afghan"
    }
    await clock.advance(by: .milliseconds(8))
    await store.receive(.favourites(.rows(id: "hound/afghan", action: .cameIntoView))) {
      $0.favouritesTab.rows = try recorded.state(after: 32).favouritesTab.rows
    }
    await clock.advance(by: .milliseconds(16))
    try await store.receive(
      .favourites(.rows(id: "hound/afghan", action: .thumbnailResponse(.success(recorded.payload(of: 33)))))
    ) {
      $0.favouritesTab.rows = try recorded.state(after: 33).favouritesTab.rows
    }
    await clock.advance(by: .milliseconds(2984))
    await store.send(.tabSelected(.breeds)) { $0.tab = .breeds }
    await clock.advance(by: .milliseconds(1000))
    await store.send(.quitRequested) { $0.quitting = .ready }
    await clock.advance(by: .milliseconds(12))
    await store.send(.saveFavouritesNow)
    // What was still under way when the recording ended.
    await store.skipInFlightEffects(strict: false)
  }
}
