import Core
import DogAPIClient
import DogsFeature
import Testing
import TextRendering

struct DogsViewTests {
  func screen(_ state: DogsFeature.State, _ width: Int, _ height: Int) -> String {
    DogsView.render(DogsFeature.ViewState(state), width: width, height: height).text
  }

  @Test func loadedAt80x24() {
    #expect(
      screen(.init(breeds: sample, status: .loaded, highlighted: "hound"), 80, 24) == """
        Dogs
        🔍 Filter breeds
        ────────────────────────────────────────────────────────────────────────────────
          Affenpinscher
          African (1)
        ▶ Hound (2)
          Husky
          Pug
        """)
  }

  /// Docs/Usage.md's example of using DogsFeature alone, step for step, and what it says it prints.
  @Test @MainActor func theReadmeExamplePrintsWhatTheReadmeSays() async {
    let store = Store(initialState: DogsFeature.State()) { DogsFeature(client: .fake()) }
    await store.send(.appeared).finish()
    store.send(.filterChanged("hou"))
    let lines = DogsView.render(DogsFeature.ViewState(store.state), width: 40, height: 8).lines
    #expect(
      lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) } == [
        "Dogs", "🔍 hou", String(repeating: "─", count: 40), "  Elkhound (1)",
        "  Greyhound (2)                        ┃", "▶ Hound (7)                            ┃",
        "  Otterhound", "Showing the built-in breed list.",
      ])
  }

  @Test func loadingShowsASpinnerAndNothingElse() {
    #expect(screen(.init(status: .loading), 80, 24) == "Dogs\n⠋ Loading breeds…")
    #expect(screen(.init(filter: "  ", status: .loading), 80, 24) == "Dogs\n⠋ Loading breeds…")
  }

  @Test func loadingSaysWhatWasTypedMeanwhile() {
    // Keys typed while the list loads are kept and applied when it arrives.
    #expect(
      screen(.init(filter: "hou", status: .loading), 80, 24)
        == "Dogs\n⠋ Loading breeds… Then filtering by “hou”.")
    // A pasted screenful takes at most a line, cut inside the quotes; on a narrow screen
    // the sentence wraps.
    let pasted = String(repeating: "terrier\n", count: 20)
    #expect(
      screen(.init(filter: pasted, status: .loading), 30, 24) == """
        Dogs
        ⠋ Loading breeds… Then
        filtering by
        “terrier␊terrier␊terrier␊te…”.
        """)
  }

  @Test func noMatchAt40x12() {
    #expect(
      screen(.init(breeds: sample, filter: "xyz", status: .loaded), 40, 12) == """
        Dogs
        🔍 xyz
        ────────────────────────────────────────
        No breeds match “xyz”
        """)
  }

  @Test func noMatchThatIsASubBreedSaysWhereItIs() {
    #expect(
      screen(.init(breeds: sample, filter: "afgh", status: .loaded), 40, 12) == """
        Dogs
        🔍 afgh
        ────────────────────────────────────────
        No breeds match “afgh”
        Found as a sub-breed: Afghan Hound
        (under Hound).
        """)
  }

  @Test func noMatchThatMisspellsABreedAsksIfItWasMeant() {
    #expect(
      screen(.init(breeds: sample, filter: "hsuky", status: .loaded), 40, 12) == """
        Dogs
        🔍 hsuky
        ────────────────────────────────────────
        No breeds match “hsuky”
        Did you mean Husky?
        """)
    let close = BreedList(breeds: ["bark", "bard", "bar"].map { Breed(name: $0) }, source: .network)
    #expect(
      screen(.init(breeds: close, filter: "barx", status: .loaded), 40, 12).hasSuffix(
        "Did you mean Bar, Bard or Bark?"))
  }

  @Test func aHugeQueryThatMatchesNothingIsShownOnOneLine() {
    let query = "hound" + String(repeating: "x", count: 3_000)
    #expect(
      screen(.init(breeds: sample, filter: query, status: .loaded), 40, 12).split(separator: "\n").last
        == "No breeds match “houndxxxxxxxxxxxxxxxx…”")  // 40 columns
  }

  @Test func failureAt40x12SaysWhatAndHowToRetry() {
    #expect(
      screen(.init(status: .failed(.unreachable(host: "dog.ceo"))), 40, 12) == """
        Dogs
        Couldn't load the breeds. Can't reach
        dog.ceo: you may be offline.
        Press r to try again.
        """)
  }

  @Test func aFailureThatRetryingCannotMendDoesNotOfferIt() {
    #expect(
      screen(.init(status: .failed(.offline)), 40, 12) == """
        Dogs
        Couldn't load the breeds. Working
        offline: nothing is fetched from the
        network.
        """)
  }

  @Test func aLongListScrollsAt40x12WithTheFallbackNoteWrappedInFull() {
    let list = BreedList(
      breeds: DogAPIClient.bundledBreedList.breeds, source: .bundled,
      fallbackReason: .unreachable(host: "dog.ceo"))
    #expect(
      screen(.init(breeds: list, filter: "", status: .loaded, highlighted: "hound"), 40, 12) == """
        Dogs
        🔍 Filter breeds
        ────────────────────────────────────────
          Greyhound (2)
          Groenendael
          Havanese                             ┃
        ▶ Hound (7)
          Husky
          Keeshond
          Kelpie
        Can't reach dog.ceo: you may be offline.
        Showing the built-in breed list.
        """)
  }

  @Test func onAShortScreenTheListKeepsItsRowsAndTheNoteIsCut() {
    let list = BreedList(
      breeds: DogAPIClient.bundledBreedList.breeds, source: .bundled,
      fallbackReason: .unreachable(host: "dog.ceo"))
    let state = DogsFeature.State(breeds: list, filter: "terr", status: .loaded)
    // The whole list unfiltered: it keeps three rows, the note gets the one left.
    #expect(
      screen(.init(breeds: list, status: .loaded), 24, 7) == """
        Dogs
        🔍 Filter breeds
        ────────────────────────
        ▶ Affenpinscher        ┃
          African (1)
          Airedale
        Can't reach dog.ceo: yo…
        """)
    #expect(
      screen(state, 24, 7) == """
        Dogs
        🔍 terr
        ────────────────────────
        ▶ Bull Terrier (1)
          Terrier (25)
        Can't reach dog.ceo: you
        may be offline. Showing…
        """)
    // With no row to spare the list shows what fits and the note keeps one row.
    #expect(screen(state, 24, 5).split(separator: "\n").last == "Can't reach dog.ceo: yo…")
    #expect(screen(state, 24, 5).contains("▶ Bull Terrier (1)"))
    // With room for one row only, the row has it: it is what Enter opens.
    #expect(
      screen(state, 24, 4) == """
        Dogs
        🔍 terr
        ────────────────────────
        ▶ Bull Terrier (1)     ┃
        """)
  }

  @Test func theNoteIsOnTheLastRowWhateverTheBodyShows() throws {
    let list = BreedList(
      breeds: sample.breeds, source: .bundled, fallbackReason: .unreachable(host: "dog.ceo"))
    let noMatch = DogsFeature.ViewState(.init(breeds: list, filter: "xyz", status: .loaded))
    let note = try #require(noMatch.note)
    // The others as a view state built by hand (the converter gives them no note).
    var others: [DogsFeature.ViewState] = []
    for content in [DogsFeature.ViewState.Content.loading, .empty, .failed(message: "Oops.", canRetry: true)]
    {
      var view = noMatch
      view.content = content
      others.append(view)
    }
    for view in [noMatch] + others {
      let frame = DogsView.render(view, width: 80, height: 12)
      #expect(frame.lines[11] == note, "\(view.content)")
    }
  }

  /// While the list shown is loaded again (`r`, Ctrl-R), it stays, and its last row says
  /// so in place of the note on where it came from.
  @Test func loadingTheListAgainSaysSoOnTheLastRow() {
    let list = BreedList(
      breeds: sample.breeds, source: .bundled, fallbackReason: .unreachable(host: "dog.ceo"))
    let lines = DogsView.render(
      DogsFeature.ViewState(.init(breeds: list, status: .loading)), width: 60, height: 12
    ).lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
    #expect(lines[3] == "▶ Affenpinscher")
    #expect(lines[11] == "⠋ Loading the breed list again…")
  }

  @Test func emptyAt40x12() {
    #expect(
      screen(.init(breeds: BreedList(breeds: [], source: .network), status: .loaded), 40, 12)
        == "Dogs\nNo breeds\nPress r to load the list again.")
  }
}
