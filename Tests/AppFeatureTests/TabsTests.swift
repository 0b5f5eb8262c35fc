import AppFeature
import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import DogsFeature
import FavouritesFeature
import ImageDecoding
import Testing
import TextRendering

/// The two tabs, Breeds and Favourites: switching, each keeping its own highlight, the
/// Breed screen over either, the Favourites tab's keys, screens and dialog.
@MainActor
struct TabsTests {
  @Test func eachTabKeepsItsHighlightAndTheBreedScreenGoesBackToItsTab() async {
    let store = TestStore(
      initialState: AppFeature.State(
        breeds: list, dogsStatus: .loaded, dogsHighlighted: "pug", favourites: ["akita", "hound/basset"])
    ) {
      AppFeature(client: answering, now: { now })
    }
    // The tab, shown, lays out its rows by itself: in the order people read them, Akita,
    // then Basset Hound.
    await store.send(.tabSelected(.favourites)) { $0.tab = .favourites }
    await store.receive(.favourites(.appeared)) {
      $0.favouritesTab.highlighted = "akita"
      $0.favouritesTab.rows = [FavouriteRow.State(id: "akita"), FavouriteRow.State(id: "hound/basset")]
    }
    await store.send(.favourites(.highlightMoved(.down))) { $0.favouritesTab.highlighted = "hound/basset" }
    await store.send(.tabSelected(.breeds)) { $0.tab = .breeds }
    #expect(AppFeature.ViewState(store.state).dogs.content == DogsFeature.ViewState(store.state.dogs).content)
    await store.send(.tabSelected(.favourites)) { $0.tab = .favourites }
    await store.receive(.favourites(.appeared))
    #expect(store.state.dogsTab.highlighted == "pug")
    // Enter on a sub-breed opens its breed's screen on it; leaving goes back to the tab,
    // which lays out its rows again.
    await store.send(.favourites(.highlightedRowOpened))
    await store.receive(.favourites(.delegate(.open(breed: "hound", subBreed: "basset")))) {
      $0.breed = BreedFeature.State(breed: list.breeds[1], subBreed: "basset", highlighted: "basset")
    }
    await store.receiveOpening("hound", "basset")
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await store.receive(.favourites(.appeared))
    #expect(store.state.tab == .favourites && store.state.favouritesTab.highlighted == "hound/basset")
  }

  @Test func aFavouriteNoLongerInTheListIsSaidSo() async {
    let store = TestStore(
      initialState: AppFeature.State(
        breeds: list, dogsStatus: .loaded, tab: .favourites, favourites: ["corgi"])
    ) {
      AppFeature(client: .failing)
    }
    await store.send(.favourites(.highlightedRowOpened))
    await store.receive(.favourites(.delegate(.open(breed: "corgi", subBreed: nil)))) {
      $0.notice = "“corgi” is not in the breed list."
    }
  }

  /// The Favourites tab's projection keeps the laws the other screens' do.
  @Test(arguments: [Set<String>(), ["pug"], ["hound", "hound/afghan"]])
  func theFavouritesTabsProjectionKeepsTheLaws(favourites: Set<String>) {
    var state = AppFeature.State(favouritesTab: FavouritesFeature.State(highlighted: "x"), favourites: ["x"])
    let before = state
    state.favouritesScreen = state.favouritesScreen
    #expect(state == before)
    let screen = FavouritesFeature.State(
      favourites: favourites, rows: [FavouriteRow.State(id: "pug")], highlighted: "pug")
    state.favouritesScreen = screen
    #expect(state.favouritesScreen == screen)
    #expect(state.favourites == favourites)
    #expect(state.favouritesTab.favourites == [], "the tab's copy is the app's, not kept twice")
    #expect(state.dogs.favourites == favourites)
  }

