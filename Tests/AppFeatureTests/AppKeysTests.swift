import AppFeature
import BreedFeature
import DogAPIClient
import DogsFeature
import Foundation
import Testing
import TextRendering

/// Every key binding of the full-screen app, without a terminal (the pseudo-terminal tests
/// in DogBreedsCLITests press a few of them end to end).
struct AppKeysTests {
  let listed = AppFeature.State(breeds: list, dogsStatus: .loaded)

  func commands(_ key: Key, _ state: AppFeature.State, pageRows: Int = 7) -> [KeyResponse] {
    commands(.key(key), state, pageRows: pageRows)
  }

  func commands(_ event: InputEvent, _ state: AppFeature.State, pageRows: Int = 7) -> [KeyResponse] {
    AppFeature.responses(to: event, in: state, pageRows: pageRows)
  }

  func dogs(_ key: Key, filter: String = "", status: DogsFeature.State.Status = .loaded) -> [KeyResponse] {
    dogs(.key(key), filter: filter, status: status)
  }

  func dogs(_ event: InputEvent, filter: String = "", status: DogsFeature.State.Status = .loaded)
    -> [KeyResponse]
  {
    commands(event, AppFeature.State(breeds: list, dogsFilter: filter, dogsStatus: status))
  }

  func breed(_ key: Key, subBreed: String? = nil, highlighted: String? = nil) -> [KeyResponse] {
    let breed = BreedFeature.State(breed: list.breeds[1], subBreed: subBreed, highlighted: highlighted)
    return commands(key, AppFeature.State(breeds: list, dogsStatus: .loaded, breed: breed))
  }

  @Test func typingEditsTheFilterOnTheList() {
    #expect(dogs(.character("o"), filter: "h") == [.send(.dogs(.filterChanged("ho")))])
    #expect(dogs(.paste("und dog"), filter: "ho") == [.send(.dogs(.filterChanged("hound dog")))])
    #expect(dogs(.backspace, filter: "hou") == [.send(.dogs(.filterChanged("ho")))])
    #expect(dogs(.escape, filter: "hou") == [.send(.dogs(.filterChanged("")))])
    #expect(dogs(.ctrl("u"), filter: "hou") == [.send(.dogs(.filterChanged("")))])
    // Ctrl-W, as in a shell: trailing spaces, then the word before them.
    #expect(dogs(.ctrl("w"), filter: "bull terr  ") == [.send(.dogs(.filterChanged("bull ")))])
    #expect(dogs(.ctrl("w"), filter: "bull") == [.send(.dogs(.filterChanged("")))])
    // Alt-Backspace too (it deleted everything when it read as Escape, then Backspace).
    #expect(dogs(.altBackspace, filter: "bull terr  ") == [.send(.dogs(.filterChanged("bull ")))])
    // Nothing to take away: nothing is sent.
    for key in [Key.backspace, .escape, .ctrl("u"), .ctrl("w"), .altBackspace] {
      #expect(dogs(key) == [], "\(key)")
    }
  }

