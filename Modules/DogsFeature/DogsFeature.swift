import Core
import DogAPIClient
import Foundation
import TextRendering

/// The breed list screen: loads the list, filters it as you type, and reports the breed
/// you choose to its parent.
///
/// ```swift
/// let store = Store(initialState: DogsFeature.State()) { DogsFeature(client: .live()) }
/// store.send(.appeared)
/// ```
public struct DogsFeature: Reducer {
  // MARK: State

  /// The breed list screen's state.
  public struct State: Equatable {
    /// The breed list, once loaded. A parent may own it and project it in (AppFeature does).
    public var breeds: BreedList?
    /// The filter as typed.
    public var filter: String
    /// Where loading stands.
    public var status: Status
    /// The breed the keyboard highlight is on (by API name), if any.
    public var highlighted: String?
    /// The user's favourites: breeds and sub-breeds by API name (`hound`, `hound/afghan`).
    /// A parent may own them and project them in (AppFeature does, for both screens).
    public var favourites: Set<String>
    /// How many times in a row loading the list has failed: a retry that fails again says
    /// so, rather than look as if nothing happened.
    public var failures: Int
    /// When loading the list last failed, if it has since it last succeeded.
    public var lastFailure: Date?

    /// Creates the state; by default nothing is loaded yet.
    public init(
      breeds: BreedList? = nil, filter: String = "", status: Status = .notStarted, highlighted: String? = nil,
      favourites: Set<String> = [], failures: Int = 0, lastFailure: Date? = nil
    ) {
      self.breeds = breeds
      self.filter = filter
      self.status = status
      self.highlighted = highlighted
      self.favourites = favourites
      self.failures = failures
      self.lastFailure = lastFailure
    }

    /// Where loading the list stands.
    public enum Status: Equatable, Sendable {
      /// The screen has not appeared yet.
      case notStarted
      /// The request is in flight (over the list of ``State/breeds``, if one is shown).
      case loading
      /// ``State/breeds`` holds the list (fresh, cached or built in).
      case loaded
      /// Loading failed and no list could stand in.
      case failed(DogAPIError)
    }
  }

  // MARK: Action

  /// What can happen on the breed list screen.
  public enum Action: Equatable, Sendable, Codable {
    /// The screen appeared.
    case appeared
    /// The filter text changed (every keystroke).
    case filterChanged(String)
    /// The highlight moved: by a key, or to the breed clicked (by API name; where the rows
    /// shown no longer have it, the highlight stays).
    case highlightMoved(HighlightMove)
    /// A breed was chosen (by API name).
    case rowSelected(String)
    /// The user starred or un-starred the highlighted breed.
    case favouriteToggled
    /// A sub-breed found by the filter was chosen (see ``ViewState/subBreedMatches``).
    case subBreedMatchSelected(breed: String, subBreed: String)
    /// The user asked to load the list again: after a failure, or to replace a list that
    /// is not fresh (saved, built in). A list already shown stays shown meanwhile.
    case retryRequested
    /// The list saved by an earlier run was read, to show while the network answers.
    case savedBreedsLoaded(BreedList)
    /// The list arrived, or loading failed, at this time (what ``State/lastFailure`` is set
    /// to when it failed, or when the list stands in for the network's).
    case breedsResponse(Result<BreedList, DogAPIError>, at: Date)
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the screen tells its parent.
    public enum Delegate: Equatable, Sendable, Codable {
      /// The user chose this breed (API name).
      case breedSelected(String)
      /// The user chose this sub-breed of this breed (API names).
      case subBreedSelected(breed: String, subBreed: String)
    }
  }

  // MARK: Dependencies

  let client: DogAPIClient
  /// What time it is: read by the effect as an answer arrives, never by the reducer.
  let now: @Sendable () -> Date

  /// Creates the feature.
  ///
  /// - Parameters:
  ///   - client: The API; tests start from `DogAPIClient.failing`.
  ///   - now: What time it is, read as an answer arrives and carried in
  ///     ``Action/breedsResponse(_:at:)`` (tests give a fixed one).
  public init(client: DogAPIClient, now: @escaping @Sendable () -> Date = Date.init) {
    self.client = client
    self.now = now
  }

  enum CancelID { case load }

  // MARK: Reducer

  /// Loads the list on first appearance (and on retry), filters on every keystroke, moves the
  /// highlight, and reports a chosen breed through ``Action/delegate(_:)``.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .appeared:
      switch state.status {
      case .loading, .loaded: return .none
      case .notStarted, .failed: return load(&state)
      }

    case .filterChanged(let text):
      state.filter = text
      highlightBestMatch(&state)
      return .none

    case .highlightMoved(let move):
      moveHighlight(&state, move)
      return .none

