import BreedFeature
import DogsFeature
import FavouritesFeature
import TextRendering

/// The whole screen: a tab bar over the Breeds tab (the Dogs list) or the Favourites tab,
/// or the Breed screen over either, and a status line of key hints at the bottom. Pure: a
/// function of the app state and the screen size.
public enum AppView {
  /// Whether the screen for `state` shows a spinner, so that the spinner's frame matters.
  ///
  /// Read from the state rather than the view state: a timer asks ten times a second, and
  /// deriving the whole view state (which filters the list) for that would be waste.
  public static func showsSpinner(_ state: AppFeature.State) -> Bool {
    if let breed = state.breed { return breed.imageURL == .loading || breed.picture == .loading }
    if state.tab == .favourites { return false }
    return state.dogsTab.status == .loading || state.dogsTab.status == .notStarted
  }

  /// The node tree for a screen drawn as `display` says.
  public static func body(_ state: AppFeature.ViewState, display: Display, spinnerFrame: Int = 0) -> Node {
    let (width, height, unicode, pictureMode) = (
      display.columns, display.rows, display.unicode, display.pictureMode
    )
    let footerRows = 1 + (state.notice == nil ? 0 : 1) + (state.status == nil ? 0 : 1)
    let screenHeight = max(0, height - footerRows)
    let screen: Node
    if let breed = state.breed {
      screen = BreedView.body(
        breed, width: width, height: screenHeight, spinnerFrame: spinnerFrame, unicode: unicode,
        pictureMode: pictureMode)
    } else if let favourites = state.favourites {
      // The tab bar and a divider over the rows.
      screen = .stack([
        .line(tabBar(state)), .divider,
        FavouritesView.body(
          favourites, width: width, height: max(0, screenHeight - 2), unicode: unicode,
          pictureMode: pictureMode),
      ])
    } else {
      screen = DogsView.body(
        state.dogs, width: width, height: screenHeight, spinnerFrame: spinnerFrame, unicode: unicode,
        title: tabBar(state))
    }
    var children: [Node] = [screen]
    if let notice = state.notice { children.append(.line([Span(notice, style: .error)])) }
    if let status = state.status { children.append(.line([Span(status, style: .plain)])) }
    // Layout makes the rest ASCII (`·` → `|`); arrows are worded.
    let hints = state.keyHints(fitting: width, unicode: unicode)
    children.append(.line([Span(hints, style: .dim)]))
    return .stack(children)
  }

  /// The tab bar: each tab's name, the one shown in reverse video (so that it shows
  /// without colour too), the favourites counted.
  static func tabBar(_ state: AppFeature.ViewState) -> [Span] {
    let shown = Style(bold: true, reverse: true)
    let labels = tabLabels(favouriteCount: state.favouriteCount)
    return [
      Span(labels[0], style: state.tab == .breeds ? shown : .plain), Span(" "),
      Span(labels[1], style: state.tab == .favourites ? shown : .plain),
    ]
  }

  /// The tabs' labels, in order, as the tab bar draws them (a space between).
  static func tabLabels(favouriteCount: Int) -> [String] {
    [" Breeds ", favouriteCount == 0 ? " Favourites " : " Favourites (\(favouriteCount)) "]
  }

  /// The tab whose label is drawn at `column` of the tab bar, if any.
  ///
  /// - Parameters:
  ///   - column: A column of the tab bar's row, from 0.
  ///   - favouriteCount: How many favourites the bar counts.
  /// - Returns: The tab, or `nil` between or after them.
  public static func tab(atColumn column: Int, _ favouriteCount: Int) -> AppFeature.State.Tab? {
    var start = 0
    for (tab, label) in zip(AppFeature.State.Tab.allCases, tabLabels(favouriteCount: favouriteCount)) {
      let width = DisplayWidth.of(label)
      if (start..<start + width).contains(column) { return tab }
      start += width + 1
    }
    return nil
  }

  /// The screen rendered into a frame, drawn as `display` says.
  public static func render(_ state: AppFeature.ViewState, display: Display, spinnerFrame: Int = 0) -> Frame {
    var frame = Layout.render(
      body(state, display: display, spinnerFrame: spinnerFrame), width: display.columns, height: display.rows,
      display: display)
    // Over everything but the key hints, which name the modal's keys; in ASCII where the
    // screen is (the keys' table has arrows and stars).
    (display.unicode ? state.modal : state.modal?.inASCII)?.draw(
      on: &frame, unicode: display.unicode, keeping: 1)
    return frame
  }
}
