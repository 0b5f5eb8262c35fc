import Core
import FavouritesClient
import FavouritesFeature

/// Favourites kept on disk: read at start and when another process changes them, saved a
/// moment after each change (a burst is one save), merged with what the file holds.
extension AppFeature {
  /// How long after the last change favourites are saved: a burst of changes is one save.
  static let saveDelay = Duration.seconds(1)
  /// How often a save held up by another process's lock is tried again.
  static let lockRetryInterval = Duration.milliseconds(100)
  /// How many attempts a save makes while another process holds the lock: an ordinary
  /// save, a few seconds' worth; quitting, a second's (Ctrl-C is obeyed within a second,
  /// by the alert that then asks); an immediate save, one.
  enum Patience: Int {
    case usual = 30
    case quitting = 10
    case none = 1
  }

  /// Takes favourites read or saved, keeping the changes not saved yet (and all it shows,
  /// where the file could not be read); a notice that comes with them (a damaged file, or
  /// where it was kept aside) stays on screen until dismissed.
  static func apply(_ loaded: FavouritesLoad, to state: inout State) {
    // A file that cannot be read says nothing of what is saved: the app keeps what it
    // shows, and its next save writes all of it in a new file.
    if !loaded.isDamaged {
      state.favourites = applyingUnsaved(
        state.favourites, since: state.savedFavourites, to: loaded.favourites)
      state.savedFavourites = loaded.favourites
    }
    defer { state.favouritesNotice = loaded.notice }
    if let notice = loaded.notice, notice != state.favouritesNotice {
      state.alert = AlertState(
        title: "Favourites file damaged", message: notice, buttons: [ButtonState(role: .cancel, "OK")])
      state.alertFocus = 0
    }
  }

  /// `saved` with what `favourites` changed since they were `last` read or saved (their
  /// unsaved additions and removals) applied: a load or a save never undoes a change not
  /// saved yet.
  static func applyingUnsaved(_ favourites: Set<String>, since last: Set<String>, to saved: Set<String>)
    -> Set<String>
  {
    saved.union(favourites.subtracting(last)).subtracting(last.subtracting(favourites))
  }

  /// Reads the favourites, if there is somewhere they are kept.
  func loadFavourites() -> Effect<Action> {
    guard let favouritesClient else { return .none }
    return .run { send in
      let loaded: Result<FavouritesLoad, FavouritesError>
      do throws(FavouritesError) {
        loaded = .success(try await favouritesClient.load())
      } catch {
        loaded = .failure(error)
      }
      await send(.favouritesLoaded(loaded))
    }
    .cancellable(id: CancelID.loadFavourites, cancelInFlight: true)
  }

  /// Saves what the favourites added and removed since they were last read or saved
  /// (``State/unsavedFavourites``), after `delay` (restarted by each change, so a burst is
  /// one save), or at once; nothing to save cancels a save that was waiting. While another
  /// process holds the lock, it says so (``Action/favouritesSaveWaiting``) and tries again
  /// every ``lockRetryInterval``, `patience` attempts in all.
  func saveFavourites(_ state: State, after delay: Duration? = nil, patience: Patience = .usual)
    -> Effect<Action>
  {
    guard let favouritesClient else { return .none }
    let change = state.unsavedFavourites
    guard !change.isEmpty else { return .cancel(id: CancelID.saveFavourites) }
    return .run { [clock] send in
      if let delay { try await clock.sleep(for: delay) }
      var saved: Result<FavouritesLoad, FavouritesError>
      var attempts = 1
      while true {
        do throws(FavouritesError) {
          saved = .success(try await favouritesClient.save(change))
        } catch {
          saved = .failure(error)
        }
        guard case .failure(let error) = saved, error.isBusy, attempts < patience.rawValue else { break }
        if attempts == 1 { await send(.favouritesSaveWaiting) }
        attempts += 1
        try await clock.sleep(for: Self.lockRetryInterval)
      }
      await send(.favouritesSaved(saved))
    }
    .cancellable(id: CancelID.saveFavourites, cancelInFlight: true)
  }

  /// The changes in words, breeds by their titles: `starred Boxer, Pug; un-starred Akita`.
  public static func describe(_ change: FavouritesChange) -> String {
    func names(_ ids: Set<String>) -> String {
      FavouritesFeature.titled(ids).map(\.title).joined(separator: ", ")
    }
    var parts: [String] = []
    if !change.added.isEmpty { parts.append("starred \(names(change.added))") }
    if !change.removed.isEmpty { parts.append("un-starred \(names(change.removed))") }
    return parts.joined(separator: "; ")
  }
}
