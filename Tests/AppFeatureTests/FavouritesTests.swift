import AppFeature
import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import DogsFeature
import FavouritesClient
import FavouritesFeature
import Foundation
import TestSupport
import Testing
import TextRendering

/// Favourites: owned by the app once, shared by both screens through projections, loaded
/// and saved through the favourites client.
@MainActor
struct FavouritesTests {
  @Test func aStarOnTheListShowsOnTheBreedScreenAndTheOtherWayRound() async {
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: answering, now: { now })
    }
    await store.send(.dogs(.highlightMoved(.down))) { $0.dogsTab.highlighted = "hound" }
    await store.send(.dogs(.favouriteToggled)) { $0.favourites = ["hound"] }
    await store.send(.dogs(.rowSelected("hound")))
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.breed = BreedFeature.State(breed: list.breeds[1])
    }
    await store.receiveOpening("hound")
    #expect(store.state.breedScreen?.favourites == ["hound"])
    #expect(AppFeature.ViewState(store.state).breed?.isFavourite == true)
    // With a sub-breed's picture shown, the star is the sub-breed's.
    await store.send(.breed(.highlightMoved(.first))) { $0.breed?.highlighted = "afghan" }
    store.exhaustivity = .off
    await store.send(.breed(.subBreedSelected("afghan")))
    await store.finish()  // the picture's effects, which this test is not about
    store.exhaustivity = .on
    await store.send(.breed(.favouriteToggled)) { $0.favourites = ["hound", "hound/afghan"] }
    await store.send(.breed(.favouriteToggled)) { $0.favourites = ["hound"] }
    // Back from the sub-breed, then from the breed: the stars are the app's all along.
    await store.send(.breedScreenDismissed) { $0.path.popLast() }
    await store.receive(.path(.element(id: 0, action: .appeared)))
    #expect(AppFeature.ViewState(store.state).breed?.isFavourite == true)
    await store.send(.breedScreenDismissed) { $0.path.popLast() }
    await store.send(.dogs(.favouriteToggled)) { $0.favourites = [] }
  }

  @Test func theRowsAndTheTitleAreStarred() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, favourites: ["pug", "hound/basset"])
    let rows = AppView.render(AppFeature.ViewState(state), display: Display(columns: 40, rows: 10)).lines
    #expect(rows.contains { $0.hasPrefix("  Pug ★") })
    #expect(rows.contains { $0.contains("Akita") && !$0.contains("★") })
    let ascii = AppView.render(
      AppFeature.ViewState(state), display: Display(columns: 40, rows: 10, unicode: false)
    ).lines
    #expect(ascii.contains { $0.hasPrefix("  Pug *") })
    state.breed = BreedFeature.State(breed: list.breeds[1])
    let breed = AppView.render(
      AppFeature.ViewState(state), display: Display(columns: 40, rows: 16, pictureMode: .none)
    ).lines
    #expect(breed[0] == "Hound")
    #expect(breed.contains { $0.contains("Basset ★") })
    state.favourites.insert("hound")
    #expect(
      AppView.render(AppFeature.ViewState(state), display: Display(columns: 40, rows: 16)).lines[0]
        == "Hound ★")
  }

  /// The Breed screens' projection keeps the laws the list's does, whichever screen of the
  /// stack changes the favourites.
  @Test(arguments: [Set<String>(), ["pug"], ["hound", "hound/afghan"]])
  func theBreedScreensProjectionKeepsTheLaws(favourites: Set<String>) {
    var state = AppFeature.State(
      breeds: list, breed: BreedFeature.State(breed: list.breeds[1]), favourites: ["x"])
    state.path.push(BreedFeature.State(breed: list.breeds[1], subBreed: "afghan"))
    let before = state
    state.breedScreens = state.breedScreens
    #expect(state == before)
    var screens = state.breedScreens
    for index in screens.indices { screens[index].favourites = favourites }
    state.breedScreens = screens
    #expect(state.breedScreens == screens)
    #expect(state.favourites == favourites)
    #expect(
      state.path.allSatisfy { $0.favourites.isEmpty }, "the screens' copies are the app's, not kept twice")
    #expect(state.path.ids == [0, 1])
    #expect(state.dogs.favourites == favourites)
    // Only the top screen changed them (as an action does): they are its.
    screens = state.breedScreens
    screens[1].favourites = ["akita"]
    state.breedScreens = screens
    #expect(state.favourites == ["akita"])
    state.breedScreens.popLast()
    #expect(state.path.count == 1 && state.favourites == ["akita"])
  }

  /// Loaded when the app starts; a burst of changes is one save, a second after the last.
  @Test func favouritesLoadAtStartAndABurstIsSavedOnce() async {
    let clock = TestClock()
    let saves = Log<String>()
    let client = FavouritesClient(
      load: { FavouritesLoad(favourites: ["akita"]) },
      save: { change in
        saves.append("+\(change.added.sorted()) -\(change.removed.sorted()) =\(change.known.sorted())")
        return FavouritesLoad(
          favourites: Set(["akita", "pug"]).union(change.added).subtracting(change.removed))
      })
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: .fake(), favourites: client, clock: clock)
    }
    store.exhaustivity = .off
    await store.send(.appeared)
    await store.receive(AppFeature.Action.favouritesLoaded) {
      $0.favourites = ["akita"]
      $0.savedFavourites = ["akita"]
    }
    await store.send(.dogs(.highlightMoved(.last))) { $0.dogsTab.highlighted = "pug" }
    await store.send(.dogs(.favouriteToggled)) { $0.favourites = ["akita", "pug"] }
    await clock.advance(by: .milliseconds(500))
    await store.send(.dogs(.favouriteToggled)) { $0.favourites = ["akita"] }
    await store.send(.dogs(.highlightMoved(.first))) { $0.dogsTab.highlighted = "akita" }
    await store.send(.dogs(.favouriteToggled)) { $0.favourites = [] }
    await clock.advance(by: .milliseconds(999))
    #expect(saves.values == [])
    await clock.advance(by: .milliseconds(1))
    await store.receive(AppFeature.Action.favouritesSaved) {
      // What another process saved meanwhile (pug) comes in with the merge.
      $0.favourites = ["pug"]
      $0.savedFavourites = ["pug"]
    }
    #expect(saves.values == ["+[] -[\"akita\"] =[]"])
    await store.finish()
  }

  /// A load never undoes a change not saved yet; quitting saves at once.
  @Test func aLoadKeepsUnsavedChangesAndQuittingSavesAtOnce() async {
    let saved = FavouritesClient.inMemory(["akita"])
    let store = TestStore(
      initialState: AppFeature.State(
        breeds: list, dogsStatus: .loaded, dogsHighlighted: "pug", favourites: ["akita"],
        savedFavourites: ["akita"])
    ) { AppFeature(client: .fake(), favourites: saved, clock: TestClock()) }
    await store.send(.dogs(.favouriteToggled)) { $0.favourites = ["akita", "pug"] }
    _ = try? await saved.save(FavouritesChange(added: ["boxer"], removed: ["akita"]))  // another process
    await store.send(.favouritesChangedElsewhere)
    await store.receive(.favouritesLoaded(.success(FavouritesLoad(favourites: ["boxer"])))) {
      $0.favourites = ["boxer", "pug"]
      $0.savedFavourites = ["boxer"]
    }
    await store.send(.saveFavouritesNow)
    await store.receive(.favouritesSaved(.success(FavouritesLoad(favourites: ["boxer", "pug"])))) {
      $0.savedFavourites = ["boxer", "pug"]
    }
    #expect(try! await saved.load().favourites == ["boxer", "pug"])
    await store.finish()
  }

  /// A save that fails puts up an alert offering to try again; trying again saves, and
  /// Esc (the cancel button) closes it.
  @Test func favouritesThatCannotBeSavedAskToTryAgain() async {
    let attempts = Log<Set<String>>()
    let client = FavouritesClient(
      load: { FavouritesLoad(favourites: []) },
      save: { change throws(FavouritesError) in
        attempts.append(change.added)
        if attempts.values.count == 1 { throw FavouritesError("Favourites could not be saved in /ro.") }
        return FavouritesLoad(favourites: change.added)
      })
    let store = TestStore(
      initialState: AppFeature.State(breeds: list, dogsStatus: .loaded, dogsHighlighted: "pug")
    ) { AppFeature(client: .fake(), favourites: client, clock: ImmediateClock()) }
    await store.send(.dogs(.favouriteToggled)) { $0.favourites = ["pug"] }
    await store.receive(.favouritesSaved(.failure(FavouritesError("Favourites could not be saved in /ro."))))
    {
      $0.alert = Self.saveAlert
      $0.favouritesSaveFailure = "Favourites could not be saved in /ro."
    }
    await store.send(.alertFocusMoved(1)) { $0.alertFocus = 1 }
    await store.send(.alertFocusMoved(1)) { $0.alertFocus = 0 }
    await store.send(.alertFocusMoved(-1)) { $0.alertFocus = 1 }
    await store.send(.alert(.presented(.retrySave))) {
      $0.alert = nil
    }
    await store.receive(.favouritesSaved(.success(FavouritesLoad(favourites: ["pug"])))) {
      $0.savedFavourites = ["pug"]
      $0.favouritesSaveFailure = nil
    }
    #expect(attempts.values == [["pug"], ["pug"]])
  }

  static let saveAlert = AlertState<AppFeature.Action.Alert>(
    title: "Favourites not saved",
    message:
      "Favourites could not be saved in /ro. The app keeps the changes while it runs, and the next one tries again.",
    buttons: [ButtonState("Try again", action: .retrySave), ButtonState(role: .cancel, "Not now")])

  @Test func overAnAlertKeysAreTheAlerts() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, alert: Self.saveAlert)
    func commands(_ key: Key) -> [KeyResponse] { AppFeature.responses(to: .key(key), in: state, pageRows: 5) }
    #expect(commands(.tab) == [.send(.alertFocusMoved(1))])
    #expect(commands(.backTab) == [.send(.alertFocusMoved(-1))])
    #expect(commands(.enter) == [.send(.alert(.presented(.retrySave)))])
    #expect(commands(.escape) == [.send(.alert(.dismiss))])
    #expect(commands(.character("x")) == [])
    #expect(commands(.ctrl("c")) == [.send(.quitRequested)])
    state.alertFocus = 1
    #expect(commands(.enter) == [.send(.alert(.dismiss))])
  }

  /// An alert with one button offers no button to move to.
  @Test func aOneButtonAlertOffersNoOtherButton() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, alert: Self.saveAlert)
    #expect(AppFeature.ViewState(state).keyHints == "Tab next button · Enter choose · Esc cancel")
    state.alert = AlertState(
      title: "Favourites file damaged", message: "…", buttons: [ButtonState(role: .cancel, "OK")])
    #expect(AppFeature.ViewState(state).keyHints == "Enter choose · Esc cancel")
  }

  /// The alert drawn as a modal box over the list, at both sizes, in Unicode and ASCII.
  @Test(arguments: [(80, 24, true), (80, 24, false), (40, 12, true), (40, 12, false)])
  func theAlertIsABoxOverTheScreen(width: Int, height: Int, unicode: Bool) {
    let state = AppFeature.State(breeds: list, dogsStatus: .loaded, alert: Self.saveAlert)
    let frame = AppView.render(
      AppFeature.ViewState(state), display: Display(columns: width, rows: height, unicode: unicode))
    let lines = frame.lines
    let top = try! #require(lines.firstIndex { $0.contains(unicode ? "┌" : "+--") })
    let box = lines[top...].prefix { !$0.isEmpty }
    let corner = unicode ? "┌" : "+"
    let left = lines[top].distance(
      from: lines[top].startIndex, to: lines[top].firstIndex(of: Character(corner))!)
    #expect(box.contains { $0.contains("Favourites not saved") })
    #expect(box.contains { $0.contains("> Try again <") && $0.contains("Not now") })
    let hints = width >= 45 ? "Tab next button · Enter choose · Esc cancel" : "Enter choose · Esc cancel"
    #expect(lines.last == hints.replacingOccurrences(of: "·", with: unicode ? "·" : "|"))
    // Centred, whole, and the focused button in reverse video, which shows without colour.
    let boxWidth = lines[top].dropFirst(left).prefix { $0 != " " }.count
    #expect(left == (width - boxWidth) / 2, "\(lines.joined(separator: "\n"))")
    #expect(box.allSatisfy { $0.count >= left + boxWidth }, "the box is whole on every row")
    let row = box.firstIndex { $0.contains("> Try again <") }!
    let column = lines[row].distance(
      from: lines[row].startIndex, to: lines[row].range(of: "> Try again <")!.lowerBound)
    #expect(frame[column, row].style.reverse)
    #expect(!lines.joined().contains(unicode ? "+--" : "┌"))
  }

  /// A file damaged while the app runs: the app keeps what it shows (the read says nothing
  /// of what was saved), says so in an alert that stays until dismissed (once per notice),
  /// and its next save writes all it shows, not just the change.
  @Test func aDamagedFileKeepsWhatTheAppShowsAndIsToldInAnAlertThatStays() async {
    let notice = "Your favourites file /data/favourites.json could not be read. It is kept, not overwritten."
    let kept = "Your favourites file could not be read. It was kept as /data/favourites.json.damaged-x."
    let saves = Log<FavouritesChange>()
    let client = FavouritesClient(
      load: { FavouritesLoad(favourites: [], notice: notice, isDamaged: true) },
      save: { change in
        saves.append(change)
        return FavouritesLoad(favourites: change.known, notice: kept)
      })
    let store = TestStore(
      initialState: AppFeature.State(
        breeds: list, dogsStatus: .loaded, favourites: ["hound", "pug"], savedFavourites: ["hound", "pug"])
    ) {
      AppFeature(client: .failing, favourites: client, clock: ImmediateClock())
    }
    let alert = AlertState<AppFeature.Action.Alert>(
      title: "Favourites file damaged", message: notice, buttons: [ButtonState(role: .cancel, "OK")])
    await store.send(.favouritesChangedElsewhere)
    await store.receive(
      .favouritesLoaded(.success(FavouritesLoad(favourites: [], notice: notice, isDamaged: true)))
    ) {
      $0.alert = alert
      $0.favouritesNotice = notice
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    // Read again, the same damaged file does not put the same alert up again.
    await store.send(.favouritesChangedElsewhere)
    await store.receive(
      .favouritesLoaded(.success(FavouritesLoad(favourites: [], notice: notice, isDamaged: true))))
    await store.send(.dogs(.highlightMoved(.first))) { $0.dogsTab.highlighted = "akita" }
    await store.send(.dogs(.favouriteToggled)) { $0.favourites = ["akita", "hound", "pug"] }
    await store.receive(
      .favouritesSaved(.success(FavouritesLoad(favourites: ["akita", "hound", "pug"], notice: kept)))
    ) {
      $0.savedFavourites = ["akita", "hound", "pug"]
      $0.alert = AlertState(
        title: "Favourites file damaged", message: kept, buttons: [ButtonState(role: .cancel, "OK")])
      $0.favouritesNotice = kept
    }
    #expect(saves.values == [FavouritesChange(added: ["akita"], known: ["akita", "hound", "pug"])])
  }

  /// Another process's save is read again when the app hears of it.
  @Test func aChangeMadeElsewhereIsReadAgain() async {
    let saved = FavouritesClient.inMemory(["akita"])
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: .failing, favourites: saved, clock: ImmediateClock())
    }
    _ = try? await saved.save(FavouritesChange(added: ["beagle"]))
    await store.send(.favouritesChangedElsewhere)
    await store.receive(.favouritesLoaded(.success(FavouritesLoad(favourites: ["akita", "beagle"])))) {
      $0.favourites = ["akita", "beagle"]
      $0.savedFavourites = ["akita", "beagle"]
    }
  }

  @Test func ctrlFStarsOnTheListAndFOnABreed() {
    let onList = AppFeature.State(breeds: list, dogsStatus: .loaded)
    #expect(
      AppFeature.responses(to: .key(.ctrl("f")), in: onList, pageRows: 5) == [.send(.dogs(.favouriteToggled))]
    )
    #expect(
      AppFeature.responses(to: .key(.character("f")), in: onList, pageRows: 5) == [
        .send(.dogs(.filterChanged("f")))
      ])
    var onBreed = onList
    onBreed.breed = BreedFeature.State(breed: list.breeds[1])
    #expect(
      AppFeature.responses(to: .key(.character("f")), in: onBreed, pageRows: 5) == [
        .send(.breed(.favouriteToggled))
      ])
  }
}

