/// Draws each cell of a picture as the glyph, and the two colours, that come nearest its
/// pixels: the glyph's ink in the foreground colour, the rest in the background colour.
///
/// A glyph is described by how much of each part of the cell its ink covers, on a grid of
/// ``GlyphSet/across`` × ``GlyphSet/down`` parts (from 0, none, to 1, all). For a glyph, the
/// colours that minimise the squared error against the cell's pixels (one pixel a part)
/// are a least-squares solution, in closed form; the glyph with the smallest error wins.
/// Where no glyph does clearly better (a flat cell), the first glyph, a space, wins.
struct GlyphSet: Sendable {
  /// Parts across a cell.
  let across: Int
  /// Parts down a cell.
  let down: Int
  /// The glyphs; the first is drawn where none does better.
  let characters: [Character]
  /// For each glyph, its ink's coverage of each part, row by row.
  let coverage: [[Float]]

  /// Sums of each glyph's coverage, for its least-squares colours.
  fileprivate let sums: [(aa: Float, ab: Float, bb: Float, det: Float)]

  init(across: Int, down: Int, glyphs: [(Character, [Float])]) {
    self.across = across
    self.down = down
    characters = glyphs.map(\.0)
    coverage = glyphs.map(\.1)
    sums = coverage.map { cover in
      var (aa, ab, bb): (Float, Float, Float) = (0, 0, 0)
      for c in cover {
        aa += (1 - c) * (1 - c)
        ab += (1 - c) * c
        bb += c * c
      }
      return (aa, ab, bb, aa * bb - ab * ab)
    }
  }

  /// ASCII glyphs on 2 × 4 parts of a cell, their coverage as a terminal font's ink
  /// roughly has it: dots and lines at the top, middle and bottom, slants, brackets, and
  /// dense characters.
  static let ascii = GlyphSet(
    across: 2, down: 4,
    glyphs: [
      (" ", [0, 0, 0, 0, 0, 0, 0, 0]),
      (".", [0, 0, 0, 0, 0, 0, 0.25, 0.25]),
      ("_", [0, 0, 0, 0, 0, 0, 0.5, 0.5]),
      ("-", [0, 0, 0.2, 0.2, 0.2, 0.2, 0, 0]),
      ("=", [0, 0, 0.35, 0.35, 0.35, 0.35, 0, 0]),
      ("'", [0.25, 0.25, 0, 0, 0, 0, 0, 0]),
      ("\"", [0.4, 0.4, 0, 0, 0, 0, 0, 0]),
      ("^", [0.35, 0.35, 0.1, 0.1, 0, 0, 0, 0]),
      (":", [0, 0, 0.2, 0.2, 0, 0, 0.2, 0.2]),
      ("|", [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]),
      ("/", [0, 0.5, 0.1, 0.4, 0.4, 0.1, 0.5, 0]),
      ("\\", [0.5, 0, 0.4, 0.1, 0.1, 0.4, 0, 0.5]),
      ("[", [0.6, 0.2, 0.6, 0, 0.6, 0, 0.6, 0.2]),
      ("]", [0.2, 0.6, 0, 0.6, 0, 0.6, 0.2, 0.6]),
      ("(", [0.3, 0.1, 0.5, 0, 0.5, 0, 0.3, 0.1]),
      (")", [0.1, 0.3, 0, 0.5, 0, 0.5, 0.1, 0.3]),
      ("o", [0, 0, 0.3, 0.3, 0.45, 0.45, 0.3, 0.3]),
      ("*", [0.2, 0.2, 0.4, 0.4, 0.2, 0.2, 0, 0]),
      ("L", [0.5, 0, 0.5, 0, 0.5, 0, 0.6, 0.5]),
      ("J", [0, 0.5, 0, 0.5, 0, 0.5, 0.5, 0.6]),
      ("T", [0.6, 0.6, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]),
      ("7", [0.6, 0.6, 0, 0.5, 0.3, 0.2, 0.4, 0]),
      ("d", [0, 0.4, 0.3, 0.5, 0.5, 0.5, 0.4, 0.5]),
      ("b", [0.4, 0, 0.5, 0.3, 0.5, 0.5, 0.5, 0.4]),
      ("P", [0.5, 0.5, 0.5, 0.5, 0.5, 0.2, 0.5, 0]),
      ("#", [0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45]),
      ("@", [0.4, 0.4, 0.6, 0.6, 0.6, 0.6, 0.5, 0.5]),
    ])
}

