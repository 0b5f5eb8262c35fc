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
      isQuitting = state.quitting == .saving
      status =
        if state.isWaitingForFavouritesLock {
          "Waiting for another DogBreeds to save…"
        } else if isQuitting {
          "Saving favourites…"
        } else {
          nil
        }
      modal =
        state.alert.map { alert in
          ModalBox(
            title: alert.title, message: alert.message, buttons: alert.buttons.map(\.label),
            focused: state.alertFocus)
        } ?? favourites?.dialog
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
    private struct Hint {
      var text: String
      var importance: Int
    }

    private var hints: [Hint] {
      if isQuitting { return [Hint(text: "^C quit without saving", importance: 4)] }
      if modal != nil {
        return [
          Hint(text: "Tab next button", importance: 1), Hint(text: "Enter choose", importance: 3),
          Hint(text: "Esc cancel", importance: 3),
        ]
      }
      if let breed {
        var hints: [Hint] = []
        switch breed.imageURL {
        // Asking again cannot help (working offline, a breed the API does not know).
        case .failed(_, canRetry: false): break
        case .failed, .loading, .url: hints.append(Hint(text: "n another picture", importance: 2))
        }
        // Any failure asking again may mend: the address's, the picture's, another's.
        if breed.offersRetry { hints.append(Hint(text: "r retry", importance: 3)) }
        if !breed.subBreeds.isEmpty { hints.append(Hint(text: "↑↓ Enter sub-breed", importance: 2)) }
        hints.append(Hint(text: "f star", importance: 1))
        hints.append(Hint(text: "Esc back", importance: 3))
        hints.append(Hint(text: "^C quit", importance: 4))
        return hints
      }
      let quit = Hint(text: "^C quit", importance: 4)
      if let favourites {
        let switchTab = Hint(text: "Tab breeds", importance: 2)
        guard !favourites.rows.isEmpty else { return [Hint(text: "Tab breeds", importance: 3), quit] }
        let retry = favourites.anyThumbnailFailed ? [Hint(text: "r retry", importance: 3)] : []
        return retry + [
          Hint(text: "↑↓ move", importance: 1), Hint(text: "Enter open", importance: 3),
          Hint(text: "f unstar", importance: 2), Hint(text: "x clear all", importance: 1), switchTab, quit,
        ]
      }
      // The only way to the second tab: placed before the other hints of its importance,
      // which leave first, it stays to 80 columns.
      let switchTab = Hint(text: "Tab favourites", importance: 1)
      // A list standing in for the network's after a failure that may pass can be loaded
      // again (^R works on any list).
      let reload = dogs.reloadMayHelp && !dogs.isReloading ? [Hint(text: "^R reload", importance: 2)] : []
      // Typing, opening and quitting are what a newcomer needs: they stay to 40 columns.
      let typing = [Hint(text: "type to filter", importance: 3)]
      switch dogs.content {
      case .failed(_, let canRetry): return (canRetry ? [Hint(text: "r retry", importance: 3)] : []) + [quit]
      case .loaded:
        return typing + [
          Hint(text: "↑↓ move", importance: 1), Hint(text: "Enter open", importance: 3), switchTab,
          Hint(text: "^F star", importance: 1), Hint(text: "Esc clear", importance: 1),
        ] + reload + [quit]
      // The API answered with no breeds: filtering has nothing to work on; asking again may help.
      case .empty: return [Hint(text: "r reload", importance: 3), quit]
      case .loading, .noMatch:
        // A filter that names a sub-breed, or misspells a name (no match), opens it with Enter.
        let open = dogs.offered.map { [Hint(text: "Enter open \($0.title)", importance: 3)] } ?? []
        return open + typing + [switchTab, Hint(text: "Esc clear", importance: 1)] + reload + [quit]
      }
    }
  }
}
