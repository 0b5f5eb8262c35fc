import ImageDecoding

/// One terminal cell: a grapheme cluster and its style. A wide character occupies its
/// cell (width 2) and the next one (a continuation, width 0); a cluster of N columns (a
/// Devanagari syllable, say) is followed by N − 1 continuations.
public struct Cell: Hashable, Sendable {
  /// The grapheme cluster shown in the cell.
  public var character: Character
  /// 1 normally, 2 (or more) for the first cell of a wide character, 0 for the rest of it.
  public var width: UInt8
  /// Colours and attributes.
  public var style: Style

  /// Creates a cell.
  public init(_ character: Character, width: UInt8 = 1, style: Style = .plain) {
    self.character = character
    self.width = width
    self.style = style
  }

  /// An empty cell with the default style.
  public static let blank = Cell(" ")
  static let continuation = Cell(" ", width: 0)
}

/// A position on screen, zero-based.
public struct Position: Hashable, Sendable {
  /// The column.
  public var x: Int
  /// The row.
  public var y: Int
  /// Creates a position.
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
}

/// A screenful of cells, the output of layout and the input of the screen differ.
public struct Frame: Hashable, Sendable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  /// The cells, row by row (`width * height` of them).
  public private(set) var cells: [Cell]
  /// Where the terminal cursor should be shown (at a text field's caret), or `nil` to
  /// hide it.
  public var cursor: Position?
  /// A picture for the terminal to draw over blank cells with its own graphics protocol
  /// (``PictureMode/terminal``), if the frame has one.
  public var picture: PlacedPicture?
  /// How many rows the frame's list was given (the last list, if there are several), or
  /// `nil` for a frame without one: a page, for PgUp and PgDn.
  public var listRows: Int?
  /// The item of the frame's list (the last list, if there are several) drawn on each
  /// screen row, by its id (``ListNode/ids``): what a click there points at, whatever
  /// place the item has in the list by the time the click is read. A row without an id
  /// is left out.
  public var listItems: [Int: String] = [:]
  /// The id of the item the frame's list highlights, if it has one.
  public var listHighlight: String?
  /// The buttons of a modal box on the frame, where they are drawn.
  public var buttons: [ButtonPlace] = []

  /// Where a modal box's button is drawn.
  public struct ButtonPlace: Hashable, Sendable {
    /// Its row.
    public var row: Int
    /// Its columns.
    public var columns: Range<Int>
    /// Its place among the box's buttons.
    public var index: Int
  }
  /// How far an overlay's text on the frame (the keys) scrolls at most: its lines that do
  /// not fit; `nil` for a frame without one.
  public var scrollLimit: Int?

  /// A blank frame.
  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    self.cells = Array(repeating: .blank, count: self.width * self.height)
  }

  /// The cell at column `x`, row `y` (both must be in range).
  public subscript(x: Int, y: Int) -> Cell {
    get { cells[y * width + x] }
    set { cells[y * width + x] = newValue }
  }

  /// Writes `text` (sanitised) at `(x, y)`, clipped to `limit` columns and the frame's
  /// edge; never splits a wide character.
  ///
  /// - Returns: The columns written.
  @discardableResult
  public mutating func write(_ text: String, x: Int, y: Int, style: Style, limit: Int? = nil) -> Int {
    guard y >= 0, y < height, x >= 0, x < width else { return 0 }
    let end = min(width, x + (limit ?? width))
    var column = x
    for written in Sanitizer.sanitize(text) {
      let writtenColumns = DisplayWidth.of(written)
      if writtenColumns == 0 { continue }
      let keeps = Self.keepsItsCell(written)
      let (character, columns): (Character, Int) = keeps ? (written, writtenColumns) : ("\u{FFFD}", 1)
      // (A cluster wider than a cell can say, hundreds of marks on one letter, ends the text.)
      if column + columns > end || columns > Int(UInt8.max) { break }
      self[column, y] = Cell(character, width: UInt8(columns), style: style)
      for extra in 1..<columns { self[column + extra, y] = Cell(" ", width: 0, style: style) }
      column += columns
    }
    return column - x
  }

  /// Whether `character`, drawn in a cell of its own, stays in it whatever the cells
  /// beside it hold. A terminal joins a combining mark with nothing before it (text that
  /// starts with one) to the character in the cell before, and a character that joins what
  /// follows it (a prepended letter, a Hangul leading consonant, a lone regional indicator)
  /// to the one in the cell after; then the screen is not the frame. Such a character is
  /// drawn as U+FFFD instead: it carried nothing readable on its own.
  static func keepsItsCell(_ character: Character) -> Bool {
    let scalars = character.unicodeScalars
    if scalars.count == 1, let only = scalars.first,
      only.value < 0x300 || (0x2500...0x25FF).contains(only.value)  // Latin, box drawing, blocks
    {
      return true
    }
    // Swift's own grapheme breaking says what a terminal that follows Unicode joins.
    let text = String(character)
    return ("a" + text).count == 2
      && [text + "a", text + "\u{AC00}", text + "\u{1F1E6}"].allSatisfy { $0.count == 2 }
  }

  /// Copies `other`'s cells here with its top left cell at `(x, y)`, clipped to `width`
  /// columns and `height` rows (and to this frame's edges); a wide character the clip would
  /// cut is left out.
  public mutating func place(_ other: Frame, x: Int, y: Int, width: Int, height: Int) {
    let columns = min(other.width, width, self.width - x)
    let rows = min(other.height, height, self.height - y)
    guard x >= 0, y >= 0, columns > 0, rows > 0 else { return }
    for row in 0..<rows {
      for column in 0..<columns {
        let cell = other[column, row]
        let cut = column + Int(cell.width) > columns || (cell.width == 0 && column == 0)
        self[x + column, y + row] = cut ? Cell(" ", style: cell.style) : cell
      }
    }
  }

  /// Fills a rectangle with blank cells of `style`.
  public mutating func fill(x: Int, y: Int, width: Int, height: Int, style: Style) {
    for row in max(0, y)..<min(self.height, y + height) {
      for column in max(0, x)..<min(self.width, x + width) {
        self[column, row] = Cell(" ", style: style)
      }
    }
  }

  /// Row `y` as plain text, trailing spaces removed.
  public func line(_ y: Int) -> String {
    var text = ""
    for x in 0..<width {
      let cell = self[x, y]
      if cell.width > 0 { text.append(cell.character) }
    }
    while text.last == " " { text.removeLast() }
    return text
  }

  /// Every row as plain text, trailing spaces removed (what golden tests compare).
  public var lines: [String] { (0..<height).map(line) }

  /// The rows joined with newlines, trailing blank rows dropped.
  public var text: String {
    var rows = lines
    while rows.last == "" { rows.removeLast() }
    return rows.joined(separator: "\n")
  }
}

