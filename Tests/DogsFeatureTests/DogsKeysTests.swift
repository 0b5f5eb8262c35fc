import DogAPIClient
import DogsFeature
import Testing
import TextRendering

/// The Breeds tab's keys, as the Dogs feature declares them: what each sends on the list
/// as it is (the app's tests press them through the app, and the pseudo-terminal tests in
/// DogBreedsCLITests end to end).
struct DogsKeysTests {
  let list = BreedList(
    breeds: [
      Breed(name: "akita"), Breed(name: "hound", subBreeds: ["afghan", "basset"]), Breed(name: "pug"),
    ],
    source: .network)

  func action(
    _ event: InputEvent, filter: String = "", status: DogsFeature.State.Status = .loaded,
    breeds: BreedList? = nil, highlighted: String? = nil, pageRows: Int = 7
  ) -> DogsFeature.Action? {
    let state = DogsFeature.State(
      breeds: breeds ?? list, filter: filter, status: status, highlighted: highlighted)
    return DogsFeature.keyBindings.action(for: event, in: DogsFeature.ViewState(state), pageRows: pageRows)
  }

  func action(
    _ key: Key, filter: String = "", status: DogsFeature.State.Status = .loaded, breeds: BreedList? = nil,
    highlighted: String? = nil, pageRows: Int = 7
  ) -> DogsFeature.Action? {
    action(
      .key(key), filter: filter, status: status, breeds: breeds, highlighted: highlighted, pageRows: pageRows)
  }

  @Test func typingEditsTheFilter() {
    #expect(action(.character("o"), filter: "h") == .filterChanged("ho"))
    #expect(action(.paste("und dog"), filter: "ho") == .filterChanged("hound dog"))
    #expect(action(.backspace, filter: "hou") == .filterChanged("ho"))
    #expect(action(.escape, filter: "hou") == .filterChanged(""))
    #expect(action(.ctrl("u"), filter: "hou") == .filterChanged(""))
    // Ctrl-W, as in a shell: trailing spaces, then the word before them.
    #expect(action(.ctrl("w"), filter: "bull terr  ") == .filterChanged("bull "))
    #expect(action(.ctrl("w"), filter: "bull") == .filterChanged(""))
    // Alt-Backspace too (it deleted everything when it read as Escape, then Backspace).
    #expect(action(.altBackspace, filter: "bull terr  ") == .filterChanged("bull "))
    // Nothing to take away, or nothing pasted: nothing is sent.
    for key in [Key.backspace, .escape, .ctrl("u"), .ctrl("w"), .altBackspace] {
      #expect(action(key) == nil, "\(key)")
    }
    #expect(action(.paste(""), filter: "ho") == nil)
  }

  @Test func backspaceTakesTheLastKeyTypedAndAPictureWhole() {
    func backspace(_ filter: String) -> String? {
      guard case .filterChanged(let text) = action(.backspace, filter: filter) else { return nil }
      return text
    }
    // A syllable typed a letter and a sign at a time loses the sign typed last.
    #expect(backspace("कि") == "क")
    #expect(backspace("क्ष") == "क्")
    #expect(backspace("ab\u{65}\u{301}") == "abe")
    #expect(backspace("กำ") == "ก")
    #expect(backspace("1\u{301}") == "1")  // a digit is an emoji only with its keycap
    // Scalars, not bytes or clusters: a precomposed letter, a Hangul syllable, go whole.
    #expect(backspace("hé") == "h")
    #expect(backspace("개") == "")
    // A picture was typed as one key and goes whole: skin tone, joined family, flag,
    // keycap, emoji presentation selector.
    for picture in ["👍🏽", "👩‍👩‍👧", "🇫🇷", "1️⃣", "❤️", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"] {
      #expect(backspace("pug" + picture) == "pug", "\(picture)")
    }
  }

