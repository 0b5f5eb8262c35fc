import Foundation
import ImageDecoding
import TestSupport
import Testing

@testable import TextRendering

extension PictureSuites {
  /// Pictures in cells of quarters and sixths: each cell the glyph and two colours nearest
  /// its pixels.
  struct SymbolTests {
    let red: [UInt8] = [220, 30, 40]
    let blue: [UInt8] = [20, 40, 200]

    /// One cell, 2 × 6 pixels, from `ink` (bit `row × 2 + column`): red where set, blue
    /// elsewhere.
    func cell(_ ink: UInt16, symbols: SymbolSet) -> Cell? {
      let pixels: [UInt8] = (0..<12).flatMap { part -> [UInt8] in ink & 1 << part != 0 ? red : blue }
      return SymbolFit.cells(pixels, columns: 1, rows: 1, symbols: symbols).first
    }

    @Test func eachSplitOfACellTakesItsGlyphAndItsTwoColours() {
      let left: UInt16 = 0b0101_0101_0101
      #expect(
        cell(left, symbols: .quadrant)
          == Cell("▌", style: Style(foreground: .rgb(220, 30, 40), background: .rgb(20, 40, 200))))
      // A quarter: the top left, or the bottom right.
      #expect(cell(0b0001_0101, symbols: .quadrant)?.character == "▘")
      let bottomRight: UInt16 = 0b1010_1000_0000
      #expect(
        cell(bottomRight, symbols: .quadrant)
          == Cell("▗", style: Style(foreground: .rgb(220, 30, 40), background: .rgb(20, 40, 200))))
      // Three quarters are a quarter's split, the colours swapped.
      #expect(
        cell(~bottomRight & 0xFFF, symbols: .quadrant)
          == Cell("▗", style: Style(foreground: .rgb(20, 40, 200), background: .rgb(220, 30, 40))))
      // Half blocks have no quarter: the nearer of a half and a flat cell.
      #expect(cell(0b0000_0011_1111, symbols: .half)?.character == "▀")
      // The top sixth pair is a sextant (U+1FB02), and a quarter is not one.
      #expect(cell(0b0000_0000_1111, symbols: .sextant)?.character == "\u{1FB02}")
      #expect(cell(0b0000_0000_1111, symbols: .quadrant)?.character != "\u{1FB02}")
      // A flat cell: a space on its colour.
      #expect(cell(0, symbols: .sextant) == Cell(" ", style: Style(background: .rgb(20, 40, 200))))
    }

    /// Every split of 2 × 3 sixths has one glyph (with its complement, the colours swapped):
    /// 30 sextants (U+1FB00–U+1FB3B), with the quarters' and halves' glyphs.
    @Test func theSextantsAreEachSplitOnce() {
      let glyphs = SymbolSet.sextant.glyphs
      #expect(Set(glyphs.map(\.character)).count == glyphs.count)
      #expect(Set(glyphs.map(\.ink)).count == glyphs.count)
      let sextants = glyphs.filter { $0.character.unicodeScalars.first!.value >= 0x1FB00 }
      #expect(sextants.count == 30)
      #expect(sextants.allSatisfy { (0x1FB00...0x1FB3B).contains($0.character.unicodeScalars.first!.value) })
    }

    /// The picture drawn in cells, painted back at 2 × 6 pixels a cell (each glyph's ink in
    /// its foreground, the rest in its background), against the source at that size:
    /// PSNR in dB.
    func quality(_ image: RGBImage, _ symbols: SymbolSet, columns: Int, rows: Int) -> Double {
      let cells = PictureRenderer.render(
        image, mode: .blocks, columns: columns, rows: rows, colorMode: .truecolor, symbols: symbols)
      let glyphs = Dictionary(SymbolSet.sextant.glyphs.map { ($0.character, $0.ink) }) { first, _ in first }
      let (width, height) = (cells.columns * 2, cells.rows * 6)
      let source = image.downscaled(width: width, height: height).pixels
      var squared = 0.0
      for (index, cell) in cells.cells.enumerated() {
        let ink = glyphs[cell.character] ?? 0
        for part in 0..<12 {
          let colour = ink & 1 << part != 0 ? cell.style.foreground : cell.style.background
          guard case .rgb(let r, let g, let b)? = colour else { continue }
          let x = index % cells.columns * 2 + part % 2
          let y = index / cells.columns * 6 + part / 2
          for (channel, value) in [r, g, b].enumerated() {
            let difference = Double(value) - Double(source[(y * width + x) * 3 + channel])
            squared += difference * difference
          }
        }
      }
      return 10 * log10(255 * 255 / max(squared / Double(source.count), 1e-9))
    }

    /// Quarters draw a picture closer to itself than halves, and sixths closer still; each
    /// at least as close as measured (25.5, 26.7 and 28.2 dB on the detailed test picture,
    /// edges, gradients and grain; 36.3, 37.7 and 40.4 on the dog), less 0.3 dB, so that a
    /// regression fails. At 60 × 20 cells, in 24-bit colour.
    @Test(arguments: [
      ("g-detailed-500x375.jpg", [25.2, 26.4, 27.9]), ("synthetic-500x375-baseline.jpg", [36.0, 37.4, 40.0]),
    ])
    func finerSymbolsDrawAPictureCloserToItself(name: String, floors: [Double]) throws {
      let image = try JPEGDecoder.decode(JPEGFixture.bytes(name), scale: .full)
      let (half, quadrant, sextant) = (
        quality(image, .half, columns: 60, rows: 20), quality(image, .quadrant, columns: 60, rows: 20),
        quality(image, .sextant, columns: 60, rows: 20)
      )
      #expect(half < quadrant && quadrant < sextant, "\(half) \(quadrant) \(sextant) dB")
      #expect(
        half >= floors[0] && quadrant >= floors[1] && sextant >= floors[2],
        "\(half) \(quadrant) \(sextant) dB")
    }
  }
}
