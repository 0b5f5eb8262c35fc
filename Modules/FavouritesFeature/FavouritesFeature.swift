import Core
import DogAPIClient
import TextRendering

/// The Favourites tab: the starred breeds and sub-breeds, one ``FavouriteRow`` each, with
/// a keyboard highlight; un-starring, clearing them all (after a confirmation dialog) and
/// opening one.
///
/// The favourites themselves are not this feature's: a parent owns the set and projects it
/// in (``State/favourites``), as AppFeature does for all its screens. The rows follow the
/// set, in order of API name (a breed's sub-breeds under it), whenever the feature runs:
/// a favourite starred elsewhere gets a row on the next ``Action/appeared``, and one
/// un-starred loses its row, which cancels its thumbnail's load. Only rows near the
/// highlight load thumbnails (``State/rowsNearby`` either side); rows that fall further
/// away stop loading.
public struct FavouritesFeature: Reducer {
  // MARK: State

  /// The tab's state.
  public struct State: Equatable {
    /// The user's favourites, by API name: owned by a parent and projected in.
    public var favourites: Set<String>
    /// One row per favourite, in the order shown.
    public var rows: IdentifiedArrayOf<FavouriteRow.State>
    /// The favourite the keyboard highlight is on, if any.
    public var highlighted: String?
    /// The dialog that asks before every favourite is cleared, while it is up.
    public var confirmationDialog: ConfirmationDialogState<Action.Dialog>?
    /// The dialog's focused button: what Enter chooses.
    public var dialogFocus: Int

    /// How many rows either side of the highlight load their thumbnails.
    public static let rowsNearby = 10

    /// Creates the state.
    public init(
      favourites: Set<String> = [], rows: IdentifiedArrayOf<FavouriteRow.State> = [],
      highlighted: String? = nil,
      confirmationDialog: ConfirmationDialogState<Action.Dialog>? = nil, dialogFocus: Int = 0
    ) {
      self.favourites = favourites
      self.rows = rows
      self.highlighted = highlighted
      self.confirmationDialog = confirmationDialog
      self.dialogFocus = dialogFocus
    }

    /// The favourites in the order the tab shows them: ``FavouritesFeature/titleOrder(_:)``.
    public var ordered: [String] { FavouritesFeature.titleOrder(favourites) }

    /// The highlighted favourite's place in ``ordered``: the highlight's, or the first row
    /// where the highlighted one is gone.
    func highlightedIndex(in ordered: [String]) -> Int? {
      guard !ordered.isEmpty else { return nil }
      return highlighted.flatMap { ordered.firstIndex(of: $0) } ?? 0
    }
  }

  /// Favourites in the order people read them, wherever they are listed (this tab,
  /// `DogBreedsCLI favourites`, its JSON): by the names shown (`Afghan Hound` before
  /// `Akita`), then by API name.
  ///
  /// - Parameter favourites: Breeds and sub-breeds by API name (`hound/afghan`).
  /// - Returns: Their API names in that order.
  public static func titleOrder(_ favourites: some Sequence<String>) -> [String] {
    titled(favourites).map(\.id)
  }

  /// Favourites with the names shown for them, in ``titleOrder(_:)``.
  ///
  /// - Parameter favourites: Breeds and sub-breeds by API name (`hound/afghan`).
  /// - Returns: Each one's API name and title (`Afghan Hound`), in that order.
  public static func titled(_ favourites: some Sequence<String>) -> [(id: String, title: String)] {
    favourites.map { id in
      let parts = BreedName.parts(ofPath: id)
      return (id: id, title: String.breedTitle(parts.breed, subBreed: parts.subBreed))
    }
    .sorted { ($0.title, $0.id) < ($1.title, $1.id) }
  }

  // MARK: Action

  /// What can happen on the Favourites tab.
  public enum Action: Equatable, Sendable, Codable {
    /// The tab is on screen (shown, or its favourites changed while it was): the rows
    /// follow the favourites, and those near the highlight load their thumbnails.
    case appeared
    /// The highlight moved: by a key, or to the favourite clicked (by API name; where it is
    /// no longer a favourite, the highlight stays).
    case highlightMoved(HighlightMove)
    /// The user un-starred the highlighted favourite.
    case favouriteToggled
    /// The user asked to open the highlighted favourite.
    case highlightedRowOpened
    /// The user asked to open this favourite (by API name: its row was clicked); nothing
    /// opens where it is no longer a favourite.
    case rowOpened(String)
    /// The user asked to clear every favourite: the dialog asks first.
    case clearAllRequested
    /// The user asked for the thumbnails that failed to be tried again.
    case failedThumbnailsRetried
    /// The dialog's buttons: one was chosen, or it was dismissed.
    case confirmationDialog(PresentationAction<Dialog>)
    /// The dialog's focus moved by this many buttons (wrapping round).
    case dialogFocusMoved(Int)
    /// An action of one row.
    case rows(id: String, action: FavouriteRow.Action)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the dialog's buttons do.
    public enum Dialog: Equatable, Sendable, Codable {
      /// Clear every favourite.
      case clearAll
    }

    /// What the tab tells its parent.
    public enum Delegate: Equatable, Sendable, Codable {
      /// Open this breed, or this sub-breed of it (API names).
      case open(breed: String, subBreed: String?)
    }
  }

