import TextRendering

extension BreedFeature {
  /// The Breed screen's keys, each declared once: what it sends, its footer hint and when
  /// the screen offers it, and how the keys' tables describe it. In the order the footer
  /// and the tables list them. (Leaving the screen is the app's: it opened it.)
  public static let keyBindings: [KeyBinding<ViewState, Action>] = [
    KeyBinding(
      "n, Space", "another picture", pressed: [.character("n"), .character(" ")],
      // Asking again cannot help (working offline, a breed the API does not know).
      hint: .init("n another picture", importance: 2) { view in
        if case .failed(_, canRetry: false) = view.imageURL { false } else { true }
      }
    ) { _, _, _ in .anotherPictureRequested },
    KeyBinding(
      "r", "try again after a failure", pressed: [.character("r")],
      // Any failure asking again may mend: the address's, the picture's, another's.
      hint: .init("r retry", importance: 3) { $0.offersRetry }
    ) { _, _, _ in .retryRequested },
    KeyBinding(
      "↑ ↓ PgUp PgDn Home End", "move among the sub-breeds (also k, j)",
      pressed: [.up, .down, .pageUp, .pageDown, .home, .end, .character("k"), .character("j")],
      hint: .init("↑↓ Enter sub-breed", importance: 2) { !$0.subBreeds.isEmpty }
    ) { key, pageRows, _ in HighlightMove(key, pageRows: pageRows).map(Action.highlightMoved) },
    KeyBinding(
      "Enter, →", "open the highlighted sub-breed (on the one shown: back to the breed)",
      pressed: [.enter, .right]
    ) { _, _, view in
      // Enter on the sub-breed already shown goes back to the breed's own pictures.
      view.subBreeds.first(where: \.isHighlighted).map { .subBreedSelected($0.isShown ? nil : $0.name) }
    },
    KeyBinding(
      "f, Ctrl-F", "star or un-star the breed, or the sub-breed whose picture is shown",
      pressed: [.character("f"), .ctrl("f")],
      hint: .init { $0.isFavourite ? "f unstar" : "f star" }
    ) { _, _, _ in .favouriteToggled },
  ]
}
