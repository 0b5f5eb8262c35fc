/// A run of text in one style.
public struct Span: Hashable, Sendable {
  public var text: String
  public var style: Style
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

  /// One line of plain text.
  public static func text(_ text: String, style: Style = .plain) -> Node { .line([Span(text, style: style)]) }
}

/// A list: rows of spans, one of them perhaps selected.
public struct ListNode: Hashable, Sendable {
  public var rows: [[Span]]
  public var selected: Int?
  public init(rows: [[Span]], selected: Int? = nil) {
    self.rows = rows
    self.selected = selected
  }
}

/// A one-line text field.
public struct TextFieldNode: Hashable, Sendable {
  /// Shown before the text (e.g. a search glyph).
  public var prompt: String
  public var text: String
  /// Shown dimmed while `text` is empty.
  public var placeholder: String
  /// The caret, as a count of characters from the start of `text`.
  public var caret: Int
  public init(prompt: String, text: String, placeholder: String, caret: Int? = nil) {
    self.prompt = prompt
    self.text = text
    self.placeholder = placeholder
    self.caret = caret ?? text.count
  }
}

/// A picture slot: pixels drawn to fit the space the layout gives it, or a caption.
public struct PictureNode: Hashable, Sendable {
  public var image: RGBImage?
  public var mode: PictureMode
  /// Shown under the picture, or alone when there is no picture.
  public var caption: [Span]
  public init(image: RGBImage? = nil, mode: PictureMode = .blocks, caption: [Span]) {
    self.image = image
    self.mode = mode
    self.caption = caption
  }
}

/// How pictures are drawn in text cells.
public enum PictureMode: String, Hashable, Sendable, CaseIterable {
  /// Upper half blocks `▀` with a foreground and a background colour: two pixels per cell.
  case blocks
  /// An ASCII luminance ramp, for terminals without colour.
  case ascii
  /// No picture; only the caption.
  case none
}

/// An 8-bit RGB raster, row by row.
public struct RGBImage: Hashable, Sendable {
  public let width: Int
  public let height: Int
  /// `width * height * 3` bytes.
  public let pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 3, "RGBImage needs width × height × 3 bytes")
    self.width = width
    self.height = height
    self.pixels = pixels
  }
}
