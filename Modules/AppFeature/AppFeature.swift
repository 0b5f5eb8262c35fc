import BreedFeature
import Core
import DogAPIClient
import DogsFeature
import FavouritesClient
import FavouritesFeature
import Foundation

/// The whole app: two tabs, Breeds (the Dogs list) and Favourites, and a stack of Breed
/// screens over either once a breed is open.
///
/// The breed list is owned here, once (``State/breeds``), and projected into the Dogs
/// feature's state (``State/dogs``): the list feature reads and writes `breeds` as if it
/// were its own, while the app keeps the rest of the Dogs state (filter, load status,
/// highlight) beside it. When the Dogs feature (or the Favourites tab) reports a chosen
/// breed, a Breed screen made from the shared list is pushed on ``State/path``; choosing a
/// sub-breed on a breed's screen pushes the sub-breed's screen over it. Going back pops the
/// top screen (``Action/breedScreenDismissed``), which cancels anything it still has in
/// flight; once the stack is empty, the tab shows again, its highlight where it was.
///
/// The favourites are owned here too, once (``State/favourites``), and projected into every
/// screen's state (``State/dogs``, ``State/breedScreens``, ``State/favouritesScreen``), which
/// star and un-star them as if they were their own. With a
/// ``FavouritesClient``, the app loads them when it starts (``Action/appeared``) and again
/// when the list is shown again, and saves what changed a second after the last change
/// (``Action/saveFavouritesNow`` saves at once).
///
/// Nothing the app shows as saved is lost without a word. A save that another process
/// holds up (it holds the file's lock) is tried again for a few seconds while the screen
/// says so (``State/isWaitingForFavouritesLock``); one that fails puts up an alert. Asking
/// to quit (``Action/quitRequested``) saves first, and where that fails, asks whether to
/// try again or quit without saving (``State/quitting``).
public struct AppFeature: Reducer {
  // MARK: Action

  /// What can happen in the app: either screen's actions, and the app's own.
  public enum Action: Equatable, Sendable, Codable {
    /// An action of the Dogs screen (the list), delegates included.
    case dogs(DogsFeature.Action)
    /// An action of the Favourites tab, delegates included.
    case favourites(FavouritesFeature.Action)
    /// The user switched to this tab.
    case tabSelected(State.Tab)
    /// An action of one Breed screen of ``State/path``, by its id, or the popping of a
    /// screen and those over it.
    case path(StackAction<BreedFeature.Action>)
    /// An action of the Breed screen on top, the one shown (what its keys and the mouse
    /// send): the same as ``path(_:)`` with ``StackAction/element(id:action:)`` for the
    /// top screen's id; nothing while no Breed screen is open.
    case breed(BreedFeature.Action)
    /// The user went back from the Breed screen on top: the same as ``path(_:)`` with
    /// ``StackAction/popFrom(id:)`` for its id. Popping the last one shows the tab again.
    case breedScreenDismissed
    /// The user acknowledged the notice.
    case noticeDismissed
    /// The app started: the list loads, and so do the favourites.
    case appeared
    /// The favourites were read, or could not be.
    case favouritesLoaded(Result<FavouritesLoad, FavouritesError>)
    /// The favourites were saved (merged with what was saved meanwhile), or could not be.
    case favouritesSaved(Result<FavouritesLoad, FavouritesError>)
    /// The saved favourites changed outside the app (another app or a script saved them):
    /// they are read again.
    case favouritesChangedElsewhere
    /// Save what changed now, in one attempt, not after the usual wait (the app is ending
    /// at once: a signal, the terminal closed).
    case saveFavouritesNow
    /// Another process holds the favourites' lock: the save waits and tries again.
    case favouritesSaveWaiting
    /// The user asked to quit: unsaved changes are saved first (``State/quitting``).
    case quitRequested
    /// The keys overlay opened (`?`).
    case helpShown
    /// The keys overlay scrolled to this line.
    case helpScrolled(to: Int)
    /// The keys overlay closed.
    case helpDismissed
    /// The alert's buttons: one was chosen, or it was dismissed.
    case alert(PresentationAction<Alert>)
    /// The alert's focus moved by this many buttons (wrapping round).
    case alertFocusMoved(Int)
    /// The terminal's settings, size or answers.
    case terminal(TerminalEvent)

    /// What the alert's buttons do.
    public enum Alert: Equatable, Sendable, Codable {
      /// Try saving the favourites again.
      case retrySave
      /// Quit, leaving the changes that could not be saved unsaved.
      case quitWithoutSaving
    }
  }