enum CellFit {
  /// The cells for `pixels`, an RGB raster of `columns × across` by `rows × down` pixels,
  /// each the glyph of `glyphs` and the two colours nearest its part of the raster.
  static func cells(_ pixels: [UInt8], columns: Int, rows: Int, glyphs: GlyphSet) -> [Cell] {
    let (across, down) = (glyphs.across, glyphs.down)
    let width = columns * across
    let parts = across * down
    precondition(pixels.count == width * rows * down * 3, "CellFit needs columns × rows cells of pixels")
    var cells: [Cell] = []
    cells.reserveCapacity(columns * rows)
    var cell = [Float](repeating: 0, count: parts * 3)
    for row in 0..<rows {
      for column in 0..<columns {
        // The cell's pixels, and their sums per channel.
        var total: (Float, Float, Float) = (0, 0, 0)
        var squares: Float = 0
        for y in 0..<down {
          for x in 0..<across {
            let source = (((row * down + y) * width) + column * across + x) * 3
            let part = (y * across + x) * 3
            for channel in 0..<3 {
              let value = Float(pixels[source + channel])
              cell[part + channel] = value
              squares += value * value
            }
            total.0 += cell[part]
            total.1 += cell[part + 1]
            total.2 += cell[part + 2]
          }
        }
        // A flat cell's error, with both colours its mean: the space's, and the bar to beat.
        let count = Float(parts)
        var best = 0
        var bestError =
          squares - (total.0 * total.0 + total.1 * total.1 + total.2 * total.2) / count
        var bestColours: (fg: (Float, Float, Float), bg: (Float, Float, Float)) = (
          (total.0 / count, total.1 / count, total.2 / count),
          (total.0 / count, total.1 / count, total.2 / count)
        )
        for glyph in 1..<glyphs.characters.count {
          let sums = glyphs.sums[glyph]
          guard sums.det > 1e-6 else { continue }
          let cover = glyphs.coverage[glyph]
          // Per channel: the pixels weighed by the ink's coverage (b) and by the rest's (a).
          var inked: (Float, Float, Float) = (0, 0, 0)
          for part in 0..<parts where cover[part] > 0 {
            inked.0 += cover[part] * cell[part * 3]
            inked.1 += cover[part] * cell[part * 3 + 1]
            inked.2 += cover[part] * cell[part * 3 + 2]
          }
          func solve(_ total: Float, _ inked: Float) -> (bg: Float, fg: Float, explained: Float) {
            let rest = total - inked
            let bg = (sums.bb * rest - sums.ab * inked) / sums.det
            let fg = (sums.aa * inked - sums.ab * rest) / sums.det
            return (bg, fg, bg * rest + fg * inked)
          }
          let (r, g, b) = (solve(total.0, inked.0), solve(total.1, inked.1), solve(total.2, inked.2))
          let error = squares - r.explained - g.explained - b.explained
          // A glyph must do clearly better than the glyph before it (the space first): by
          // about 22 levels in each channel of each part. Glyphs that gain less are noise
          // on screen, where a terminal's real glyphs only roughly have these coverages.
          if error < bestError - count * 1500 {
            best = glyph
            bestError = error
            bestColours = ((r.fg, g.fg, b.fg), (r.bg, g.bg, b.bg))
          }
        }
        func colour(_ value: (Float, Float, Float)) -> Color {
          func level(_ v: Float) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
          return .rgb(level(value.0), level(value.1), level(value.2))
        }
        let background = colour(bestColours.bg)
        cells.append(
          Cell(
            glyphs.characters[best],
            style: Style(foreground: best == 0 ? nil : colour(bestColours.fg), background: background)))
      }
    }
    return cells
  }
}
