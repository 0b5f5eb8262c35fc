import DogAPIClient
import Foundation
import TextRendering

extension DogsFeature {
  /// What the Dogs screen shows, derived from ``State`` by a pure converter.
  public struct ViewState: Equatable, Sendable {
    /// "Dogs".
    public var title: String
    /// The filter as typed.
    public var filter: String
    /// The body of the screen.
    public var content: Content
    /// A one-line note when the list is not fresh (offline), else `nil`.
    public var note: String?
    /// Whether the list shown is being loaded again (the screen says so in the note's place).
    public var isReloading = false
    /// Whether loading the list again may bring a fresher one: it stands in for the
    /// network's after a failure that may pass (not `--offline`, not the fake's list).
    public var reloadMayHelp = false
    /// When the filter matches no breed: sub-breeds whose names contain it (at most
    /// three, those starting with it first). "golden" is no breed, but Golden Retriever.
    public var subBreedMatches: [SubBreedMatch] = []
    /// When the filter matches no breed and no sub-breed: the breeds and sub-breeds it
    /// misspells, closest first, else the breeds its words name (see
    /// ``DogsFeature/spellingMatches(in:filter:)``).
    public var spellingMatches: [SpellingMatch] = []

    /// What the body of the screen shows.
    public enum Content: Equatable, Sendable {
      /// Loading (or not started yet): a spinner and nothing else.
      case loading
      /// Breeds to show.
      case loaded(Rows)
      /// The filter matches nothing: `No breeds match “xyz”`.
      case noMatch(query: String)
      /// The API really has no breeds.
      case empty
      /// Loading failed: what went wrong, and whether trying again may help (not for an
      /// address the server does not know, say).
      case failed(message: String, canRetry: Bool)
    }

    /// Builds the view state.
    public init(_ state: State) {
      title = "Dogs"
      filter = state.filter
      note = nil
      switch state.status {
      case .notStarted:
        content = .loading
      // Loading with a list to show shows the list (it is being loaded again); with none,
      // only the spinner.
      case .loading where state.breeds?.breeds.isEmpty != false:
        content = .loading
      case .failed(let error):
        content = .failed(
          message:
            "Couldn't load the breeds. \(error.message)\(String.tries(state.failures, last: state.lastFailure))",
          canRetry: error.isTransient)
      case .loading, .loaded:
        isReloading = state.status == .loading
        guard let list = state.breeds, !list.breeds.isEmpty else {
          content = .empty
          return
        }
        note = Self.note(for: list).map {
          $0 + (list.fallbackReason == nil ? "" : String.tries(state.failures, last: state.lastFailure))
        }
        if list.source == .cache, list.fallbackReason == nil { savedNote = note }
        reloadMayHelp = list.fallbackReason?.isTransient ?? false
        let matches = DogsFeature.matches(in: list, filter: state.filter)
        if matches.isEmpty {
          content = .noMatch(query: state.filter)
          subBreedMatches = DogsFeature.subBreedMatches(in: list, filter: state.filter)
          if subBreedMatches.isEmpty {
            spellingMatches = DogsFeature.spellingMatches(in: list, filter: state.filter)
          }
        } else {
          let highlighted = state.highlighted.flatMap { name in
            matches.firstIndex { list.breeds[$0].name == name }
          }
          content = .loaded(
            Rows(
              breeds: list.breeds, matches: matches, highlighted: highlighted ?? 0,
              favourites: state.favourites))
        }
      }
    }

    /// The name of the highlighted breed, the one Enter opens.
    public var highlightedBreed: String? {
      guard case .loaded(let rows) = content, rows.indices.contains(rows.highlighted) else { return nil }
      return rows[rows.highlighted].name
    }

    /// What the row under the list says while the list is being loaded again: that a saved
    /// list shows meanwhile, from when, and that it is being updated.
    public var reloadingNote: String {
      guard let note = savedNote else { return "Loading the breed list again…" }
      return "\(note) Updating…"
    }
    /// For a list read from the disk as it is (no failure behind it), which it is.
    var savedNote: String?

