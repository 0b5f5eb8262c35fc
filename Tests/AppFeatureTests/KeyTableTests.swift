import AppFeature
import BreedFeature
import Core
import DogAPIClient
import DogsFeature
import FavouritesFeature
import Foundation
import Testing
import TextRendering

/// The key table is the one description of the keys: what it names does something where
/// it says, and the overlay, `--help` and Docs/Usage.md are made from it.
struct KeyTableTests {
  /// A state on each place's screen where every key the table names for it has work to do.
  static func state(on place: KeyPlace) -> AppFeature.State? {
    let hound = list.breeds[1]
    switch place {
    case .breedsTab: return AppFeature.State(breeds: list, dogsFilter: "a", dogsStatus: .loaded)
    case .favouritesTab:
      return AppFeature.State(
        breeds: list, dogsStatus: .loaded, tab: .favourites, favourites: ["pug", "akita", "hound"])
    case .breed:
      return AppFeature.State(
        breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: hound, highlighted: "afghan"))
    case .modal:
      return AppFeature.State(
        breeds: list, dogsStatus: .loaded,
        alert: AlertState(
          title: "t", buttons: [ButtonState("a", action: .retrySave), ButtonState(role: .cancel, "b")]))
    case .everywhere: return nil
    }
  }

  @Test(arguments: KeyPlace.allCases)
  func everyKeyTheTableNamesDoesSomethingWhereItSays(place: KeyPlace) throws {
    let states =
      place == .everywhere
      ? [.breedsTab, .favouritesTab, .breed].compactMap(Self.state) : [Self.state(on: place)!]
    // Recording, as Ctrl-T's line says it must be to drop a marker.
    for var state in states {
      state.screen.isRecording = true
      for binding in AppFeature.bindings(of: place) {
        for key in binding.pressed + (binding.takesText ? [.character("a"), .character(" ")] : []) {
          #expect(
            !AppFeature.responses(to: .key(key), in: state, pageRows: 5).isEmpty,
            "\(key) (\(binding.keys): \(binding.does)) does nothing \(place.title.lowercased())")
        }
      }
    }
  }

  /// The checker can fail: a key the bindings ignore is caught.
  @Test func aKeyThatDoesNothingIsCaught() {
    let state = Self.state(on: .breed)!
    #expect(AppFeature.responses(to: .key(.function(9)), in: state, pageRows: 5).isEmpty)
  }

  /// `?` opens the keys of the screen under it and of everywhere; the overlay scrolls
  /// within what it holds and closes with Esc or `?`.
  @Test func questionMarkShowsTheKeysOfTheScreen() {
    var state = Self.state(on: .favouritesTab)!
    #expect(AppFeature.responses(to: .key(.character("?")), in: state, pageRows: 5) == [.send(.helpShown)])
    #expect(AppFeature.responses(to: .key(.function(1)), in: state, pageRows: 5) == [.send(.helpShown)])
    state.help = AppFeature.State.Help()
    let frame = AppView.render(AppFeature.ViewState(state), display: Display(columns: 80, rows: 24))
    let text = frame.text
    #expect(text.contains("Keys on the Favourites tab"), "\(text)")
    #expect(text.contains("un-star the highlighted favourite") && text.contains("paint the screen again"))
    #expect(!text.contains("open the highlighted breed"))
    #expect(frame.lines.last == "↑↓ scroll · Esc close")
    // On a screen that draws ASCII only, so is the overlay.
    let ascii = AppView.render(
      AppFeature.ViewState(state), display: Display(columns: 80, rows: 24, unicode: false)
    ).text
    #expect(ascii.unicodeScalars.allSatisfy(\.isASCII) && ascii.contains("up/down") == false)
    #expect(ascii.contains("^ v PgUp PgDn Home End"), "\(ascii)")
    // At 40×12 it scrolls: the title says which lines show.
    let small = AppView.render(AppFeature.ViewState(state), display: Display(columns: 40, rows: 12))
    let limit = try! #require(small.scrollLimit)
    #expect(limit > 0 && small.text.contains("Keys on the Favourites tab (1–"), "\(small.text)")
    func keys(_ key: Key, scroll: Int = 0) -> [KeyResponse] {
      var scrolled = state
      scrolled.help?.scroll = scroll
      return AppFeature.responses(to: .key(key), in: scrolled, pageRows: 3, scrollLimit: limit)
    }
    #expect(keys(.down) == [.send(.helpScrolled(to: 1))])
    #expect(keys(.up) == [.send(.helpScrolled(to: 0))])
    #expect(keys(.down, scroll: limit) == [.send(.helpScrolled(to: limit))])
    #expect(keys(.pageDown) == [.send(.helpScrolled(to: min(3, limit)))])
    #expect(keys(.end) == [.send(.helpScrolled(to: limit))])
    #expect(keys(.character("x")) == [])
    for close in [Key.escape, .character("?"), .character("q")] {
      #expect(keys(close) == [.send(.helpDismissed)])
    }
    #expect(keys(.ctrl("c")) == [.send(.quitRequested)])
    // Scrolled to the end, the last line shows.
    state.help?.scroll = limit
    let end = AppView.render(AppFeature.ViewState(state), display: Display(columns: 40, rows: 12)).text
    #expect(end.contains("--no-mouse"), "\(end)")
  }

  /// The Breed screen's hint says what f does to the breed shown.
  @Test func theStarHintSaysWhatFDoes() {
    var state = Self.state(on: .breed)!
    #expect(AppFeature.ViewState(state).keyHints.contains("f star"))
    state.favourites = ["hound"]
    #expect(AppFeature.ViewState(state).keyHints.contains("f unstar"))
  }

  /// Docs/Usage.md holds the table as the app has it.
  @Test func theUsageDocumentShowsTheTable() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let usage = try String(contentsOf: root.appendingPathComponent("Docs/Usage.md"), encoding: .utf8)
    #expect(
      usage.contains(AppFeature.keyMarkdown()),
      "Docs/Usage.md's keys differ from AppFeature.keyTable, which reads:\n\(AppFeature.keyMarkdown())")
  }
}

