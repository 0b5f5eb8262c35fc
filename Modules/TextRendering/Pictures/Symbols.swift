/// The glyphs a picture in cells is drawn with, each in two colours.
///
/// - `half`: the upper half block `▀`, two pixels a cell, stacked.
/// - `quadrant`: also `▌` and the quadrants `▘ ▝ ▖ ▗ ▚`: a cell split into two parts of its
///   2 × 2 quarters.
/// - `block`: also the eighths, `▁ ▂ ▃ ▅ ▆ ▇` from the bottom and `▏ ▎ ▍ ▋ ▊ ▉` from the
///   left. Every glyph so far is in one Unicode block (Block Elements), so a font that
///   draws `▀` draws them all.
/// - `line`: also `▔ ▕` (the last of Block Elements), and lines through the middle of the
///   cell, light and heavy, whole and half (`─ ━ │ ┃ ╴ ╶ ╵ ╷ ╸ ╺ ╹ ╻`) from Box Drawing,
///   which every font with block elements has: a thin edge or stroke (a whisker, a mast,
///   a horizon) inside a cell keeps its shape.
/// - `sextant`: also the sextants (`🬀`…`🬻`, a cell's 2 × 3 sixths), from Symbols for
///   Legacy Computing, which many fonts lack: used where asked for by name.
/// - `auto`: `line`. It draws photographs closest to their source of the sets every font
///   with half blocks has: in screenshots, its structural similarity to the photograph is
///   the highest, and above chafa's default symbols' on the same photographs in the same
///   box; and it costs about as little as quadrants.
///
/// Each cell is fitted on its own pixels, a grid as fine as the cell's size in pixels (at
/// most 16 × 32): for every glyph of the set, its two colours are the means of the pixels
/// its ink covers and of the rest, and the glyph whose colours leave the smallest squared
/// error wins. The error is weighed in luma and chroma (Y′CbCr of the gamma-encoded
/// colours, chroma at half weight), as the eye weighs it: a glyph is chosen for the shape
/// of the light in a cell before its hue. A flat cell is a space on its colour.
public enum SymbolSet: String, Hashable, Sendable, CaseIterable, Codable {
  /// `line`.
  case auto
  /// Half blocks.
  case half
  /// Half blocks, `▌` and the quadrants.
  case quadrant
  /// Those and the eighths.
  case block
  /// Those and lines through the middle of the cell.
  case line
  /// Those and the sextants.
  case sextant

  /// The set `auto` stands for; any other, itself.
  public var resolved: SymbolSet { self == .auto ? .line : self }

  /// A rectangle of a cell: across in eighths of its width, down in 24ths of its height
  /// (which halves, thirds and eighths all divide).
  struct Part: Sendable {
    var left: Int
    var right: Int
    var top: Int
    var bottom: Int
  }

  /// The glyphs tried (not the space, which is always tried), with the rectangles their
  /// ink covers. A glyph's complement (`▄` for `▀`) is the same split with its colours
  /// swapped, so it is left out.
  var glyphs: [(character: Character, ink: [Part])] {
    switch resolved {
    case .half: Self.halves
    case .quadrant: Self.quadrants
    case .block: Self.blocks
    case .line: Self.lines
    default: Self.sextants
    }
  }

  private static let halves: [(character: Character, ink: [Part])] = [
    ("▀", [Part(left: 0, right: 8, top: 0, bottom: 12)])
  ]

  private static let quadrants: [(character: Character, ink: [Part])] =
    halves + [
      ("▌", [Part(left: 0, right: 4, top: 0, bottom: 24)]),
      ("▘", [Part(left: 0, right: 4, top: 0, bottom: 12)]),
      ("▝", [Part(left: 4, right: 8, top: 0, bottom: 12)]),
      ("▖", [Part(left: 0, right: 4, top: 12, bottom: 24)]),
      ("▗", [Part(left: 4, right: 8, top: 12, bottom: 24)]),
      ("▚", [Part(left: 0, right: 4, top: 0, bottom: 12), Part(left: 4, right: 8, top: 12, bottom: 24)]),
    ]

