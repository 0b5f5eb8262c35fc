import BreedFeature
import DogsFeature
import TextRendering

/// The whole screen: the Dogs list, or the Breed screen over it, and a status line of key
/// hints at the bottom. Pure: a function of the app state and the screen size.
public enum AppView {
  /// Everything the root view shows, derived from ``AppFeature/State``.
  public struct ViewState: Equatable, Sendable {
    /// The Dogs screen, always underneath.
    public var dogs: DogsFeature.ViewState
    /// The Breed screen, when a breed is open.
    public var breed: BreedFeature.ViewState?
    /// A notice to show over the screens, if any.
    public var notice: String?

    /// Derives everything the screen shows from the app state.
    public init(_ state: AppFeature.State) {
      dogs = DogsFeature.ViewState(state.dogs)
      breed = state.breed.map(BreedFeature.ViewState.init)
      notice = state.notice
    }

    /// The key hints for the screen that is showing.
    public var keyHints: String {
      if let breed {
        var hints: [String] = []
        switch breed.image {
        // Asking again cannot help (working offline, a breed the API does not know).
        case .failed(_, canRetry: false): break
        case .failed(_, canRetry: true): hints += ["n another picture", "r retry"]
        case .loading, .url: hints.append("n another picture")
        }
        if !breed.subBreeds.isEmpty { hints.append("↑↓ Enter sub-breed") }
        hints.append("Esc back")
        hints.append("^C quit")
        return hints.joined(separator: " · ")
      }
      // A list standing in for the network's after a failure that may pass can be loaded
      // again (^R works on any list).
      let reload = dogs.reloadMayHelp && !dogs.isReloading ? "^R reload · " : ""
      switch dogs.content {
      case .failed(_, let canRetry): return canRetry ? "r retry · ^C quit" : "^C quit"
      case .loaded: return "type to filter · ↑↓ move · Enter open · Esc clear · \(reload)^C quit"
      // The API answered with no breeds: filtering has nothing to work on; asking again may help.
      case .empty: return "r reload · ^C quit"
      case .loading, .noMatch:
        // A filter that names a sub-breed, or misspells a name (no match), opens it with Enter.
        let open = dogs.offered.map { "Enter open \($0.title) · " } ?? ""
        return open + "type to filter · Esc clear · \(reload)^C quit"
      }
    }
  }

  /// Whether the screen for `state` shows a spinner, so that the spinner's frame matters.
  ///
  /// Read from the state rather than the view state: a timer asks ten times a second, and
  /// deriving the whole view state (which filters the list) for that would be waste.
  public static func showsSpinner(_ state: AppFeature.State) -> Bool {
    if let breed = state.breed { return breed.image == .loading || breed.picture == .loading }
    return state.dogsStatus == .loading || state.dogsStatus == .notStarted
  }

  /// The node tree for a `width` × `height` screen.
  public static func body(
    _ state: ViewState, width: Int, height: Int, spinnerFrame: Int = 0, unicode: Bool = true,
    pictureMode: PictureMode = .blocks
  ) -> Node {
    let footerRows = state.notice == nil ? 1 : 2
    let screenHeight = max(0, height - footerRows)
    let screen: Node
    if let breed = state.breed {
      screen = BreedView.body(
        breed, width: width, height: screenHeight, spinnerFrame: spinnerFrame, unicode: unicode,
        pictureMode: pictureMode)
    } else {
      screen = DogsView.body(
        state.dogs, width: width, height: screenHeight, spinnerFrame: spinnerFrame, unicode: unicode)
    }
    var children: [Node] = [screen]
    if let notice = state.notice { children.append(.line([Span(notice, style: .error)])) }
    // Layout makes the rest ASCII (`·` → `|`); arrows are worded.
    let hints = unicode ? state.keyHints : state.keyHints.replacingOccurrences(of: "↑↓", with: "Up/Down")
    children.append(.line([Span(hints, style: .dim)]))
    return .stack(children)
  }

  /// The screen rendered into a frame.
  public static func render(
    _ state: ViewState, width: Int, height: Int, spinnerFrame: Int = 0, unicode: Bool = true,
    pictureMode: PictureMode = .blocks
  ) -> Frame {
    Layout.render(
      body(
        state, width: width, height: height, spinnerFrame: spinnerFrame, unicode: unicode,
        pictureMode: pictureMode),
      width: width, height: height, options: .init(unicode: unicode))
  }
}
