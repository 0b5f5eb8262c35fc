import BreedFeature
import Core
import DogAPIClient
import DogsFeature
import FavouritesClient
import FavouritesFeature
import Foundation

extension AppFeature {
  /// The app's state: the shared list, the Dogs fields kept beside it, the open Breed screens.
  public struct State: Equatable {
    /// The shared breed list, owned here once.
    public var breeds: BreedList?
    /// The Breeds tab's own state: the Dogs feature's, its `breeds` and `favourites` left
    /// empty (``dogs`` joins them with the app's).
    public var dogsTab: DogsFeature.State
    /// The tab shown under the Breed screen: Breeds or Favourites.
    public var tab: Tab
    /// The Favourites tab's own fields (its `favourites` stay empty: ``favouritesScreen``
    /// joins them with the app's).
    public var favouritesTab: FavouritesFeature.State
    /// The Breed screens open over the tab, bottom first: a breed opened from a tab, and
    /// over it the sub-breed chosen there. Empty: the tab shows.
    public var path: Stack<BreedFeature.State>
    /// The Breed screen on top, the one shown, if any (the top of ``path``). Setting it
    /// replaces that screen, or opens one where none is open; setting `nil` closes them all.
    public var breed: BreedFeature.State? {
      get { path.last }
      set {
        guard let newValue else { return path.removeAll() }
        if path.isEmpty { path.push(newValue) } else { path[path.endIndex - 1] = newValue }
      }
    }
    /// A one-sentence notice for the user (e.g. a breed that is not in the list).
    public var notice: String?
    /// The user's favourites, owned here once: breeds and sub-breeds by API name.
    public var favourites: Set<String>
    /// The favourites as last read or saved: what ``favourites`` adds and removes is what
    /// the next save sends.
    public var savedFavourites: Set<String>
    /// The notice the last read or save of the favourites came with (a damaged file), so
    /// that reading the same damaged file again does not put the same alert up again.
    public var favouritesNotice: String?
    /// Why the last save of the favourites failed, until one succeeds: changes shown but
    /// not saved are then in ``unsavedFavourites``.
    public var favouritesSaveFailure: String?
    /// An alert over the screens (favourites that could not be saved, a favourites file
    /// kept aside), if any.
    public var alert: AlertState<Action.Alert>?
    /// The alert's focused button: what Enter chooses.
    public var alertFocus: Int
    /// Whether a save of the favourites is waiting for another process's save to end.
    public var isWaitingForFavouritesLock = false
    /// Where quitting stands once the user asked to quit; `nil` while the app runs on.
    public var quitting: Quitting?
    /// The keys overlay (`?`), while it shows.
    public var help: Help?
    /// The terminal the app draws on, and how it draws there.
    public var screen = Screen()

    /// The keys overlay's state: how far it is scrolled, in lines.
    public struct Help: Equatable, Sendable {
      /// The first line shown.
      public var scroll = 0

      /// Creates the state of an overlay scrolled to `scroll`.
      public init(scroll: Int = 0) { self.scroll = scroll }
    }

    /// Whether something is drawn over the screens: the keys overlay, an alert, or the
    /// Favourites tab's dialog.
    public var isCovered: Bool {
      help != nil || alert != nil || (tab == .favourites && favouritesTab.confirmationDialog != nil)
    }

    /// Whether each Breed screen's animation is covered, for the screens where one plays
    /// (what ``AppFeature`` tells a Breed screen when it changes): by what is drawn over
    /// the screens, or by another Breed screen pushed over it.
    var animationsCovered: [StackElementID: Bool] {
      var covered: [StackElementID: Bool] = [:]
      for (id, screen) in zip(path.ids, path) {
        guard case .animated = screen.picture else { continue }
        covered[id] = isCovered || id != path.ids.last
      }
      return covered
    }

    /// The favourites the Favourites tab shows, while it shows (no Breed screen over it);
    /// `nil` otherwise. The tab's rows follow it.
    var favouritesShown: Set<String>? { tab == .favourites && path.isEmpty ? favourites : nil }

