// A recorded session as a test: written by `DogBreedsCLI replay breeds-and-tabs.jsonl --test DIR`
// (Docs/Usage.md, "Reporting a bug with a recording"); `make session-tests` writes it again.
import AppFeature
import CoreTesting
import Foundation
import SessionRecording
import Testing
import TextRendering

/// The session in Recordings/breeds-and-tabs.jsonl, recorded by DogBreedsCLI 0.1.0
/// (`DogBreedsCLI --base-url http://127.0.0.1:18769/api`), 32 steps: what the user sent, what
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
    await clock.advance(by: .milliseconds(12))
    await store.send(.terminal(.recording)) { $0.screen.isRecording = true }
    await store.send(
      .terminal(
        .resized(columns: 90, rows: 28, cell: TextRendering.TerminalPicture.CellSize(width: 16, height: 32)))
    ) {
      $0.screen.windowCell = TextRendering.TerminalPicture.CellSize(width: 16, height: 32)
    }
    await clock.advance(by: .milliseconds(4))
    await store.send(.appeared)
    await clock.advance(by: .milliseconds(5))
    await store.receive(.dogs(.appeared)) { $0.dogsTab.status = .loading }
    await clock.advance(by: .milliseconds(4))
    await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 2)))) {
      $0.screen.ifAmbiguousWide = nil
    }
    await clock.advance(by: .milliseconds(4))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 7))))
    await clock.advance(by: .milliseconds(8))
    try await store.receive(
      .dogs(
        .breedsResponse(
          .success(recorded.payload(of: 8)), at: Date(timeIntervalSinceReferenceDate: 817591873.5039654)))
    ) {
      $0.breeds = try recorded.payload(of: 8)
      $0.dogsTab.status = .loaded
      $0.dogsTab.highlighted = "hound"
    }
    await clock.advance(by: .milliseconds(2948))
    await store.send(.helpShown) { $0.help = try recorded.state(after: 9).help }
    await clock.advance(by: .milliseconds(1056))
    await store.send(.helpDismissed) { $0.help = nil }
    await clock.advance(by: .milliseconds(956))
    await store.send(.dogs(.highlightMoved(.down))) { $0.dogsTab.highlighted = "pug" }
    await clock.advance(by: .milliseconds(1004))
    await store.send(.dogs(.highlightMoved(.up))) { $0.dogsTab.highlighted = "hound" }
    await clock.advance(by: .milliseconds(1004))
    await store.send(.dogs(.rowSelected("hound")))
    await clock.advance(by: .milliseconds(8))
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.path = try recorded.state(after: 14).path
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
            .success(URL(string: "http://127.0.0.1:18769/breeds/hound-afghan/dog.jpg")!),
            at: Date(timeIntervalSinceReferenceDate: 817591880.4993594))))
    ) {
      $0.path[id: 0]?.imageURL = .loaded(URL(string: "http://127.0.0.1:18769/breeds/hound-afghan/dog.jpg")!)
      $0.path[id: 0]?.picture = .loading
    }
    await clock.advance(by: .milliseconds(264))
    try await store.receive(
      .path(
        .element(
          id: 0,
          action: .pictureResponse(
            .success(recorded.payload(of: 17)), at: Date(timeIntervalSinceReferenceDate: 817591880.765528))))
    ) {
      $0.path[id: 0]?.picture = try .loaded(recorded.payload(of: 17))
    }
    await clock.advance(by: .milliseconds(1716))
    await store.send(.breed(.highlightMoved(.down))) { $0.path[id: 0]?.highlighted = "afghan" }
    await clock.advance(by: .milliseconds(1004))
    await store.send(.breed(.subBreedSelected("afghan"))) {
      $0.path = try recorded.state(after: 19).path
    }
    await clock.advance(by: .milliseconds(52))
    await store.receive(.path(.element(id: 1, action: .appeared))) {
      $0.path[id: 1]?.imageURL = .loading
    }
    await clock.advance(by: .milliseconds(52))
    await store.receive(
      .path(
        .element(
          id: 1,
          action: .imageURLResponse(
            .success(URL(string: "http://127.0.0.1:18769/breeds/hound-afghan/dog.jpg")!),
            at: Date(timeIntervalSinceReferenceDate: 817591883.5893011))))
    ) {
      $0.path[id: 1]?.imageURL = .loaded(URL(string: "http://127.0.0.1:18769/breeds/hound-afghan/dog.jpg")!)
      $0.path[id: 1]?.picture = .loading
    }
    await clock.advance(by: .milliseconds(304))
    try await store.receive(
      .path(
        .element(
          id: 1,
          action: .pictureResponse(
            .success(recorded.payload(of: 22)), at: Date(timeIntervalSinceReferenceDate: 817591883.8932464))))
    ) {
      $0.path[id: 1]?.picture = try .loaded(recorded.payload(of: 22))
    }
    await clock.advance(by: .milliseconds(1600))
    await store.send(
      .terminal(
        .resized(columns: 110, rows: 34, cell: TextRendering.TerminalPicture.CellSize(width: 16, height: 32)))
    ) {
      $0.screen.display.columns = 110
      $0.screen.display.rows = 34
    }
    await clock.advance(by: .milliseconds(332))
    await store.receive(.path(.element(id: 1, action: .screenResized)))
    await clock.advance(by: .milliseconds(1676))
    await store.send(.breed(.favouriteToggled)) { $0.favourites = ["hound/afghan"] }
    await clock.advance(by: .milliseconds(1052))
    await store.send(.breedScreenDismissed) { $0.path = try recorded.state(after: 26).path }
    await clock.advance(by: .milliseconds(272))
    await store.receive(.path(.element(id: 0, action: .appeared)))
    await clock.advance(by: .milliseconds(60))
    try await store.receive(.favouritesSaved(.success(recorded.payload(of: 28)))) {
      $0.savedFavourites = ["hound/afghan"]
    }
    await clock.advance(by: .milliseconds(588))
    await store.send(.favouritesChangedElsewhere)
    await clock.advance(by: .milliseconds(60))
    try await store.receive(.favouritesLoaded(.success(recorded.payload(of: 30))))
    await clock.advance(by: .milliseconds(3988))
    await store.send(.quitRequested) { $0.quitting = .ready }
    await clock.advance(by: .milliseconds(92))
    await store.send(.saveFavouritesNow)
    // What was still under way when the recording ended.
    await store.skipInFlightEffects(strict: false)
  }
}
