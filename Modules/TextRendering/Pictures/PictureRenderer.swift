import ImageDecoding

/// Draws an ``RGBImage`` in text cells.
///
/// `blocks`: each cell is an upper half block `▀` whose foreground is the top pixel and
/// whose background is the bottom one, so a cell shows two pixels stacked. Cells are
/// about twice as tall as wide, so two vertical pixels per cell keep the aspect ratio.
/// `ascii`: one luminance character per cell from a ramp, in the pixel's colour (which a
/// terminal without colour, or without Unicode, drops or maps to what it has).
/// Downscaling is an area average (a box filter), never point sampling.
public enum PictureRenderer {
  /// The ASCII ramp, darkest first.
  public static let ramp = Array(" .:-=+*#%@")

  /// The cells for `image` fitted into `columns` × `rows`, keeping its aspect ratio.
  ///
  /// - Parameters:
  ///   - image: The picture.
  ///   - mode: How to draw it.
  ///   - columns: The most columns it may take.
  ///   - rows: The most rows it may take.
  ///   - lightBackground: Whether the terminal's background is light: the ASCII ramp then
  ///     runs the other way (dense characters for dark pixels), or the picture would show
  ///     as its own negative.
  public static func render(
    _ image: RGBImage, mode: PictureMode, columns: Int, rows: Int, lightBackground: Bool = false
  ) -> PictureCells {
    let size = fittedSize(image, columns: columns, rows: rows)
    guard size.columns > 0, size.rows > 0, mode != .none else {
      return PictureCells(columns: 0, rows: 0, cells: [])
    }
    switch mode {
    case .blocks:
      let pixels = image.downscaled(width: size.columns, height: size.rows * 2).pixels
      var cells: [Cell] = []
      cells.reserveCapacity(size.columns * size.rows)
      for row in 0..<size.rows {
        for column in 0..<size.columns {
          let top = ((row * 2) * size.columns + column) * 3
          let bottom = ((row * 2 + 1) * size.columns + column) * 3
          let style = Style(
            foreground: .rgb(pixels[top], pixels[top + 1], pixels[top + 2]),
            background: .rgb(pixels[bottom], pixels[bottom + 1], pixels[bottom + 2]))
          cells.append(Cell("▀", style: style))
        }
      }
      return PictureCells(columns: size.columns, rows: size.rows, cells: cells)
    case .ascii:
      let pixels = image.downscaled(width: size.columns, height: size.rows).pixels
      var cells: [Cell] = []
      for index in 0..<(size.columns * size.rows) {
        let luminance =
          (299 * Int(pixels[index * 3]) + 587 * Int(pixels[index * 3 + 1]) + 114 * Int(pixels[index * 3 + 2]))
          / 1000
        // In the pixel's colour, which a terminal with colour shows and one without drops.
        let colour = Color.rgb(pixels[index * 3], pixels[index * 3 + 1], pixels[index * 3 + 2])
        cells.append(
          Cell(
            ramp[min(ramp.count - 1, (lightBackground ? 255 - luminance : luminance) * ramp.count / 256)],
            style: Style(foreground: colour)))
      }
      return PictureCells(columns: size.columns, rows: size.rows, cells: cells)
    case .none, .terminal:
      return PictureCells(columns: 0, rows: 0, cells: [])
    }
  }

  /// The largest cell size with the image's aspect ratio (a cell is 1 wide, 2 tall).
  public static func fittedSize(_ image: RGBImage, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
    guard image.width > 0, image.height > 0, columns > 0, rows > 0 else { return (0, 0) }
    // In half-cell units the picture is `columns` wide and `rows * 2` tall.
    let heightForWidth = Double(columns) * Double(image.height) / Double(image.width)
    if heightForWidth <= Double(rows * 2) {
      return (columns, max(1, Int((heightForWidth / 2).rounded())))
    }
    let widthForHeight = Double(rows * 2) * Double(image.width) / Double(image.height)
    return (max(1, min(columns, Int(widthForHeight.rounded()))), rows)
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
