import AppFeature
import Core
import CoreTesting
import DogAPIClient
import FavouritesClient
import Foundation
import TestSupport
import Testing
import TextRendering

/// Quitting never loses a star without a word: it saves first, and where that fails, asks.
/// A save that another process holds up waits a while, saying so.
@MainActor
struct QuittingTests {
  static let busy = FavouritesError(
    "Favourites could not be saved: another process holds x.lock.", isBusy: true)
  static let readOnly = FavouritesError("Favourites could not be saved in /ro: Read-only file system.")

  /// The app's state with Pug starred but not saved yet.
  static let unsaved = AppFeature.State(
    breeds: list, dogsStatus: .loaded, dogsHighlighted: "pug", favourites: ["akita", "pug"],
    savedFavourites: ["akita"])

  /// A client whose saves fail with `error` the first `failures` times (all, by default).
  static func client(failing failures: Int = .max, with error: FavouritesError, attempts: Log<Int>)
    -> FavouritesClient
  {
    FavouritesClient(
      load: { FavouritesLoad(favourites: []) },
      save: { change throws(FavouritesError) in
        attempts.append(attempts.values.count + 1)
        if attempts.values.count <= failures { throw error }
        return FavouritesLoad(favourites: change.known)
      })
  }

  @Test func withNothingUnsavedQuittingEndsAtOnce() async {
    var state = Self.unsaved
    state.favourites = ["akita"]
    let store = TestStore(initialState: state) {
      AppFeature(client: .fake(), favourites: .failing, clock: TestClock())
    }
    await store.send(.quitRequested) { $0.quitting = .ready }
  }

  /// The reducer decides when the app ends, and ends it through `end`: once nothing is left
  /// to save; asked again while a save holds it up, at once.
  @Test func theReducerEndsTheAppOnceQuittingIsDecided() async {
    let ends = Log<Int>()
    var state = Self.unsaved
    state.favourites = ["akita"]
    let store = TestStore(initialState: state) {
      AppFeature(client: .fake(), favourites: .failing, clock: TestClock(), end: { ends.append(1) })
    }
    await store.send(.quitRequested) { $0.quitting = .ready }
    await store.finish()
    #expect(ends.values == [1])

    let held = Gate()
    let busy = TestStore(initialState: Self.unsaved) {
      AppFeature(
        client: .fake(),
        favourites: FavouritesClient(
          load: { FavouritesLoad(favourites: []) },
          save: { change throws(FavouritesError) in
            await held.wait()
            return FavouritesLoad(favourites: change.known)
          }),
        clock: TestClock(), end: { ends.append(2) })
    }
    await busy.send(.quitRequested) { $0.quitting = .saving }
    #expect(ends.values == [1])
    await busy.send(.quitRequested)
    // The effect that ends the app runs off the main actor: waited for (at most ten
    // seconds), while the save stays held.
    for _ in 0..<1_000 where ends.values.count < 2 { try? await Task.sleep(for: .milliseconds(10)) }
    #expect(ends.values == [1, 2])
    await busy.skipInFlightEffects()
    await held.open()
  }

  @Test func quittingSavesFirstThenEnds() async {
    let saved = FavouritesClient.inMemory(["akita"])
    let store = TestStore(initialState: Self.unsaved) {
      AppFeature(client: .fake(), favourites: saved, clock: TestClock())
    }
    await store.send(.quitRequested) {
      $0.quitting = .saving
      // (What the screen shows then: the save has already ended by the time `send` returns.)
      #expect(AppFeature.ViewState($0).status == "Saving favourites…")
      #expect(AppFeature.ViewState($0).keyHints == "^C quit without saving")
    }
    await store.receive(.favouritesSaved(.success(FavouritesLoad(favourites: ["akita", "pug"])))) {
      $0.savedFavourites = ["akita", "pug"]
      $0.quitting = .ready
    }
    #expect(try! await saved.load().favourites == ["akita", "pug"])
  }

  /// A save that fails at quit asks: trying again tries again, Esc goes back to the app,
  /// and quitting without saving is the user's choice.
  @Test func aSaveThatFailsAtQuitAsksTryAgainOrQuitWithoutSaving() async {
    let attempts = Log<Int>()
    let store = TestStore(initialState: Self.unsaved) {
      AppFeature(
        client: .fake(), favourites: Self.client(with: Self.readOnly, attempts: attempts), clock: TestClock())
    }
    let question = AlertState<AppFeature.Action.Alert>(
      title: "Favourites not saved",
      message: Self.readOnly.message + " Quitting now loses starred Pug.",
      buttons: [
        ButtonState("Try again", action: .retrySave),
        ButtonState("Quit without saving", action: .quitWithoutSaving),
      ])
    // A failure's alert already up gives way to the question.
    await store.send(.quitRequested) { $0.quitting = .saving }
    await store.receive(.favouritesSaved(.failure(Self.readOnly))) {
      $0.quitting = .asking
      $0.favouritesSaveFailure = Self.readOnly.message
      $0.alert = question
    }
    await store.send(.alert(.presented(.retrySave))) {
      $0.quitting = .saving
      $0.alert = nil
    }
    await store.receive(.favouritesSaved(.failure(Self.readOnly))) {
      $0.quitting = .asking
      $0.alert = question
    }
    await store.send(.alert(.dismiss)) {
      $0.quitting = nil
      $0.alert = nil
    }
    #expect(store.state.favourites == ["akita", "pug"])
    await store.send(.quitRequested) { $0.quitting = .saving }
    await store.receive(.favouritesSaved(.failure(Self.readOnly))) {
      $0.quitting = .asking
      $0.alert = question
    }
    await store.send(.alertFocusMoved(1)) { $0.alertFocus = 1 }
    await store.send(.alert(.presented(.quitWithoutSaving))) {
      $0.quitting = .withoutSaving
      $0.alert = nil
    }
    #expect(attempts.values == [1, 2, 3])
  }

