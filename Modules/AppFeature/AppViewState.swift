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
          rows: (AppFeature.keys(of: place) + AppFeature.keys(of: .everywhere)).map {
            ModalBox.Row($0.keys, $0.does)
          },
          scroll: help.scroll)
      }
      modal =
        keys ?? state.alert.map { alert in
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
      if showsKeys {
        return [Hint(text: "↑↓ scroll", importance: 1), Hint(text: "Esc close", importance: 4)]
      }
      let place: KeyBinding.Place =
        modal != nil ? .modal : breed != nil ? .breed : favourites != nil ? .favouritesTab : .breedsTab
      let bindings = AppFeature.keys(of: place) + (place == .modal ? [] : AppFeature.keys(of: .everywhere))
      return bindings.compactMap { binding in
        guard let hint = binding.hint, let text = offered(binding.name, hint.text) else { return nil }
        return Hint(text: text, importance: hint.importance)
      }
    }

    /// The hint `text` of the binding `name`, as it reads now, where the screen offers it
    /// now; `nil` where it does not.
    private func offered(_ name: KeyBinding.Name, _ text: String) -> String? {
      switch name {
      // One button: nothing to move to.
      case .buttonMove: return (modal?.buttons.count ?? 0) > 1 ? text : nil
      case .buttonChoose, .buttonCancel, .help, .quit: return text
      default: break
      }
      if let breed {
        switch name {
        // Asking again cannot help (working offline, a breed the API does not know).
        case .anotherPicture: if case .failed(_, canRetry: false) = breed.imageURL { return nil }
        // Any failure asking again may mend: the address's, the picture's, another's.
        case .retryPicture: return breed.offersRetry ? text : nil
        case .subBreedMove: return breed.subBreeds.isEmpty ? nil : text
        case .starShown: return breed.isFavourite ? "f unstar" : text
        default: break
        }
        return text
      }
      if let favourites {
        switch name {
        case .retryThumbnails: return favourites.anyThumbnailFailed ? text : nil
        case .move, .open, .unstar, .clearAll: return favourites.rows.isEmpty ? nil : text
        default: return text
        }
      }
      let (lists, loaded): (Bool, Bool)
      switch dogs.content {
      case .loaded: (lists, loaded) = (true, true)
      case .loading, .noMatch: (lists, loaded) = (true, false)
      case .failed, .empty: (lists, loaded) = (false, false)
      }
      switch name {
      case .retryList:
        switch dogs.content {
        case .failed(_, let canRetry): return canRetry ? text : nil
        // The API answered with no breeds: filtering has nothing to work on; asking again may help.
        case .empty: return "r reload"
        case .loaded, .loading, .noMatch: return nil
        }
      // A filter that names a sub-breed, or misspells a name (no match), opens it with Enter.
      case .openOffered:
        guard !loaded, let offered = dogs.offered else { return nil }
        return "Enter open \(offered.title)"
      case .move, .open, .star: return loaded ? text : nil
      case .filterType, .switchTab, .filterClear: return lists ? text : nil
      // A list standing in for the network's after a failure that may pass can be loaded again.
      case .reload: return lists && dogs.reloadMayHelp && !dogs.isReloading ? text : nil
      default: return text
      }
    }
  }
}