  /// Eighths from the bottom (U+2581…U+2587) and from the left (U+2589…U+258F, widest
  /// first), but the halves, which are there already.
  private static let blocks: [(character: Character, ink: [Part])] =
    quadrants
    + (1...7).filter { $0 != 4 }.map { eighths in
      (
        Character(Unicode.Scalar(0x2580 + UInt32(eighths))!),
        [Part(left: 0, right: 8, top: 24 - 3 * eighths, bottom: 24)]
      )
    }
    + (1...7).filter { $0 != 4 }.map { eighths in
      (
        Character(Unicode.Scalar(0x2590 - UInt32(eighths))!),
        [Part(left: 0, right: eighths, top: 0, bottom: 24)]
      )
    }

  /// The edge eighths `▔ ▕`, and light and heavy lines through the middle, whole and half
  /// (U+2500…U+2503, U+2574…U+257B): a light line an eighth of a cell wide or a twelfth
  /// high, a heavy one twice that, as terminals and common fonts draw them.
  private static let lines: [(character: Character, ink: [Part])] =
    blocks + [
      ("▔", [Part(left: 0, right: 8, top: 0, bottom: 3)]),
      ("▕", [Part(left: 7, right: 8, top: 0, bottom: 24)]),
      ("─", [Part(left: 0, right: 8, top: 11, bottom: 13)]),
      ("━", [Part(left: 0, right: 8, top: 10, bottom: 14)]),
      ("│", [Part(left: 4, right: 5, top: 0, bottom: 24)]),
      ("┃", [Part(left: 3, right: 5, top: 0, bottom: 24)]),
      ("╴", [Part(left: 0, right: 4, top: 11, bottom: 13)]),
      ("╶", [Part(left: 4, right: 8, top: 11, bottom: 13)]),
      ("╵", [Part(left: 4, right: 5, top: 0, bottom: 12)]),
      ("╷", [Part(left: 4, right: 5, top: 12, bottom: 24)]),
      ("╸", [Part(left: 0, right: 4, top: 10, bottom: 14)]),
      ("╺", [Part(left: 4, right: 8, top: 10, bottom: 14)]),
      ("╹", [Part(left: 3, right: 5, top: 0, bottom: 12)]),
      ("╻", [Part(left: 3, right: 5, top: 12, bottom: 24)]),
    ]

  /// The sextants whose bottom right sixth is not ink (the others are their complements),
  /// but the left column, which is `▌`.
  private static let sextants: [(character: Character, ink: [Part])] =
    lines
    + (1..<32).filter { $0 != 0b010101 }.map { mask in
      // U+1FB00 is the first sixth alone; the left and right columns have no sextant.
      let scalar = Unicode.Scalar(0x1FB00 + UInt32(mask) - (mask > 0b010101 ? 2 : 1))!
      let parts = (0..<6).filter { mask & 1 << $0 != 0 }.map { bit in
        Part(left: bit % 2 * 4, right: bit % 2 * 4 + 4, top: bit / 2 * 8, bottom: bit / 2 * 8 + 8)
      }
      return (Character(scalar), parts)
    }

  /// The pixels across and down each cell is fitted on, for cells `cell` pixels large: a
  /// picture is best decoded to this many for each cell it covers.
  public static func samplesPerCell(_ cell: TerminalPicture.CellSize) -> (across: Int, down: Int) {
    (max(2, min(16, cell.width)), max(3, min(32, cell.height)))
  }
}

