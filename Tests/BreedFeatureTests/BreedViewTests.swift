import BreedFeature
import DogAPIClient
import Foundation
import Testing
import TextRendering

struct BreedViewTests {
  func screen(_ state: BreedFeature.State, _ width: Int, _ height: Int) -> String {
    BreedView.render(BreedFeature.ViewState(state), width: width, height: height).text
  }

  @Test func withSubBreedsAt80x24() {
    #expect(
      screen(BreedFeature.State(breed: hound, image: .loaded(url1), highlighted: "basset"), 80, 24) == """
        Hound
        ────────────────────────────────────────────────────────────────────────────────
        Picture of Hound: https://images.dog.ceo/breeds/hound/1.jpg

        Sub-breeds
          Afghan
        ▶ Basset
        """)
  }

  @Test func withoutSubBreedsThereIsNoHeading() {
    #expect(
      screen(BreedFeature.State(breed: Breed(name: "pug"), image: .loading), 40, 12) == """
        Pug
        ────────────────────────────────────────
        ⠋ Fetching a picture of Pug…
        """)
  }

  @Test func aFailureAt40x12OffersToTryAgain() {
    #expect(
      screen(BreedFeature.State(breed: Breed(name: "pug"), image: .failed(.timedOut(seconds: 10))), 40, 12)
        == """
        Pug
        ────────────────────────────────────────
        Couldn't load a picture. The server took
        longer than 10 s to answer.
        Press r to try again.
        """)
  }

  @Test func aURLFromTheNetworkIsSanitisedOnScreen() {
    let evil = URL(string: "https://images.dog.ceo/x%1B%5B2J.jpg")!
    let text = screen(BreedFeature.State(breed: Breed(name: "pug"), image: .loaded(evil)), 80, 5)
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }
}
