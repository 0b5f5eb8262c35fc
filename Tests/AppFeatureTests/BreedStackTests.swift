import AppFeature
import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import FavouritesFeature
import Foundation
import Synchronization
import TestSupport
import Testing
import TextRendering

/// The Breed screens as a stack: a breed opened from a tab, its sub-breed pushed over it,
/// back one screen at a time to the tab, the highlight where it was.
@MainActor
struct BreedStackTests {
  let hound = list.breeds[1]

  @Test func aSubBreedIsPushedOverItsBreedAndEachBackGoesOneScreen() async {
    let store = TestStore(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: answering, now: { now })
    }
    await store.send(.dogs(.rowSelected("hound"))) { $0.dogsTab.highlighted = "hound" }
    await store.receive(.dogs(.delegate(.breedSelected("hound")))) {
      $0.path = [BreedFeature.State(breed: hound)]
    }
    await store.receiveOpening("hound")
    await store.send(.breed(.highlightMoved(.last))) { $0.path[id: 0]?.highlighted = "basset" }
    // Enter on the sub-breed: its screen over the breed's, which stays as it was.
    await store.send(.breed(.subBreedSelected("basset"))) {
      $0.path.push(BreedFeature.State(breed: hound, subBreed: "basset", highlighted: "basset"))
    }
    await store.receiveOpening("hound", "basset", id: 1)
    #expect(store.state.path.ids == [0, 1])
    #expect(AppFeature.ViewState(store.state).breed?.header == "Hound › Basset")
    // Back: the breed's screen, its picture kept (not asked for again), its highlight kept.
    await store.send(.breedScreenDismissed) { $0.path.popLast() }
    await store.receive(.path(.element(id: 0, action: .appeared)))
    #expect(store.state.breed?.imageURL == .loaded(pictureURL("hound")))
    #expect(store.state.breed?.highlighted == "basset")
    #expect(AppFeature.ViewState(store.state).breed?.header == "Hound")
    // Back again: the list, its highlight where it was.
    await store.send(.breedScreenDismissed) { $0.path.popLast() }
    #expect(store.state.path.isEmpty && store.state.keyPlace == .breedsTab)
    #expect(store.state.dogsTab.highlighted == "hound")
  }

  /// The same from the Favourites tab, with the stack's own actions, as a recorded
  /// session holds them.
  @Test func fromTheFavouritesTabABreedAndASubBreedStackTheSameWay() async {
    let store = TestStore(
      initialState: AppFeature.State(
        breeds: list, dogsStatus: .loaded, tab: .favourites, favourites: ["hound", "pug"])
    ) {
      AppFeature(client: answering, now: { now })
    }
    store.exhaustivity = .off
    await store.send(.favourites(.appeared))
    await store.send(.favourites(.highlightedRowOpened))
    await store.receive(.favourites(.delegate(.open(breed: "hound", subBreed: nil))))
    await store.finish()
    store.exhaustivity = .on
    await store.send(.path(.element(id: 0, action: .subBreedSelected("afghan")))) {
      $0.path.push(BreedFeature.State(breed: hound, subBreed: "afghan", highlighted: "afghan"))
    }
    await store.receiveOpening("hound", "afghan", id: 1)
    await store.send(.path(.popFrom(id: 1))) { $0.path.popLast() }
    await store.receive(.path(.element(id: 0, action: .appeared)))
    await store.send(.path(.popFrom(id: 0))) { $0.path.popLast() }
    // The tab shows again: it lays out its rows, the highlight where it was.
    await store.receive(.favourites(.appeared))
    #expect(store.state.keyPlace == .favouritesTab && store.state.favouritesTab.highlighted == "hound")
  }

  /// On a sub-breed's screen, another sub-breed takes its place (back still goes to the
  /// breed), and the breed itself is the screen under it.
  @Test func onASubBreedsScreenAnotherSubBreedTakesItsPlace() async {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: hound))
    state.path.push(BreedFeature.State(breed: hound, subBreed: "afghan", highlighted: "afghan"))
    let store = TestStore(initialState: state) { AppFeature(client: answering, now: { now }) }
    await store.send(.breed(.subBreedSelected("basset"))) {
      $0.path.popLast()
      $0.path.push(BreedFeature.State(breed: hound, subBreed: "basset", highlighted: "basset"))
    }
    #expect(store.state.path.ids == [0, 2])
    await store.receiveOpening("hound", "basset", id: 2)
    // Enter on the sub-breed shown: back to the breed's screen.
    await store.send(.breed(.subBreedSelected(nil))) { $0.path.popLast() }
    await store.receive(.path(.element(id: 0, action: .appeared))) { $0.path[id: 0]?.imageURL = .loading }
    await store.receive(
      .path(.element(id: 0, action: .imageURLResponse(.success(pictureURL("hound")), at: now)))
    ) {
      $0.path[id: 0]?.imageURL = .loaded(pictureURL("hound"))
    }
    // A sub-breed opened straight from a tab has no breed's screen under it: one takes its place.
    await store.send(.breedScreenDismissed) { $0.path.popLast() }
    await store.send(.dogs(.subBreedMatchSelected(breed: "hound", subBreed: "afghan")))
    await store.receive(.dogs(.delegate(.subBreedSelected(breed: "hound", subBreed: "afghan")))) {
      $0.path.push(BreedFeature.State(breed: hound, subBreed: "afghan", highlighted: "afghan"))
    }
    await store.receiveOpening("hound", "afghan", id: 3)
    await store.send(.breed(.subBreedSelected(nil))) {
      $0.path.popLast()
      $0.path.push(BreedFeature.State(breed: hound, highlighted: "afghan"))
    }
    await store.receiveOpening("hound", id: 4)
  }

  /// Popping a sub-breed's screen while its picture loads cancels the load: the test ends
  /// without it, and its answer never comes.
  @Test func poppingAScreenCancelsItsPictureLoad() async {
    let cancelled = Mutex(false)
    var client = answering
    client.randomImage = { (breed, subBreed) async throws(DogAPIError) -> URL in
      guard subBreed != nil else { return pictureURL(breed) }
      do {
        try await Task.sleep(for: .seconds(3600))
      } catch {
        cancelled.withLock { $0 = true }
        throw .cancelled
      }
      return pictureURL(breed, subBreed)
    }
    let store = TestStore(
      initialState: AppFeature.State(
        breeds: list, dogsStatus: .loaded,
        breed: BreedFeature.State(breed: hound, imageURL: .loaded(pictureURL("hound"))))
    ) {
      AppFeature(client: client, now: { now })
    }
    await store.send(.breed(.subBreedSelected("afghan"))) {
      $0.path.push(BreedFeature.State(breed: hound, subBreed: "afghan", highlighted: "afghan"))
    }
    await store.receive(.path(.element(id: 1, action: .appeared))) { $0.path[id: 1]?.imageURL = .loading }
    await store.send(.breedScreenDismissed) { $0.path.popLast() }
    await store.receive(.path(.element(id: 0, action: .appeared)))
    await store.finish()
    #expect(cancelled.withLock { $0 })
  }

  /// The header says where the user is; in ASCII where the terminal shows no more.
  @Test func theHeaderShowsWhereTheUserIs() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: hound))
    state.path.push(BreedFeature.State(breed: hound, subBreed: "afghan", highlighted: "afghan"))
    let display = Display(columns: 40, rows: 16, pictureMode: .none)
    #expect(AppView.render(AppFeature.ViewState(state), display: display).lines[0] == "Hound › Afghan")
    var ascii = display
    ascii.unicode = false
    #expect(AppView.render(AppFeature.ViewState(state), display: ascii).lines[0] == "Hound > Afghan")
    state.favourites = ["hound/afghan"]
    #expect(AppView.render(AppFeature.ViewState(state), display: display).lines[0] == "Hound › Afghan ★")
    state.path.popLast()
    #expect(AppView.render(AppFeature.ViewState(state), display: display).lines[0] == "Hound")
  }

  /// The keys overlay lists the top screen's keys, Esc as going back one screen; the
  /// footer offers going back.
  @Test func theKeysFollowTheTopScreen() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: hound))
    state.path.push(BreedFeature.State(breed: hound, subBreed: "afghan", highlighted: "afghan"))
    #expect(
      AppFeature.responses(to: .key(.escape), in: state, pageRows: 5) == [.send(.breedScreenDismissed)])
    #expect(
      AppFeature.responses(to: .key(.enter), in: state, pageRows: 5) == [
        .send(.breed(.subBreedSelected(nil)))
      ])
    #expect(AppFeature.addressed(.breedScreenDismissed, in: state) == .path(.popFrom(id: 1)))
    #expect(
      AppFeature.addressed(.breed(.favouriteToggled), in: state)
        == .path(.element(id: 1, action: .favouriteToggled)))
    state.help = AppFeature.State.Help()
    let rows = AppFeature.ViewState(state).modal?.rows ?? []
    #expect(rows.contains { $0.name.hasPrefix("Esc") && $0.text.hasPrefix("back one screen") })
    state.help = nil
    #expect(AppFeature.ViewState(state).keyHints.contains("Esc back"))
  }

  /// The mouse reaches the top screen: a click on a row is the top screen's, a click on
  /// the header goes back one screen.
  @Test func theMouseFollowsTheTopScreen() throws {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: hound))
    state.path.push(BreedFeature.State(breed: hound, subBreed: "afghan", highlighted: "afghan"))
    let frame = AppView.render(AppFeature.ViewState(state), display: Display(columns: 80, rows: 24))
    func click(_ row: Int) -> [KeyResponse] {
      AppFeature.responses(
        to: .mouse(MouseEvent(.press, column: 5, row: row)), in: state, pageRows: 5, frame: frame)
    }
    #expect(click(0) == [.send(.breedScreenDismissed)])
    let basset = try #require(frame.lines.firstIndex { $0.contains("Basset") })
    #expect(click(basset) == [.send(.breed(.highlightMoved(.item("basset"))))])
    let afghan = try #require(frame.lines.firstIndex { $0.contains("Afghan  (shown)") })
    #expect(click(afghan) == [.send(.breed(.subBreedSelected(nil)))])
  }
}
