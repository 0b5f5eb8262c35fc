import AppFeature
import BreedFeature
import DogAPIClient
import DogsFeature
import Foundation
import ImageDecoding
import Testing
import TextRendering

struct AppViewTests {
  func screen(_ state: AppFeature.State, _ width: Int = 60, _ height: Int = 10) -> String {
    AppView.render(AppFeature.ViewState(state), display: Display(columns: width, rows: height)).text
  }

  @Test func theListWithKeyHints() {
    #expect(
      screen(AppFeature.State(breeds: list, dogsStatus: .loaded, dogsHighlighted: "hound")) == """
         Breeds   Favourites
        🔍 Filter breeds
        ────────────────────────────────────────────────────────────
          Akita
        ▶ Hound (2)
          Pug



        type to filter · Enter open · ^F star · ? keys · ^C quit
        """)
  }

  @Test func enterOnANoMatchOpensTheFirstSubBreedFound() {
    func hints(_ filter: String) -> String {
      AppFeature.ViewState(AppFeature.State(breeds: list, dogsFilter: filter, dogsStatus: .loaded)).keyHints
    }
    #expect(
      hints("bass")
        == "Enter open Basset Hound · type to filter · Tab favourites · Esc clear · ? keys · ^C quit")
    #expect(hints("xyz") == "type to filter · Tab favourites · Esc clear · ? keys · ^C quit")
    #expect(
      hints("akiat") == "Enter open Akita · type to filter · Tab favourites · Esc clear · ? keys · ^C quit")
    #expect(
      hints("basett")
        == "Enter open Basset Hound · type to filter · Tab favourites · Esc clear · ? keys · ^C quit")
    let empty = AppFeature.State(breeds: BreedList(breeds: [], source: .network), dogsStatus: .loaded)
    #expect(AppFeature.ViewState(empty).keyHints == "r reload · ? keys · ^C quit")
  }

  @Test func reloadIsOfferedOverAListThatIsNotFresh() {
    var bundled = list
    bundled.source = .bundled
    bundled.fallbackReason = .timedOut(seconds: 2)
    func hints(_ breeds: BreedList, _ filter: String = "", _ status: DogsFeature.State.Status = .loaded)
      -> String
    {
      AppFeature.ViewState(AppFeature.State(breeds: breeds, dogsFilter: filter, dogsStatus: status)).keyHints
    }
    #expect(
      hints(bundled)
        == "type to filter · ↑↓ move · Enter open · Tab favourites · ^F star · Esc clear · ^R reload · ? keys · ^C quit"
    )
    #expect(
      hints(bundled, "xyz") == "type to filter · Tab favourites · Esc clear · ^R reload · ? keys · ^C quit")
    #expect(
      hints(list)
        == "type to filter · ↑↓ move · Enter open · Tab favourites · ^F star · Esc clear · ? keys · ^C quit")
    // Not where asking again cannot help: working offline, or the built-in list served on
    // purpose (the fake API).
    for reason in [DogAPIError.offline, nil] {
      bundled.fallbackReason = reason
      #expect(
        hints(bundled)
          == "type to filter · ↑↓ move · Enter open · Tab favourites · ^F star · Esc clear · ? keys · ^C quit"
      )
    }
    bundled.fallbackReason = .timedOut(seconds: 2)
    // Not while it is being loaded again: the key does nothing then.
    #expect(
      hints(bundled, "", .loading)
        == "type to filter · ↑↓ move · Enter open · Tab favourites · ^F star · Esc clear · ? keys · ^C quit")
    #expect(
      screen(AppFeature.State(breeds: bundled, dogsStatus: .loading), 60, 8) == """
         Breeds   Favourites
        🔍 Filter breeds
        ────────────────────────────────────────────────────────────
        ▶ Akita
          Hound (2)
          Pug
        ⠋ Loading the breed list again…
        type to filter · Enter open · ^F star · ? keys · ^C quit
        """)
  }

  @Test func retryIsOfferedOnlyWhereRetryingMayHelp() {
    func hints(_ error: DogAPIError) -> (dogs: String, breed: String) {
      let dogs = AppFeature.ViewState(AppFeature.State(dogsStatus: .failed(error))).keyHints
      let breed = AppFeature.ViewState(
        AppFeature.State(
          breeds: list, dogsStatus: .loaded,
          breed: BreedFeature.State(breed: list.breeds[0], imageURL: .failed(error)))
      ).keyHints
      return (dogs, breed)
    }
    #expect(hints(.timedOut(seconds: 10)).dogs == "r retry · ? keys · ^C quit")
    #expect(
      hints(.timedOut(seconds: 10)).breed
        == "n another picture · r retry · f star · Esc back · ? keys · ^C quit")
    #expect(hints(.notFound(message: nil)).dogs == "? keys · ^C quit")
    #expect(hints(.notFound(message: nil)).breed == "f star · Esc back · ? keys · ^C quit")
    #expect(hints(.offline).dogs == "? keys · ^C quit")
    #expect(hints(.offline).breed == "f star · Esc back · ? keys · ^C quit")
  }

  @Test func theBreedScreenReplacesTheList() {
    let state = AppFeature.State(
      breeds: list, dogsStatus: .loaded,
      breed: BreedFeature.State(
        breed: list.breeds[1], imageURL: .loaded(URL(string: "https://images.dog.ceo/x.jpg")!)))
    #expect(
      screen(state) == """
        Hound
        ────────────────────────────────────────────────────────────
        Picture of Hound: https://images.dog.ceo/x.jpg

        Sub-breeds
          Afghan
          Basset


        n another picture · Esc back · ? keys · ^C quit
        """)
  }

  @Test func theBreedScreenKnowsTheWidthItIsGiven() {
    // The address does not fit beside its label in 60 columns: it shows alone, whole.
    let url = "https://images.dog.ceo/breeds/hound/n02089867_1003.jpg"
    let state = AppFeature.State(
      breeds: list, dogsStatus: .loaded,
      breed: BreedFeature.State(breed: list.breeds[1], imageURL: .loaded(URL(string: url)!)))
    #expect(screen(state).split(separator: "\n")[2] == url)
  }

  @Test func aNoticeShowsAboveTheHints() {
    let text = screen(
      AppFeature.State(breeds: list, dogsStatus: .loaded, notice: "“x” is not in the breed list."), 60, 6)
    #expect(
      text.hasSuffix(
        "“x” is not in the breed list.\ntype to filter · Enter open · ^F star · ? keys · ^C quit"))
  }

  /// A notice takes its row from the screen above it: what is left shows what a screen one
  /// row shorter shows without the notice (the same list rows, the offline note cut the same).
  @Test func aNoticeTakesOneRowFromTheScreenAboveIt() {
    let offline = BreedList(
      breeds: DogAPIClient.bundledBreedList.breeds, source: .bundled,
      fallbackReason: .unreachable(host: "dog.ceo"))
    for (filter, highlighted) in [("", "hound"), ("terr", nil), ("", nil)] {
      for height in 6...14 {
        var state = AppFeature.State(
          breeds: offline, dogsFilter: filter, dogsStatus: .loaded, dogsHighlighted: highlighted)
        let without = AppView.render(
          AppFeature.ViewState(state), display: Display(columns: 24, rows: height - 1)
        ).lines
        state.notice = "“x” is not in the breed list."
        let with = AppView.render(AppFeature.ViewState(state), display: Display(columns: 24, rows: height))
          .lines
        #expect(with.prefix(height - 2) == without.prefix(height - 2), "filter “\(filter)”, \(height) rows")
      }
    }
  }

  @Test func theHintsStayOnTheLastRowWhateverTheBreedScreenShows() {
    let url = URL(string: "https://images.dog.ceo/x.jpg")!
    let picture = RGBImage(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 4 * 4 * 3))
    let screens: [BreedFeature.State] = [
      BreedFeature.State(breed: list.breeds[0], imageURL: .loading),
      BreedFeature.State(breed: list.breeds[0], imageURL: .loaded(url)),
      BreedFeature.State(breed: list.breeds[0], imageURL: .loaded(url), picture: .loaded(picture)),
      BreedFeature.State(breed: list.breeds[0], imageURL: .failed(.timedOut(seconds: 10))),
      BreedFeature.State(breed: list.breeds[1], imageURL: .loading),
      BreedFeature.State(breed: list.breeds[1], imageURL: .loaded(url), picture: .loaded(picture)),
    ]
    for breed in screens {
      let frame = AppView.render(
        AppFeature.ViewState(AppFeature.State(breeds: list, dogsStatus: .loaded, breed: breed)),
        display: Display(columns: 60, rows: 14))
      let hints = frame.lines[13]
      #expect(
        hints.contains("Esc back · ") && hints.hasSuffix("^C quit"), "\(breed.imageURL), \(breed.picture)")
    }
  }

  /// The app's spinner timer redraws only while ``AppView/showsSpinner(_:)`` says so: it
  /// must say so exactly when the spinner's frame changes the screen.
  @Test func showsSpinnerIsTrueExactlyWhenTheSpinnerIsOnScreen() {
    let url = URL(string: "https://images.dog.ceo/x.jpg")!
    let picture = RGBImage(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 4 * 4 * 3))
    let hound = list.breeds[1]
    let states: [AppFeature.State] = [
      AppFeature.State(),
      AppFeature.State(dogsStatus: .loading),
      AppFeature.State(breeds: list, dogsStatus: .loaded),
      AppFeature.State(breeds: list, dogsStatus: .loading),
      AppFeature.State(dogsStatus: .failed(.timedOut(seconds: 10))),
      AppFeature.State(breeds: list, dogsStatus: .loaded, breed: .init(breed: hound, imageURL: .loading)),
      AppFeature.State(
        breeds: list, dogsStatus: .loaded,
        breed: .init(breed: hound, imageURL: .loaded(url), picture: .loading)),
      AppFeature.State(
        breeds: list, dogsStatus: .loaded,
        breed: .init(breed: hound, imageURL: .loaded(url), picture: .loaded(picture))),
      AppFeature.State(
        breeds: list, dogsStatus: .loaded,
        breed: .init(
          breed: hound, imageURL: .loaded(url), picture: .failed(.download(.timedOut(seconds: 10))))),
      AppFeature.State(breeds: list, dogsStatus: .loaded, breed: .init(breed: hound, imageURL: .loaded(url))),
      AppFeature.State(
        breeds: list, dogsStatus: .loaded,
        breed: .init(breed: hound, imageURL: .failed(.timedOut(seconds: 10)))),
    ]
    for state in states {
      let frames = (0..<2).map {
        AppView.render(AppFeature.ViewState(state), display: Display(columns: 60, rows: 12), spinnerFrame: $0)
      }
      #expect(AppView.showsSpinner(state) == (frames[0] != frames[1]), "\(state)")
    }
  }

  @Test func hintsThatDoNotFitLeaveOutTheLeastImportantFirst() {
    var bundled = list
    bundled.source = .bundled
    bundled.fallbackReason = .timedOut(seconds: 2)
    let view = AppFeature.ViewState(AppFeature.State(breeds: bundled, dogsStatus: .loaded))
    #expect(view.keyHints(fitting: 110) == view.keyHints)
    // Moving (the arrows are plain to see) and clearing go first; the way to the other
    // tab, starring, reloading a list that stands in for the server's, and the keys stay.
    #expect(
      view.keyHints(fitting: 90)
        == "type to filter · Enter open · Tab favourites · ^F star · ^R reload · ? keys · ^C quit")
    #expect(
      view.keyHints(fitting: 80)
        == "type to filter · Enter open · Tab favourites · ^R reload · ? keys · ^C quit")
    // Typing, opening and quitting stay down to 40 columns; quitting stays last of all.
    #expect(
      view.keyHints(fitting: 69) == "type to filter · Enter open · ^F star · ^R reload · ? keys · ^C quit")
    #expect(view.keyHints(fitting: 62) == "type to filter · Enter open · ^R reload · ? keys · ^C quit")
    #expect(view.keyHints(fitting: 32) == "type to filter · ^C quit")
    #expect(view.keyHints(fitting: 19) == "^R reload · ^C quit")
    #expect(view.keyHints(fitting: 3) == "^C quit")  // the last one stays, cut if need be
    // Words for arrows are measured as drawn: at 98 columns the arrows fit, the words do
    // not; and a shorter hint of the same importance (Esc clear) takes the room the
    // longer one left out could not.
    #expect(
      view.keyHints(fitting: 98)
        == "type to filter · ↑↓ move · Enter open · Tab favourites · ^F star · ^R reload · ? keys · ^C quit")
    #expect(
      view.keyHints(fitting: 98, unicode: false)
        == "type to filter · Enter open · Tab favourites · ^F star · Esc clear · ^R reload · ? keys · ^C quit"
    )
    // Where nothing matches, what Enter opens outlasts the rest.
    let offered = AppFeature.ViewState(
      AppFeature.State(breeds: list, dogsFilter: "bass", dogsStatus: .loaded))
    #expect(offered.keyHints(fitting: 40) == "Enter open Basset Hound · ^C quit")
    // On a breed: leaving and quitting stay.
    let breed = AppFeature.ViewState(
      AppFeature.State(
        breeds: list, dogsStatus: .loaded,
        breed: BreedFeature.State(breed: list.breeds[1], imageURL: .failed(.timedOut(seconds: 10)))))
    #expect(
      breed.keyHints
        == "n another picture · r retry · ↑↓ Enter sub-breed · f star · Esc back · ? keys · ^C quit")
    #expect(breed.keyHints(fitting: 40) == "r retry · Esc back · ? keys · ^C quit")
    #expect(
      screen(AppFeature.State(breeds: bundled, dogsStatus: .loaded), 50, 6).hasSuffix(
        "\ntype to filter · Enter open · ^R reload · ^C quit"))
  }

  @Test func asciiHintsWithoutUnicode() {
    let text = AppView.render(
      AppFeature.ViewState(AppFeature.State(breeds: list, dogsStatus: .loaded)),
      display: Display(columns: 70, rows: 6, unicode: false)
    ).text
    #expect(text.hasSuffix("type to filter | Enter open | Tab favourites | ? keys | ^C quit"))
    #expect(text.contains("/ Filter breeds"))
  }
}
