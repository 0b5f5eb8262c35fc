import TextRendering

extension FavouritesFeature {
  /// The Favourites tab's keys, each declared once: what it sends, its footer hint and
  /// when the screen offers it, and how the keys' tables describe it. In the order the
  /// footer and the tables list them.
  public static let keyBindings: [KeyBinding<ViewState, Action>] = [
    KeyBinding(
      "r, Ctrl-R", "try again to load the pictures that could not be had",
      pressed: [.character("r"), .ctrl("r")],
      hint: .init("r retry", importance: 3) { $0.anyThumbnailFailed }
    ) { _, _, _ in .failedThumbnailsRetried },
    KeyBinding(
      "↑ ↓ PgUp PgDn Home End", "move the highlight (also k, j, Ctrl-P, Ctrl-N)",
      pressed: [
        .up, .down, .pageUp, .pageDown, .home, .end, .character("k"), .character("j"), .ctrl("p"), .ctrl("n"),
      ],
      hint: .init("↑↓ move") { !$0.rows.isEmpty }
    ) { key, pageRows, _ in HighlightMove(key, pageRows: pageRows).map(Action.highlightMoved) },
    KeyBinding(
      "Enter, →", "open the highlighted favourite", pressed: [.enter, .right],
      hint: .init("Enter open", importance: 3) { !$0.rows.isEmpty }
    ) { _, _, _ in .highlightedRowOpened },
    KeyBinding(
      "f, Ctrl-F", "un-star the highlighted favourite", pressed: [.character("f"), .ctrl("f")],
      hint: .init("f unstar", importance: 2) { !$0.rows.isEmpty }
    ) { _, _, _ in .favouriteToggled },
    KeyBinding(
      "x", "clear all favourites, after a dialog that asks (Enter there keeps them)",
      pressed: [.character("x")],
      hint: .init("x clear all") { !$0.rows.isEmpty }
    ) { _, _, _ in .clearAllRequested },
  ]
}
