/// The size a picture is drawn at on a grid of dots: the largest that fits a box and keeps
/// the picture's shape on screen.
///
/// A dot is what one cell shows of a picture in one place: a whole cell for ASCII
/// and for a terminal's own graphics (counted in cells), half a cell for half blocks. Its
/// shape on screen comes from the cell's size in pixels, as the terminal reports it: a
/// half block in an 8 × 17 cell is 8 × 8.5 pixels, not a square.
///
/// A size in whole dots rarely has the picture's exact shape. The sizes tried are those
/// with the most rows that fit (and the columns that keep the shape, rounded) and those
/// with the most columns (and the rows rounded), each down to a tenth smaller. The largest
/// whose shape is within ``tolerance`` of the picture's wins; where none is, the nearest
/// in shape. Without a limit down (``unlimited``), the picture is as wide as it may be.
public enum PictureFit {
  /// How far from the picture's shape a size may be and still count as keeping it: 1.5 %,
  /// too little to see, and enough that a picture rarely gives up a row or column to it.
  public static let tolerance = 0.015

  /// A bound this large or larger is no bound: a picture given no limit down is as wide as
  /// it may be (as `show`'s is when written to a file or a pipe).
  public static let unlimited = 100_000

  /// The dots across and down a `width` × `height` picture takes, at most `maxAcross` ×
  /// `maxDown`, on dots `dotWidth` × `dotHeight` large (in any unit). Zero by zero where
  /// there is no picture or no room.
  public static func dots(
    width: Int, height: Int, maxAcross: Int, maxDown: Int, dotWidth: Double, dotHeight: Double
  ) -> (across: Int, down: Int) {
    guard width > 0, height > 0, maxAcross > 0, maxDown > 0, dotWidth > 0, dotHeight > 0 else {
      return (0, 0)
    }
    // Dots across per dot down that keep the picture's shape.
    let perRow = Double(width) * dotHeight / (Double(height) * dotWidth)
    let maxAcross = min(maxAcross, unlimited)
    guard maxDown < unlimited else {
      // No limit down: as wide as it may be, as tall as that makes it.
      return (maxAcross, max(1, min(unlimited, Int((Double(maxAcross) / perRow).rounded()))))
    }
    var best: (across: Int, down: Int, error: Double)?
    func consider(_ across: Int, _ down: Int) {
      let (across, down) = (max(1, min(maxAcross, across)), max(1, min(maxDown, down)))
      let error = abs(Double(across) / (Double(down) * perRow) - 1)
      guard let chosen = best else {
        best = (across, down, error)
        return
      }
      let fits = error <= tolerance
      let chosenFits = chosen.error <= tolerance
      let better =
        fits && chosenFits
        ? across * down > chosen.across * chosen.down
        : fits || (!chosenFits && error < chosen.error)
      if better { best = (across, down, error) }
    }
    // The most rows whose shape's columns fit, and fewer, a tenth fewer at most.
    let byRows = max(1, min(maxDown, Int((Double(maxAcross) / perRow).rounded(.down))))
    for down in stride(from: byRows, through: max(1, byRows - byRows / 10), by: -1).prefix(64) {
      consider(Int((Double(down) * perRow).rounded()), down)
    }
    // The most columns whose shape's rows fit, and fewer.
    let byColumns = max(1, min(maxAcross, Int((Double(maxDown) * perRow).rounded(.down))))
    for across in stride(from: byColumns, through: max(1, byColumns - byColumns / 10), by: -1)
      .prefix(64)
    {
      consider(across, Int((Double(across) / perRow).rounded()))
    }
    return best.map { ($0.across, $0.down) } ?? (0, 0)
  }

  /// How far the shape of `across` × `down` dots of `dotWidth` × `dotHeight` is from a
  /// `width` × `height` picture's, as a fraction (0.02 is 2 %).
  public static func aspectError(
    across: Int, down: Int, dotWidth: Double, dotHeight: Double, width: Int, height: Int
  ) -> Double {
    guard across > 0, down > 0, width > 0, height > 0 else { return .infinity }
    let shown = Double(across) * dotWidth / (Double(down) * dotHeight)
    return abs(shown / (Double(width) / Double(height)) - 1)
  }
}