  // MARK: Dependencies

  let client: DogAPIClient
  /// What time it is, passed to the screens that read it in their effects.
  let now: @Sendable () -> Date
  /// The Breed screen's reducer, made once with the picture size it is given.
  let breedFeature: BreedFeature
  /// The Favourites tab's reducer: thumbnails where there are pictures.
  let favouritesFeature: FavouritesFeature
  /// Where favourites are kept; `nil`: they last as long as the app.
  let favouritesClient: FavouritesClient?
  /// What the wait before saving favourites is measured on.
  let clock: any Clock<Duration>
  /// What ends the app, once quitting is decided (``State/quitting``); `nil` where nothing
  /// runs the app but the reducer (a replay, a command that prints and exits).
  let end: (@Sendable () async -> Void)?
  /// The fewest pixels a Favourites row's thumbnail is decoded to: enough for the few
  /// rows of cells it is drawn in.
  public static let thumbnailSize = (width: 32, height: 24)
  enum CancelID { case saveFavourites, loadFavourites }

  /// Creates the app feature.
  ///
  /// - Parameters:
  ///   - client: The API, passed to every screen.
  ///   - pictureSize: Passed to the Breed screen: the pixels a picture should have when it
  ///     arrives (the screen's size then; called off the main actor), or `nil` to show only
  ///     pictures' addresses. With pictures, Favourites rows show thumbnails.
  ///   - motion: Passed to the Breed screen: whether its animated pictures play (they
  ///     hold their frame while something is drawn over them, ``State/isCovered``).
  ///     Favourites rows' thumbnails are still.
  ///   - favourites: Where favourites are kept, or `nil` for none.
  ///   - clock: What the wait before a save, and an animation's frames, are measured on.
  ///   - now: What time it is, read by the screens' effects as answers arrive (the actions
  ///     that carry them carry the time too: tests give a fixed one).
  ///   - end: What ends the app: run, as an effect, once quitting is decided (nothing is
  ///     left to save, the user chose to quit without saving, or asked twice).
  public init(
    client: DogAPIClient, pictureSize: (@Sendable () -> (width: Int, height: Int))? = nil,
    motion: BreedFeature.Motion = .still, favourites: FavouritesClient? = nil,
    clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = Date.init,
    end: (@Sendable () async -> Void)? = nil
  ) {
    self.end = end
    self.client = client
    self.now = now
    self.breedFeature = BreedFeature(
      client: client, pictureSize: pictureSize, motion: motion, clock: clock, now: now)
    self.favouritesFeature = FavouritesFeature(
      client: client, thumbnailSize: pictureSize == nil ? nil : Self.thumbnailSize)
    self.favouritesClient = favourites
    self.clock = clock
  }

  // MARK: Reducer

  /// The Dogs feature on the projected state, the app's own reducer, and the Breed feature on
  /// each Breed screen. An action for the top Breed screen (``Action/breed(_:)``,
  /// ``Action/breedScreenDismissed``) is addressed to its id first.
  public var body: some Reducer<State, Action> {
    let app = self.app
    Reduce { state, action in app.reduce(into: &state, action: Self.addressed(action, in: state)) }
  }

  /// `action` with the top Breed screen's id in it, where it is meant for the top screen
  /// (``Action/breed(_:)``, ``Action/breedScreenDismissed``); any other action as it is.
  public static func addressed(_ action: Action, in state: State) -> Action {
    guard let top = state.path.ids.last else { return action }
    switch action {
    case .breed(let action): return .path(.element(id: top, action: action))
    case .breedScreenDismissed: return .path(.popFrom(id: top))
    default: return action
    }
  }

  /// Every reducer of the app, for actions addressed to a screen by id.
  private var app: some Reducer<State, Action> {
    // `onChange` below sees what every reducer here does to the favourites, both screens'.
    CombineReducers {
      Scope(state: \.dogs, action: Action.dogs) { DogsFeature(client: client, now: now) }
      Scope(state: \.favouritesScreen, action: Action.favourites) { favouritesFeature }
      screens
    }
    .onChange(of: \.favourites) { _, _, state in
      saveFavourites(state, after: Self.saveDelay)
    }
    // A Breed screen's animation holds its frame while something is drawn over it, or
    // another screen is pushed over it: told when that changes, and when one starts under it.
    .onChange(of: \.animationsCovered) { old, new, _ in
      .merge(
        new.sorted { $0.key < $1.key }.compactMap { id, covered in
          old[id] == covered || (old[id] == nil && !covered)
            ? nil : .send(.path(.element(id: id, action: .pictureCovered(covered))))
        })
    }
    // A screen that shows starts what it shows, whatever showed it (a key, a click, a
    // command): a Breed screen pushed, or shown again by a pop, its picture (where it has
    // none yet); the Favourites tab its rows, and again whenever its favourites change
    // while it shows (rows follow them, and rows coming into view load their thumbnails).
    .onChange(of: \.path.ids.last, Self.breedShown)
    .onChange(of: \.favouritesShown, Self.favouritesShown)
    // Once nothing is left to save, or the user chose to leave it, the app ends.
    .onChange(of: \.quitting, quittingDecided)
  }