extension Frame: CustomStringConvertible {
  /// What `print(frame)` shows: the size, then the rows as plain text (styles left out),
  /// instead of every cell's fields.
  public var description: String {
    let header = "Frame \(width)×\(height)"
    return height == 0 ? header : header + "\n" + lines.joined(separator: "\n")
  }
}

/// A picture the terminal draws itself, and the cells it covers.
public struct PlacedPicture: Hashable, Sendable {
  /// The picture (the terminal scales it to the cells).
  public var image: RGBImage
  /// The column of its top left cell.
  public var x: Int
  /// The row of its top left cell.
  public var y: Int
  /// Cells across.
  public var columns: Int
  /// Cells down.
  public var rows: Int

  /// Places `image` over `columns` × `rows` cells from `(x, y)`.
  public init(image: RGBImage, x: Int, y: Int, columns: Int, rows: Int) {
    self.image = image
    self.x = x
    self.y = y
    self.columns = columns
    self.rows = rows
  }
}

extension PlacedPicture {
  /// The picture in as much of its box as keeps its shape in cells of `cell` pixels
  /// (``TerminalPicture/cellsKeepingShape(_:columns:rows:cell:)``), and centred across it:
  /// a terminal given both columns and rows fills them, so a box of another shape would
  /// stretch the picture.
  ///
  /// - Parameter cell: A cell's size in pixels, as the terminal reports it.
  public func keepingShape(in cell: TerminalPicture.CellSize) -> PlacedPicture {
    guard image.width > 0, image.height > 0, columns > 0, rows > 0 else { return self }
    let size = TerminalPicture.cellsKeepingShape(image, columns: columns, rows: rows, cell: cell)
    return PlacedPicture(
      image: image, x: x + (columns - size.columns) / 2, y: y, columns: size.columns, rows: size.rows)
  }
}
