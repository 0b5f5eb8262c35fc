import AppFeature
import BreedFeature
import DogAPIClient
import Foundation
import Testing
import TextRendering

struct AppViewTests {
  func screen(_ state: AppFeature.State, _ width: Int = 60, _ height: Int = 10) -> String {
    AppView.render(AppView.ViewState(state), width: width, height: height).text
  }

  @Test func theListWithKeyHints() {
    #expect(
      screen(AppFeature.State(breeds: list, dogsStatus: .loaded, dogsHighlighted: "hound")) == """
        Dogs
        🔍 Filter breeds
        ────────────────────────────────────────────────────────────
          Akita
        ▶ Hound (2)
          Pug



        type to filter · ↑↓ move · Enter open · Esc clear · ^C quit
        """)
  }

  @Test func enterOnANoMatchOpensTheFirstSubBreedFound() {
    func hints(_ filter: String) -> String {
      AppView.ViewState(AppFeature.State(breeds: list, dogsFilter: filter, dogsStatus: .loaded)).keyHints
    }
    #expect(hints("bass") == "Enter open Basset Hound · type to filter · Esc clear · ^C quit")
    #expect(hints("xyz") == "type to filter · Esc clear · ^C quit")
    let empty = AppFeature.State(breeds: BreedList(breeds: [], source: .network), dogsStatus: .loaded)
    #expect(AppView.ViewState(empty).keyHints == "r reload · ^C quit")
  }

  @Test func retryIsOfferedOnlyWhereRetryingMayHelp() {
    func hints(_ error: DogAPIError) -> (dogs: String, breed: String) {
      let dogs = AppView.ViewState(AppFeature.State(dogsStatus: .failed(error))).keyHints
      let breed = AppView.ViewState(
        AppFeature.State(
          breeds: list, dogsStatus: .loaded,
          breed: BreedFeature.State(breed: list.breeds[0], image: .failed(error)))
      ).keyHints
      return (dogs, breed)
    }
    #expect(hints(.timedOut(seconds: 10)).dogs == "r retry · ^C quit")
    #expect(hints(.timedOut(seconds: 10)).breed == "n another picture · r retry · Esc back · ^C quit")
    #expect(hints(.notFound(message: nil)).dogs == "^C quit")
    #expect(hints(.notFound(message: nil)).breed == "Esc back · ^C quit")
    #expect(hints(.offline).dogs == "^C quit")
    #expect(hints(.offline).breed == "Esc back · ^C quit")
  }

  @Test func theBreedScreenReplacesTheList() {
    let state = AppFeature.State(
      breeds: list, dogsStatus: .loaded,
      breed: BreedFeature.State(
        breed: list.breeds[1], image: .loaded(URL(string: "https://images.dog.ceo/x.jpg")!)))
    #expect(
      screen(state) == """
        Hound
        ────────────────────────────────────────────────────────────
        Picture of Hound: https://images.dog.ceo/x.jpg

        Sub-breeds
          Afghan
          Basset


        n another picture · ↑↓ Enter sub-breed · Esc back · ^C quit
        """)
  }

  @Test func aNoticeShowsAboveTheHints() {
    let text = screen(
      AppFeature.State(breeds: list, dogsStatus: .loaded, notice: "“x” is not in the breed list."), 60, 6)
    #expect(
      text.hasSuffix(
        "“x” is not in the breed list.\ntype to filter · ↑↓ move · Enter open · Esc clear · ^C quit"))
  }

  @Test func asciiHintsWithoutUnicode() {
    let text = AppView.render(
      AppView.ViewState(AppFeature.State(breeds: list, dogsStatus: .loaded)), width: 70, height: 6,
      unicode: false
    ).text
    #expect(text.hasSuffix("type to filter | Up/Down move | Enter open | Esc clear | ^C quit"))
    #expect(text.contains("/ Filter breeds"))
  }
}