  @Test func movingOnTheList() {
    #expect(action(.up) == .highlightMoved(.up))
    #expect(action(.ctrl("p")) == .highlightMoved(.up))
    #expect(action(.down) == .highlightMoved(.down))
    #expect(action(.ctrl("n")) == .highlightMoved(.down))
    #expect(action(.home) == .highlightMoved(.first))
    #expect(action(.end) == .highlightMoved(.last))
    #expect(action(.pageUp, pageRows: 7) == .highlightMoved(.pageUp(rows: 7)))
    #expect(action(.pageDown, pageRows: 3) == .highlightMoved(.pageDown(rows: 3)))
    // k and j are letters of the filter here.
    #expect(action(.character("j")) == .filterChanged("j"))
  }

  @Test func enterAndRightOpenTheHighlightedBreedOrTheSubBreedFound() {
    for key in [Key.enter, .right] {
      #expect(action(key, highlighted: "pug") == .rowSelected("pug"))
      // "hou" highlights the breed that starts with it.
      #expect(action(key, filter: "hou") == .rowSelected("hound"))
      // No breed matches "bass", a sub-breed of Hound does.
      #expect(action(key, filter: "bass") == .subBreedMatchSelected(breed: "hound", subBreed: "basset"))
      // No breed or sub-breed matches "puq": it opens the breed it misspells.
      #expect(action(key, filter: "puq") == .rowSelected("pug"))
      #expect(
        action(key, filter: "afgan hound") == .subBreedMatchSelected(breed: "hound", subBreed: "afghan"))
      #expect(action(key, filter: "xyz") == nil)
      // Loading: nothing to open before the list comes; a list being loaded again is shown
      // and works as before.
      #expect(
        DogsFeature.keyBindings.action(for: .key(key), in: .init(.init(status: .loading)), pageRows: 7) == nil
      )
      #expect(action(key, status: .loading) == .rowSelected("akita"))
    }
  }

  @Test func rReloadsOnlyWhereThereIsNoListToFilter() {
    #expect(action(.character("r"), status: .failed(.timedOut(seconds: 10))) == .retryRequested)
    #expect(action(.character("r"), breeds: BreedList(breeds: [], source: .network)) == .retryRequested)
    // On a list, r is a letter of the filter.
    #expect(action(.character("r"), filter: "te") == .filterChanged("ter"))
  }

  @Test func ctrlRLoadsTheListAgainUnlessItIsLoading() {
    #expect(action(.ctrl("r")) == .retryRequested)
    #expect(action(.ctrl("r"), filter: "xyz") == .retryRequested)
    #expect(action(.ctrl("r"), status: .failed(.offline)) == .retryRequested)
    #expect(action(.ctrl("r"), status: .loading) == nil)
    #expect(action(.ctrl("r"), status: .notStarted) == nil)
  }

  @Test func ctrlFStarsAndOtherKeysDoNothing() {
    #expect(action(.ctrl("f")) == .favouriteToggled)
    #expect(action(.function(5)) == nil)
    #expect(action(.tab) == nil)  // the tabs are the app's
  }

  /// Each binding's hint, where the screen offers it, as it reads there.
  @Test func theHintsSayWhatTheKeysDoOnTheListAsItIs() {
    func hints(_ state: DogsFeature.State) -> [String] {
      let view = DogsFeature.ViewState(state)
      return DogsFeature.keyBindings.compactMap { $0.hint?.text(in: view) }
    }
    #expect(
      hints(.init(breeds: list, status: .loaded))
        == ["type to filter", "↑↓ move", "Enter open", "^F star", "Esc clear"])
    #expect(
      hints(.init(breeds: list, filter: "bass", status: .loaded))
        == ["Enter open Basset Hound", "type to filter", "Esc clear"])
    #expect(hints(.init(status: .failed(.timedOut(seconds: 10)))) == ["r retry"])
    #expect(hints(.init(status: .failed(.notFound(message: nil)))) == [])
    #expect(hints(.init(breeds: BreedList(breeds: [], source: .network), status: .loaded)) == ["r reload"])
  }
}
