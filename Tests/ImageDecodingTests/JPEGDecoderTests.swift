import Foundation
import ImageDecoding
import TestSupport
import Testing

/// Peak signal-to-noise ratio in dB (∞ when identical).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
  precondition(a.count == b.count && !a.isEmpty)
  var sum = 0.0
  for index in a.indices {
    let d = Double(a[index]) - Double(b[index])
    sum += d * d
  }
  let mse = sum / Double(a.count)
  return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

extension PictureSuites {
  struct JPEGDecoderTests {
    static let generated = [
      "g-444-64x48", "g-422-64x48", "g-420-64x48", "g-420-odd-17x9", "g-1x1", "g-420-optimized-64x48",
      "g-progressive-420-64x48", "g-progressive-444-33x21", "g-restart-420-64x48",
      "g-restart-progressive-64x48",
      "g-q20-420-40x30", "g-gray-40x24", "g-gray-progressive-40x24", "synthetic-375x500-baseline",
      "synthetic-500x333-progressive", "synthetic-320x240-grayscale",
      // Chroma that rounds up across a block boundary in non-interleaved scans; colours
      // whose conversion overshoots 0 and 255 in the scalar tail of a row; a DC refinement
      // scan read before any AC table exists.
      "g-progressive-420-odd-33x17", "g-saturated-444-13x8", "g-progressive-dc-refined-first-24x16",
      // Stored as RGB (Adobe transform 0); Cb and Cr sampled unlike each other.
      "g-rgb-24x16", "g-mixed-chroma-32x24", "g-mixed-chroma-h2v1-32x24",
    ]

    @Test(arguments: generated)
    func aFullDecodeMatchesTheReference(name: String) throws {
      let image = try JPEGDecoder.decode(JPEGFixture.bytes(name + ".jpg"))
      let reference = JPEGFixture.bytes(name + ".rgb")
      #expect(image.pixels.count == reference.count, "\(image.width)×\(image.height)")
      guard image.pixels.count == reference.count else { return }
      let quality = psnr(image.pixels, reference)
      #expect(quality >= 40, "\(name): \(quality) dB")
    }

