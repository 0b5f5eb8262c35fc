import BreedFeature
import DogAPIClient
import Testing
import TextRendering

/// A breed's keys, as the Breed feature declares them (leaving the screen is the app's:
/// its tests press that, and every key through the app).
struct BreedKeysTests {
  func action(
    _ key: Key, subBreed: String? = nil, highlighted: String? = nil,
    imageURL: BreedFeature.State.ImageURLStatus = .notRequested,
    favourites: Set<String> = [], pageRows: Int = 7
  ) -> BreedFeature.Action? {
    let state = BreedFeature.State(
      breed: hound, subBreed: subBreed, imageURL: imageURL, highlighted: highlighted, favourites: favourites)
    return BreedFeature.keyBindings.action(
      for: .key(key), in: BreedFeature.ViewState(state), pageRows: pageRows)
  }

  @Test func keysMoveAndAskAgain() {
    for key in [Key.character("n"), .character(" ")] {
      #expect(action(key) == .anotherPictureRequested, "\(key)")
    }
    #expect(action(.character("r")) == .retryRequested)
    #expect(action(.up) == .highlightMoved(.up))
    #expect(action(.character("k")) == .highlightMoved(.up))
    #expect(action(.down) == .highlightMoved(.down))
    #expect(action(.character("j")) == .highlightMoved(.down))
    #expect(action(.home) == .highlightMoved(.first))
    #expect(action(.end) == .highlightMoved(.last))
    #expect(action(.pageUp, pageRows: 5) == .highlightMoved(.pageUp(rows: 5)))
    #expect(action(.pageDown, pageRows: 2) == .highlightMoved(.pageDown(rows: 2)))
    for key in [Key.character("f"), .ctrl("f")] {
      #expect(action(key) == .favouriteToggled, "\(key)")
    }
    // Letters that mean nothing here, and Ctrl-P (the list's), do nothing.
    #expect(action(.character("x")) == nil)
    #expect(action(.ctrl("p")) == nil)
    #expect(action(.ctrl("r")) == nil)
  }

  @Test func enterShowsTheHighlightedSubBreedOrGoesBackToTheBreed() {
    for key in [Key.enter, .right] {
      #expect(action(key, highlighted: "afghan") == .subBreedSelected("afghan"))
      #expect(action(key, subBreed: "basset", highlighted: "afghan") == .subBreedSelected("afghan"))
      // On the sub-breed already shown: back to the breed's own pictures.
      #expect(action(key, subBreed: "afghan", highlighted: "afghan") == .subBreedSelected(nil))
      #expect(action(key) == nil)
    }
  }

  /// Each binding's hint, where the screen offers it, as it reads there.
  @Test func theHintsSayWhatTheKeysDoOnTheScreenAsItIs() {
    func hints(_ state: BreedFeature.State) -> [String] {
      let view = BreedFeature.ViewState(state)
      return BreedFeature.keyBindings.compactMap { $0.hint?.text(in: view) }
    }
    #expect(hints(.init(breed: hound)) == ["n another picture", "↑↓ Enter sub-breed", "f star"])
    #expect(
      hints(.init(breed: Breed(name: "pug"), favourites: ["pug"])) == ["n another picture", "f unstar"])
    #expect(
      hints(.init(breed: hound, imageURL: .failed(.timedOut(seconds: 10))))
        == ["n another picture", "r retry", "↑↓ Enter sub-breed", "f star"])
    // Asking again cannot help a breed the API does not know.
    #expect(
      hints(.init(breed: hound, imageURL: .failed(.notFound(message: nil)))) == [
        "↑↓ Enter sub-breed", "f star",
      ])
  }
}
