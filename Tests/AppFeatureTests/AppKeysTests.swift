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
    breed(.key(key), subBreed: subBreed, highlighted: highlighted)
  }

  func breed(_ event: InputEvent, subBreed: String? = nil, highlighted: String? = nil) -> [KeyResponse] {
    let breed = BreedFeature.State(breed: list.breeds[1], subBreed: subBreed, highlighted: highlighted)
    return commands(event, AppFeature.State(breeds: list, dogsStatus: .loaded, breed: breed))
  }

  /// Each screen's keys reach it through the app, wrapped in its case, with the page's
  /// rows; a screen's keys reach only the screen shown. (Each feature's tests press its
  /// own keys: DogsKeysTests, BreedKeysTests, FavouritesKeysTests.)
  @Test func eachScreensKeysReachItThroughTheApp() {
    #expect(dogs(.character("o"), filter: "h") == [.send(.dogs(.filterChanged("ho")))])
    #expect(dogs(.paste("und dog"), filter: "ho") == [.send(.dogs(.filterChanged("hound dog")))])
    #expect(dogs(.backspace) == [])
    #expect(commands(.pageDown, listed, pageRows: 3) == [.send(.dogs(.highlightMoved(.pageDown(rows: 3))))])
    #expect(
      dogs(.enter, filter: "bass") == [
        .send(.dogs(.subBreedMatchSelected(breed: "hound", subBreed: "basset")))
      ])
    #expect(dogs(.ctrl("r"), status: .loading) == [])
    // Under a breed's screen, the list's keys do nothing: letters do not reach its filter.
    #expect(breed(.character("x")) == [])
    #expect(breed(.ctrl("r")) == [])
    #expect(breed(.paste("pug")) == [])
    #expect(breed(.character("n")) == [.send(.breed(.anotherPictureRequested))])
    #expect(
      breed(.enter, subBreed: "afghan", highlighted: "afghan") == [.send(.breed(.subBreedSelected(nil)))])
    let hound = AppFeature.State(
      breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: list.breeds[1]))
    #expect(commands(.pageUp, hound, pageRows: 5) == [.send(.breed(.highlightMoved(.pageUp(rows: 5))))])
    // Leaving the screen is the app's: it opened it.
    for key in [Key.escape, .left, .backspace, .character("q"), .character("b")] {
      #expect(breed(key) == [.send(.breedScreenDismissed)], "\(key)")
    }
  }

  /// The app gives Shift-← and Shift-→ no meaning of their own, and a terminal's reply is
  /// no key.
  @Test func shiftArrowsAreArrowsAndRepliesDoNothing() {
    #expect(breed(.shiftLeft) == [.send(.breedScreenDismissed)])
    #expect(breed(.shiftRight, highlighted: "afghan") == [.send(.breed(.subBreedSelected("afghan")))])
    var state = listed
    state.notice = "“x” is not in the breed list."
    #expect(commands(.reply(.cursorPosition(row: 1, column: 3)), state) == [])
    #expect(commands(.reply(.terminalAttributes(drawsSixel: false)), state) == [])
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

  /// Once quitting has started, Ctrl-C and Ctrl-D ask again (the reducer ends the app at
  /// once: `QuittingTests`); while the app saves before quitting, no other key but the
  /// terminal's own does anything.
  @Test func aSecondCtrlCAsksAgain() {
    var state = listed
    for quitting in [AppFeature.State.Quitting.saving, .asking] {
      state.quitting = quitting
      #expect(commands(.ctrl("c"), state) == [.send(.quitRequested)])
      #expect(commands(.ctrl("d"), state) == [.send(.quitRequested)])
    }
    state.quitting = .saving
    #expect(commands(.character("a"), state) == [])
    #expect(commands(.down, state) == [])
    #expect(commands(.ctrl("l"), state) == [.redraw])
    #expect(commands(.ctrl("z"), state) == [.suspend])
  }
}