  @Test func tabKeysAndTheFavouritesTabsKeys() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, favourites: ["pug"])
    func commands(_ key: Key) -> [KeyResponse] { AppFeature.responses(to: .key(key), in: state, pageRows: 5) }
    #expect(commands(.tab) == [.send(.tabSelected(.favourites))])
    #expect(commands(.backTab) == [.send(.tabSelected(.favourites))])
    #expect(commands(.character("x")) == [.send(.dogs(.filterChanged("x")))], "letters type on the list")
    state.tab = .favourites
    #expect(commands(.tab) == [.send(.tabSelected(.breeds))])
    #expect(commands(.down) == [.send(.favourites(.highlightMoved(.down)))])
    #expect(commands(.pageDown) == [.send(.favourites(.highlightMoved(.pageDown(rows: 5))))])
    #expect(commands(.enter) == [.send(.favourites(.highlightedRowOpened))])
    #expect(commands(.character("f")) == [.send(.favourites(.favouriteToggled))])
    #expect(commands(.ctrl("f")) == [.send(.favourites(.favouriteToggled))])
    #expect(commands(.character("x")) == [.send(.favourites(.clearAllRequested))])
    // Over the dialog, keys are the dialog's; Enter keeps the favourites unless moved.
    state.favouritesTab.confirmationDialog = ConfirmationDialogState(
      title: "Clear all favourites?",
      buttons: [
        ButtonState(role: .destructive, "Clear all", action: .clearAll), ButtonState(role: .cancel, "Keep"),
      ])
    state.favouritesTab.dialogFocus = 1
    #expect(commands(.enter) == [.send(.favourites(.confirmationDialog(.dismiss)))])
    #expect(commands(.escape) == [.send(.favourites(.confirmationDialog(.dismiss)))])
    #expect(commands(.tab) == [.send(.favourites(.dialogFocusMoved(1)))])
    #expect(commands(.down) == [.send(.favourites(.dialogFocusMoved(1)))])
    state.favouritesTab.dialogFocus = 0
    #expect(commands(.enter) == [.send(.favourites(.confirmationDialog(.presented(.clearAll))))])
    // On a Breed screen, Tab is not the tabs'.
    state.favouritesTab.confirmationDialog = nil
    state.breed = BreedFeature.State(breed: list.breeds[2])
    #expect(commands(.tab) == [])
  }

  // MARK: Screens

  func screen(
    _ state: AppFeature.State, _ width: Int, _ height: Int, unicode: Bool = true, pictures: PictureMode
  )
    -> String
  {
    AppView.render(
      AppFeature.ViewState(state),
      display: Display(columns: width, rows: height, unicode: unicode, pictureMode: pictures)
    )
    .text
  }

  @Test func theEmptyTabSaysHowToAddOne() {
    let state = AppFeature.State(breeds: list, dogsStatus: .loaded, tab: .favourites)
    #expect(
      screen(state, 40, 12, pictures: .none) == """
         Breeds   Favourites
        ────────────────────────────────────────
        No favourites yet.
        Star a breed with ^F on the Breeds tab,
        or with f on its own screen.






        Tab breeds · ? keys · ^C quit
        """)
  }

  @Test func withoutPicturesEachFavouriteIsOneRow() {
    let state = AppFeature.State(
      breeds: list, dogsStatus: .loaded, tab: .favourites,
      favouritesTab: FavouritesFeature.State(highlighted: "hound/afghan"),
      favourites: ["pug", "hound/afghan"])
    #expect(
      screen(state, 40, 12, pictures: .none)
        == """
         Breeds   Favourites (2)
        ────────────────────────────────────────
        ▶ Afghan Hound ★
          Pug ★







        Enter open · f unstar · ? keys · ^C quit
        """)
  }

  /// With pictures, each row is a thumbnail a few rows tall with the name beside it; a row
  /// still loading says so; in ASCII the thumbnail is the ASCII ramp.
  @Test(arguments: [(80, 24, true), (40, 12, true), (80, 24, false), (40, 12, false)])
  func withPicturesEachRowHasAThumbnail(width: Int, height: Int, unicode: Bool) {
    // In symbols a flat cell is a space on its colour: a checkerboard gives each cell a shape.
    var checks: [UInt8] = []
    for index in 0..<1200 {
      let light = (index % 40 + index / 40) % 2 == 0
      checks += light ? [250, 250, 250] : [20, 20, 20]
    }
    let picture =
      unicode
      ? RGBImage(width: 40, height: 30, pixels: checks)
      : RGBImage(width: 4, height: 3, pixels: [UInt8](repeating: 200, count: 36))
    var tab = FavouritesFeature.State(rows: [
      FavouriteRow.State(id: "akita", thumbnail: .loaded(picture)),
      FavouriteRow.State(id: "pug", thumbnail: .loading),
    ])
    tab.highlighted = "akita"
    let state = AppFeature.State(
      breeds: list, dogsStatus: .loaded, tab: .favourites, favouritesTab: tab, favourites: ["akita", "pug"])
    let mode: PictureMode = unicode ? .blocks : .ascii
    let lines = screen(state, width, height, unicode: unicode, pictures: mode).split(
      separator: "\n", omittingEmptySubsequences: false)
    let rowHeight = FavouritesView.rowHeight(height: height - 3, pictureMode: mode)
    #expect(rowHeight == (height == 24 ? 4 : 3))
    let columns = rowHeight * 3
    // The thumbnail fills its box's rows at the left; the name is beside its first row.
    for row in 2..<(2 + rowHeight) {
      #expect(lines[row].prefix(columns).contains { $0 != " " }, "\(lines.joined(separator: "\n"))")
    }
    #expect(lines[2].dropFirst(columns + 1).hasPrefix(unicode ? "▶ Akita ★" : "> Akita *"))
    #expect(lines[2 + rowHeight].dropFirst(columns + 1).hasPrefix(unicode ? "  Pug ★" : "  Pug *"))
    #expect(
      lines[3 + rowHeight].dropFirst(columns + 1).hasPrefix(
        unicode ? "  Loading a picture…" : "  Loading a picture..."))
    #expect(lines[2 + rowHeight].prefix(columns).allSatisfy { $0 == " " }, "no thumbnail yet")
    if !unicode { #expect(lines.allSatisfy { $0.allSatisfy(\.isASCII) }) }
  }

  /// The dialog before clearing all: a box over the tab, at both sizes, in Unicode and
  /// ASCII, and with colour off nothing but attributes.
  @Test(arguments: [(80, 24, true), (80, 24, false), (40, 12, true), (40, 12, false)])
  func theClearAllDialogIsABoxOverTheTab(width: Int, height: Int, unicode: Bool) {
    var tab = FavouritesFeature.State()
    tab.confirmationDialog = ConfirmationDialogState(
      title: "Clear all favourites?", message: "This un-stars all 2 favourites.",
      buttons: [
        ButtonState(role: .destructive, "Clear all", action: .clearAll), ButtonState(role: .cancel, "Keep"),
      ])
    tab.dialogFocus = 1
    let state = AppFeature.State(
      breeds: list, dogsStatus: .loaded, tab: .favourites, favouritesTab: tab, favourites: ["akita", "pug"])
    let frame = AppView.render(
      AppFeature.ViewState(state),
      display: Display(columns: width, rows: height, unicode: unicode, pictureMode: .none))
    let lines = frame.lines
    let top = try! #require(lines.firstIndex { $0.contains(unicode ? "┌" : "+--") })
    let box = lines[top...].prefix { !$0.isEmpty }
    #expect(box.contains { $0.contains("Clear all favourites?") })
    #expect(box.contains { $0.contains("This un-stars all 2 favourites.") })
    #expect(box.contains { $0.contains("  Clear all  ") && $0.contains("> Keep <") })
    #expect(
      lines.last
        == (width >= 45 ? "Tab next button · Enter choose · Esc cancel" : "Enter choose · Esc cancel")
        .replacingOccurrences(of: "·", with: unicode ? "·" : "|"))
    let row = box.firstIndex { $0.contains("> Keep <") }!
    let column = lines[row].distance(
      from: lines[row].startIndex, to: lines[row].range(of: "> Keep <")!.lowerBound)
    #expect(frame[column, row].style.reverse)
    // Without colour, the focus still shows (reverse video) and no colour is written.
    let bytes = String(decoding: ScreenDiffer.update(from: nil, to: frame, colorMode: .none), as: UTF8.self)
    let attributes = Self.graphicRenditions(in: bytes)
    #expect(attributes.contains(7), "reverse video")
    #expect(attributes.allSatisfy { !(30...49).contains($0) && !(90...107).contains($0) }, "no colour")
    if !unicode { #expect(lines.allSatisfy { $0.allSatisfy(\.isASCII) }) }
  }

  /// Every parameter of every Select Graphic Rendition sequence (`ESC [ … m`) in `text`.
  static func graphicRenditions(in text: String) -> [Int] {
    var parameters: [Int] = []
    var rest = Substring(text)
    while let start = rest.range(of: "\u{1B}[") {
      rest = rest[start.upperBound...]
      let body = rest.prefix { $0.isNumber || $0 == ";" }
      rest = rest.dropFirst(body.count)
      if rest.first == "m" { parameters += body.split(separator: ";").compactMap { Int($0) } }
    }
    return parameters
  }
}