enum SymbolFit {
  /// The cells for `pixels`, an RGB raster of `columns × across` by `rows × down` pixels,
  /// each the glyph of `symbols` and the two colours nearest its pixels.
  static func cells(
    _ pixels: [UInt8], columns: Int, rows: Int, across: Int, down: Int, symbols: SymbolSet
  ) -> [Cell] {
    let width = columns * across
    precondition(pixels.count == width * rows * down * 3, "SymbolFit needs columns × rows cells of pixels")
    // Each glyph's rectangles in the cell's pixels, and how many pixels its ink covers.
    struct Shape {
      var character: Character
      var rectangles: [(x0: Int, x1: Int, y0: Int, y1: Int)]
      var count: Int
    }
    let shapes: [Shape] = symbols.glyphs.compactMap { glyph in
      let rectangles = glyph.ink.map { part in
        (
          x0: (part.left * across + 4) / 8, x1: (part.right * across + 4) / 8,
          y0: (part.top * down + 12) / 24, y1: (part.bottom * down + 12) / 24
        )
      }
      let count = rectangles.reduce(0) { $0 + ($1.x1 - $1.x0) * ($1.y1 - $1.y0) }
      // A glyph too fine for the grid covers none of it, or all of it.
      guard count > 0, count < across * down else { return nil }
      return Shape(character: glyph.character, rectangles: rectangles, count: count)
    }
    // Sums of a row of cells' pixels above and left of each point (one more each way),
    // per channel: any rectangle's sum in four look-ups.
    let stride = width + 1
    var table = [Int32](repeating: 0, count: stride * (down + 1) * 3)
    var cells: [Cell] = []
    cells.reserveCapacity(columns * rows)
    // Y′CbCr of a sum of RGB: what the error is weighed in.
    @inline(__always) func weighed(_ r: Float, _ g: Float, _ b: Float) -> Float {
      let y = 0.299 * r + 0.587 * g + 0.114 * b
      let cb = -0.168_736 * r - 0.331_264 * g + 0.5 * b
      let cr = 0.5 * r - 0.418_688 * g - 0.081_312 * b
      return y * y + 0.5 * (cb * cb + cr * cr)
    }
    let total = across * down
    pixels.withUnsafeBufferPointer { source in
      table.withUnsafeMutableBufferPointer { sums in
        for row in 0..<rows {
          for y in 0..<down {
            var running: (Int32, Int32, Int32) = (0, 0, 0)
            let line = ((row * down + y) * width) * 3
            let above = y * stride * 3
            let here = (y + 1) * stride * 3
            for x in 0..<width {
              running.0 += Int32(source[line + x * 3])
              running.1 += Int32(source[line + x * 3 + 1])
              running.2 += Int32(source[line + x * 3 + 2])
              let at = (x + 1) * 3
              sums[here + at] = sums[above + at] + running.0
              sums[here + at + 1] = sums[above + at + 1] + running.1
              sums[here + at + 2] = sums[above + at + 2] + running.2
            }
          }
          for column in 0..<columns {
            let left = column * across
            @inline(__always) func sum(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> (Float, Float, Float) {
              let a = (y0 * stride + left + x0) * 3
              let b = (y0 * stride + left + x1) * 3
              let c = (y1 * stride + left + x0) * 3
              let d = (y1 * stride + left + x1) * 3
              return (
                Float(sums[d] - sums[b] - sums[c] + sums[a]),
                Float(sums[d + 1] - sums[b + 1] - sums[c + 1] + sums[a + 1]),
                Float(sums[d + 2] - sums[b + 2] - sums[c + 2] + sums[a + 2])
              )
            }
            let all = sum(0, across, 0, down)
            // Maximising each part's weighed sum squared over its count minimises the
            // weighed squared error of the two means (the pixels' own squares are the same
            // for every glyph).
            var best = -1
            var bestScore = weighed(all.0, all.1, all.2) / Float(total)
            // A glyph must do better than the flat cell by more than rounding its colours
            // to whole levels costs.
            let margin = Float(total)
            var bestInk: (Float, Float, Float) = (0, 0, 0)
            for (index, shape) in shapes.enumerated() {
              var ink: (Float, Float, Float) = (0, 0, 0)
              for r in shape.rectangles {
                let part = sum(r.x0, r.x1, r.y0, r.y1)
                ink = (ink.0 + part.0, ink.1 + part.1, ink.2 + part.2)
              }
              let count = Float(shape.count)
              let score =
                weighed(ink.0, ink.1, ink.2) / count
                + weighed(all.0 - ink.0, all.1 - ink.1, all.2 - ink.2) / (Float(total) - count)
              if score > bestScore + (best < 0 ? margin : 0) {
                best = index
                bestScore = score
                bestInk = ink
              }
            }
            func mean(_ sum: (Float, Float, Float), _ count: Int) -> Color {
              let n = Float(count)
              func level(_ v: Float) -> UInt8 { UInt8(max(0, min(255, (v / n).rounded()))) }
              return .rgb(level(sum.0), level(sum.1), level(sum.2))
            }
            if best < 0 {
              cells.append(Cell(" ", style: Style(background: mean(all, total))))
            } else {
              let shape = shapes[best]
              let rest = (all.0 - bestInk.0, all.1 - bestInk.1, all.2 - bestInk.2)
              cells.append(
                Cell(
                  shape.character,
                  style: Style(
                    foreground: mean(bestInk, shape.count), background: mean(rest, total - shape.count))))
            }
          }
        }
      }
    }
    return cells
  }
}
