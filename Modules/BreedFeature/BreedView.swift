import TextRendering

/// The Breed screen as text: a pure function of the view state and the screen size.
public enum BreedView {
  /// Rows around a picture: title, divider, the blank row and the heading above sub-breeds.
  static let rowsBesidePicture = 4
  /// Rows a picture keeps before the sub-breed list may grow: four of picture, its address.
  static let minimumPictureRows = 5
  /// The fewest rows a picture is drawn in: two of picture and its address. Given fewer,
  /// the screen shows the address as it does without pictures.
  static let smallestPictureRows = 3

  /// The screen's node tree.
  ///
  /// - Parameters:
  ///   - state: What to show.
  ///   - width: The columns available, if known: where the picture's address does not fit
  ///     beside its label ("Picture of Afghan Hound: "), it is shown alone, whole.
  ///   - height: The rows available, if known: on a short screen the sub-breed list then
  ///     gives up rows (down to two) so that the picture stays visible.
  ///   - spinnerFrame: Which frame of the loading spinner to draw.
  ///   - unicode: Whether the terminal can show Unicode glyphs.
  ///   - pictureMode: How to draw the picture.
  public static func body(
    _ state: BreedFeature.ViewState, width: Int? = nil, height: Int? = nil, spinnerFrame: Int = 0,
    unicode: Bool = true, pictureMode: PictureMode = .blocks
  ) -> Node {
    let star = state.isFavourite ? [Span(" ★", style: .bold)] : []
    var children: [Node] = [.line([Span(state.header, style: .bold)] + star), .divider]
    // On a wide screen the sub-breeds sit beside the picture, in the columns it leaves.
    if let width, width >= sideBySideColumns, state.subtitle != nil {
      let pictureColumns = width * 3 / 5
      let picture = pictureArea(
        state, width: pictureColumns, rowsForPicture: (height ?? .max) - 2, spinnerFrame: spinnerFrame,
        unicode: unicode, pictureMode: pictureMode)
      children.append(
        .beside(
          .stack(picture.nodes + (picture.isShown ? [] : [.spacer])), .stack(subBreedList(state)),
          leftColumns: pictureColumns))
      return .stack(children)
    }
    // Beside a picture the sub-breed list keeps six rows, or a quarter of a tall screen
    // (Hound's seven whole from 28 rows); the picture takes the rest.
    let spareRows = (height ?? .max) - rowsBesidePicture - minimumPictureRows
    let listRows = min(state.subBreeds.count, max(6, (height ?? 0) / 4), max(2, spareRows))
    let rowsForPicture = (height ?? .max) - 2 - (state.subtitle == nil ? 0 : 2 + listRows)
    let picture = pictureArea(
      state, width: width, rowsForPicture: rowsForPicture, spinnerFrame: spinnerFrame, unicode: unicode,
      pictureMode: pictureMode)
    children += picture.nodes
    if state.subtitle != nil {
      children.append(.text(""))
      var list = subBreedList(state)
      if picture.isShown, let last = list.popLast() { list.append(.sized(last, rows: listRows)) }
      children += list
    } else if !picture.isShown {
      children.append(.spacer)
    }
    return .stack(children)
  }

  /// The least columns on which the sub-breeds sit beside the picture, not under it.
  static let sideBySideColumns = 100

  /// The picture, or what stands for it (fetching, its address, why it failed), and
  /// whether the picture itself is shown.
  private static func pictureArea(
    _ state: BreedFeature.ViewState, width: Int?, rowsForPicture: Int, spinnerFrame: Int, unicode: Bool,
    pictureMode: PictureMode
  ) -> (nodes: [Node], isShown: Bool) {
    var nodes: [Node] = []
    switch state.imageURL {
    case .loading:
      nodes.append(
        .text("\(Spinner.frame(spinnerFrame, unicode: unicode)) Fetching a picture of \(state.subject)…"))
    case .url(let url):
      // Under the picture: another on its way, or why it could not be had.
      var another: [Node] = []
      switch state.another {
      case .loading:
        another = [
          .text("\(Spinner.frame(spinnerFrame, unicode: unicode)) Fetching another picture…", style: .dim)
        ]
      case .failed(let message):
        another = [failure(message, width: width, unicode: unicode)]
      case nil: break
      }
      if state.offersRetry, state.another != nil || state.pictureNote != nil {
        another.append(.text("Press r to try again.", style: .dim))
      }
      let rowsLeft =
        rowsForPicture
        - (Layout.fixedHeight(of: .stack(another), width: width ?? .max, display: .init(unicode: unicode))
          ?? 0)
      if let picture = state.picture, pictureMode != .none, rowsLeft >= smallestPictureRows {
        let caption = state.position.map { [Span("\($0) · ", style: .dim)] } ?? []
        let node = Node.picture(
          PictureNode(image: picture, mode: pictureMode, caption: caption + [Span(url, style: .dim)]))
        return ([node] + another, true)
      }
      // The address is what matters (to open or copy): it loses its label before a
      // character of its own (a sub-breed's real address and label take 86 columns).
      let label = "Picture of \(state.subject)\(state.position.map { " (\($0))" } ?? ""): "
      let fits = width.map { DisplayWidth.of(label + Sanitizer.sanitize(url)) <= $0 } ?? true
      nodes.append(.line(fits ? [Span(label, style: .dim), Span(url)] : [Span(url)]))
      // Wrapped, not cut: why the picture is missing stays readable on a narrow screen.
      if let note = state.pictureNote {
        let loading = state.picture == nil && note.hasSuffix("…")
        let prefix = loading ? "\(Spinner.frame(spinnerFrame, unicode: unicode)) " : ""
        nodes.append(.paragraph([Span(prefix + note, style: .dim)]))
      }
      nodes += another
    case .failed(let message, let canRetry):
      nodes.append(failure(message, width: width, unicode: unicode))
      if canRetry { nodes.append(.text("Press r to try again.", style: .dim)) }
    }
    return (nodes, false)
  }

  /// Why a picture could not be had, in at most two rows (cut with `…`), so that the
  /// sub-breeds keep theirs on a small screen.
  private static func failure(_ message: String, width: Int?, unicode: Bool) -> Node {
    let failure = Node.paragraph([Span(message, style: .error)])
    let rows = width.flatMap { Layout.fixedHeight(of: failure, width: $0, display: .init(unicode: unicode)) }
    return rows.map { .sized(failure, rows: min(2, $0)) } ?? failure
  }

  /// The sub-breeds' heading and list (the list last).
  private static func subBreedList(_ state: BreedFeature.ViewState) -> [Node] {
    guard let subtitle = state.subtitle else { return [] }
    let selected = state.subBreeds.firstIndex { $0.isHighlighted }
    let rows = state.subBreeds.map { row -> [Span] in
      [Span(row.title)] + (row.isFavourite ? [Span(" ★", style: .bold)] : [])
        + (row.isShown ? [Span("  (shown)", style: .dim)] : [])
    }
    return [
      .text(subtitle, style: .bold),
      .list(ListNode(rows: rows, selected: selected, ids: state.subBreeds.map(\.id))),
    ]
  }

  /// The screen rendered into a frame, for tests and the app.
  public static func render(
    _ state: BreedFeature.ViewState, width: Int, height: Int, spinnerFrame: Int = 0, unicode: Bool = true,
    pictureMode: PictureMode = .blocks
  ) -> Frame {
    Layout.render(
      body(
        state, width: width, height: height, spinnerFrame: spinnerFrame, unicode: unicode,
        pictureMode: pictureMode),
      width: width, height: height, display: .init(unicode: unicode))
  }
}