  // MARK: Dependencies

  let client: DogAPIClient
  /// The fewest pixels a thumbnail is decoded to; `nil`: no thumbnails, nothing downloaded.
  let thumbnailSize: (width: Int, height: Int)?

  /// Creates the feature.
  ///
  /// - Parameters:
  ///   - client: The API the thumbnails come from.
  ///   - thumbnailSize: The fewest pixels each way a thumbnail is decoded to, or `nil` for
  ///     rows without thumbnails.
  public init(client: DogAPIClient, thumbnailSize: (width: Int, height: Int)? = nil) {
    self.client = client
    self.thumbnailSize = thumbnailSize
  }

  // MARK: Reducer

  /// The tab's own reducer, each row's, and the dialog while it is up.
  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .appeared:
        let ordered = state.ordered
        // The highlight is pinned to the row it is on: a favourite added elsewhere that sorts
        // before it does not take it.
        if let index = state.highlightedIndex(in: ordered) { state.highlighted = ordered[index] }
        return rowsFollowFavourites(&state, ordered)

      case .highlightMoved(let move):
        let ordered = state.ordered
        guard let target = move.target(in: ordered, from: state.highlightedIndex(in: ordered)) else {
          return .none
        }
        state.highlighted = ordered[target]
        return rowsFollowFavourites(&state, ordered)

      case .favouriteToggled:
        var ordered = state.ordered
        guard let index = state.highlightedIndex(in: ordered) else { return .none }
        state.favourites.remove(ordered.remove(at: index))
        // The highlight stays in place: on the row after, or the new last one.
        state.highlighted = ordered.isEmpty ? nil : ordered[min(index, ordered.count - 1)]
        return rowsFollowFavourites(&state, ordered)

      case .highlightedRowOpened:
        let ordered = state.ordered
        guard let index = state.highlightedIndex(in: ordered) else { return .none }
        return open(ordered[index])

      case .rowOpened(let id):
        guard state.favourites.contains(id) else { return .none }
        return open(id)

      case .clearAllRequested:
        guard !state.favourites.isEmpty else { return .none }
        let count = state.favourites.count
        state.confirmationDialog = ConfirmationDialogState(
          title: "Clear all favourites?",
          message: count == 1
            ? "This un-stars your one favourite." : "This un-stars all \(count) favourites.",
          buttons: [
            ButtonState(role: .destructive, "Clear all", action: .clearAll),
            ButtonState(role: .cancel, "Keep"),
          ])
        // Keeping them is what Enter does unless the user moves to the other button.
        state.dialogFocus = 1
        return .none

      case .confirmationDialog(.presented(.clearAll)):
        state.favourites = []
        state.highlighted = nil
        return rowsFollowFavourites(&state, [])

      case .confirmationDialog(.dismiss):
        return .none

      case .dialogFocusMoved(let step):
        guard let buttons = state.confirmationDialog?.buttons else { return .none }
        state.dialogFocus = buttons.indices.index(state.dialogFocus, cyclingBy: step)
        return .none

      case .failedThumbnailsRetried:
        return retryingFailedThumbnails(&state)

      case .rows(_, .thumbnailResponse(.success)):
        // The network works again: the rows that failed load again, those in view now and
        // the others as they come into view.
        return retryingFailedThumbnails(&state)

      case .rows, .delegate:
        return .none
      }
    }
    .forEach(\.rows, action: Action.rows) {
      FavouriteRow(client: client, thumbnailSize: thumbnailSize)
    }
    .ifLet(\.confirmationDialog, action: Action.confirmationDialog)
  }

  /// Tells the parent to open the favourite `id`.
  private func open(_ id: String) -> Effect<Action> {
    let row = FavouriteRow.State(id: id)
    return .send(.delegate(.open(breed: row.breed, subBreed: row.subBreed)))
  }

  /// Sets every failed thumbnail back to not loaded, and loads those near the highlight.
  private func retryingFailedThumbnails(_ state: inout State) -> Effect<Action> {
    for id in state.rows.ids {
      if case .failed = state.rows[id: id]?.thumbnail { state.rows[id: id]?.thumbnail = .notLoaded }
    }
    return rowsFollowFavourites(&state, state.ordered)
  }

  /// Brings the rows in step with the favourites, `ordered` as ``State/ordered`` gives
  /// them (a removed row's load is cancelled by `forEach`), then starts the thumbnails near
  /// the highlight and stops those far from it.
  private func rowsFollowFavourites(_ state: inout State, _ ordered: [String]) -> Effect<Action> {
    if state.rows.ids != ordered {
      state.rows = IdentifiedArray(ordered.map { state.rows[id: $0] ?? FavouriteRow.State(id: $0) })
    }
    guard thumbnailSize != nil, let highlighted = state.highlightedIndex(in: ordered) else { return .none }
    var effects: [Effect<Action>] = []
    for (index, row) in state.rows.enumerated() {
      let isNear = abs(index - highlighted) <= State.rowsNearby
      if isNear, row.thumbnail == .notLoaded {
        effects.append(.send(.rows(id: row.id, action: .cameIntoView)))
      } else if !isNear, row.thumbnail == .loading {
        effects.append(.send(.rows(id: row.id, action: .wentOutOfView)))
      }
    }
    return .merge(effects)
  }
}