    @Test(
      arguments: generated + [
        "synthetic-500x375-baseline", "synthetic-1080x810-progressive", "g-detailed-500x375",
      ])
    func theDCPathMatchesAOneEighthReference(name: String) throws {
      let image = try JPEGDecoder.decode(JPEGFixture.bytes(name + ".jpg"), scale: .eighth)
      let reference = JPEGFixture.bytes(name + ".dc.rgb")
      #expect(image.pixels.count == reference.count, "\(image.width)×\(image.height)")
      guard image.pixels.count == reference.count else { return }
      // Stated tolerance: every sample within 2 levels of libjpeg's own 1/8 decode.
      let worst = zip(image.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(worst <= 2, "\(name): worst difference \(worst)")
    }

    static let reducedReferences = [
      "synthetic-500x375-baseline", "synthetic-500x333-progressive", "synthetic-320x240-grayscale",
      "synthetic-375x500-baseline", "g-420-64x48", "g-422-64x48", "g-444-64x48", "g-420-odd-17x9",
      "g-progressive-420-64x48",
    ]

    /// 1/2 and 1/4 come from libjpeg's reduced IDCTs (4×4, 2×2, and 8×8 for chroma that
    /// was subsampled), compared with libjpeg's own scaled decode (`NAME.half.rgb`,
    /// `NAME.quarter.rgb`, made with Pillow's `draft`). Stated tolerance: 1 level.
    @Test(arguments: reducedReferences)
    func reducedScalesMatchLibjpegsScaledDecode(name: String) throws {
      for (scale, suffix) in [(JPEGDecoder.Scale.half, "half"), (.quarter, "quarter")] {
        let image = try JPEGDecoder.decode(JPEGFixture.bytes(name + ".jpg"), scale: scale)
        let reference = JPEGFixture.bytes("\(name).\(suffix).rgb")
        #expect(image.pixels.count == reference.count, "\(name) \(suffix): \(image.width)×\(image.height)")
        guard image.pixels.count == reference.count else { continue }
        let worst = zip(image.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(name) \(suffix): worst difference \(worst)")
      }
    }

    /// Stronger than the tolerances above, and what Docs/Performance.md claims: our
    /// arithmetic is libjpeg's, so every reference (made by libjpeg-turbo) is matched
    /// sample for sample at every scale it exists for. A speed-up that changes one pixel
    /// fails here.
    @Test(
      arguments: generated + [
        "synthetic-500x375-baseline", "synthetic-1080x810-progressive", "g-detailed-500x375",
        "g-sampling-3x2-50x34", "g-gray-sampled-2x2-21x13",
      ])
    func everyReferenceIsMatchedExactly(name: String) throws {
      let compared = try Self.compareWithEveryScaledReference(name, tolerance: 0)
      #expect(compared > 0, "\(name) has references")
    }

    /// Decodes `NAME.jpg` at each scale that has a reference (`NAME.rgb`, `.half.rgb`,
    /// `.quarter.rgb`, `.dc.rgb`) and expects the same size and every sample within
    /// `tolerance` levels. Returns how many references there were.
    @discardableResult
    static func compareWithEveryScaledReference(_ name: String, tolerance: Int) throws -> Int {
      let scales: [(JPEGDecoder.Scale, String)] = [
        (.full, "rgb"), (.half, "half.rgb"), (.quarter, "quarter.rgb"), (.eighth, "dc.rgb"),
      ]
      var compared = 0
      for (scale, suffix) in scales {
        let reference = JPEGFixture.bytes("\(name).\(suffix)")
        guard !reference.isEmpty else { continue }
        compared += 1
        let image = try JPEGDecoder.decode(JPEGFixture.bytes(name + ".jpg"), scale: scale)
        #expect(image.pixels.count == reference.count, "\(name) \(suffix): \(image.width)×\(image.height)")
        guard image.pixels.count == reference.count else { continue }
        let worst = zip(image.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= tolerance, "\(name) \(suffix): worst difference \(worst)")
      }
      return compared
    }

    @Test func aReducedDecodeSaysSo() throws {
      let bytes = JPEGFixture.bytes("synthetic-500x375-baseline.jpg")
      #expect(try !JPEGDecoder.decode(bytes, scale: .full).isReduced)
      for scale in [JPEGDecoder.Scale.half, .quarter, .eighth] {
        #expect(try JPEGDecoder.decode(bytes, scale: scale).isReduced, "\(scale)")
      }
      #expect(try !JPEGDecoder.decode(bytes, fitting: (600, 400)).isReduced)
      #expect(try JPEGDecoder.decode(bytes, fitting: (60, 40)).isReduced)
    }

    @Test func reducedScalesHaveTheRoundedUpSize() throws {
      let bytes = JPEGFixture.bytes("synthetic-500x375-baseline.jpg")
      for (scale, size) in [
        (JPEGDecoder.Scale.full, (500, 375)), (.half, (250, 188)), (.quarter, (125, 94)), (.eighth, (63, 47)),
      ] {
        let image = try JPEGDecoder.decode(bytes, scale: scale)
        #expect(image.width == size.0 && image.height == size.1, "\(scale)")
      }
      // A reduced IDCT keeps a block's low frequencies, which is close to box-filtering the
      // full decode: very close for grey; for colour the subsampled chroma is reduced at its
      // own resolution rather than after upsampling, so edges differ a little more.
      let grey = JPEGFixture.bytes("synthetic-320x240-grayscale.jpg")
      let fullGrey = try JPEGDecoder.decode(grey)
      for scale in [JPEGDecoder.Scale.half, .quarter] {
        let reduced = try JPEGDecoder.decode(grey, scale: scale)
        let boxed = fullGrey.downscaled(width: reduced.width, height: reduced.height).pixels
        #expect(psnr(reduced.pixels, boxed) > 45, "\(scale)")
      }
      let colour = JPEGFixture.bytes("synthetic-375x500-baseline.jpg")
      let half = try JPEGDecoder.decode(colour, scale: .half)
      let boxed = try JPEGDecoder.decode(colour).downscaled(width: half.width, height: half.height).pixels
      #expect(psnr(half.pixels, boxed) > 30)
    }

    /// The smallest scale with the pixels the picture takes fitted in the target: in a
    /// box wider than the picture's shape, its height bounds it, and the other way round.
    @Test func fittingPicksTheSmallestScaleThatFillsTheFittedPicture() throws {
      let bytes = JPEGFixture.bytes("synthetic-1080x810-progressive.jpg")
      #expect(try JPEGDecoder.decode(bytes, fitting: (120, 88)).width == 135)
      #expect(try JPEGDecoder.decode(bytes, fitting: (200, 150)).width == 270)
      // 1080 × 810 fitted in 1000 × 101 is 135 × 101: an eighth (135 × 102) has it.
      #expect(try JPEGDecoder.decode(bytes, fitting: (1000, 101)).width == 135)
      #expect(try JPEGDecoder.decode(bytes, fitting: (1000, 103)).width == 270)
      #expect(try JPEGDecoder.decode(bytes, fitting: (136, 1000)).width == 270)
      // An eighth of 500 × 375 is 62.5 × 46.875: the decode has 63 × 47, which covers it.
      let odd = JPEGFixture.bytes("synthetic-500x375-baseline.jpg")
      #expect(try JPEGDecoder.decode(odd, fitting: (63, 47)).width == 63)
      #expect(try JPEGDecoder.size(of: bytes) == (1080, 810))
    }

  }
}
