import ImageDecoding

/// A run of text in one style.
public struct Span: Hashable, Sendable {
  /// The text, as is (sanitise network text before it gets here).
  public var text: String
  /// How it looks.
  public var style: Style
  /// Creates a span.
  public init(_ text: String, style: Style = .plain) {
    self.text = text
    self.style = style
  }
}

/// A declarative description of a screen, laid out by ``Layout`` into a ``Frame``.
///
/// Text is sanitised when it is laid out, so a view can pass network data as is.
public indirect enum Node: Hashable, Sendable {
  /// One line of styled spans, cut with `…` when too wide.
  case line([Span])
  /// Text wrapped at word boundaries to the width.
  case paragraph([Span])
  /// Children top to bottom. Fixed-height children get their height; the rest is shared
  /// among flexible ones (lists, pictures, spacers).
  case stack([Node])
  /// A scrolling list. The selected row is shown in reverse video and kept visible.
  case list(ListNode)
  /// A one-line text field with a caret; the terminal cursor is placed at the caret.
  case textField(TextFieldNode)
  /// A picture (or its placeholder text) filling the space it is given.
  case picture(PictureNode)
  /// A line of `─`.
  case divider
  /// Flexible blank space.
  case spacer
  /// `node` indented by `left` columns.
  case indented(Node, left: Int)
  /// `node` given exactly `rows` rows (e.g. a short list under a flexible picture).
  case sized(Node, rows: Int)
  /// Two nodes side by side: `left` in `leftColumns` columns, a blank column, `right` in
  /// the rest (a picture beside a list on a wide screen). As tall as the taller; flexible
  /// if either is.
  case beside(Node, Node, leftColumns: Int)

  /// One line of plain text.
  public static func text(_ text: String, style: Style = .plain) -> Node { .line([Span(text, style: style)]) }
}

/// A list: rows of spans, one of them perhaps selected.
///
/// For long lists a view may pass only a window of rows (``window(count:selected:height:)``
/// says which) with `firstRow` and `totalRows`, so it never builds rows nobody sees.
public struct ListNode: Hashable, Sendable {
  /// The rows given, starting at `firstRow` of the whole list.
  public var rows: [[Span]]
  /// The selected row's index in the whole list.
  public var selected: Int?
  /// The index in the whole list of `rows[0]`.
  public var firstRow: Int
  /// The length of the whole list.
  public var totalRows: Int
  /// The screen rows each list row takes: 1 for a plain list; more for rows that show a
  /// thumbnail at their left and details under their text.
  public var rowHeight: Int
  /// Each given row's thumbnail, drawn in ``thumbnailColumns`` columns at its left (parallel
  /// to ``rows``; `nil` or missing: none).
  public var thumbnails: [RGBImage?]
  /// The columns kept for thumbnails at the rows' left (0: none).
  public var thumbnailColumns: Int
  /// How thumbnails are drawn in cells (a terminal's own graphics draw one picture per
  /// screen, so there they are drawn in half blocks).
  public var thumbnailMode: PictureMode
  /// Dim text under each given row's own (parallel to ``rows``; missing: none).
  public var details: [[Span]]
  /// Each given row's item, by an id that stays its own while the list changes (a
  /// breed's API name, say), parallel to ``rows``: the frame says which is drawn where
  /// (``Frame/listItems``), for a click. A row without one takes no clicks.
  public var ids: [String]

  /// Creates a list; `totalRows` defaults to the number of rows given.
  public init(
    rows: [[Span]], selected: Int? = nil, firstRow: Int = 0, totalRows: Int? = nil, rowHeight: Int = 1,
    thumbnails: [RGBImage?] = [], thumbnailColumns: Int = 0, thumbnailMode: PictureMode = .blocks,
    details: [[Span]] = [], ids: [String] = []
  ) {
    self.rows = rows
    self.selected = selected
    self.firstRow = firstRow
    self.totalRows = totalRows ?? rows.count
    self.rowHeight = max(1, rowHeight)
    self.thumbnails = thumbnails
    self.thumbnailColumns = thumbnailColumns
    self.thumbnailMode = thumbnailMode
    self.details = details
    self.ids = ids
  }

  /// The rows of a `count`-long list visible in `height` rows (of `rowHeight` screen rows
  /// each): the selection stays in view, centred once it is past the first half-screen.
  public static func window(count: Int, selected: Int?, height: Int, rowHeight: Int = 1) -> Range<Int> {
    let height = height / max(1, rowHeight)
    guard count > height, height > 0 else { return 0..<min(count, max(0, height)) }
    let offset = max(0, min((selected ?? 0) - height / 2, count - height))
    return offset..<(offset + height)
  }
}

/// A one-line text field.
public struct TextFieldNode: Hashable, Sendable {
  /// Shown before the text (e.g. a search glyph).
  public var prompt: String
  /// The text typed so far.
  public var text: String
  /// Shown dimmed while `text` is empty.
  public var placeholder: String
  /// The caret, as a count of characters from the start of `text`.
  public var caret: Int
  /// Creates a text field; the caret defaults to the end of the text.
  public init(prompt: String, text: String, placeholder: String, caret: Int? = nil) {
    self.prompt = prompt
    self.text = text
    self.placeholder = placeholder
    self.caret = caret ?? text.count
  }
}

/// A picture slot: pixels drawn to fit the space the layout gives it, or a caption.
public struct PictureNode: Hashable, Sendable {
  /// The picture, or `nil` to show only the caption.
  public var image: RGBImage?
  /// How the picture is drawn.
  public var mode: PictureMode
  /// Shown under the picture, or alone when there is no picture.
  public var caption: [Span]
  /// Creates a picture slot.
  public init(image: RGBImage? = nil, mode: PictureMode = .blocks, caption: [Span]) {
    self.image = image
    self.mode = mode
    self.caption = caption
  }
}

/// How pictures are drawn in text cells.
public enum PictureMode: String, Hashable, Sendable, CaseIterable, Codable {
  /// Upper half blocks `▀` with a foreground and a background colour: two pixels per cell.
  case blocks
  /// Printable ASCII characters chosen for the shape of each cell's light, in colour where
  /// there is colour.
  case ascii
  /// No picture; only the caption.
  case none
  /// The terminal draws it with its own graphics protocol: the layout leaves the cells
  /// blank and records where the picture goes (``Frame/picture``), and the program puts
  /// it there after writing the frame.
  case terminal
}
