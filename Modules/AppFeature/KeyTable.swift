import BreedFeature
import DogsFeature
import FavouritesFeature
import TextRendering

/// Where a key binding applies: a screen, the alert or dialog over it, or everywhere.
public enum KeyPlace: CaseIterable, Equatable, Sendable {
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

/// One line of the app's key table: where, the keys as people write them, what they do.
public struct KeyTableEntry: Equatable, Sendable {
  /// Where the keys apply.
  public var place: KeyPlace
  /// The keys, as people write them (`Enter, →`).
  public var keys: String
  /// What they do there.
  public var does: String
}

extension AppFeature {
  /// The bindings of `place`, in the order the footer and the keys' tables list them: a
  /// screen's own, lifted into the app, with the app's (the tabs, leaving a breed) among
  /// them; the alert's and dialog's; and those of every screen.
  public static func bindings(of place: KeyPlace) -> [Binding] {
    switch place {
    case .breedsTab: breedsTabKeys
    case .favouritesTab: favouritesTabKeys
    case .breed: breedKeys
    case .modal: modalKeys
    case .everywhere: everywhereKeys
    }
  }

  /// Every key of the full-screen app as data, place by place, in the order the footer
  /// lists them: what the `?` overlay, `--help`'s KEYS section and Docs/Usage.md show,
  /// read from the bindings themselves.
  public static let keyTable: [KeyTableEntry] = KeyPlace.allCases.flatMap { place in
    bindings(of: place).map { KeyTableEntry(place: place, keys: $0.keys, does: $0.does) }
  }

  /// The table's lines of `place`, in the table's order.
  public static func keys(of place: KeyPlace) -> [KeyTableEntry] {
    keyTable.filter { $0.place == place }
  }

  /// The table as text, place by place, for `--help`: keys in a column `keyColumn` wide,
  /// what they do wrapped to `width`.
  public static func keyHelp(width: Int = 80, indent: Int = 2, keyColumn: Int = 23) -> String {
    let pad = String(repeating: " ", count: indent + 2)
    let textWidth = max(20, width - indent - 2 - keyColumn)
    func lines(_ entry: KeyTableEntry) -> [String] {
      let text = ModalBox.wrap(entry.does, width: textWidth)
      let first = pad + entry.keys.padding(toLength: keyColumn, withPad: " ", startingAt: 0) + text[0]
      let rest = text.dropFirst().map { pad + String(repeating: " ", count: keyColumn) + $0 }
      return [first] + rest
    }
    var result: [String] = []
    for place in KeyPlace.allCases {
      result.append(String(repeating: " ", count: indent) + place.title)
      for entry in keys(of: place) { result += lines(entry) }
    }
    return result.joined(separator: "\n")
  }

  /// The table in Markdown, one table per place: what Docs/Usage.md shows.
  public static func keyMarkdown() -> String {
    KeyPlace.allCases.map { place in
      "**\(place.title)**\n\n| keys | what they do |\n| --- | --- |\n"
        + keys(of: place).map { "| \($0.keys) | \($0.does) |" }.joined(separator: "\n")
    }
    .joined(separator: "\n\n")
  }
}
