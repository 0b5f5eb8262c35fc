import TextRendering

extension DogsFeature {
  /// The Breeds tab's keys, each declared once: what it sends, its footer hint and when the
  /// screen offers it, and how the keys' tables describe it. In the order the footer and
  /// the tables list them; the first binding with something to do answers a key.
  ///
  /// Every printable key types into the filter (no breed's name needs a command letter),
  /// so starring takes a control key; `r` asks for the list again only where there is no
  /// list to filter.
  public static let keyBindings: [KeyBinding<ViewState, Action>] = [
    KeyBinding(
      "r", "after a failure, or an answer with no breeds: load the list again", pressed: [.character("r")],
      hint: .init(importance: 3) { view in
        switch view.content {
        case .failed(_, let canRetry): canRetry ? "r retry" : nil
        // The API answered with no breeds: filtering has nothing to work on; asking again may help.
        case .empty: "r reload"
        case .loaded, .loading, .noMatch: nil
        }
      }
    ) { _, _, view in view.content.canReload ? .retryRequested : nil },
    KeyBinding(
      "Enter", "where no breed matches: open the sub-breed the filter names, or the breed it misspells",
      pressed: [.enter, .right],
      hint: .init(importance: 3) { view in
        guard !view.content.isLoaded, let offered = view.offered else { return nil }
        return "Enter open \(offered.title)"
      }
    ) { _, _, view in view.highlightedBreed == nil ? view.offered?.action : nil },
    KeyBinding(
      typing: "letters, Space", "type into the filter (every printable key does)",
      hint: .init("type to filter", importance: 3) { $0.content.showsList }
    ) { text, view in view.filtered(view.filter + text) },
    KeyBinding(
      "Backspace, Ctrl-W", "delete the last key typed, or the last word (also Alt-Backspace)",
      pressed: [.backspace, .ctrl("w"), .altBackspace]
    ) { key, _, view in
      view.filtered(key == .backspace ? view.filter.droppingLastKeyTyped() : view.filter.droppingLastWord())
    },
    KeyBinding(
      "↑ ↓ PgUp PgDn Home End", "move the highlight (also Ctrl-P, Ctrl-N)",
      pressed: [.up, .down, .pageUp, .pageDown, .home, .end, .ctrl("p"), .ctrl("n")],
      hint: .init("↑↓ move") { $0.content.isLoaded }
    ) { key, pageRows, _ in HighlightMove(key, pageRows: pageRows).map(Action.highlightMoved) },
    KeyBinding(
      "Enter, →", "open the highlighted breed", pressed: [.enter, .right],
      hint: .init("Enter open", importance: 3) { $0.content.isLoaded }
    ) { _, _, view in view.highlightedBreed.map(Action.rowSelected) },
    KeyBinding(
      "Ctrl-F", "star or un-star the highlighted breed (★ on its row)", pressed: [.ctrl("f")],
      hint: .init("^F star", importance: 2) { $0.content.isLoaded }
    ) { _, _, _ in .favouriteToggled },
    KeyBinding(
      "Esc, Ctrl-U", "clear the filter", pressed: [.escape, .ctrl("u")],
      hint: .init("Esc clear") { $0.content.showsList }
    ) { _, _, view in view.filtered("") },
    KeyBinding(
      "Ctrl-R",
      "load the list again at any time: a saved or built-in list shown while the network failed stays until the server's replaces it",
      pressed: [.ctrl("r")],
      // A list standing in for the network's after a failure that may pass can be loaded again.
      hint: .init("^R reload", importance: 3) { $0.content.showsList && $0.reloadMayHelp && !$0.isReloading }
    ) { _, _, view in
      // Over a list too (one saved or built in, say), unless it is already being loaded.
      view.content == .loading || view.isReloading ? nil : .retryRequested
    },
  ]
}

extension DogsFeature.ViewState {
  /// What Enter opens where no breed matches, with its title for the key hints: the first
  /// sub-breed the filter names, else the closest breed or sub-breed it misspells; `nil`
  /// where there is neither. One rule for the key and its hint.
  var offered: (title: String, action: DogsFeature.Action)? {
    if let match = subBreedMatches.first {
      return (match.title, .subBreedMatchSelected(breed: match.breed, subBreed: match.subBreed))
    }
    guard let match = spellingMatches.first else { return nil }
    guard let subBreed = match.subBreed else { return (match.title, .rowSelected(match.breed)) }
    return (match.title, .subBreedMatchSelected(breed: match.breed, subBreed: subBreed))
  }

  /// The filter changed to `text`, or nothing where it would stay as it is.
  func filtered(_ text: String) -> DogsFeature.Action? {
    text == filter ? nil : .filterChanged(text)
  }
}

extension DogsFeature.ViewState.Content {
  /// Whether `r` loads the list again: after a failure, or an answer with no breeds.
  var canReload: Bool {
    switch self {
    case .failed, .empty: true
    case .loading, .loaded, .noMatch: false
    }
  }

  /// Whether breeds are listed (the filter has something to work on).
  var isLoaded: Bool {
    if case .loaded = self { true } else { false }
  }

  /// Whether the screen shows a list, or is about to: loaded, loading, or matching nothing
  /// (the filter and the tabs are worth offering).
  public var showsList: Bool {
    switch self {
    case .loaded, .loading, .noMatch: true
    case .failed, .empty: false
    }
  }
}

extension String {
  /// The text without what Backspace takes from its end: the last key typed. A character
  /// drawn as one picture (an emoji, with its skin tone or joined family, a flag, a keycap)
  /// was typed as one and goes whole; any other loses its last scalar, the sign typed last
  /// (`कि` keeps `क`, `क्ष` keeps `क्`, a decomposed `é` keeps `e`), as Backspace does in
  /// browsers and on phones. Taking the whole character would drop letters that cost
  /// several keys.
  func droppingLastKeyTyped() -> String {
    guard let last else { return self }
    let isPicture = last.unicodeScalars.contains {
      ($0.properties.isEmoji && !$0.isASCII) || $0 == "\u{20E3}"  // a keycap's enclosing square
    }
    guard !isPicture else { return String(dropLast()) }
    var scalars = unicodeScalars
    scalars.removeLast()
    return String(scalars)
  }

  /// The text without its last word, as Ctrl-W takes it in a shell: the spaces at the end,
  /// then the word before them.
  func droppingLastWord() -> String {
    var shorter = self
    while shorter.last == " " { shorter.removeLast() }
    while let last = shorter.last, last != " " { shorter.removeLast() }
    return shorter
  }
}
