import Foundation
import ImageDecoding
import TestSupport
import Testing

@testable import TextRendering

/// Colours as each terminal can show them: styles adapted to fewer colours, and the
/// palette entry nearest to a colour.
struct PaletteTests {

  @Test func stylesDegradeButKeepAttributes() {
    let style = Style(foreground: .rgb(255, 0, 0), background: .indexed(21), bold: true, reverse: true)
    #expect(style.adapted(to: .none) == Style(bold: true, reverse: true))
    #expect(
      style.adapted(to: .ansi256)
        == Style(foreground: .indexed(196), background: .indexed(21), bold: true, reverse: true))
    #expect(style.adapted(to: .truecolor) == style)
  }

  @Test func onSixteenColoursEveryColourBecomesTheNearestSystemColour() {
    func sixteen(_ color: Color) -> Color? { Style(foreground: color).adapted(to: .ansi16).foreground }
    #expect(sixteen(.rgb(255, 0, 0)) == .ansi(1))  // red
    #expect(sixteen(.rgb(0, 200, 0)) == .ansi(2))  // green
    #expect(sixteen(.indexed(21)) == .ansi(4))  // the cube's pure blue
    #expect(sixteen(.rgb(255, 255, 0)) == .ansi(11))  // bright yellow
    #expect(sixteen(.rgb(255, 255, 255)) == .ansi(15))  // bright white
    #expect(sixteen(.indexed(250)) == .ansi(15))  // a light grey of the ramp
    #expect(sixteen(.indexed(236)) == .ansi(0))  // a dark one
    #expect(sixteen(.rgb(135, 135, 135)) == .ansi(7))  // mid grey: white, not bright
    // The rough rule's thresholds: a channel is on from the cube's third level (135, not
    // 95); a colour is bright above an average of 160.
    #expect(sixteen(.indexed(52)) == .ansi(0))  // (95, 0, 0)
    #expect(sixteen(.indexed(88)) == .ansi(1))  // (135, 0, 0)
    #expect(sixteen(.indexed(203)) == .ansi(1))  // (255, 95, 95): average 148
    #expect(sixteen(.indexed(224)) == .ansi(15))  // (255, 175, 175): average 202
    #expect(sixteen(.indexed(3)) == .ansi(3))  // already a system colour
    #expect(sixteen(.yellow) == .yellow)
  }

  @Test func nearestPaletteColours() {
    #expect(Palette.nearest256(255, 0, 0) == 196)
    #expect(Palette.nearest256(0, 0, 0) == 16)
    #expect(Palette.nearest256(255, 255, 255) == 231)
    #expect(Palette.nearest256(128, 128, 128) == 244)  // the grey ramp beats the cube
    #expect(Palette.nearest256(95, 135, 175) == 67)
    // The grey ramp's ends, and the cube's last colour just before it.
    for (index, level) in [(232, 8), (255, 238), (231, 255)] as [(UInt8, UInt8)] {
      let (r, g, b) = Palette.rgb(of: index)
      #expect(r == level && g == level && b == level, "\(index)")
    }
  }

  /// The colour chosen is as near as any of the palette's 240 (16–255) to the eye (by
  /// Oklab distance, worked out here in doubles): every grey, every channel at each cube
  /// midpoint and beside it, and random colours.
  @Test func theNearestPaletteColourIsAsNearAsAny() {
    let palette = (16...255).map { index in
      let (r, g, b) = Palette.rgb(of: UInt8(index))
      return (Int(r), Int(g), Int(b))
    }
    func distance(_ colour: (Int, Int, Int), _ r: Int, _ g: Int, _ b: Int) -> Double {
      let (x, y) = (oklab(colour), oklab((r, g, b)))
      return (x.0 - y.0) * (x.0 - y.0) + (x.1 - y.1) * (x.1 - y.1) + (x.2 - y.2) * (x.2 - y.2)
    }
    let edges = [0, 46, 47, 48, 114, 115, 116, 154, 155, 156, 194, 195, 196, 234, 235, 236, 255]
    var colours = (0...255).map { ($0, $0, $0) }
    for r in edges {
      for g in edges { for b in [0, 47, 48, 115, 155, 195, 235, 255] { colours.append((r, g, b)) } }
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      colours.append(
        (
          Int.random(in: 0...255, using: &generator), Int.random(in: 0...255, using: &generator),
          Int.random(in: 0...255, using: &generator)
        ))
    }
    var misses: [String] = []
    for (r, g, b) in colours {
      let chosen = Int(Palette.nearest256(UInt8(r), UInt8(g), UInt8(b)))
      let best = palette.map { distance($0, r, g, b) }.min()!
      // Within what single precision can tell apart.
      if distance(palette[chosen - 16], r, g, b) > best + 1e-6 {
        misses.append("(\(r), \(g), \(b)) → \(chosen)")
      }
    }
    #expect(misses.isEmpty, "\(misses.prefix(5))")
  }

  /// Nearest by eye, not by RGB: a dark blue stays blue (plain RGB distance makes it the
  /// violet 61), and a photo's colours are nearer its own on average than RGB's choice.
  @Test func coloursAreChosenAsTheEyeSeesThem() throws {
    #expect(Palette.nearest256(60, 90, 160) == 25)
    let palette = (16...255).map { index in
      let (r, g, b) = Palette.rgb(of: UInt8(index))
      return (Int(r), Int(g), Int(b))
    }
    func byRGB(_ r: Int, _ g: Int, _ b: Int) -> (Int, Int, Int) {
      palette.min {
        ($0.0 - r) * ($0.0 - r) + ($0.1 - g) * ($0.1 - g) + ($0.2 - b) * ($0.2 - b) < ($1.0 - r) * ($1.0 - r)
          + ($1.1 - g) * ($1.1 - g) + ($1.2 - b) * ($1.2 - b)
      }!
    }
    func error(_ chosen: (Int, Int, Int), _ source: (Int, Int, Int)) -> Double {
      let (x, y) = (oklab(chosen), oklab(source))
      return ((x.0 - y.0) * (x.0 - y.0) + (x.1 - y.1) * (x.1 - y.1) + (x.2 - y.2) * (x.2 - y.2)).squareRoot()
    }
    let image = try ImageDecoder.decode(
      JPEGFixture.bytes("synthetic-500x375-baseline.jpg"), fitting: (125, 94))
    var eye = 0.0
    var rgb = 0.0
    for pixel in stride(from: 0, to: image.pixels.count, by: 3 * 7) {
      let source = (Int(image.pixels[pixel]), Int(image.pixels[pixel + 1]), Int(image.pixels[pixel + 2]))
      let chosen = Palette.rgb(of: Palette.nearest256(UInt8(source.0), UInt8(source.1), UInt8(source.2)))
      eye += error((Int(chosen.0), Int(chosen.1), Int(chosen.2)), source)
      rgb += error(byRGB(source.0, source.1, source.2), source)
    }
    #expect(eye < rgb)
    #expect(eye / Double(image.pixels.count / 21) < 0.04)
  }
}

/// An sRGB colour in Oklab (lightness, green–red, blue–yellow), in doubles.
func oklab(_ colour: (Int, Int, Int)) -> (Double, Double, Double) {
  func linear(_ level: Int) -> Double {
    let value = Double(level) / 255
    return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
  }
  let (r, g, b) = (linear(colour.0), linear(colour.1), linear(colour.2))
  let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
  let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
  let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
  return (
    0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
  )
}
