import TextRendering

/// One line of the app's key table: keys, what they do, where, and the footer's hint.
///
/// The table (``AppFeature/keyTable``) is the one place keys are described: the `?`
/// overlay, `--help`'s KEYS section, the footer's hints and Docs/Usage.md's table all come
/// from it. What a key does is ``AppFeature/responses(to:in:pageRows:scrollLimit:frame:)``; a test holds the
/// two together (every key the table names does something where the table says).
public struct KeyBinding: Equatable, Sendable {
  /// What the binding is, for the code that decides when its hint is offered.
  public enum Name: Equatable, Sendable {
    /// Quit.
    case quit
    /// Suspend.
    case suspend
    /// Paint the screen again.
    case redraw
    /// The keys overlay.
    case help
    /// The mouse.
    case mouse
    /// Type into the filter.
    case filterType
    /// Delete from the filter.
    case filterEdit
    /// Clear the filter.
    case filterClear
    /// Open what the filter names where no breed matches.
    case openOffered
    /// Star the highlighted breed.
    case star
    /// Load the list again.
    case reload
    /// Load the list again after a failure.
    case retryList
    /// The other tab.
    case switchTab
    /// Move the highlight.
    case move
    /// Open the highlighted row.
    case open
    /// Un-star the highlighted favourite.
    case unstar
    /// Clear all favourites.
    case clearAll
    /// Load the failed thumbnails again.
    case retryThumbnails
    /// Another picture.
    case anotherPicture
    /// Try the picture again.
    case retryPicture
    /// Move among the sub-breeds.
    case subBreedMove
    /// Show a sub-breed's picture.
    case subBreedShow
    /// Star the breed or sub-breed shown.
    case starShown
    /// Back to the tab.
    case back
    /// Move between the buttons.
    case buttonMove
    /// Choose the focused button.
    case buttonChoose
    /// Cancel.
    case buttonCancel
  }

  /// Where a binding applies.
  public enum Place: CaseIterable, Equatable, Sendable {
    /// The Breeds tab.
    case breedsTab
    /// The Favourites tab.
    case favouritesTab
    /// A breed's screen.
    case breed
    /// An alert or a dialog.
    case modal
    /// Every screen.
    case everywhere

    /// The place's heading in the table and the overlay.
    public var title: String {
      switch self {
      case .everywhere: "Everywhere"
      case .breedsTab: "On the Breeds tab"
      case .favouritesTab: "On the Favourites tab"
      case .breed: "On a breed"
      case .modal: "Over an alert or a dialog"
      }
    }
  }

  /// A short hint for the footer, and how long it stays on a narrow screen (higher stays
  /// longer).
  public struct Hint: Equatable, Sendable {
    /// The text, as `key word` (`^F star`).
    public var text: String
    /// Its importance: 4 for quitting, 3 for what a newcomer needs, 1 for the rest.
    public var importance: Int
  }

  /// Which binding this is.
  public var name: Name
  /// Where it applies.
  public var place: Place
  /// The keys, as people write them (`Enter, →`).
  public var keys: String
  /// What they do there.
  public var does: String
  /// The keys themselves, for the test that holds the table and the bindings together
  /// (empty where the keys are a class, such as any letter).
  public var pressed: [Key]
  /// The footer's hint, if it has one.
  public var hint: Hint?

  init(
    _ name: Name, _ place: Place, _ keys: String, _ does: String, pressed: [Key], hint: String? = nil,
    importance: Int = 1
  ) {
    self.name = name
    self.place = place
    self.keys = keys
    self.does = does
    self.pressed = pressed
    self.hint = hint.map { Hint(text: $0, importance: importance) }
  }
}