  private static func breedShown(_: StackElementID?, _ shown: StackElementID?, _: inout State) -> Effect<
    Action
  > {
    shown.map { .send(.path(.element(id: $0, action: .appeared))) } ?? .none
  }

  private static func favouritesShown(_: Set<String>?, _ shown: Set<String>?, _: inout State) -> Effect<
    Action
  > {
    shown == nil ? .none : .send(.favourites(.appeared))
  }

  private func quittingDecided(_: State.Quitting?, _ quitting: State.Quitting?, _: inout State) -> Effect<
    Action
  > {
    quitting == .ready || quitting == .withoutSaving ? ending() : .none
  }

  /// The effect that ends the app.
  private func ending() -> Effect<Action> {
    guard let end else { return .none }
    return .run { _ in await end() }
  }

  /// The app's own reducer, and the Breed screen while a breed is open.
  private var screens: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .dogs(.delegate(.breedSelected(let name))):
        Self.open(name, subBreed: nil, in: &state)
        return .none

      case .dogs(.delegate(.subBreedSelected(let name, let subBreed))):
        Self.open(name, subBreed: subBreed, in: &state)
        return .none

      case .favourites(.delegate(.open(let name, let subBreed))):
        Self.open(name, subBreed: subBreed, in: &state)
        return .none

      // An answer from the network: it works again, so the Favourites rows whose
      // thumbnails failed try again (those in view now, the others as they come into view).
      case .dogs(.breedsResponse(.success(let list), _)) where list.source == .network:
        return Self.retryFailedThumbnails(state)

      case .path(.element(_, .pictureResponse(.success, _))),
        .path(.element(_, .imageURLResponse(.success, _))):
        return Self.retryFailedThumbnails(state)

      case .path(.element(let id, .subBreedSelected(let subBreed))):
        Self.choose(subBreed, on: id, in: &state)
        return .none

      case .path(.popFrom(let id)):
        // Back on the tab: what another app or a script changed shows now.
        return id == state.path.ids.first ? loadFavourites() : .none

      case .path:
        return .none

      case .dogs, .favourites:
        return .none

      case .tabSelected(let tab):
        state.tab = tab
        return .none

      case .breed, .breedScreenDismissed:
        // Addressed to the top screen before they get here, where there is one.
        reportIssue(
          "An action for the Breed screen on top arrived while none is open; it was ignored: \(action)")
        return .none

      case .noticeDismissed:
        state.notice = nil
        return .none

      case .appeared:
        return .merge(.send(.dogs(.appeared)), loadFavourites())

      case .favouritesLoaded(.success(let loaded)):
        Self.apply(loaded, to: &state)
        return .none

      case .favouritesChangedElsewhere:
        return loadFavourites()

      case .favouritesLoaded(.failure(let error)):
        // In full, in an alert (a path and a reason do not fit a line); once, not at each
        // read of the same file.
        guard error.message != state.favouritesNotice else { return .none }
        state.favouritesNotice = error.message
        state.alert = AlertState(
          title: "Favourites not read", message: error.message, buttons: [ButtonState(role: .cancel, "OK")])
        state.alertFocus = 0
        return .none

      case .favouritesSaved(.failure(let error)):
        state.favouritesSaveFailure = error.message
        state.isWaitingForFavouritesLock = false
        state.alertFocus = 0
        guard state.quitting == .saving else {
          state.alert = AlertState(
            title: "Favourites not saved",
            message: error.message
              + " The app keeps the changes while it runs, and the next one tries again.",
            buttons: [ButtonState("Try again", action: .retrySave), ButtonState(role: .cancel, "Not now")])
          return .none
        }
        state.quitting = .asking
        state.alert = AlertState(
          title: "Favourites not saved",
          message: error.message + " Quitting now loses " + Self.describe(state.unsavedFavourites) + ".",
          buttons: [
            ButtonState("Try again", action: .retrySave),
            ButtonState("Quit without saving", action: .quitWithoutSaving),
          ])
        return .none

