import ImageDecoding

/// Draws an ``RGBImage`` in text cells.
///
/// `blocks`: each cell is an upper half block `▀` whose foreground is the top pixel and
/// whose background is the bottom one, so a cell shows two pixels stacked, each half a
/// cell tall. A picture may end on a top half: its last row's bottom halves are then the
/// terminal's own background.
/// `ascii`: each cell is the printable ASCII character whose ink, as a monospace font draws
/// it, comes nearest the shape of the cell's pixels (``CellFit``). Where colour is drawn,
/// with the two colours, its ink's and the cell's background, that come nearest them, so
/// a bright picture stays bright. Without colour (or where the colours are not known), in
/// the terminal's own colours: the ink follows the picture's light, or on a light
/// background its darkness.
/// Other symbols (``SymbolSet``): each cell the glyph and two colours nearest its pixels,
/// fitted on as many pixels as the cell has.
/// In 256 or 16 colours, half blocks and ASCII are dithered (``Dither``); a symbol's two
/// colours are each the palette's entry nearest them, undithered: a cell's own split
/// already mixes two colours, and dots of error on top of it score lower.
/// The picture keeps its shape in cells of the size the terminal reports (``PictureFit``).
/// Downscaling is an area average (a box filter), never point sampling.
public enum PictureRenderer {
  /// The cells for `image` fitted into `columns` × `rows`, keeping its aspect ratio.
  ///
  /// - Parameters:
  ///   - image: The picture.
  ///   - mode: How to draw it.
  ///   - columns: The most columns it may take.
  ///   - rows: The most rows it may take.
  ///   - lightBackground: Whether the terminal's background is light: ASCII without colour
  ///     then puts its ink where the picture is dark, or it would show as its own negative.
  ///   - cell: A cell's size in pixels, for the picture's shape.
  ///   - colorMode: The colours the picture is drawn in, if known.
  ///   - symbols: The glyphs `blocks` draws with (``SymbolSet``).
  public static func render(
    _ image: RGBImage, mode: PictureMode, columns: Int, rows: Int, lightBackground: Bool = false,
    cell: TerminalPicture.CellSize = .default, colorMode: ColorMode? = nil, symbols: SymbolSet = .half
  ) -> PictureCells {
    guard mode == .blocks || mode == .ascii else { return PictureCells(columns: 0, rows: 0, cells: []) }
    let dots = fittedDots(image, mode: mode, columns: columns, rows: rows, cell: cell, symbols: symbols)
    guard dots.across > 0, dots.down > 0 else { return PictureCells(columns: 0, rows: 0, cells: []) }
    if mode == .blocks, symbols.resolved != .half {
      let grid = SymbolSet.samplesPerCell(cell)
      let (width, height) = (dots.across * grid.across, dots.down * grid.down)
      let cells = SymbolFit.cells(
        image.downscaled(width: width, height: height).pixels, columns: dots.across, rows: dots.down,
        across: grid.across, down: grid.down, symbols: symbols)
      return PictureCells(
        columns: dots.across, rows: dots.down,
        cells: Dither.cellsToPalette(cells, columns: dots.across, colorMode: colorMode ?? .truecolor))
    }
    if mode == .ascii {
      let glyphs = GlyphSet.ascii
      let (width, height) = (dots.across * glyphs.across, dots.down * glyphs.down)
      let pixels = image.downscaled(width: width, height: height).pixels
      guard let colorMode, colorMode != .none else {
        return PictureCells(
          columns: dots.across, rows: dots.down,
          cells: CellFit.plainCells(
            pixels, columns: dots.across, rows: dots.down, glyphs: glyphs, lightBackground: lightBackground))
      }
      // In fewer colours, the parts are dithered first: the glyphs take up the pattern.
      return PictureCells(
        columns: dots.across, rows: dots.down,
        cells: CellFit.cells(
          Dither.toPalette(pixels, width: width, height: height, colorMode: colorMode).pixels,
          columns: dots.across, rows: dots.down, glyphs: glyphs))
    }
    let pixels = image.downscaled(width: dots.across, height: dots.down).pixels
    // Half blocks in 256 or 16 colours: each dot a palette entry, dithered.
    let entries = Dither.toPalette(
      pixels, width: dots.across, height: dots.down, colorMode: colorMode ?? .truecolor
    ).entries
    func colour(_ x: Int, _ y: Int) -> Color {
      let index = y * dots.across + x
      if !entries.isEmpty { return colorMode == .ansi16 ? .ansi(entries[index]) : .indexed(entries[index]) }
      return .rgb(pixels[index * 3], pixels[index * 3 + 1], pixels[index * 3 + 2])
    }
    let rows = (dots.down + 1) / 2
    var cells: [Cell] = []
    cells.reserveCapacity(dots.across * rows)
    for row in 0..<rows {
      for column in 0..<dots.across {
        // The last row of an odd count is a top half alone, on the terminal's background.
        let bottom = row * 2 + 1 < dots.down ? colour(column, row * 2 + 1) : nil
        cells.append(Cell("▀", style: Style(foreground: colour(column, row * 2), background: bottom)))
      }
    }
    return PictureCells(columns: dots.across, rows: rows, cells: cells)
  }

  /// The pixels across and down each ASCII cell is fitted on: a picture is best decoded
  /// to this many for each cell it covers.
  public static var asciiSamplesPerCell: (across: Int, down: Int) { GlyphSet.asciiGrid }

  /// The dots `image` is drawn with in `mode` in at most `columns` × `rows` cells of
  /// `cell` pixels: half cells for half blocks, whole cells otherwise (other symbols too).
  public static func fittedDots(
    _ image: RGBImage, mode: PictureMode, columns: Int, rows: Int, cell: TerminalPicture.CellSize = .default,
    symbols: SymbolSet = .half
  ) -> (across: Int, down: Int) {
    let down = mode == .blocks && symbols.resolved == .half ? 2 : 1
    guard rows < Int.max / down else {
      return fittedDots(
        image, mode: mode, columns: columns, rows: Int.max / down - 1, cell: cell, symbols: symbols)
    }
    return PictureFit.dots(
      width: image.width, height: image.height, maxAcross: columns, maxDown: rows * down,
      dotWidth: Double(cell.width), dotHeight: Double(cell.height) / Double(down))
  }

  /// The cells `image` takes in `mode` (half blocks unless told otherwise) in at most
  /// `columns` × `rows` cells of `cell` pixels, in its own shape.
  public static func fittedSize(
    _ image: RGBImage, columns: Int, rows: Int, mode: PictureMode = .blocks,
    cell: TerminalPicture.CellSize = .default, symbols: SymbolSet = .half
  ) -> (columns: Int, rows: Int) {
    let dots = fittedDots(image, mode: mode, columns: columns, rows: rows, cell: cell, symbols: symbols)
    return mode == .blocks && symbols.resolved == .half ? (dots.across, (dots.down + 1) / 2) : dots
  }
}

/// A rectangle of picture cells, row by row.
public struct PictureCells: Hashable, Sendable {
  /// Cells per row.
  public var columns: Int
  /// Rows of cells.
  public var rows: Int
  /// The cells, row by row.
  public var cells: [Cell]
  /// Creates a rectangle of cells.
  public init(columns: Int, rows: Int, cells: [Cell]) {
    self.columns = columns
    self.rows = rows
    self.cells = cells
  }
}
