/// How a frame is drawn on a terminal: its size, its characters, its colours, its cells'
/// pixels and how it shows pictures.
///
/// One value, from the terminal's settings and answers through the views and the layout
/// to the screen writer (``TerminalScreen``) and a recorded session: the app keeps the one
/// in force in its state, so a replay draws each frame as the app drew it.
public struct Display: Hashable, Sendable, Codable {
  /// The screen's size in cells.
  public var columns: Int
  /// The screen's size in rows.
  public var rows: Int
  /// Whether the terminal can show Unicode (box drawing, `…`, half blocks). Without it
  /// every text is written in ASCII (``Sanitizer/ascii(_:)``) and measured so.
  public var unicode: Bool
  /// The colours the frame is drawn in, if known (`nil`: text not bound for a terminal):
  /// ASCII pictures colour each cell's background as well as its character where there is
  /// colour.
  public var colorMode: ColorMode?
  /// Whether the terminal's background is light (ASCII pictures then run the other way).
  public var lightBackground: Bool
  /// A cell's size in pixels, as the terminal reports it: pictures keep their shape in it.
  public var cell: TerminalPicture.CellSize
  /// How pictures are drawn.
  public var pictureMode: PictureMode
  /// Who draws a picture in ``PictureMode/terminal``: kitty's protocol, or sixel.
  public var pictureProtocol: PictureProtocol?
  /// Whether kitty's pictures are sent compressed (`o=z`), as to a terminal at the far end
  /// of a network link.
  public var compressesPictures: Bool
  /// The glyphs pictures in colour cells are drawn with.
  public var symbols: SymbolSet

  /// Creates a display; an 80 × 24 Unicode screen with a dark background, cells of the
  /// stated default size, pictures in colour cells and the default symbols are assumed
  /// unless told otherwise.
  public init(
    columns: Int = 80, rows: Int = 24, unicode: Bool = true, colorMode: ColorMode? = nil,
    lightBackground: Bool = false, cell: TerminalPicture.CellSize = .default,
    pictureMode: PictureMode = .blocks, pictureProtocol: PictureProtocol? = nil,
    compressesPictures: Bool = false, symbols: SymbolSet = .auto
  ) {
    self.columns = columns
    self.rows = rows
    self.unicode = unicode
    self.colorMode = colorMode
    self.lightBackground = lightBackground
    self.cell = cell
    self.pictureMode = pictureMode
    self.pictureProtocol = pictureProtocol
    self.compressesPictures = compressesPictures
    self.symbols = symbols
  }

  /// What marks text cut short: `…`, or `...` without Unicode.
  public var ellipsis: String { unicode ? "…" : "..." }
}

/// A terminal's own protocol for pictures.
public enum PictureProtocol: String, Hashable, Sendable, Codable {
  /// kitty's graphics protocol.
  case kitty
  /// iTerm2's inline images (`show` only: the full-screen app draws colour cells there).
  case iterm
  /// DEC sixel graphics.
  case sixel
}
