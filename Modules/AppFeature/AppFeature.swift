import BreedFeature
import Core
import DogAPIClient
import DogsFeature

/// The whole app: the Dogs list, and the Breed screen over it when a breed is open.
///
/// The breed list is owned here, once (``State/breeds``), and projected into the Dogs
/// feature's state (``State/dogs``): the list feature reads and writes `breeds` as if it
/// were its own, while the app keeps the rest of the Dogs state (filter, load status,
/// highlight) beside it. When the Dogs feature reports a chosen breed, the Breed state is
/// made from the shared list; dismissing the Breed screen sets it back to `nil`, which
/// cancels anything it still has in flight.
public struct AppFeature: Reducer {
  // MARK: State

  /// The app's state: the shared list, the Dogs fields kept beside it, the open Breed screen.
  public struct State: Equatable {
    /// The shared breed list, owned here once.
    public var breeds: BreedList?
    /// The Dogs feature's own fields, kept beside the shared list.
    public var dogsFilter: String
    /// The Dogs feature's load status.
    public var dogsStatus: DogsFeature.State.Status
    /// The breed the Dogs list's keyboard highlight is on.
    public var dogsHighlighted: String?
    /// The open Breed screen, if any.
    public var breed: BreedFeature.State?
    /// A one-sentence notice for the user (e.g. a breed that is not in the list).
    public var notice: String?

    /// Creates the state; the defaults are an app that has not loaded anything yet.
    public init(
      breeds: BreedList? = nil, dogsFilter: String = "", dogsStatus: DogsFeature.State.Status = .notStarted,
      dogsHighlighted: String? = nil, breed: BreedFeature.State? = nil, notice: String? = nil
    ) {
      self.breeds = breeds
      self.dogsFilter = dogsFilter
      self.dogsStatus = dogsStatus
      self.dogsHighlighted = dogsHighlighted
      self.breed = breed
      self.notice = notice
    }

    /// The Dogs feature's state: the shared list joined with the Dogs fields kept here.
    ///
    /// Reading builds it; writing splits it back, so a list the Dogs feature loads lands
    /// in ``breeds`` and a list the app changes is what the Dogs feature sees.
    public var dogs: DogsFeature.State {
      get {
        DogsFeature.State(
          breeds: breeds, filter: dogsFilter, status: dogsStatus, highlighted: dogsHighlighted)
      }
      set {
        breeds = newValue.breeds
        dogsFilter = newValue.filter
        dogsStatus = newValue.status
        dogsHighlighted = newValue.highlighted
      }
    }
  }

  // MARK: Action

  /// What can happen in the app: either screen's actions, and the app's own.
  public enum Action: Equatable, Sendable {
    /// An action of the Dogs screen (the list), delegates included.
    case dogs(DogsFeature.Action)
    /// An action of the Breed screen, while one is open.
    case breed(BreedFeature.Action)
    /// The user left the Breed screen.
    case breedScreenDismissed
    /// The user acknowledged the notice.
    case noticeDismissed

    /// How Dogs actions sit in ``Action/dogs(_:)``; `Scope` and `scope` use it.
    public static let dogsPath = CasePath<Action, DogsFeature.Action>(embed: Action.dogs) {
      if case .dogs(let action) = $0 { action } else { nil }
    }
    /// How Breed actions sit in ``Action/breed(_:)``; `ifLet` uses it.
    public static let breedPath = CasePath<Action, BreedFeature.Action>(embed: Action.breed) {
      if case .breed(let action) = $0 { action } else { nil }
    }
  }

  // MARK: Dependencies

  let client: DogAPIClient
  /// The Breed screen's reducer, made once with the picture size it is given.
  let breedFeature: BreedFeature

  /// Creates the app feature.
  ///
  /// - Parameters:
  ///   - client: The API, passed to both screens.
  ///   - pictureSize: Passed to the Breed screen: download and decode pictures to about
  ///     this many pixels, or `nil` to show only their addresses.
  public init(client: DogAPIClient, pictureSize: (width: Int, height: Int)? = nil) {
    self.client = client
    self.breedFeature = BreedFeature(client: client, pictureSize: pictureSize)
  }

  /// Creates the app feature for a screen whose size can change.
  ///
  /// - Parameters:
  ///   - client: The API, passed to both screens.
  ///   - pictureSize: Passed to the Breed screen: the pixels a picture should have when it
  ///     arrives (the screen's size then); called off the main actor.
  public init(client: DogAPIClient, pictureSize: @escaping @Sendable () -> (width: Int, height: Int)) {
    self.client = client
    self.breedFeature = BreedFeature(client: client, pictureSize: pictureSize)
  }

  // MARK: Reducer

  /// The Dogs feature on the projected state, the app's own reducer, and the Breed feature while a
  /// breed is open.
  public var body: some Reducer<State, Action> {
    Scope(state: \.dogs, action: Action.dogsPath) { DogsFeature(client: client) }
    Reduce { state, action in
      switch action {
      case .dogs(.delegate(.breedSelected(let name))):
        guard let breed = state.breeds?.breed(named: name) else {
          state.notice = "“\(name)” is not in the breed list."
          return .none
        }
        state.notice = nil
        state.breed = BreedFeature.State(breed: breed)
        return .none

      case .dogs(.delegate(.subBreedSelected(let name, let subBreed))):
        guard let breed = state.breeds?.breed(named: name), breed.subBreeds.contains(subBreed) else {
          state.notice = "“\(subBreed) \(name)” is not in the breed list."
          return .none
        }
        state.notice = nil
        state.breed = BreedFeature.State(breed: breed, subBreed: subBreed, highlighted: subBreed)
        return .none

      case .dogs:
        return .none

      case .breed:
        return .none

      case .breedScreenDismissed:
        state.breed = nil
        return .none

      case .noticeDismissed:
        state.notice = nil
        return .none
      }
    }
    .ifLet(\.breed, action: Action.breedPath) { breedFeature }
  }
}