extension AppFeature {
  /// Every key of the full-screen app, by place, in the order the footer lists them.
  public static let keyTable: [KeyBinding] = {
    let moves: [Key] = [.up, .down, .pageUp, .pageDown, .home, .end]
    return [
      // On the Breeds tab.
      KeyBinding(
        .retryList, .breedsTab, "r", "after a failure, or an answer with no breeds: load the list again",
        pressed: [], hint: "r retry", importance: 3),
      KeyBinding(
        .openOffered, .breedsTab, "Enter",
        "where no breed matches: open the sub-breed the filter names, or the breed it misspells",
        pressed: [], hint: "Enter open", importance: 3),
      KeyBinding(
        .filterType, .breedsTab, "letters, Space", "type into the filter (every printable key does)",
        pressed: [.character("a"), .character(" ")], hint: "type to filter", importance: 3),
      KeyBinding(
        .filterEdit, .breedsTab, "Backspace, Ctrl-W",
        "delete the last key typed, or the last word (also Alt-Backspace)",
        pressed: [.backspace, .ctrl("w"), .altBackspace]),
      KeyBinding(
        .move, .breedsTab, "↑ ↓ PgUp PgDn Home End", "move the highlight (also Ctrl-P, Ctrl-N)",
        pressed: moves + [.ctrl("p"), .ctrl("n")], hint: "↑↓ move"),
      KeyBinding(
        .open, .breedsTab, "Enter, →", "open the highlighted breed", pressed: [.enter, .right],
        hint: "Enter open",
        importance: 3),
      KeyBinding(
        .switchTab, .breedsTab, "Tab, Shift-Tab", "the Favourites tab", pressed: [.tab, .backTab],
        hint: "Tab favourites", importance: 2),
      KeyBinding(
        .star, .breedsTab, "Ctrl-F", "star or un-star the highlighted breed (★ on its row)",
        pressed: [.ctrl("f")],
        hint: "^F star", importance: 2),
      KeyBinding(
        .filterClear, .breedsTab, "Esc, Ctrl-U", "clear the filter", pressed: [.escape, .ctrl("u")],
        hint: "Esc clear"),
      KeyBinding(
        .reload, .breedsTab, "Ctrl-R",
        "load the list again at any time: a saved or built-in list shown while the network failed stays until the server's replaces it",
        pressed: [.ctrl("r")], hint: "^R reload", importance: 3),

      // On the Favourites tab.
      KeyBinding(
        .retryThumbnails, .favouritesTab, "r, Ctrl-R", "try again to load the pictures that could not be had",
        pressed: [.character("r"), .ctrl("r")], hint: "r retry", importance: 3),
      KeyBinding(
        .move, .favouritesTab, "↑ ↓ PgUp PgDn Home End", "move the highlight (also k, j, Ctrl-P, Ctrl-N)",
        pressed: moves + [.character("k"), .character("j")], hint: "↑↓ move"),
      KeyBinding(
        .open, .favouritesTab, "Enter, →", "open the highlighted favourite", pressed: [.enter, .right],
        hint: "Enter open", importance: 3),
      KeyBinding(
        .switchTab, .favouritesTab, "Tab, Shift-Tab", "the Breeds tab", pressed: [.tab, .backTab],
        hint: "Tab breeds", importance: 2),
      KeyBinding(
        .unstar, .favouritesTab, "f, Ctrl-F", "un-star the highlighted favourite",
        pressed: [.character("f"), .ctrl("f")], hint: "f unstar", importance: 2),
      KeyBinding(
        .clearAll, .favouritesTab, "x",
        "clear all favourites, after a dialog that asks (Enter there keeps them)",
        pressed: [.character("x")], hint: "x clear all"),

      // On a breed.
      KeyBinding(
        .anotherPicture, .breed, "n, Space", "another picture", pressed: [.character("n"), .character(" ")],
        hint: "n another picture", importance: 2),
      KeyBinding(
        .retryPicture, .breed, "r", "try again after a failure", pressed: [.character("r")], hint: "r retry",
        importance: 3),
      KeyBinding(
        .subBreedMove, .breed, "↑ ↓ PgUp PgDn Home End", "move among the sub-breeds (also k, j)",
        pressed: moves + [.character("k"), .character("j")], hint: "↑↓ Enter sub-breed", importance: 2),
      KeyBinding(
        .subBreedShow, .breed, "Enter, →",
        "show the highlighted sub-breed's picture (on the one shown: back to the breed's)",
        pressed: [.enter, .right]),
      KeyBinding(
        .starShown, .breed, "f, Ctrl-F", "star or un-star the breed, or the sub-breed whose picture is shown",
        pressed: [.character("f"), .ctrl("f")], hint: "f star"),
      KeyBinding(
        .back, .breed, "Esc, ←, q, b", "back to the tab the breed was opened from (also Backspace)",
        pressed: [.escape, .left, .character("q"), .character("b"), .backspace], hint: "Esc back",
        importance: 3),

      // Over an alert or a dialog.
      KeyBinding(
        .buttonMove, .modal, "Tab, ← →", "move between the buttons (also Shift-Tab, ↑ ↓)",
        pressed: [.tab, .backTab, .left, .right, .up, .down], hint: "Tab next button"),
      KeyBinding(
        .buttonChoose, .modal, "Enter", "choose the focused button", pressed: [.enter], hint: "Enter choose",
        importance: 3),
      KeyBinding(
        .buttonCancel, .modal, "Esc", "cancel", pressed: [.escape], hint: "Esc cancel", importance: 3),

      // Everywhere.
      KeyBinding(
        .help, .everywhere, "?, F1", "these keys", pressed: [.character("?"), .function(1)], hint: "? keys",
        importance: 3),
      KeyBinding(
        .quit, .everywhere, "Ctrl-C, Ctrl-D",
        "quit, saving the favourites first (asked again: at once, naming what is not saved)",
        pressed: [.ctrl("c"), .ctrl("d")], hint: "^C quit", importance: 4),
      KeyBinding(
        .suspend, .everywhere, "Ctrl-Z", "suspend (from a shell with job control; `fg` resumes)",
        pressed: [.ctrl("z")]),
      KeyBinding(.redraw, .everywhere, "Ctrl-L", "paint the screen again", pressed: [.ctrl("l")]),
      KeyBinding(
        .mouse, .everywhere, "the mouse",
        "click a row to highlight it, the highlighted row to open it; click a tab or a button; the wheel moves (--no-mouse leaves the mouse to the terminal)",
        pressed: []),
    ]
  }()

