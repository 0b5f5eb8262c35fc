/// Draws each cell of a picture as the glyph, and the two colours, that come nearest its
/// pixels: the glyph's ink in the foreground colour, the rest in the background colour.
///
/// A glyph is described by how much of each part of the cell its ink covers, on a grid of
/// ``GlyphSet/across`` × ``GlyphSet/down`` parts (from 0, none, to 1, all), as a terminal
/// blends it: a part shows `background + coverage × (foreground − background)`.
struct GlyphSet: Sendable {
  /// Parts across a cell.
  let across: Int
  /// Parts down a cell.
  let down: Int
  /// The glyphs; the first is the space, drawn where none does better.
  let characters: [Character]
  /// For each glyph, its ink's coverage of each part, row by row.
  let coverage: [[Float]]

  /// Sums of each glyph's coverage, for its least-squares colours: of the rest's squares
  /// (`aa`), of the rest times the ink (`ab`), of the ink's squares (`bb`), and `aa·bb − ab²`.
  fileprivate let sums: [(aa: Float, ab: Float, bb: Float, det: Float)]

  init(across: Int, down: Int, glyphs: [(Character, [Float])]) {
    precondition(glyphs.allSatisfy { $0.1.count == across * down }, "a glyph's coverage is one value a part")
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

  /// The printable ASCII characters, their coverage as a monospace font draws them
  /// (``asciiCoverage``).
  static let ascii = GlyphSet(
    across: asciiGrid.across, down: asciiGrid.down,
    glyphs: asciiCoverage.map { character, hex in
      let digits = Array(hex.utf8)
      let parts = stride(from: 0, to: digits.count, by: 2).map { index in
        Float(UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) ?? 0) / 255
      }
      return (character, parts)
    })
}

enum CellFit {
  /// Chroma's weight in a cell's error, against luma's 1: the eye sees the shape of the
  /// light in a cell before its hue.
  static let chromaWeight: Float = 0.5

  /// What a glyph must gain over the flat cell, in squared levels a part: about 12 levels
  /// of luma in each. A terminal's font only roughly draws the coverage a glyph is fitted
  /// with, and a glyph that gains less shows as noise on a smooth surface.
  static let margin: Float = 150

  /// The cells for `pixels`, an RGB raster of `columns × across` by `rows × down` pixels,
  /// each the glyph of `glyphs` and the two colours nearest its part of the raster.
  ///
  /// For each glyph, the two colours that minimise the squared error against the cell's
  /// pixels, in Y′CbCr (chroma at ``chromaWeight``), are a least-squares solution in closed
  /// form, each kept within the colours there are; its error then follows from the cell's
  /// sums alone. The glyph with the smallest error wins; a glyph must beat the flat cell
  /// (a space on the pixels' mean) by ``margin``.
  static func cells(_ pixels: [UInt8], columns: Int, rows: Int, glyphs: GlyphSet) -> [Cell] {
    let (across, down) = (glyphs.across, glyphs.down)
    let width = columns * across
    let parts = across * down
    precondition(pixels.count == width * rows * down * 3, "CellFit needs columns × rows cells of pixels")
    var cells: [Cell] = []
    cells.reserveCapacity(columns * rows)
    // The cell's parts in Y′CbCr, one channel after the other.
    var cell = [Float](repeating: 0, count: parts * 3)
    let weights: [Float] = [1, chromaWeight, chromaWeight]
    let limits: [(Float, Float)] = [(0, 255), (-128, 128), (-128, 128)]
    for row in 0..<rows {
      for column in 0..<columns {
        var total: [Float] = [0, 0, 0]
        var squares: [Float] = [0, 0, 0]
        for y in 0..<down {
          for x in 0..<across {
            let source = (((row * down + y) * width) + column * across + x) * 3
            let (r, g, b) = (Float(pixels[source]), Float(pixels[source + 1]), Float(pixels[source + 2]))
            let part = y * across + x
            let values = [
              0.299 * r + 0.587 * g + 0.114 * b,
              -0.168_736 * r - 0.331_264 * g + 0.5 * b,
              0.5 * r - 0.418_688 * g - 0.081_312 * b,
            ]
            for channel in 0..<3 {
              cell[channel * parts + part] = values[channel]
              total[channel] += values[channel]
              squares[channel] += values[channel] * values[channel]
            }
          }
        }
        let count = Float(parts)
        // The flat cell's error: the bar to beat.
        var bestError: Float = 0
        for channel in 0..<3 {
          bestError += weights[channel] * (squares[channel] - total[channel] * total[channel] / count)
        }
        bestError -= count * margin
        var best = 0
        var bestColours: (fg: [Float], bg: [Float]) = (total.map { $0 / count }, total.map { $0 / count })
        var fg: [Float] = [0, 0, 0]
        var bg: [Float] = [0, 0, 0]
        for glyph in 1..<glyphs.characters.count {
          let sums = glyphs.sums[glyph]
          guard sums.det > 1e-6 else { continue }
          var error: Float = 0
          glyphs.coverage[glyph].withUnsafeBufferPointer { cover in
            for channel in 0..<3 {
              var inked: Float = 0
              let base = channel * parts
              for part in 0..<parts { inked += cover[part] * cell[base + part] }
              let rest = total[channel] - inked
              let (low, high) = limits[channel]
              let b = min(high, max(low, (sums.bb * rest - sums.ab * inked) / sums.det))
              let f = min(high, max(low, (sums.aa * inked - sums.ab * rest) / sums.det))
              bg[channel] = b
              fg[channel] = f
              error +=
                weights[channel]
                * (squares[channel] - 2 * b * rest - 2 * f * inked + b * b * sums.aa + 2 * f * b * sums.ab
                  + f * f * sums.bb)
            }
          }
          if error < bestError {
            best = glyph
            bestError = error
            bestColours = (fg, bg)
          }
        }
        func colour(_ value: [Float]) -> Color {
          func level(_ v: Float) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
          let (y, cb, cr) = (value[0], value[1], value[2])
          return .rgb(
            level(y + 1.402 * cr), level(y - 0.344_136 * cb - 0.714_136 * cr), level(y + 1.772 * cb))
        }
        cells.append(
          Cell(
            glyphs.characters[best],
            style: Style(
              foreground: best == 0 ? nil : colour(bestColours.fg), background: colour(bestColours.bg))))
      }
    }
    return cells
  }