/// The mouse, on a screen as drawn: what a click or the wheel does where.
struct MouseTests {
  func click(_ column: Int, _ row: Int, _ state: AppFeature.State, width: Int = 80, height: Int = 24)
    -> [KeyResponse]
  {
    let frame = AppView.render(AppFeature.ViewState(state), display: Display(columns: width, rows: height))
    return AppFeature.responses(
      to: .mouse(MouseEvent(.press, column: column, row: row)), in: state, pageRows: 5, frame: frame)
  }

  func row(of text: String, _ state: AppFeature.State) -> Int {
    AppView.render(AppFeature.ViewState(state), display: Display(columns: 80, rows: 24)).lines.firstIndex {
      $0.contains(text)
    }!
  }

  @Test func aClickHighlightsARowAndAClickOnTheHighlightedRowOpensIt() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded, dogsHighlighted: "akita")
    #expect(click(5, row(of: "Pug", state), state) == [.send(.dogs(.highlightMoved(.item("pug"))))])
    #expect(click(5, row(of: "Akita", state), state) == [.send(.dogs(.rowSelected("akita")))])
    // Nothing under the click: nothing happens.
    #expect(click(5, 22, state) == [])
    // A notice on screen goes first, as with Enter.
    state.notice = "“x” is not in the breed list."
    #expect(
      click(5, row(of: "Akita", state), state) == [
        .send(.noticeDismissed), .send(.dogs(.rowSelected("akita"))),
      ])
    // On the Favourites tab and a breed, the same.
    let favourites = AppFeature.State(
      breeds: list, dogsStatus: .loaded, tab: .favourites, favouritesTab: .init(highlighted: "akita"),
      favourites: ["akita", "pug"])
    #expect(
      click(5, row(of: "Pug", favourites), favourites) == [.send(.favourites(.highlightMoved(.item("pug"))))])
    #expect(click(5, row(of: "Akita", favourites), favourites) == [.send(.favourites(.rowOpened("akita")))])
    var breed = AppFeature.State(
      breeds: list, dogsStatus: .loaded,
      breed: BreedFeature.State(breed: list.breeds[1], highlighted: "afghan"))
    #expect(click(5, row(of: "Basset", breed), breed) == [.send(.breed(.highlightMoved(.item("basset"))))])
    #expect(click(5, row(of: "Afghan", breed), breed) == [.send(.breed(.subBreedSelected("afghan")))])
    // On the sub-breed shown, back to the breed's own pictures, as with Enter.
    breed.breed?.subBreed = "afghan"
    #expect(click(5, row(of: "Afghan  (shown)", breed), breed) == [.send(.breed(.subBreedSelected(nil)))])
  }

  /// A click names the item the frame drew where it was, not the item's place: by the time
  /// the click is read, the list may have changed (a list arrived, a letter was typed) and
  /// the place be another item's. The item is found in the list as it is then.
  @MainActor @Test func aClickNamesTheItemDrawnThereThoughTheListChangedSince() {
    func clicking(on text: String, drawn: AppFeature.State, read state: AppFeature.State)
      -> (responses: [KeyResponse], after: AppFeature.State)
    {
      let frame = AppView.render(AppFeature.ViewState(drawn), display: Display(columns: 80, rows: 24))
      let row = frame.lines.firstIndex { $0.contains(text) }!
      let responses = AppFeature.responses(
        to: .mouse(MouseEvent(.press, column: 5, row: row)), in: state, pageRows: 5, frame: frame)
      let store = Store(initialState: state) { AppFeature(client: answering) }
      for case .send(let action) in responses { store.send(action) }
      return (responses, store.state)
    }
    let drawn = AppFeature.State(breeds: list, dogsStatus: .loaded, dogsHighlighted: "akita")
    // A list arrived with a breed before them all: Hound's place is Akita's now.
    var arrived = drawn
    arrived.breeds = BreedList(breeds: [Breed(name: "affenpinscher")] + list.breeds, source: .network)
    let hound = clicking(on: "Hound", drawn: drawn, read: arrived)
    #expect(hound.responses == [.send(.dogs(.highlightMoved(.item("hound"))))])
    #expect(hound.after.dogsTab.highlighted == "hound")
    // The highlighted row opens its own breed.
    #expect(clicking(on: "Akita", drawn: drawn, read: arrived).after.breed?.breed.name == "akita")
    // A letter typed leaves Pug alone: Hound is not among the rows, and the highlight stays.
    var typed = drawn
    typed.dogsTab.filter = "pu"
    typed.dogsTab.highlighted = "pug"
    #expect(clicking(on: "Hound", drawn: drawn, read: typed).after.dogsTab.highlighted == "pug")

    // On the Favourites tab: a favourite starred elsewhere sorts first; one un-starred is gone.
    let favourites = AppFeature.State(
      breeds: list, dogsStatus: .loaded, tab: .favourites, favouritesTab: .init(highlighted: "akita"),
      favourites: ["akita", "pug"])
    var starred = favourites
    starred.favourites.insert("affenpinscher")
    let pug = clicking(on: "Pug", drawn: favourites, read: starred)
    #expect(pug.responses == [.send(.favourites(.highlightMoved(.item("pug"))))])
    #expect(pug.after.favouritesTab.highlighted == "pug")
    var unstarred = favourites
    unstarred.favourites.remove("pug")
    #expect(
      clicking(on: "Pug", drawn: favourites, read: unstarred).after.favouritesTab.highlighted == "akita")

    // Read once a breed's screen is open, a click on the list's rows names no sub-breed of it.
    var opened = drawn
    opened.breed = BreedFeature.State(breed: list.breeds[1], highlighted: "afghan")
    let onBreed = clicking(on: "Pug", drawn: drawn, read: opened)
    #expect(onBreed.responses == [.send(.breed(.highlightMoved(.item("pug"))))])
    #expect(onBreed.after.breed?.highlighted == "afghan")
    #expect(clicking(on: "Akita", drawn: drawn, read: opened).responses == [])
  }

  @Test func aClickOnATabShowsIt() {
    let state = AppFeature.State(breeds: list, dogsStatus: .loaded, favourites: ["pug"])
    #expect(
      AppView.render(AppFeature.ViewState(state), display: Display(columns: 80, rows: 24)).lines[0].hasPrefix(
        " Breeds   Favourites (1)"))
    #expect(click(12, 0, state) == [.send(.tabSelected(.favourites))])
    #expect(click(2, 0, state) == [])  // the tab shown
    #expect(click(8, 0, state) == [])  // between the tabs
    #expect(AppView.tab(atColumn: 24, 1) == .favourites && AppView.tab(atColumn: 25, 1) == nil)
  }

  @Test func aClickOnAButtonChoosesItAndElsewhereDoesNothing() {
    let state = AppFeature.State(
      breeds: list, dogsStatus: .loaded,
      alert: AlertState(
        title: "Favourites not saved", message: "x",
        buttons: [
          ButtonState("Try again", action: .retrySave),
          ButtonState("Quit without saving", action: .quitWithoutSaving),
        ]))
    let frame = AppView.render(AppFeature.ViewState(state), display: Display(columns: 80, rows: 24))
    let second = frame.buttons[1]
    #expect(
      click(second.columns.lowerBound + 1, second.row, state) == [
        .send(.alert(.presented(.quitWithoutSaving)))
      ])
    #expect(
      click(frame.buttons[0].columns.lowerBound, frame.buttons[0].row, state) == [
        .send(.alert(.presented(.retrySave)))
      ])
    #expect(click(1, 3, state) == [])
  }

  @Test func theWheelMovesAsThreeArrowsDo() {
    let state = AppFeature.State(breeds: list, dogsStatus: .loaded)
    let down = AppFeature.responses(
      to: .mouse(MouseEvent(.wheelDown, column: 0, row: 5)), in: state, pageRows: 5)
    #expect(down == Array(repeating: .send(.dogs(.highlightMoved(.down))), count: 3))
    var help = state
    help.help = AppFeature.State.Help(scroll: 4)
    #expect(
      AppFeature.responses(to: .mouse(MouseEvent(.wheelUp, column: 0, row: 5)), in: help, pageRows: 5)
        == [.send(.helpScrolled(to: 1))])
  }
}