/// Thumbnails that failed come back by themselves once the network answers again.
@MainActor
struct ThumbnailRecoveryTests {
  static func state(breed: BreedFeature.State?) -> AppFeature.State {
    AppFeature.State(
      breeds: list, dogsStatus: .loaded,
      favouritesTab: FavouritesFeature.State(rows: [
        FavouriteRow.State(id: "pug", thumbnail: .failed("No picture"))
      ]),
      breed: breed, favourites: ["pug"], savedFavourites: ["pug"])
  }

  @Test func aBreedsPictureAddressArrivingRetriesTheFailedThumbnails() async {
    let store = TestStore(initialState: Self.state(breed: BreedFeature.State(breed: list.breeds[1]))) {
      AppFeature(client: .fake(), pictureSize: { (8, 8) })
    }
    store.exhaustivity = .off
    await store.send(
      .breed(.imageURLResponse(.success(URL(string: "https://images.dog.ceo/breeds/hound/x.jpg")!), at: now)))
    await store.receive(.favourites(.failedThumbnailsRetried))
    #expect(store.state.favouritesTab.rows[id: "pug"]?.thumbnail != .failed("No picture"))
  }

  @Test func aListFromTheNetworkRetriesThemAndOneStandingInForItDoesNot() async {
    var cached = list
    cached.source = .bundled
    let store = TestStore(initialState: Self.state(breed: nil)) {
      AppFeature(client: .fake(), pictureSize: { (8, 8) })
    }
    store.exhaustivity = .off
    await store.send(.dogs(.breedsResponse(.success(cached), at: now)))
    #expect(store.state.favouritesTab.rows[id: "pug"]?.thumbnail == .failed("No picture"))
    await store.send(.dogs(.breedsResponse(.success(list), at: now)))
    await store.receive(.favourites(.failedThumbnailsRetried))
  }
}
