/// The glyphs a picture in cells is drawn with, each in two colours.
///
/// - `half`: the upper half block `▀`, two pixels a cell, stacked.
/// - `quadrant`: also `▌` and the quadrants `▘ ▝ ▖ ▗ ▚`: a cell split into two parts of its
///   2 × 2 quarters, the split that comes nearest its pixels. They are in the same Unicode
///   block as the half block (Block Elements), so a font that draws `▀` draws them.
/// - `sextant`: also the sextants (`🬀`…`🬻`, a cell's 2 × 3 sixths), from Symbols for
///   Legacy Computing, which many fonts lack: used where asked for by name.
///
/// For each cell, every glyph of the set is tried against the cell's pixels (2 × 6 of
/// them, which every glyph's parts tile): its two colours are the means of the pixels its
/// ink covers and of the rest, and the glyph whose colours leave the smallest squared
/// error wins. A flat cell is a space on its colour.
public enum SymbolSet: String, Hashable, Sendable, CaseIterable {
  /// Half blocks.
  case half
  /// Half blocks, `▌` and the quadrants.
  case quadrant
  /// Those and the sextants.
  case sextant

  /// Pixels across and down a cell that every glyph's parts tile.
  static let across = 2
  static let down = 6

  /// The glyphs tried, with the parts of the 2 × 6 grid their ink covers (bit `row × 2 +
  /// column`); the space first.
  var glyphs: [(character: Character, ink: UInt16)] {
    switch self {
    case .half: Self.halves
    case .quadrant: Self.quadrants
    case .sextant: Self.sextants
    }
  }

  /// The ink of a glyph covering, of a grid `rows` high and 2 wide, the parts in `mask`
  /// (bit `row × 2 + column`), on the 2 × 6 grid.
  private static func ink(_ mask: Int, rows: Int) -> UInt16 {
    var ink: UInt16 = 0
    let height = down / rows
    for row in 0..<rows {
      for column in 0..<2 where mask & 1 << (row * 2 + column) != 0 {
        for y in row * height..<(row + 1) * height { ink |= 1 << (y * 2 + column) }
      }
    }
    return ink
  }

  private static let halves: [(character: Character, ink: UInt16)] = [(" ", 0), ("▀", ink(0b0011, rows: 2))]

  private static let quadrants: [(character: Character, ink: UInt16)] =
    halves + [
      ("▌", ink(0b0101, rows: 2)), ("▘", ink(0b0001, rows: 2)), ("▝", ink(0b0010, rows: 2)),
      ("▖", ink(0b0100, rows: 2)), ("▗", ink(0b1000, rows: 2)), ("▚", ink(0b1001, rows: 2)),
    ]

  /// The sextants whose bottom right sixth is not ink (the others are their complements,
  /// the same split with the colours swapped), but the left column, which is `▌`.
  private static let sextants: [(character: Character, ink: UInt16)] =
    quadrants
    + (1..<32).filter { $0 != 0b010101 }.map { mask in
      // U+1FB00 is the first sixth alone; the left and right columns have no sextant.
      let scalar = Unicode.Scalar(0x1FB00 + UInt32(mask) - (mask > 0b010101 ? 2 : 1))!
      return (Character(scalar), ink(mask, rows: 3))
    }
}

enum SymbolFit {
  /// The cells for `pixels`, an RGB raster of `columns × 2` by `rows × 6` pixels, each the
  /// glyph of `symbols` and the two colours nearest its pixels.
  static func cells(_ pixels: [UInt8], columns: Int, rows: Int, symbols: SymbolSet) -> [Cell] {
    let (across, down) = (SymbolSet.across, SymbolSet.down)
    let parts = across * down
    let width = columns * across
    precondition(pixels.count == width * rows * down * 3, "SymbolFit needs columns × rows cells of pixels")
    let glyphs = symbols.glyphs
    var cells: [Cell] = []
    cells.reserveCapacity(columns * rows)
    var cell = [Int32](repeating: 0, count: parts * 3)
    for row in 0..<rows {
      for column in 0..<columns {
        var total: (Int32, Int32, Int32) = (0, 0, 0)
        for y in 0..<down {
          let source = ((row * down + y) * width + column * across) * 3
          for x in 0..<across {
            let part = (y * across + x) * 3
            for channel in 0..<3 { cell[part + channel] = Int32(pixels[source + x * 3 + channel]) }
            total = (total.0 + cell[part], total.1 + cell[part + 1], total.2 + cell[part + 2])
          }
        }
        // Maximising |ink's sum|² / ink's count + |rest's sum|² / rest's count minimises the
        // squared error of the two means (the total's squares are the same for every glyph).
        var best = 0
        var bestScore = Double(total.0 * total.0 + total.1 * total.1 + total.2 * total.2) / Double(parts)
        var bestSums: (ink: (Int32, Int32, Int32), count: Int) = ((0, 0, 0), 0)
        for glyph in 1..<glyphs.count {
          let ink = glyphs[glyph].ink
          var sum: (Int32, Int32, Int32) = (0, 0, 0)
          var count = 0
          for part in 0..<parts where ink & 1 << part != 0 {
            sum = (sum.0 + cell[part * 3], sum.1 + cell[part * 3 + 1], sum.2 + cell[part * 3 + 2])
            count += 1
          }
          let rest = (total.0 - sum.0, total.1 - sum.1, total.2 - sum.2)
          let score =
            Double(sum.0 * sum.0 + sum.1 * sum.1 + sum.2 * sum.2) / Double(count)
            + Double(rest.0 * rest.0 + rest.1 * rest.1 + rest.2 * rest.2) / Double(parts - count)
          // A glyph must do better than the flat cell by more than rounding.
          if score > bestScore + Double(parts) {
            best = glyph
            bestScore = score
            bestSums = (sum, count)
          }
        }
        func mean(_ sum: (Int32, Int32, Int32), _ count: Int) -> Color {
          let half = Int32(count / 2)
          let n = Int32(count)
          return .rgb(UInt8((sum.0 + half) / n), UInt8((sum.1 + half) / n), UInt8((sum.2 + half) / n))
        }
        if best == 0 {
          cells.append(Cell(" ", style: Style(background: mean(total, parts))))
        } else {
          let (ink, count) = bestSums
          let rest = (total.0 - ink.0, total.1 - ink.1, total.2 - ink.2)
          cells.append(
            Cell(
              glyphs[best].character,
              style: Style(foreground: mean(ink, count), background: mean(rest, parts - count))))
        }
      }
    }
    return cells
  }
}