  /// A save held up by another process's lock says so, and tries again every tenth of a
  /// second until the lock is free.
  @Test func aSaveHeldUpByAnotherProcessWaitsSayingSo() async {
    let attempts = Log<Int>()
    let clock = TestClock()
    let store = TestStore(initialState: Self.unsaved) {
      AppFeature(
        client: .fake(), favourites: Self.client(failing: 3, with: Self.busy, attempts: attempts),
        clock: clock)
    }
    await store.send(.saveFavouritesNow)
    // One attempt, nothing more: the app is ending.
    await store.receive(.favouritesSaved(.failure(Self.busy))) {
      $0.favouritesSaveFailure = Self.busy.message
      $0.alert = AlertState(
        title: "Favourites not saved",
        message: Self.busy.message
          + " The app keeps the changes while it runs, and the next one tries again.",
        buttons: [ButtonState("Try again", action: .retrySave), ButtonState(role: .cancel, "Not now")])
    }
    await store.send(.alert(.presented(.retrySave))) { $0.alert = nil }
    await store.receive(.favouritesSaveWaiting) { $0.isWaitingForFavouritesLock = true }
    #expect(AppFeature.ViewState(store.state).status == "Waiting for another DogBreeds to save…")
    await clock.advance(by: .milliseconds(100))
    #expect(attempts.values == [1, 2, 3])
    await clock.advance(by: .milliseconds(100))
    await store.receive(.favouritesSaved(.success(FavouritesLoad(favourites: ["akita", "pug"])))) {
      $0.isWaitingForFavouritesLock = false
      $0.favouritesSaveFailure = nil
      $0.savedFavourites = ["akita", "pug"]
    }
    #expect(AppFeature.ViewState(store.state).status == nil)
  }

  /// After a failed save, the screen marks the changes as not saved until one succeeds.
  @Test func changesNotSavedAreMarkedUntilASaveSucceeds() {
    var state = Self.unsaved
    #expect(AppFeature.ViewState(state).status == nil)
    state.favouritesSaveFailure = Self.readOnly.message
    #expect(
      AppFeature.ViewState(state).status == "Favourites not saved yet: the next change tries again")
    state.savedFavourites = state.favourites
    #expect(AppFeature.ViewState(state).status == nil)
  }

  /// A file that cannot be read is said in full, in an alert, once for the same reason.
  @Test func aFileThatCannotBeReadIsSaidOnce() async {
    let unreadable = FavouritesError(
      "Favourites could not be read from /d/favourites.json: Permission denied.")
    let store = TestStore(initialState: Self.unsaved) {
      AppFeature(client: .fake(), favourites: .failing, clock: TestClock())
    }
    await store.send(.favouritesLoaded(.failure(unreadable))) {
      $0.favouritesNotice = unreadable.message
      $0.alert = AlertState(
        title: "Favourites not read", message: unreadable.message, buttons: [ButtonState(role: .cancel, "OK")]
      )
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.favouritesLoaded(.failure(unreadable)))
  }

  /// At quit, a lock held for over a second ends the wait with the question: Ctrl-C is
  /// answered within a second.
  @Test func atQuitALockHeldForASecondAsks() async {
    let attempts = Log<Int>()
    let clock = TestClock()
    let store = TestStore(initialState: Self.unsaved) {
      AppFeature(client: .fake(), favourites: Self.client(with: Self.busy, attempts: attempts), clock: clock)
    }
    await store.send(.quitRequested) { $0.quitting = .saving }
    await store.receive(.favouritesSaveWaiting) { $0.isWaitingForFavouritesLock = true }
    #expect(AppFeature.ViewState(store.state).status == "Waiting for another DogBreeds to save…")
    await clock.advance(by: .milliseconds(800))
    #expect(attempts.values.count == 9)
    await clock.advance(by: .milliseconds(100))
    await store.receive(.favouritesSaved(.failure(Self.busy))) {
      $0.isWaitingForFavouritesLock = false
      $0.favouritesSaveFailure = Self.busy.message
      $0.quitting = .asking
      $0.alert = AlertState(
        title: "Favourites not saved", message: Self.busy.message + " Quitting now loses starred Pug.",
        buttons: [
          ButtonState("Try again", action: .retrySave),
          ButtonState("Quit without saving", action: .quitWithoutSaving),
        ])
    }
    #expect(attempts.values.count == 10)
  }
}
