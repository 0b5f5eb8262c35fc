import ImageDecoding
import TextRendering

extension FavouritesFeature {
  /// What the Favourites tab shows, derived from ``State`` by a pure converter.
  public struct ViewState: Equatable, Sendable {
    /// The favourites in the order shown.
    public var rows: [Row]
    /// The highlighted row's index, if any.
    public var highlighted: Int?
    /// The confirmation dialog, while it is up.
    public var dialog: ModalBox?

    /// One favourite's row.
    public struct Row: Equatable, Sendable, Identifiable {
      /// The API name: `hound/afghan`.
      public var id: String
      /// Its thumbnail's state.
      public var thumbnail: FavouriteRow.Thumbnail

      /// As the screens title it: "Afghan Hound". Made when the row is drawn, so that a
      /// long list builds titles only for the rows on screen.
      public var title: String {
        let row = FavouriteRow.State(id: id)
        return String.breedTitle(row.breed, subBreed: row.subBreed)
      }
    }

    /// Whether a row's thumbnail could not be had: `r` tries them again.
    public var anyThumbnailFailed: Bool {
      rows.contains { if case .failed = $0.thumbnail { true } else { false } }
    }

    /// Builds the view state.
    public init(_ state: State) {
      let ordered = state.ordered
      rows = ordered.map { Row(id: $0, thumbnail: state.rows[id: $0]?.thumbnail ?? .notLoaded) }
      highlighted = state.highlightedIndex(in: ordered)
      dialog = state.confirmationDialog.map {
        ModalBox(
          title: $0.title, message: $0.message, buttons: $0.buttons.map(\.label), focused: state.dialogFocus)
      }
    }
  }
}

/// The Favourites tab as text: a pure function of the view state and the screen size.
public enum FavouritesView {
  /// The most screen rows a row with a thumbnail takes.
  static let thumbnailRows = 4

  /// The screen rows each favourite takes in `height` rows: one without pictures; with
  /// them, room for a thumbnail (four rows, fewer on a short screen).
  public static func rowHeight(height: Int, pictureMode: PictureMode) -> Int {
    pictureMode == .none ? 1 : max(2, min(thumbnailRows, height / 3))
  }

  /// The tab's node tree for a `width` × `height` area.
  ///
  /// - Parameters:
  ///   - state: What to show.
  ///   - width: The columns available.
  ///   - height: The rows available (only the rows on screen are built).
  ///   - unicode: Whether the terminal can show Unicode glyphs.
  ///   - pictureMode: How thumbnails are drawn (`.none`: rows without them).
  public static func body(
    _ state: FavouritesFeature.ViewState, width: Int, height: Int, unicode: Bool = true,
    pictureMode: PictureMode = .blocks
  ) -> Node {
    guard !state.rows.isEmpty else {
      return .stack([
        .text("No favourites yet."),
        .paragraph([Span("Star a breed with ^F on the Breeds tab, or with f on its own screen.", style: .dim)]
        ),
        .spacer,
      ])
    }
    let rowHeight = rowHeight(height: height, pictureMode: pictureMode)
    let window = ListNode.window(
      count: state.rows.count, selected: state.highlighted, height: height, rowHeight: rowHeight)
    let visible = state.rows[window]
    let star = [Span(unicode ? " ★" : " *", style: .bold)]
    return .list(
      ListNode(
        rows: visible.map { [Span($0.title)] + star }, selected: state.highlighted,
        firstRow: window.lowerBound,
        totalRows: state.rows.count, rowHeight: rowHeight,
        thumbnails: visible.map { if case .loaded(let image) = $0.thumbnail { image } else { nil } },
        thumbnailColumns: rowHeight > 1 ? rowHeight * 3 : 0, thumbnailMode: pictureMode,
        details: visible.map { row -> [Span] in
          switch row.thumbnail {
          case .loading: return [Span("Loading a picture…", style: .dim)]
          case .failed(let message): return [Span(message, style: .dim)]
          case .notLoaded, .loaded: return []
          }
        }, ids: visible.map(\.id)))
  }
}