    /// Where the keys apply now (an alert or a dialog aside): the screen shown.
    public var keyPlace: KeyPlace {
      breed != nil ? .breed : tab == .favourites ? .favouritesTab : .breedsTab
    }

    /// Where quitting stands.
    public enum Quitting: Equatable, Sendable {
      /// The favourites' changes are being saved first.
      case saving
      /// They could not be saved: the alert asks whether to try again or quit without them.
      case asking
      /// Nothing is left to save: the app may end.
      case ready
      /// The user chose to quit with changes unsaved.
      case withoutSaving
    }

    /// What the app shows as changed in the favourites but has not saved: the additions and
    /// removals since they were last read or saved.
    public var unsavedFavourites: FavouritesChange {
      FavouritesChange(
        added: favourites.subtracting(savedFavourites), removed: savedFavourites.subtracting(favourites),
        known: favourites)
    }

    /// Creates the state; the defaults are an app that has not loaded anything yet.
    public init(
      breeds: BreedList? = nil, dogsFilter: String = "", dogsStatus: DogsFeature.State.Status = .notStarted,
      dogsHighlighted: String? = nil, tab: Tab = .breeds, favouritesTab: FavouritesFeature.State = .init(),
      breed: BreedFeature.State? = nil, notice: String? = nil,
      favourites: Set<String> = [], savedFavourites: Set<String> = [],
      alert: AlertState<Action.Alert>? = nil, alertFocus: Int = 0
    ) {
      self.breeds = breeds
      self.dogsTab = DogsFeature.State(filter: dogsFilter, status: dogsStatus, highlighted: dogsHighlighted)
      self.tab = tab
      self.favouritesTab = favouritesTab
      self.path = breed.map { [$0] } ?? []
      self.notice = notice
      self.favourites = favourites
      self.savedFavourites = savedFavourites
      self.alert = alert
      self.alertFocus = alertFocus
    }

    /// The Dogs feature's state: ``dogsTab`` with the shared list and favourites in it.
    ///
    /// Reading builds it; writing splits it back, so a list the Dogs feature loads lands
    /// in ``breeds`` and a list the app changes is what the Dogs feature sees. Only what
    /// features share is projected: a field the Dogs feature adds is kept with no edit here.
    public var dogs: DogsFeature.State {
      get {
        var dogs = dogsTab
        dogs.breeds = breeds
        dogs.favourites = favourites
        return dogs
      }
      set {
        breeds = newValue.breeds
        favourites = newValue.favourites
        dogsTab = newValue
        dogsTab.breeds = nil
        dogsTab.favourites = []
      }
    }

    /// The app's tabs, in the order Tab cycles through them.
    public enum Tab: Equatable, Sendable, CaseIterable, Codable {
      /// The breed list.
      case breeds
      /// The favourites.
      case favourites
    }

    /// The Favourites tab's state with the favourites in it: what the Favourites feature
    /// runs on. ``favouritesTab`` keeps the rest.
    public var favouritesScreen: FavouritesFeature.State {
      get {
        var screen = favouritesTab
        screen.favourites = favourites
        return screen
      }
      set {
        favourites = newValue.favourites
        favouritesTab = newValue
        favouritesTab.favourites = []
      }
    }

    /// The Breed screens with the favourites in each: what the Breed feature runs on.
    /// ``path`` keeps the rest (its screens' own `favourites` stay empty). Writing takes
    /// the favourites of the screen that changed them (an action changes one screen).
    public var breedScreens: Stack<BreedFeature.State> {
      get {
        var screens = path
        for index in screens.indices { screens[index].favourites = favourites }
        return screens
      }
      set {
        if let changed = newValue.first(where: { $0.favourites != favourites }) {
          favourites = changed.favourites
        }
        path = newValue
        for index in path.indices { path[index].favourites = [] }
      }
    }

    /// The Breed screen on top with the favourites in it, while a breed is open.
    public var breedScreen: BreedFeature.State? { breedScreens.last }
  }
}
