@testable import TextRendering

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Pictures in cells painted back into pixels, as a terminal draws them, and measures of
/// how close they come to their source.
enum CellPainting {
  /// Each glyph's ink, as ``SymbolFit`` fits it: rectangles in eighths across and 24ths
  /// down of a cell.
  static let ink: [Character: [SymbolSet.Part]] = Dictionary(
    uniqueKeysWithValues: SymbolSet.sextant.glyphs.map { ($0.character, $0.ink) })

  /// `cells` painted at `cell` pixels a cell (RGB): each glyph's ink in its foreground
  /// colour, the rest in its background colour (a terminal's default, `nil`, is black; a
  /// palette entry is xterm's colour). The ink's rectangles are rounded to the cell's
  /// pixels as ``SymbolFit`` rounds them; a glyph that is not a block element (a space,
  /// ASCII) is all background.
  static func paint(_ cells: PictureCells, cell: TerminalPicture.CellSize) -> [UInt8] {
    let (across, down) = (cell.width, cell.height)
    let width = cells.columns * across
    var pixels = [UInt8](repeating: 0, count: width * cells.rows * down * 3)
    var masks: [Character: [Bool]] = [:]
    func mask(_ character: Character) -> [Bool] {
      if let mask = masks[character] { return mask }
      var mask = [Bool](repeating: false, count: across * down)
      for part in ink[character] ?? [] {
        for y in (part.top * down + 12) / 24..<(part.bottom * down + 12) / 24 {
          for x in (part.left * across + 4) / 8..<(part.right * across + 4) / 8 {
            mask[y * across + x] = true
          }
        }
      }
      masks[character] = mask
      return mask
    }
    func rgb(_ colour: Color?) -> (UInt8, UInt8, UInt8) {
      switch colour {
      case .rgb(let r, let g, let b)?: (r, g, b)
      case .indexed(let entry)?: Palette.rgb(of: entry)
      case .ansi(let code)?: Dither.Entries.system16.rgb[Int(code)]
      case nil: (0, 0, 0)
      }
    }
    pixels.withUnsafeMutableBufferPointer { pixels in
      for (index, cell) in cells.cells.enumerated() {
        let mask = mask(cell.character)
        let (fg, bg) = (rgb(cell.style.foreground), rgb(cell.style.background))
        let (left, top) = (index % cells.columns * across, index / cells.columns * down)
        for y in 0..<down {
          for x in 0..<across {
            let colour = mask[y * across + x] ? fg : bg
            let at = ((top + y) * width + left + x) * 3
            (pixels[at], pixels[at + 1], pixels[at + 2]) = colour
          }
        }
      }
    }
    return pixels
  }

  /// How close two RGB rasters of the same size, `width` pixels wide, are: the mean
  /// structural similarity of their luma (BT.601) over 8 × 8 windows side by side (a
  /// partial window at an edge left out), with the usual constants for 8-bit levels; and
  /// the peak signal-to-noise ratio of their channels, in dB.
  static func compare(_ a: [UInt8], _ b: [UInt8], width: Int) -> (ssim: Double, psnr: Double) {
    precondition(a.count == b.count && a.count % (width * 3) == 0)
    let height = a.count / 3 / width
    let (c1, c2) = ((0.01 * 255) * (0.01 * 255), (0.03 * 255) * (0.03 * 255))
    var (total, windows, squared) = (0.0, 0, 0)
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        for i in 0..<a.count {
          let d = Int(a[i]) - Int(b[i])
          squared += d * d
        }
        for top in stride(from: 0, through: height - 8, by: 8) {
          for left in stride(from: 0, through: width - 8, by: 8) {
            var (sx, sy, sxx, syy, sxy) = (0.0, 0.0, 0.0, 0.0, 0.0)
            for row in top..<(top + 8) {
              var at = (row * width + left) * 3
              for _ in 0..<8 {
                let x = 0.299 * Double(a[at]) + 0.587 * Double(a[at + 1]) + 0.114 * Double(a[at + 2])
                let y = 0.299 * Double(b[at]) + 0.587 * Double(b[at + 1]) + 0.114 * Double(b[at + 2])
                sx += x
                sy += y
                sxx += x * x
                syy += y * y
                sxy += x * y
                at += 3
              }
            }
            let (mx, my) = (sx / 64, sy / 64)
            let (vx, vy, cov) = (sxx / 64 - mx * mx, syy / 64 - my * my, sxy / 64 - mx * my)
            total += (2 * mx * my + c1) * (2 * cov + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2))
            windows += 1
          }
        }
      }
    }
    let meanSquared = max(Double(squared) / Double(max(1, a.count)), 1e-9)
    return (total / Double(max(1, windows)), 10 * log10(255 * 255 / meanSquared))
  }
}