  @Test func backspaceTakesTheLastKeyTypedAndAPictureWhole() {
    func backspace(_ filter: String) -> String? {
      guard case .send(.dogs(.filterChanged(let text))) = dogs(.backspace, filter: filter).first else {
        return nil
      }
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
    #expect(dogs(.up) == [.send(.dogs(.highlightMoved(.up)))])
    #expect(dogs(.ctrl("p")) == [.send(.dogs(.highlightMoved(.up)))])
    #expect(dogs(.down) == [.send(.dogs(.highlightMoved(.down)))])
    #expect(dogs(.ctrl("n")) == [.send(.dogs(.highlightMoved(.down)))])
    #expect(dogs(.home) == [.send(.dogs(.highlightMoved(.first)))])
    #expect(dogs(.end) == [.send(.dogs(.highlightMoved(.last)))])
    #expect(commands(.pageUp, listed, pageRows: 7) == [.send(.dogs(.highlightMoved(.pageUp(rows: 7))))])
    #expect(commands(.pageDown, listed, pageRows: 3) == [.send(.dogs(.highlightMoved(.pageDown(rows: 3))))])
  }

  @Test func enterAndRightOpenTheHighlightedBreedOrTheSubBreedFound() {
    let highlighted = AppFeature.State(breeds: list, dogsStatus: .loaded, dogsHighlighted: "pug")
    for key in [Key.enter, .right] {
      #expect(commands(key, highlighted) == [.send(.dogs(.rowSelected("pug")))])
      // "hou" highlights the breed that starts with it.
      #expect(dogs(key, filter: "hou") == [.send(.dogs(.rowSelected("hound")))])
      // No breed matches "bass", a sub-breed of Hound does.
      #expect(
        dogs(key, filter: "bass") == [
          .send(.dogs(.subBreedMatchSelected(breed: "hound", subBreed: "basset")))
        ])
      // No breed or sub-breed matches "puq": it opens the breed it misspells.
      #expect(dogs(key, filter: "puq") == [.send(.dogs(.rowSelected("pug")))])
      #expect(
        dogs(key, filter: "afgan hound") == [
          .send(.dogs(.subBreedMatchSelected(breed: "hound", subBreed: "afghan")))
        ])
      #expect(dogs(key, filter: "xyz") == [])
      // Loading: nothing to open before the list comes; a list being loaded again is shown
      // and works as before.
      #expect(commands(key, AppFeature.State(dogsStatus: .loading)) == [])
      #expect(dogs(key, status: .loading) == [.send(.dogs(.rowSelected("akita")))])
    }
  }

  @Test func rReloadsOnlyWhereThereIsNoListToFilter() {
    #expect(
      dogs(.character("r"), status: .failed(.timedOut(seconds: 10))) == [.send(.dogs(.retryRequested))])
    let empty = AppFeature.State(breeds: BreedList(breeds: [], source: .network), dogsStatus: .loaded)
    #expect(commands(.character("r"), empty) == [.send(.dogs(.retryRequested))])
    // On a list, r is a letter of the filter.
    #expect(dogs(.character("r"), filter: "te") == [.send(.dogs(.filterChanged("ter")))])
  }

  @Test func ctrlRLoadsTheListAgainUnlessItIsLoading() {
    #expect(dogs(.ctrl("r")) == [.send(.dogs(.retryRequested))])
    #expect(dogs(.ctrl("r"), filter: "xyz") == [.send(.dogs(.retryRequested))])
    #expect(dogs(.ctrl("r"), status: .failed(.offline)) == [.send(.dogs(.retryRequested))])
    #expect(dogs(.ctrl("r"), status: .loading) == [])
    #expect(dogs(.ctrl("r"), status: .notStarted) == [])
    // Not on a breed's screen (r asks for its picture again there).
    #expect(breed(.ctrl("r")) == [])
  }

  @Test func onABreedKeysGoBackMoveAndAskAgain() {
    for key in [Key.escape, .left, .backspace, .character("q"), .character("b")] {
      #expect(breed(key) == [.send(.breedScreenDismissed)], "\(key)")
    }
    for key in [Key.character("n"), .character(" ")] {
      #expect(breed(key) == [.send(.breed(.anotherPictureRequested))], "\(key)")
    }
    #expect(breed(.character("r")) == [.send(.breed(.retryRequested))])
    #expect(breed(.up) == [.send(.breed(.highlightMoved(.up)))])
    #expect(breed(.character("k")) == [.send(.breed(.highlightMoved(.up)))])
    #expect(breed(.down) == [.send(.breed(.highlightMoved(.down)))])
    #expect(breed(.character("j")) == [.send(.breed(.highlightMoved(.down)))])
    #expect(breed(.home) == [.send(.breed(.highlightMoved(.first)))])
    #expect(breed(.end) == [.send(.breed(.highlightMoved(.last)))])
    let hound = AppFeature.State(
      breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: list.breeds[1]))
    #expect(commands(.pageUp, hound, pageRows: 5) == [.send(.breed(.highlightMoved(.pageUp(rows: 5))))])
    #expect(commands(.pageDown, hound, pageRows: 2) == [.send(.breed(.highlightMoved(.pageDown(rows: 2))))])
    // Letters do not reach the list's filter underneath.
    #expect(breed(.character("x")) == [])
  }

  @Test func enterOnABreedShowsTheHighlightedSubBreedOrGoesBackToTheBreed() {
    for key in [Key.enter, .right] {
      #expect(breed(key, highlighted: "afghan") == [.send(.breed(.subBreedSelected("afghan")))])
      #expect(
        breed(key, subBreed: "basset", highlighted: "afghan") == [.send(.breed(.subBreedSelected("afghan")))])
      // On the sub-breed already shown: back to the breed's own pictures.
      #expect(
        breed(key, subBreed: "afghan", highlighted: "afghan") == [.send(.breed(.subBreedSelected(nil)))])
      #expect(breed(key) == [])
    }
  }

  @Test func controlKeysWorkOnEveryScreen() {
    for state in [
      listed, AppFeature.State(breeds: list, dogsStatus: .loaded, breed: .init(breed: list.breeds[0])),
    ] {
      #expect(commands(.ctrl("c"), state) == [.send(.quitRequested)])
      #expect(commands(.ctrl("d"), state) == [.send(.quitRequested)])
      #expect(commands(.ctrl("z"), state) == [.suspend])
      #expect(commands(.ctrl("l"), state) == [.redraw])
      #expect(commands(.function(5), state) == [])
    }
  }

  @Test func anyKeyButCtrlCDismissesTheNoticeFirst() {
    var state = listed
    state.notice = "“x” is not in the breed list."
    #expect(commands(.character("a"), state) == [.send(.noticeDismissed), .send(.dogs(.filterChanged("a")))])
    #expect(commands(.function(5), state) == [.send(.noticeDismissed)])
    #expect(commands(.ctrl("l"), state) == [.send(.noticeDismissed), .redraw])
    #expect(commands(.ctrl("c"), state) == [.send(.quitRequested)])
  }

  /// Once quitting has started, Ctrl-C and Ctrl-D end the app at once; while the app saves
  /// before quitting, no other key but the terminal's own does anything.
  @Test func aSecondCtrlCEndsTheAppAtOnce() {
    var state = listed
    for quitting in [AppFeature.State.Quitting.saving, .asking] {
      state.quitting = quitting
      #expect(commands(.ctrl("c"), state) == [.quit])
      #expect(commands(.ctrl("d"), state) == [.quit])
    }
    state.quitting = .saving
    #expect(commands(.character("a"), state) == [])
    #expect(commands(.down, state) == [])
    #expect(commands(.ctrl("l"), state) == [.redraw])
    #expect(commands(.ctrl("z"), state) == [.suspend])
  }
}
