import ImageDecoding
import TestSupport
import Testing

@testable import TextRendering

extension PictureSuites {
  /// Pictures in 256 and 16 colours are dithered in Oklab: areas keep their colour on
  /// average where no palette entry has it.
  struct DitherTests {
    /// The mean Oklab colour of `pixels` (RGB).
    func meanOklab(_ pixels: [UInt8]) -> (Float, Float, Float) {
      var sum: (Float, Float, Float) = (0, 0, 0)
      let count = pixels.count / 3
      for index in 0..<count {
        let lab = Palette.oklab(pixels[index * 3], pixels[index * 3 + 1], pixels[index * 3 + 2])
        sum = (sum.0 + lab.l, sum.1 + lab.a, sum.2 + lab.b)
      }
      return (sum.0 / Float(count), sum.1 / Float(count), sum.2 / Float(count))
    }

    func distance(_ x: (Float, Float, Float), _ y: (Float, Float, Float)) -> Float {
      ((x.0 - y.0) * (x.0 - y.0) + (x.1 - y.1) * (x.1 - y.1) + (x.2 - y.2) * (x.2 - y.2)).squareRoot()
    }

    /// A brown between the palette's entries: the nearest entry alone is off by far more
    /// than the dithered mix, which uses several entries.
    @Test(arguments: [ColorMode.ansi256, .ansi16])
    func aColourBetweenEntriesIsMixedFromSeveral(colorMode: ColorMode) {
      let brown: [UInt8] = [156, 104, 62]
      let pixels = Array([[UInt8]](repeating: brown, count: 32 * 32).joined())
      let dithered = Dither.toPalette(pixels, width: 32, height: 32, colorMode: colorMode)
      #expect(Set(dithered.entries).count >= 2)
      let target = Palette.oklab(brown[0], brown[1], brown[2])
      let nearest = Dither.toPalette(brown, width: 1, height: 1, colorMode: colorMode).pixels
      let nearestError = distance(meanOklab(nearest), target)
      let ditheredError = distance(meanOklab(dithered.pixels), target)
      #expect(
        ditheredError * (colorMode == .ansi256 ? 2 : 1.5) < nearestError,
        "\(ditheredError) against \(nearestError)")
    }

    /// On a real picture, each 4 × 4 area's mean is nearer the source's dithered than mapped
    /// to the nearest entries, in 256 colours and in 16.
    @Test(arguments: [ColorMode.ansi256, .ansi16])
    func aPhotosAreasKeepTheirColour(colorMode: ColorMode) throws {
      let image = try JPEGDecoder.decode(JPEGFixture.bytes("g-detailed-500x375.jpg"), scale: .full)
        .downscaled(width: 160, height: 120)
      let dithered = Dither.toPalette(image.pixels, width: 160, height: 120, colorMode: colorMode).pixels
      var mapped: [UInt8] = []
      for index in 0..<(160 * 120) {
        mapped +=
          Dither.toPalette(
            Array(image.pixels[index * 3..<index * 3 + 3]), width: 1, height: 1, colorMode: colorMode
          ).pixels
      }
      func areaError(_ pixels: [UInt8]) -> Float {
        var total: Float = 0
        for top in stride(from: 0, to: 120, by: 4) {
          for left in stride(from: 0, to: 160, by: 4) {
            func area(_ source: [UInt8]) -> [UInt8] {
              (top..<top + 4).flatMap { y in source[(y * 160 + left) * 3..<(y * 160 + left + 4) * 3] }
            }
            total += distance(meanOklab(area(pixels)), meanOklab(area(image.pixels)))
          }
        }
        return total
      }
      let (ditheredError, mappedError) = (areaError(dithered), areaError(mapped))
      #expect(ditheredError < mappedError * 0.7, "\(ditheredError) against \(mappedError)")
    }

    /// Half blocks in 256 colours are palette entries; in 16, system colours; in 24-bit, the
    /// pixels themselves.
    @Test func halfBlocksTakeThePalettesEntries() {
      let pixels = RGBImage(width: 4, height: 4, pixels: (0..<48).map { UInt8($0 * 5) })
      func colours(_ mode: ColorMode) -> [Color] {
        PictureRenderer.render(pixels, mode: .blocks, columns: 4, rows: 2, colorMode: mode).cells.flatMap {
          [$0.style.foreground, $0.style.background].compactMap { $0 }
        }
      }
      #expect(colours(.ansi256).allSatisfy { if case .indexed(let i) = $0 { i >= 16 } else { false } })
      #expect(colours(.ansi16).allSatisfy { if case .ansi(let i) = $0 { i < 16 } else { false } })
      #expect(colours(.truecolor).allSatisfy { if case .rgb = $0 { true } else { false } })
    }
  }
}