      case .alert(.presented(.retrySave)):
        if state.quitting == .asking { state.quitting = .saving }
        return saveFavourites(state, patience: state.quitting == .saving ? .quitting : .usual)

      case .alert(.presented(.quitWithoutSaving)):
        state.quitting = .withoutSaving
        return .cancel(id: CancelID.saveFavourites)

      case .alert(.dismiss):
        // Esc over the question: not quitting after all.
        if state.quitting == .asking { state.quitting = nil }
        return .none

      case .alertFocusMoved(let step):
        guard let buttons = state.alert?.buttons else { return .none }
        state.alertFocus = buttons.indices.index(state.alertFocus, cyclingBy: step)
        return .none

      case .favouritesSaved(.success(let saved)):
        state.favouritesSaveFailure = nil
        state.isWaitingForFavouritesLock = false
        Self.apply(saved, to: &state)
        guard state.quitting == .saving else { return .none }
        guard state.unsavedFavourites.isEmpty else { return saveFavourites(state, patience: .quitting) }
        state.quitting = .ready
        return .none

      case .favouritesSaveWaiting:
        state.isWaitingForFavouritesLock = true
        return .none

      case .saveFavouritesNow:
        return saveFavourites(state, patience: .none)

      case .terminal(let event):
        return Self.reduce(&state.screen, event, top: state.path.ids.last)

      case .helpShown:
        state.help = State.Help()
        return .none

      case .helpScrolled(let line):
        state.help?.scroll = max(0, line)
        return .none

      case .helpDismissed:
        state.help = nil
        return .none

      case .quitRequested:
        // Asked again while the favourites are saved first, or while the question is up:
        // the app ends at once (what is still unsaved is named as it ends).
        guard state.quitting == nil else { return ending() }
        state.help = nil
        // What is on screen gives way: the question, if one comes, takes its place.
        state.alert = nil
        guard favouritesClient != nil, !state.unsavedFavourites.isEmpty else {
          state.quitting = .ready
          return .none
        }
        state.quitting = .saving
        return saveFavourites(state, patience: .quitting)
      }
    }
    .forEach(\.breedScreens, action: Action.path) { breedFeature }
    .ifLet(\.alert, action: Action.alert)
  }

  /// Asks the Favourites tab to load its failed thumbnails again, if any failed.
  private static func retryFailedThumbnails(_ state: State) -> Effect<Action> {
    let failed = state.favouritesTab.rows.contains { if case .failed = $0.thumbnail { true } else { false } }
    return failed ? .send(.favourites(.failedThumbnailsRetried)) : .none
  }

  /// The notice for a breed, or a breed's sub-breed, that is not in the list.
  public static func notListed(_ name: String, subBreed: String? = nil) -> String {
    "“\(subBreed.map { "\($0) " } ?? "")\(name)” is not in the breed list."
  }

  /// Opens a Breed screen on a breed (or one of its sub-breeds) of the list, over the tab,
  /// or says it is not in it.
  private static func open(_ name: String, subBreed: String?, in state: inout State) {
    guard let breed = state.breeds?.breed(named: name), subBreed.map(breed.subBreeds.contains) ?? true else {
      state.notice = notListed(name, subBreed: subBreed)
      return
    }
    state.notice = nil
    state.path.removeAll()
    state.path.push(BreedFeature.State(breed: breed, subBreed: subBreed, highlighted: subBreed))
  }

  /// What choosing `subBreed` (`nil`: the breed itself) on the Breed screen `id` does. On
  /// a breed's own screen, the sub-breed's screen is pushed over it. On a sub-breed's
  /// screen, the choice takes its place: the breed's own screen under it is shown again,
  /// or another sub-breed's screen replaces it (a new screen, so the old one's effects
  /// are cancelled).
  private static func choose(_ subBreed: String?, on id: StackElementID, in state: inout State) {
    guard let screen = state.path[id: id], subBreed != screen.subBreed else { return }
    if screen.subBreed != nil {
      state.path.pop(from: id)
      if subBreed == nil, let under = state.path.last, under.breed == screen.breed, under.subBreed == nil {
        return
      }
    }
    state.path.push(
      BreedFeature.State(breed: screen.breed, subBreed: subBreed, highlighted: subBreed ?? screen.subBreed))
  }
}