    /// Why the list is not fresh from the network (first: on a narrow screen it is what
    /// stays visible; "offline" only where that is the reason, not for a server error),
    /// then which list this is.
    static func note(for list: BreedList) -> String? {
      let which: String
      switch list.source {
      case .network:
        // Fresh, unless loading it again failed (then it is the list from before), or the
        // answer named things that are not breeds.
        guard list.fallbackReason != nil else { return leftOutNote(list) }
        which = "Still showing the earlier breed list."
      case .cache:
        let day = list.fetchedAt.map { " on \(Self.day($0))" } ?? ""
        which = "Showing the breed list saved\(day)."
      case .bundled: which = "Showing the built-in breed list."
      }
      // The fake client serves the built-in list on purpose, with no reason.
      return [list.fallbackReason?.message, which].compactMap { $0 }.joined(separator: " ")
    }

    /// What the list left out of the server's answer, if anything: one sentence.
    static func leftOutNote(_ list: BreedList) -> String? {
      switch list.leftOutNames {
      case 0: return nil
      case 1: return "1 name in the server's answer is not a breed name; it is left out."
      case let count: return "\(count) names in the server's answer are not breed names; they are left out."
      }
    }

    static func day(_ date: Date) -> String {
      date.formatted(dayFormat)
    }

    /// `2026-11-22`, in UTC. A format style, not a `DateFormatter`: building one of those
    /// costs ~90 µs on Linux, and this runs on every keystroke while a saved list shows.
    static let dayFormat = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0)!)
      .year().month().day()
  }

  /// The visible rows: the matching breeds, in order, built on demand.
  public struct Rows: Equatable, Sendable, RandomAccessCollection {
    let breeds: [Breed]
    let matches: [Int]
    /// The position (within these rows) of the highlighted row.
    public let highlighted: Int
    /// The favourites (breeds' API names among them are starred).
    let favourites: Set<String>

    /// The first position (always 0).
    public var startIndex: Int { 0 }
    /// The position after the last matching row.
    public var endIndex: Int { matches.count }

    /// The row at `position`: the breed's name with its first letter upper-cased.
    public subscript(position: Int) -> Row {
      let breed = breeds[matches[position]]
      return Row(
        name: breed.name, title: String.breedName(breed.name), subBreedCount: breed.subBreeds.count,
        isFavourite: favourites.contains(breed.name))
    }

    /// Rows are equal when they show the same matches of the same list with the same highlight.
    public static func == (lhs: Rows, rhs: Rows) -> Bool {
      lhs.highlighted == rhs.highlighted && lhs.matches == rhs.matches && lhs.breeds == rhs.breeds
        && lhs.favourites == rhs.favourites
    }
  }

  /// A sub-breed found by the filter, where no breed was.
  public struct SubBreedMatch: Equatable, Sendable {
    /// The breed's API name: `"retriever"`.
    public var breed: String
    /// The sub-breed's API name: `"golden"`.
    public var subBreed: String
    /// As the Breed screen names it: `"Golden Retriever"`.
    public var title: String
    /// As the API's paths and `show` name it: `"retriever/golden"`.
    public var path: String { BreedName.path(breed, subBreed) }

    /// Creates a match.
    public init(breed: String, subBreed: String, title: String) {
      self.breed = breed
      self.subBreed = subBreed
      self.title = title
    }
  }

  /// A breed, or a sub-breed, that the filter misspells, where nothing matched (or a breed
  /// one of its words names).
  public struct SpellingMatch: Equatable, Sendable {
    /// The breed's API name: `"retriever"`.
    public var breed: String
    /// The sub-breed's API name where a sub-breed is meant: `"golden"`.
    public var subBreed: String?
    /// As the screens name it: `"Retriever"`, `"Golden Retriever"`.
    public var title: String
    /// As the API's paths and `show` name it: `"retriever"`, `"retriever/golden"`.
    public var path: String { BreedName.path(breed, subBreed) }

    /// Creates a match.
    public init(breed: String, subBreed: String?, title: String) {
      self.breed = breed
      self.subBreed = subBreed
      self.title = title
    }

    /// A match titled as the screens title it.
    init(breed: String, subBreed: String? = nil) {
      self.init(
        breed: breed, subBreed: subBreed,
        title: subBreed.map { .breedTitle(breed, subBreed: $0) } ?? .breedTitle(breed))
    }
  }

  /// One row of the list.
  public struct Row: Equatable, Sendable, Identifiable {
    /// The API name, e.g. `"hound"`.
    public var name: String
    /// As shown: `"Hound"`.
    public var title: String
    /// How many sub-breeds it has.
    public var subBreedCount: Int
    /// Whether the user starred it.
    public var isFavourite = false
    /// The API name.
    public var id: String { name }
  }
}