    case .favouriteToggled:
      guard let name = shownHighlight(state) else { return .none }
      if state.favourites.remove(name) == nil { state.favourites.insert(name) }
      return .none

    case .rowSelected(let name):
      state.highlighted = name
      return .send(.delegate(.breedSelected(name)))

    case .subBreedMatchSelected(let breed, let subBreed):
      return .send(.delegate(.subBreedSelected(breed: breed, subBreed: subBreed)))

    case .retryRequested:
      return load(&state)

    case .savedBreedsLoaded(let list):
      // Only over nothing: a list already shown is as good, and the network's is coming.
      guard state.breeds == nil, state.status == .loading else { return .none }
      state.breeds = list
      if !isHighlightVisible(state) { highlightBestMatch(&state) }
      return .none

    case .breedsResponse(.success(let list), let time):
      state.breeds = list
      state.status = .loaded
      // A list that stands in for the network's after a failure counts as one.
      if list.fallbackReason == nil {
        state.failures = 0
        state.lastFailure = nil
      } else {
        state.failures += 1
        state.lastFailure = time
      }
      // A highlight still in the list stays; otherwise it goes where what was typed while
      // the list loaded aims it (`hou`: Hound), as if it had been typed now.
      if !isHighlightVisible(state) { highlightBestMatch(&state) }
      return .none

    case .breedsResponse(.failure(let error), let time):
      state.failures += 1
      state.lastFailure = time
      // Loading again failed: the list on screen is worth more than an error screen. It
      // stays, with the reason it could not be replaced.
      if state.breeds?.breeds.isEmpty == false {
        state.breeds?.fallbackReason = error
        state.status = .loaded
      } else {
        state.status = .failed(error)
      }
      return .none

    case .delegate:
      return .none
    }
  }

  // MARK: Helpers

  private func load(_ state: inout State) -> Effect<Action> {
    state.status = .loading
    let (client, now) = (client, now)
    // With nothing on screen, the list saved before shows while the network answers.
    let showsSaved = state.breeds == nil
    return .run { send in
      if showsSaved, let saved = client.savedBreeds() { await send(.savedBreedsLoaded(saved)) }
      let response: Result<BreedList, DogAPIError>
      do throws(DogAPIError) {
        response = .success(try await client.breeds())
      } catch {
        response = .failure(error)
      }
      await send(.breedsResponse(response, at: now()))
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }

  /// Whether the highlight is on a row the filter shows.
  /// The breed the list shows highlighted: the highlight where it is among the rows, else
  /// the first row; `nil` where no rows show (as ``ViewState/highlightedBreed``, without
  /// deriving the rest of the screen).
  private func shownHighlight(_ state: State) -> String? {
    guard state.status == .loaded || state.status == .loading, let list = state.breeds else { return nil }
    if isHighlightVisible(state) { return state.highlighted }
    return Self.matches(in: list, filter: state.filter).first.map { list.breeds[$0].name }
  }

  private func isHighlightVisible(_ state: State) -> Bool {
    guard let list = state.breeds, let index = state.highlighted.flatMap(list.index(named:)) else {
      return false
    }
    return SearchQuery(state.filter).matches(list.searchKeys[index])
  }

  /// Puts the highlight where typing aims it: on the breed whose name is the filter, else
  /// on the first whose name starts with it, else on the first row. A highlighted row as
  /// good as those stays highlighted (deleting a letter does not undo a move).
  private func highlightBestMatch(_ state: inout State) {
    guard let list = state.breeds else { return }
    let query = SearchQuery(state.filter)
    let keys = list.searchKeys
    // One pass over the visible rows, stopping at the breed named by the filter.
    var best: (index: Int, rank: Int)?
    for index in Self.matches(in: list, query: query) {
      let rank = query.rank(keys[index])
      guard rank < best?.rank ?? 3 else { continue }
      best = (index, rank)
      if rank == 0 { break }
    }
    guard let best else {
      state.highlighted = nil
      return
    }
    if let current = state.highlighted.flatMap(list.index(named:)),
      query.matches(keys[current]), query.rank(keys[current]) == best.rank
    {
      return
    }
    state.highlighted = list.breeds[best.index].name
  }

  private func moveHighlight(_ state: inout State, _ move: HighlightMove) {
    guard let list = state.breeds else { return }
    let names = Self.matches(in: list, filter: state.filter).lazy.map { list.breeds[$0].name }
    // With nothing highlighted, the list shows its first row highlighted: move from there.
    let current = state.highlighted.flatMap { names.firstIndex(of: $0) } ?? 0
    guard let target = move.target(in: names, from: current) else { return }
    state.highlighted = names[target]
  }
}