  /// The coverage the lightest part of a picture without colour is matched to. Above any
  /// glyph's mean coverage (a quarter of the cell at most): a glyph's ink is concentrated
  /// in strokes, and a part a stroke crosses is matched to a stroke's coverage.
  static let plainInk: Float = 0.7

  /// The cells for `pixels` as ``cells(_:columns:rows:glyphs:)`` takes them, without colour:
  /// each cell the glyph whose ink is nearest the shape of the light in its pixels, drawn in
  /// the terminal's own colours.
  ///
  /// The picture's luma is first stretched over its range (from its 2nd to its 98th
  /// percentile, where that spans a quarter of the levels or more) and scaled to
  /// ``plainInk``, so its lightest parts take the densest glyphs; on a light background the ink is dark, and it is the picture's
  /// darkness that the ink follows. Each part of a cell is then matched to each glyph's
  /// coverage of it: the glyph with the smallest squared difference wins.
  static func plainCells(
    _ pixels: [UInt8], columns: Int, rows: Int, glyphs: GlyphSet, lightBackground: Bool
  ) -> [Cell] {
    let (across, down) = (glyphs.across, glyphs.down)
    let width = columns * across
    let parts = across * down
    precondition(pixels.count == width * rows * down * 3, "CellFit needs columns × rows cells of pixels")
    var luma = [Float](repeating: 0, count: pixels.count / 3)
    for index in luma.indices {
      let value =
        0.299 * Float(pixels[index * 3]) + 0.587 * Float(pixels[index * 3 + 1]) + 0.114
        * Float(pixels[index * 3 + 2])
      luma[index] = lightBackground ? 255 - value : value
    }
    guard !luma.isEmpty else { return [] }
    let sorted = luma.sorted()
    var low = sorted[sorted.count * 2 / 100]
    var high = sorted[min(sorted.count - 1, sorted.count * 98 / 100)]
    // A picture of nearly one level is not stretched: its level is its own.
    if high - low < 64 { (low, high) = (0, 255) }
    let scale = plainInk / (high - low)
    let glyphSquares = glyphs.coverage.map { $0.reduce(0) { $0 + $1 * $1 } }
    var cells: [Cell] = []
    cells.reserveCapacity(columns * rows)
    var target = [Float](repeating: 0, count: parts)
    for row in 0..<rows {
      for column in 0..<columns {
        for y in 0..<down {
          for x in 0..<across {
            let value = luma[(row * down + y) * width + column * across + x]
            target[y * across + x] = min(plainInk, max(0, (value - low) * scale))
          }
        }
        // Σ(t − c)² = Σt² − 2Σtc + Σc²; Σt² is the same for every glyph.
        var best = 0
        var bestError = Float.infinity
        for glyph in glyphs.characters.indices {
          var product: Float = 0
          glyphs.coverage[glyph].withUnsafeBufferPointer { cover in
            for part in 0..<parts { product += target[part] * cover[part] }
          }
          let error = glyphSquares[glyph] - 2 * product
          if error < bestError {
            best = glyph
            bestError = error
          }
        }
        cells.append(Cell(glyphs.characters[best]))
      }
    }
    return cells
  }
}