  /// The bindings of `place`, in the table's order.
  public static func keys(of place: KeyBinding.Place) -> [KeyBinding] {
    keyTable.filter { $0.place == place }
  }

  /// The table as text, place by place, for `--help`: keys in a column `keyColumn` wide,
  /// what they do wrapped to `width`.
  public static func keyHelp(width: Int = 80, indent: Int = 2, keyColumn: Int = 23) -> String {
    let pad = String(repeating: " ", count: indent + 2)
    let textWidth = max(20, width - indent - 2 - keyColumn)
    func lines(_ binding: KeyBinding) -> [String] {
      let text = ModalBox.wrap(binding.does, width: textWidth)
      let first = pad + binding.keys.padding(toLength: keyColumn, withPad: " ", startingAt: 0) + text[0]
      let rest = text.dropFirst().map { pad + String(repeating: " ", count: keyColumn) + $0 }
      return [first] + rest
    }
    var result: [String] = []
    for place in KeyBinding.Place.allCases {
      result.append(String(repeating: " ", count: indent) + place.title)
      for binding in keys(of: place) { result += lines(binding) }
    }
    return result.joined(separator: "\n")
  }

  /// The table in Markdown, one table per place: what Docs/Usage.md shows.
  public static func keyMarkdown() -> String {
    KeyBinding.Place.allCases.map { place in
      "**\(place.title)**\n\n| keys | what they do |\n| --- | --- |\n"
        + keys(of: place).map { "| \($0.keys) | \($0.does) |" }.joined(separator: "\n")
    }
    .joined(separator: "\n\n")
  }
}
