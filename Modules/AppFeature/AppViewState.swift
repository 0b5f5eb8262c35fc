import BreedFeature
import DogsFeature
import FavouritesFeature
import TextRendering

extension AppFeature {
  /// Everything the root view shows, derived from ``AppFeature/State``.
  public struct ViewState: Equatable, Sendable {
    /// The tab shown (under the Breed screen, when one is open).
    public var tab: AppFeature.State.Tab
    /// How many favourites there are, for the tab bar.
    public var favouriteCount: Int
    /// The Dogs screen: the Breeds tab.
    public var dogs: DogsFeature.ViewState
    /// The Favourites tab, while it is the tab shown.
    public var favourites: FavouritesFeature.ViewState?
    /// The Breed screen, when a breed is open.
    public var breed: BreedFeature.ViewState?
    /// A notice to show over the screens, if any.
    public var notice: String?
    /// What the app is doing that the user waits for (saving before it quits, waiting for
    /// another process's save), if anything.
    public var status: String?
    /// Whether the app is saving before it quits: Ctrl-C then quits without waiting.
    public var isQuitting: Bool
    /// Whether the keys overlay (`?`) shows, in ``modal``.
    public var showsKeys: Bool
    /// The alert or confirmation dialog over everything, if any.
    public var modal: ModalBox?

    /// Derives everything the screen shows from the app state.
    public init(_ state: AppFeature.State) {
      tab = state.tab
      favouriteCount = state.favourites.count
      dogs = DogsFeature.ViewState(state.dogs)
      favourites = state.tab == .favourites ? FavouritesFeature.ViewState(state.favouritesScreen) : nil
      breed = state.breedScreen.map(BreedFeature.ViewState.init)
      notice = state.notice
      showsKeys = state.help != nil
      isQuitting = state.quitting == .saving
      status =
        if state.isWaitingForFavouritesLock {
          "Waiting for another DogBreeds to save…"
        } else if isQuitting {
          "Saving favourites…"
        } else if state.favouritesSaveFailure != nil, !state.unsavedFavourites.isEmpty {
          // Until a save succeeds, the changes shown are marked as not saved.
          "Favourites not saved yet: the next change tries again"
        } else {
          nil
        }
      // The keys of the screen under the overlay, then those that work everywhere.
      let keys = state.help.map { help in
        let place = state.keyPlace
        return ModalBox(
          title: "Keys " + place.title.prefix(1).lowercased() + place.title.dropFirst(), message: nil,
          buttons: [], focused: 0,
          // The marker's key only while there is a log to mark.
          rows: (AppFeature.keys(of: place) + AppFeature.keys(of: .everywhere)).filter {
            state.screen.isRecording || $0.keys != AppFeature.markKeys.keys
          }.map { ModalBox.Row($0.keys, $0.does) },
          scroll: help.scroll)
      }
      modal =
        keys ?? state.alert.map { alert in
          ModalBox(
            title: alert.title, message: alert.message, buttons: alert.buttons.map(\.label),
            focused: state.alertFocus)
        } ?? favourites?.dialog
      // What the footer offers: the hints of the bindings that have the keys, as they read
      // on this screen.
      let context = AppFeature.KeyContext(state, view: self)
      hints = AppFeature.hinted(state.keyLayer).compactMap { binding in
        binding.hint.flatMap { hint in
          hint.text(in: context).map { Hint(text: $0, importance: hint.importance) }
        }
      }
    }

    /// The key hints for the screen that is showing.
    public var keyHints: String { hints.map(\.text).joined(separator: " · ") }

    /// The key hints that fit in `width` columns: where all do not, the least important
    /// are left out (of equals, the later first), so that leaving or quitting stays shown
    /// on a narrow screen rather than being cut off the end; then a hint left out that fits
    /// in the room a longer one left is put back (the last left out first, and none less
    /// important than one that did not fit).
    ///
    /// - Parameters:
    ///   - width: The columns available.
    ///   - unicode: Whether the terminal shows Unicode (else arrows are words).
    /// - Returns: The hints, in their order, joined by ` · `.
    public func keyHints(fitting width: Int, unicode: Bool = true) -> String {
      var hints = self.hints
      if !unicode {
        for index in hints.indices {
          hints[index].text = hints[index].text.replacingOccurrences(of: "↑↓", with: "Up/Down")
        }
      }
      var kept = Array(hints.indices)
      func joined(_ indices: [Int]) -> String { indices.map { hints[$0].text }.joined(separator: " · ") }
      var leftOut: [Int] = []
      while kept.count > 1, DisplayWidth.of(joined(kept)) > width {
        // The least important; of equals, the last.
        let least = kept.indices.min {
          (hints[kept[$0]].importance, -$0) < (hints[kept[$1]].importance, -$1)
        }!
        leftOut.append(kept.remove(at: least))
      }
      // (Never one less important than a hint that could not be put back.)
      var floor = Int.min
      for index in leftOut.reversed() where hints[index].importance >= floor {
        let tried = (kept + [index]).sorted()
        if DisplayWidth.of(joined(tried)) <= width {
          kept = tried
        } else {
          floor = max(floor, hints[index].importance)
        }
      }
      return joined(kept)
    }

    /// A key hint and how much it matters on a narrow screen (higher stays longer): what
    /// leaves or quits, and what Enter opens where nothing matches, most; what the screen
    /// shows by itself (a filter field invites typing), least.
    private struct Hint: Equatable, Sendable {
      var text: String
      var importance: Int
    }

    /// The footer's hints, in their order.
    private var hints: [Hint] = []
  }
}
