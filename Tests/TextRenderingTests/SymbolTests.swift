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

    /// One cell, 8 × 24 pixels, from `ink` (bit `row × 2 + column` of its 2 × 3 sixths):
    /// red where set, blue elsewhere.
    func cell(_ ink: UInt16, symbols: SymbolSet) -> Cell? {
      let pixels: [UInt8] = (0..<(8 * 24)).flatMap { pixel -> [UInt8] in
        let part = pixel / 8 / 8 * 2 + pixel % 8 / 4
        return ink & 1 << part != 0 ? red : blue
      }
      return SymbolFit.cells(pixels, columns: 1, rows: 1, across: 8, down: 24, symbols: symbols).first
    }

    /// One cell, 8 × 24 pixels, red in its bottom `eighths` (or, `fromLeft`, its left ones).
    func eighths(_ eighths: Int, fromLeft: Bool, symbols: SymbolSet = .block) -> Cell? {
      let pixels: [UInt8] = (0..<(8 * 24)).flatMap { pixel -> [UInt8] in
        let inked = fromLeft ? pixel % 8 < eighths : pixel / 8 >= 24 - 3 * eighths
        return inked ? red : blue
      }
      return SymbolFit.cells(pixels, columns: 1, rows: 1, across: 8, down: 24, symbols: symbols).first
    }

    @Test func eachSplitOfACellTakesItsGlyphAndItsTwoColours() {
      let left: UInt16 = 0b01_0101
      #expect(
        cell(left, symbols: .quadrant)
          == Cell("▌", style: Style(foreground: .rgb(220, 30, 40), background: .rgb(20, 40, 200))))
      let bottomRight: UInt16 = 0b10_1000
      // The bottom right third is not a quarter: a quadrant covers most of it.
      #expect(cell(bottomRight, symbols: .quadrant)?.character == "▗")
      // Three sixths of the right are a half.
      #expect(
        cell(0b10_1010, symbols: .quadrant)
          == Cell("▌", style: Style(foreground: .rgb(20, 40, 200), background: .rgb(220, 30, 40))))
      // Half blocks have no quarter: the nearer of a half and a flat cell.
      #expect(cell(0b11_1111 & ~0b11_0000, symbols: .half)?.character == "▀")
      // The top sixth pair is a sextant (U+1FB02), and a quarter is not one.
      #expect(cell(0b00_0011, symbols: .sextant)?.character == "\u{1FB02}")
      #expect(cell(0b00_0011, symbols: .quadrant)?.character != "\u{1FB02}")
      // A flat cell: a space on its colour.
      #expect(cell(0, symbols: .sextant) == Cell(" ", style: Style(background: .rgb(20, 40, 200))))
    }

    /// Each eighth from the bottom and from the left has its glyph in `block` and the sets
    /// after it, `auto` among them (the halves are `▀` and `▌`, colours swapped or not).
    @Test func eighthsTakeTheirGlyphs() {
      for count in 1...7 where count != 4 {
        #expect(
          eighths(count, fromLeft: false)?.character == Character(Unicode.Scalar(0x2580 + UInt32(count))!))
        #expect(
          eighths(count, fromLeft: true)?.character == Character(Unicode.Scalar(0x2590 - UInt32(count))!))
      }
      #expect(
        eighths(4, fromLeft: false)
          == Cell("▀", style: Style(foreground: .rgb(20, 40, 200), background: .rgb(220, 30, 40))))
      #expect(eighths(2, fromLeft: true, symbols: .auto)?.character == "▎")
      #expect(eighths(2, fromLeft: true, symbols: .quadrant)?.character != "▎")
    }

    /// One cell, 8 × 24 pixels, blue with a red stroke: across it, `thick` 24ths high
    /// through its middle (from `left` to `right` eighths), or, `down`, as many eighths wide
    /// from top to bottom.
    func stroke(thick: Int, down: Bool = false, left: Int = 0, right: Int = 8, symbols: SymbolSet) -> Cell? {
      let pixels: [UInt8] = (0..<(8 * 24)).flatMap { pixel -> [UInt8] in
        let (x, y) = (pixel % 8, pixel / 8)
        let inked =
          down
          ? (4 - thick / 2..<4 - thick / 2 + thick).contains(x)
          : (12 - thick / 2..<12 + (thick + 1) / 2).contains(y) && (left..<right).contains(x)
        return inked ? red : blue
      }
      return SymbolFit.cells(pixels, columns: 1, rows: 1, across: 8, down: 24, symbols: symbols).first
    }

    /// A thin stroke through a cell's middle is a line in `line` (and `auto`), light or
    /// heavy, whole or half, in the stroke's colour on the rest's; `block` has no glyph for it.
    @Test func strokesThroughTheMiddleAreLines() {
      #expect(
        stroke(thick: 2, symbols: .auto)
          == Cell("─", style: Style(foreground: .rgb(220, 30, 40), background: .rgb(20, 40, 200))))
      #expect(stroke(thick: 4, symbols: .line)?.character == "━")
      #expect(stroke(thick: 2, left: 0, right: 4, symbols: .line)?.character == "╴")
      #expect(stroke(thick: 4, left: 4, right: 8, symbols: .line)?.character == "╺")
      #expect(stroke(thick: 1, down: true, symbols: .line)?.character == "│")
      #expect(stroke(thick: 2, down: true, symbols: .line)?.character == "┃")
      #expect(stroke(thick: 2, symbols: .block).map { "─━".contains($0.character) } == false)
      // The sets after `line` keep its lines.
      #expect(stroke(thick: 2, symbols: .sextant)?.character == "─")
    }

    /// Every split of 2 × 3 sixths has one glyph (with its complement, the colours swapped):
    /// 30 sextants (U+1FB00–U+1FB3B), with the quarters' and halves' glyphs.
    @Test func theSextantsAreEachSplitOnce() {
      let glyphs = SymbolSet.sextant.glyphs
      #expect(Set(glyphs.map(\.character)).count == glyphs.count)
      let sextants = glyphs.filter { $0.character.unicodeScalars.first!.value >= 0x1FB00 }
      #expect(sextants.count == 30)
      #expect(sextants.allSatisfy { (0x1FB00...0x1FB3B).contains($0.character.unicodeScalars.first!.value) })
    }

    /// The picture drawn in cells, painted back at `across` × `down` pixels a cell (each
    /// glyph's ink in its foreground, the rest in its background, as a terminal draws it),
    /// against the source at that size: PSNR in dB.
    func quality(
      _ image: RGBImage, _ symbols: SymbolSet, columns: Int, rows: Int,
      cell: TerminalPicture.CellSize = .init(width: 8, height: 16), colorMode: ColorMode = .truecolor
    ) -> Double {
      let cells = PictureRenderer.render(
        image, mode: .blocks, columns: columns, rows: rows, cell: cell, colorMode: colorMode,
        symbols: symbols)
      let (across, down) = (cell.width, cell.height)
      var glyphs: [Character: [SymbolSet.Part]] = [
        "▀": [SymbolSet.Part(left: 0, right: 8, top: 0, bottom: 12)]
      ]
      for glyph in SymbolSet.sextant.glyphs { glyphs[glyph.character] = glyph.ink }
      let (width, height) = (cells.columns * across, cells.rows * down)
      let source = image.downscaled(width: width, height: height).pixels
      var squared = 0.0
      for (index, cell) in cells.cells.enumerated() {
        let ink = glyphs[cell.character] ?? []
        for y in 0..<down {
          for x in 0..<across {
            let inked = ink.contains { part in
              (part.left * across + 4) / 8 <= x && x < (part.right * across + 4) / 8
                && (part.top * down + 12) / 24 <= y && y < (part.bottom * down + 12) / 24
            }
            var colour = inked ? cell.style.foreground : cell.style.background
            if case .indexed(let entry)? = colour {
              let rgb = Palette.rgb(of: entry)
              colour = .rgb(rgb.0, rgb.1, rgb.2)
            }
            guard case .rgb(let r, let g, let b)? = colour else { continue }
            let sx = index % cells.columns * across + x
            let sy = index / cells.columns * down + y
            for (channel, value) in [r, g, b].enumerated() {
              let difference = Double(value) - Double(source[(sy * width + sx) * 3 + channel])
              squared += difference * difference
            }
          }
        }
      }
      return 10 * log10(255 * 255 / max(squared / Double(source.count), 1e-9))
    }

    /// Each set draws a picture closer to itself than the one before (half blocks, quarters,
    /// eighths, sixths), each at least as close as measured, less 0.3 dB, so that a
    /// regression fails. At 60 × 20 cells of 8 × 16 pixels, in 24-bit colour.
    @Test(arguments: [
      ("g-detailed-500x375.jpg", [20.4, 20.7, 21.0, 21.2]),
      ("synthetic-500x375-baseline.jpg", [31.4, 31.8, 32.7, 33.0]),
    ])
    func finerSymbolsDrawAPictureCloserToItself(name: String, floors: [Double]) throws {
      let image = try JPEGDecoder.decode(JPEGFixture.bytes(name), scale: .full)
      let scores = [SymbolSet.half, .quadrant, .block, .line, .sextant].map {
        quality(image, $0, columns: 60, rows: 20)
      }
      #expect(scores == scores.sorted(), "\(scores) dB")
      #expect(zip(scores, floors).allSatisfy { $0 >= $1 }, "\(scores) dB")
    }

    /// In 256 colours each symbol's two colours are the nearest palette entries: the
    /// default symbols draw a picture closer to itself than half blocks, dithered, do, and
    /// at least as close as measured, less 0.3 dB. At 60 × 20 cells of 8 × 16 pixels.
    @Test(arguments: [("g-detailed-500x375.jpg", 18.1), ("synthetic-500x375-baseline.jpg", 24.0)])
    func symbolsIn256ColoursDrawAPictureCloserThanDitheredHalves(name: String, floor: Double) throws {
      let image = try JPEGDecoder.decode(JPEGFixture.bytes(name), scale: .full)
      let half = quality(image, .half, columns: 60, rows: 20, colorMode: .ansi256)
      let symbols = quality(image, .auto, columns: 60, rows: 20, colorMode: .ansi256)
      #expect(symbols > half && symbols >= floor, "\(half) \(symbols) dB")
    }
  }
}
