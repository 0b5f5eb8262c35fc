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

    @Test func fittingPicksTheSmallestScaleThatIsLargeEnough() throws {
      let bytes = JPEGFixture.bytes("synthetic-1080x810-progressive.jpg")
      #expect(try JPEGDecoder.decode(bytes, fitting: (120, 88)).width == 135)
      #expect(try JPEGDecoder.decode(bytes, fitting: (200, 150)).width == 270)
      // An eighth of 500 × 375 is 62.5 × 46.875: the decode has 63 × 47, which covers it.
      let odd = JPEGFixture.bytes("synthetic-500x375-baseline.jpg")
      #expect(try JPEGDecoder.decode(odd, fitting: (63, 47)).width == 63)
      #expect(try JPEGDecoder.size(of: bytes) == (1080, 810))
    }

    @Test func exifOrientationIsHonoured() throws {
      let image = try JPEGDecoder.decode(JPEGFixture.bytes("g-exif-orientation6-24x16.jpg"))
      #expect(image.width == 16 && image.height == 24)
      #expect(psnr(image.pixels, JPEGFixture.bytes("g-exif-orientation6-24x16.rgb")) >= 40)
    }

    /// `original` with an EXIF segment after SOI whose IFD0 holds `entries` (tag, value)
    /// short values, in Intel (`II`) or Motorola (`MM`) byte order.
    /// Where each marker `0xFF code` starts in `bytes`, in order.
    static func offsets(of code: UInt8, in bytes: [UInt8]) -> [Int] {
      (0..<max(0, bytes.count - 1)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == code }
    }

    static func withEXIF(_ original: [UInt8], littleEndian: Bool, entries: [(tag: Int, value: Int)])
      -> [UInt8]
    {
      func u16(_ value: Int) -> [UInt8] {
        littleEndian ? [UInt8(value & 255), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 255)]
      }
      func u32(_ value: Int) -> [UInt8] {
        littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF)
      }
      var tiff: [UInt8] = (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8)
      tiff += u16(entries.count)
      for entry in entries {
        // Type 3 (SHORT), count 1, the value left-justified in the 4-byte field.
        tiff += u16(entry.tag) + u16(3) + u32(1) + u16(entry.value) + [0, 0]
      }
      tiff += u32(0)
      let payload = Array("Exif".utf8) + [0, 0] + tiff
      let length = payload.count + 2
      return Array(original[..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 255)] + payload
        + Array(original[2...])
    }

    /// The eight EXIF orientations, built from mirror and transpose alone (as the EXIF
    /// standard describes them), to check the decoder's own index arithmetic against.
    static func oriented(_ image: RGBImage, _ orientation: Int) -> RGBImage {
      func map(_ image: RGBImage, width: Int, height: Int, _ source: (Int, Int) -> (Int, Int)) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
          for x in 0..<width {
            let (sx, sy) = source(x, y)
            let at = (sy * image.width + sx) * 3
            pixels += image.pixels[at..<(at + 3)]
          }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
      }
      func mirror(_ i: RGBImage) -> RGBImage {
        map(i, width: i.width, height: i.height) { (i.width - 1 - $0, $1) }
      }
      func flip(_ i: RGBImage) -> RGBImage {
        map(i, width: i.width, height: i.height) { ($0, i.height - 1 - $1) }
      }
      func transpose(_ i: RGBImage) -> RGBImage { map(i, width: i.height, height: i.width) { ($1, $0) } }
      switch orientation {
      case 2: return mirror(image)
      case 3: return flip(mirror(image))  // a half turn
      case 4: return flip(image)
      case 5: return transpose(image)
      case 6: return mirror(transpose(image))  // a quarter turn clockwise
      case 7: return flip(mirror(transpose(image)))
      case 8: return flip(transpose(image))  // a quarter turn anticlockwise
      default: return image
      }
    }

    @Test(arguments: 1...8)
    func everyExifOrientationInEitherByteOrder(orientation: Int) throws {
      let original = JPEGFixture.bytes("g-420-64x48.jpg")
      let upright = try JPEGDecoder.decode(original)
      let expected = Self.oriented(upright, orientation)
      for littleEndian in [true, false] {
        // The orientation after another tag, as cameras write it.
        let bytes = Self.withEXIF(
          original, littleEndian: littleEndian, entries: [(0x010F, 7), (0x0112, orientation)])
        let image = try JPEGDecoder.decode(bytes)
        #expect(image.width == expected.width && image.height == expected.height)
        #expect(image.pixels == expected.pixels, "orientation \(orientation), \(littleEndian ? "II" : "MM")")
      }
    }

    @Test func anExifOrientationOutOfRangeOrCutShortIsIgnored() throws {
      let original = JPEGFixture.bytes("g-420-64x48.jpg")
      let upright = try JPEGDecoder.decode(original)
      for value in [0, 9] {
        let bytes = Self.withEXIF(original, littleEndian: true, entries: [(0x0112, value)])
        #expect(try JPEGDecoder.decode(bytes).pixels == upright.pixels)
      }
      // An IFD that says it has 40 entries and stops after one.
      var cut = Self.withEXIF(original, littleEndian: true, entries: [(0x010F, 1)])
      #expect(cut[20] == 1 && cut[21] == 0)
      cut[20] = 40
      #expect(try JPEGDecoder.decode(cut).pixels == upright.pixels)
    }

    /// What the decoder steps over: an APP1 segment that is XMP, not EXIF (no orientation
    /// in it, and none taken from it), a second SOI, a stray restart marker and a TEM
    /// between segments, and a second scan after the one that held every component.
    @Test func segmentsAndMarkersThatAddNothingChangeNothing() throws {
      let original = JPEGFixture.bytes("g-420-64x48.jpg")
      let upright = try JPEGDecoder.decode(original).pixels
      let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
      let app1 = [0xFF, 0xE1, UInt8((xmp.count + 2) >> 8), UInt8((xmp.count + 2) & 255)] + xmp
      let sos = try #require(
        Self.offsets(of: 0xDA, in: original).first)
      #expect(original.suffix(2) == [0xFF, 0xD9])
      let variants: [(String, [UInt8])] = [
        ("XMP", Array(original[..<2]) + app1 + Array(original[2...])),
        (
          "SOI, RST0, TEM",
          Array(original[..<2]) + [0xFF, 0xD8, 0xFF, 0xD0, 0xFF, 0x01] + Array(original[2...])
        ),
        ("the scan twice", Array(original.dropLast(2)) + Array(original[sos...])),
      ]
      for (name, bytes) in variants {
        #expect(try JPEGDecoder.decode(bytes).pixels == upright, "\(name)")
      }
    }

    @Test func fittingMeasuresTheTurnedPicture() throws {
      // 64×48 turned a quarter is 48×64: 12×16 is a quarter of it. Measured unturned, a
      // quarter (16×12) would be too short and a half chosen.
      let bytes = Self.withEXIF(
        JPEGFixture.bytes("g-420-64x48.jpg"), littleEndian: true, entries: [(0x0112, 6)])
      let image = try JPEGDecoder.decode(bytes, fitting: (12, 16))
      #expect(image.width == 12 && image.height == 16)
    }

    @Test func threeComponentsNamedRGBAreRGBEvenWithoutAnAdobeMarker() throws {
      let original = JPEGFixture.bytes("g-rgb-24x16.jpg")
      let adobe = try #require(
        Self.offsets(of: 0xEE, in: original).first)
      #expect(Array(original[(adobe + 4)..<(adobe + 9)]) == Array("Adobe".utf8))
      let length = Int(original[adobe + 2]) << 8 | Int(original[adobe + 3])
      var withoutAdobe = original
      withoutAdobe.removeSubrange(adobe..<(adobe + 2 + length))
      let image = try JPEGDecoder.decode(withoutAdobe)
      #expect(psnr(image.pixels, JPEGFixture.bytes("g-rgb-24x16.rgb")) >= 40)
      // Named otherwise, the same samples are YCbCr: far from the reference.
      var renamed = withoutAdobe
      func marker(_ code: UInt8) throws -> Int {
        try #require(Self.offsets(of: code, in: renamed).first)
      }
      let (sof, sos) = (try marker(0xC0), try marker(0xDA))
      for (index, at) in [sof + 10, sof + 13, sof + 16, sos + 5, sos + 7, sos + 9].enumerated() {
        #expect(renamed[at] == Array("RGB".utf8)[index % 3])
        renamed[at] = UInt8(index % 3 + 1)
      }
      #expect(psnr(try JPEGDecoder.decode(renamed).pixels, JPEGFixture.bytes("g-rgb-24x16.rgb")) < 20)
    }

    @Test func sixteenBitQuantizationTablesDecodeLikeEightBitOnes() throws {
      // Every table of the file rewritten at 16-bit precision: the same numbers.
      let original = JPEGFixture.bytes("g-420-64x48.jpg")
      var rewritten: [UInt8] = Array(original[..<2])
      var index = 2
      var tables = 0
      while index + 4 <= original.count, original[index] == 0xFF, original[index + 1] != 0xDA {
        let length = Int(original[index + 2]) << 8 | Int(original[index + 3])
        let body = Array(original[(index + 4)..<(index + 2 + length)])
        if original[index + 1] == 0xDB {
          var wide: [UInt8] = []
          var at = 0
          while at < body.count {
            #expect(body[at] >> 4 == 0)
            wide.append(0x10 | body[at] & 15)
            for value in body[(at + 1)..<(at + 65)] { wide += [0, value] }
            at += 65
            tables += 1
          }
          rewritten += [0xFF, 0xDB, UInt8((wide.count + 2) >> 8), UInt8((wide.count + 2) & 255)] + wide
        } else {
          rewritten += original[index..<(index + 2 + length)]
        }
        index += 2 + length
      }
      rewritten += original[index...]
      #expect(tables == 2)
      #expect(try JPEGDecoder.decode(rewritten).pixels == JPEGDecoder.decode(original).pixels)
      // The high byte counts: a DC step of 256 more changes every block.
      var heavier = rewritten
      let first = try #require(
        Self.offsets(of: 0xDB, in: heavier).first)
      #expect(heavier[first + 5] == 0)
      heavier[first + 5] = 1
      #expect(try JPEGDecoder.decode(heavier).pixels != JPEGDecoder.decode(original).pixels)
      // A 16-bit table cut short is named.
      let dqt = try #require(
        Self.offsets(of: 0xDB, in: rewritten).first)
      var short = rewritten
      short[dqt + 3] -= 2
      short.remove(at: dqt + 4 + 1)
      short.remove(at: dqt + 4 + 1)
      #expect(throws: ImageDecodingError.corrupt("short quantization table")) {
        try JPEGDecoder.decode(Array(short))
      }
    }

    @Test(
      arguments: [
        (0xC3, "lossless JPEG"), (0xC5, "hierarchical JPEG"), (0xC7, "hierarchical JPEG"),
        (0xC9, "arithmetic-coded JPEG"), (0xCA, "arithmetic-coded JPEG"), (0xCF, "arithmetic-coded JPEG"),
      ] as [(UInt8, String)])
    func framesOfOtherJPEGProcessesAreRefusedByName(marker: UInt8, feature: String) throws {
      var bytes = JPEGFixture.bytes("g-420-64x48.jpg")
      let sof = try #require(Self.offsets(of: 0xC0, in: bytes).first)
      bytes[sof + 1] = marker
      #expect(throws: ImageDecodingError.unsupportedFeature(feature)) { try JPEGDecoder.decode(bytes) }
    }

    @Test func otherFormatsAndFeaturesAreRefusedClearly() {
      #expect(throws: ImageDecodingError.unsupportedFormat(.png)) {
        try JPEGDecoder.decode(JPEGFixture.bytes("g-png-named.jpg"))
      }
      #expect(throws: ImageDecodingError.unsupportedFormat(.webp)) {
        try JPEGDecoder.decode(JPEGFixture.bytes("synthetic-400x300.webp"))
      }
      #expect(throws: ImageDecodingError.unsupportedFeature("CMYK JPEG")) {
        try JPEGDecoder.decode(JPEGFixture.bytes("g-cmyk-16x16.jpg"))
      }
      #expect(throws: ImageDecodingError.unsupportedFormat(.unknown)) {
        try JPEGDecoder.decode(Array("hello".utf8))
      }
      #expect(throws: ImageDecodingError.unsupportedFormat(.unknown)) { try JPEGDecoder.decode([]) }
      #expect(
        ImageDecodingError.unsupportedFormat(.png).message
          == "The picture is a PNG, an unsupported image format.")
      #expect(throws: ImageDecodingError.unsupportedFormat(.gif)) {
        try JPEGDecoder.decode(Array("GIF89a\u{1}\u{0}".utf8))
      }
      #expect(
        ImageDecodingError.unsupportedFormat(.gif).message
          == "The picture is a GIF, an unsupported image format.")
      #expect(
        ImageDecodingError.unsupportedFeature("CMYK JPEG").message
          == "The picture uses a feature we cannot show (CMYK JPEG).")
      // A RIFF file of another kind (a WAV) is no WEBP.
      #expect(ImageFormat(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == .unknown)
    }

    @Test func everyTruncationIsAnErrorNotACrash() {
      let bytes = JPEGFixture.bytes("g-progressive-420-64x48.jpg")
      for length in stride(from: 0, to: bytes.count - 2, by: 7) {
        #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(Array(bytes.prefix(length))) }
      }
      let baseline = JPEGFixture.bytes("synthetic-500x375-baseline.jpg")
      #expect(throws: ImageDecodingError.truncated) {
        try JPEGDecoder.decode(Array(baseline.prefix(baseline.count / 2)))
      }
    }

    /// A download cut just before the end marker still holds a whole baseline picture (its
    /// one scan is complete); a progressive file cut there may lack scans, so it is refused.
    @Test func onlyABaselineFileMayLackItsEndMarker() throws {
      let baseline = JPEGFixture.bytes("g-420-64x48.jpg")
      #expect(baseline.suffix(2) == [0xFF, 0xD9])
      #expect(
        try JPEGDecoder.decode(Array(baseline.dropLast(2))).pixels == JPEGDecoder.decode(baseline).pixels)
      let progressive = JPEGFixture.bytes("g-progressive-420-64x48.jpg")
      #expect(progressive.suffix(2) == [0xFF, 0xD9])
      #expect(throws: ImageDecodingError.truncated) { try JPEGDecoder.decode(Array(progressive.dropLast(2))) }
    }

    /// The entropy-coded data is unstuffed and split at restart markers once per scan:
    /// fill bytes (any number of extra `FF`s before a marker, which the standard allows)
    /// must change nothing, and a missing restart marker is an error, not a misread.
    @Test func fillBytesAndRestartMarkersAreHandledAsTheStandardSays() throws {
      let bytes = JPEGFixture.bytes("g-restart-420-64x48.jpg")
      guard let sos = Self.offsets(of: 0xDA, in: bytes).first
      else {
        Issue.record("no SOS")
        return
      }
      let data = sos + 2 + Int(bytes[sos + 2]) << 8 + Int(bytes[sos + 3])
      let markers = (data..<(bytes.count - 1)).filter {
        bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1])
          || (bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9)
      }
      #expect(markers.count > 2, "the fixture has restart markers")
      var padded = bytes
      for marker in markers.reversed() {
        padded.insert(contentsOf: [0xFF, 0xFF, 0xFF], at: marker)
      }
      for scale in JPEGDecoder.Scale.allCases {
        let plain = try JPEGDecoder.decode(bytes, scale: scale)
        let withFill = try JPEGDecoder.decode(padded, scale: scale)
        #expect(withFill.pixels == plain.pixels, "\(scale)")
      }
      var missing = bytes
      missing.removeSubrange(markers[0]..<(markers[0] + 2))
      #expect(throws: ImageDecodingError.corrupt("expected a restart marker")) {
        try JPEGDecoder.decode(missing)
      }
    }

    @Test func absurdDimensionsAreRefusedBeforeAllocating() throws {
      var bytes = JPEGFixture.bytes("g-444-64x48.jpg")
      // Find SOF0 and declare 65535×65535.
      let sof = try #require(Self.offsets(of: 0xC0, in: bytes).first)
      bytes[sof + 5] = 0xFF
      bytes[sof + 6] = 0xFF
      bytes[sof + 7] = 0xFF
      bytes[sof + 8] = 0xFF
      let start = ContinuousClock.now
      #expect(throws: ImageDecodingError.tooLarge(width: 65535, height: 65535)) {
        try JPEGDecoder.decode(bytes)
      }
      // Filling 12 GB would take many seconds; refusing takes microseconds (a second leaves
      // room for a busy machine).
      #expect(ContinuousClock.now - start < Duration.seconds(1).scaled)
    }

    @Test func wrongSegmentLengthsAndBrokenTablesAreErrors() throws {
      let original = JPEGFixture.bytes("g-420-64x48.jpg")
      var longSegment = original
      let dqt = try #require(
        Self.offsets(of: 0xDB, in: original).first)
      longSegment[dqt + 2] = 0xFF
      #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(longSegment) }
      var brokenHuffman = original
      let dht = try #require(
        Self.offsets(of: 0xC4, in: original).first)
      for offset in 5..<21 { brokenHuffman[dht + offset] = 0xFF }  // impossible code-length counts
      #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(brokenHuffman) }
    }

    @Test func structuralFaultsAreNamedErrors() throws {
      let original = JPEGFixture.bytes("g-420-64x48.jpg")
      func marker(_ code: UInt8, in bytes: [UInt8]) throws -> Int {
        try #require(Self.offsets(of: code, in: bytes).first)
      }
      let sof = try marker(0xC0, in: original)
      let sofEnd = sof + 2 + (Int(original[sof + 2]) << 8 | Int(original[sof + 3]))
      #expect(original[sof + 9] == 3)  // three components

      var twoFrames = original
      twoFrames.insert(contentsOf: original[sof..<sofEnd], at: sofEnd)
      #expect(throws: ImageDecodingError.corrupt("two frames")) { try JPEGDecoder.decode(twoFrames) }

      var noFrame = original
      noFrame.removeSubrange(sof..<sofEnd)
      #expect(throws: ImageDecodingError.corrupt("scan before frame")) { try JPEGDecoder.decode(noFrame) }

      // The frame's length leaves room for one component of the three it declares.
      var shortFrame = original
      shortFrame.replaceSubrange((sof + 2)...(sof + 3), with: [0, 11])
      #expect(throws: ImageDecodingError.corrupt("short frame header")) { try JPEGDecoder.decode(shortFrame) }

      var badTableID = original
      let dqt = try marker(0xDB, in: original)
      badTableID[dqt + 4] = 0x05  // 8-bit precision, table 5 of 0...3
      #expect(throws: ImageDecodingError.corrupt("bad quantization table")) {
        try JPEGDecoder.decode(badTableID)
      }

      // Tables and frame, then the end: no scan at all.
      let sos = try marker(0xDA, in: original)
      let noScan = Array(original[..<sos]) + [0xFF, 0xD9]
      #expect(throws: ImageDecodingError.truncated) { try JPEGDecoder.decode(noScan) }

      // A progressive AC scan (Ss > 0) must name one component; this one names three.
      var progressive = JPEGFixture.bytes("g-progressive-420-64x48.jpg")
      let firstScan = try marker(0xDA, in: progressive)
      #expect(progressive[firstScan + 4] == 3)
      progressive[firstScan + 11] = 1  // Ss
      progressive[firstScan + 12] = 63  // Se
      #expect(throws: ImageDecodingError.corrupt("bad progressive scan")) {
        try JPEGDecoder.decode(progressive)
      }
    }

    /// Every check of the markers, the frame, the tables and the scan header, each met by
    /// one edit of a baseline file (4:2:0, one table per DHT segment) and named.
    @Test func everyHeaderFaultIsANamedError() throws {
      let original = JPEGFixture.bytes("g-420-64x48.jpg")
      func marker(_ code: UInt8, _ nth: Int = 0, in bytes: [UInt8] = original) throws -> Int {
        try #require(Self.offsets(of: code, in: bytes).dropFirst(nth).first)
      }
      let (sof, dqt, sos) = (try marker(0xC0), try marker(0xDB), try marker(0xDA))
      let (dcTable, acTable) = (try marker(0xC4, 0), try marker(0xC4, 1))
      #expect(original[dcTable + 4] == 0x00 && original[acTable + 4] == 0x10)
      let dcSymbols = (original[(dcTable + 5)..<(dcTable + 21)].reduce(0) { $0 + Int($1) })
      #expect(dcSymbols == 12)
      func edited(_ edits: [(Int, [UInt8])]) -> [UInt8] {
        var bytes = original
        for (at, values) in edits { bytes.replaceSubrange(at..<at + values.count, with: values) }
        return bytes
      }
      let cases: [([(Int, [UInt8])], ImageDecodingError)] = [
        // Markers and segments.
        ([(dqt + 2, [0, 1])], .corrupt("bad segment length")),
        // Frame: precision, size, components, sampling (h, v 1…4; tables 0…3).
        ([(sof + 4, [12])], .unsupportedFeature("12-bit JPEG")),
        ([(sof + 5, [0, 0])], .corrupt("zero size")),
        ([(sof + 9, [2])], .corrupt("2 components")),
        ([(sof + 11, [0x52])], .corrupt("bad sampling factors")),
        ([(sof + 11, [0x25])], .corrupt("bad sampling factors")),
        ([(sof + 11, [0x02])], .corrupt("bad sampling factors")),
        ([(sof + 11, [0x20])], .corrupt("bad sampling factors")),
        ([(sof + 12, [4])], .corrupt("bad sampling factors")),
        ([(sof + 11, [0x32]), (sof + 14, [0x21])], .unsupportedFeature("JPEG with fractional sampling")),
        // Huffman tables: class 0 or 1, id 0…3; as long as their counts say; codes that fit.
        ([(dcTable + 4, [0x20])], .corrupt("bad Huffman table id")),
        ([(dcTable + 4, [0x04])], .corrupt("bad Huffman table id")),
        ([(dcTable + 2, [0, 12])], .corrupt("short Huffman table")),
        ([(dcTable + 20, [0xFF])], .corrupt("short Huffman table")),
        (
          // Three codes of one bit, where there are two.
          [(dcTable + 5, [3] + [UInt8](repeating: 0, count: 14) + [UInt8(dcSymbols - 3)])],
          .corrupt("bad Huffman table")
        ),
        // Scan header: its length, 1…4 components of the frame's, each once; tables defined.
        ([(sos + 2, [0, 2])], .corrupt("short scan header")),
        ([(sos + 4, [0])], .corrupt("bad scan header")),
        ([(sos + 4, [4])], .corrupt("bad scan header")),
        ([(sos + 5, [9])], .corrupt("scan names an unknown component")),
        ([(sos + 7, [original[sos + 5]])], .corrupt("scan names an unknown component")),
        ([(sos + 6, [0x33])], .corrupt("missing DC Huffman table")),
        ([(sos + 6, [0x03])], .corrupt("missing AC Huffman table")),
        // Data: every DC code of 16 bits (the data's codes are not among them); DC sizes past
        // 16. (A baseline block's AC run past the 64th coefficient is dropped, as libjpeg
        // drops it; a progressive one's is an error, below.)
        (
          [(dcTable + 5, [UInt8](repeating: 0, count: 15) + [UInt8(dcSymbols)])], .corrupt("bad Huffman code")
        ),
        ([(dcTable + 21, [UInt8](repeating: 17, count: dcSymbols))], .corrupt("bad coefficient size")),
      ]
      for (edits, error) in cases {
        #expect(throws: error, "\(edits)") { try JPEGDecoder.decode(edited(edits)) }
      }
      // A table segment too short for a table's counts, at the very end of the file.
      #expect(throws: ImageDecodingError.corrupt("short Huffman table")) {
        try JPEGDecoder.decode(
          Array(original[..<sos]) + [0xFF, 0xC4, 0, 12] + [UInt8](repeating: 0, count: 10))
      }
      // Something other than a marker where one belongs.
      #expect(throws: ImageDecodingError.corrupt("expected a marker")) {
        var bytes = original
        bytes.insert(0, at: dqt)
        return try JPEGDecoder.decode(bytes)
      }

      // Progressive AC scans of one component: a first scan's runs of 15 zeros and a
      // coefficient (0xF1) run past the 64th; a refinement scan's new coefficients are ±1,
      // so size 2 is none. Each time the symbols of the table defined just before the scan.
      let progressive = JPEGFixture.bytes("g-progressive-420-64x48.jpg")
      for (refines, symbol, error) in [
        (false, UInt8(0xF1), ImageDecodingError.corrupt("coefficient index past the block")),
        (true, 0x02, .corrupt("bad refinement coefficient")),
      ] {
        // SOS, Ns (+4) 1, Ss (+7) 1, Se (+8) 63, Ah (+9, high half) 0 or not.
        func isScan(_ at: Int) -> Bool {
          guard progressive[at] == 0xFF, progressive[at + 1] == 0xDA, progressive[at + 4] == 1 else {
            return false
          }
          return progressive[at + 7] == 1 && progressive[at + 8] == 63
            && (progressive[at + 9] >> 4 > 0) == refines
        }
        let scan = try #require((0..<(progressive.count - 10)).first(where: isScan))
        let table = try #require((0..<scan).last { progressive[$0] == 0xFF && progressive[$0 + 1] == 0xC4 })
        let count = progressive[(table + 5)..<(table + 21)].reduce(0) { $0 + Int($1) }
        var bytes = progressive
        bytes.replaceSubrange(
          (table + 21)..<(table + 21 + count), with: [UInt8](repeating: symbol, count: count))
        #expect(throws: error) { try JPEGDecoder.decode(bytes) }
      }
    }

    @Test func randomCorruptionNeverCrashes() {
      var generator = SystemRandomNumberGenerator()
      let sources = ["g-progressive-420-64x48.jpg", "g-restart-420-64x48.jpg", "g-420-odd-17x9.jpg"].map(
        JPEGFixture.bytes)
      for round in 0..<600 {
        var bytes = sources[round % sources.count]
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
          bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        }
        if let image = try? JPEGDecoder.decode(bytes) {
          #expect(image.pixels.count == image.width * image.height * 3)
        }
      }
    }
  }
}

extension PictureSuites {
  struct JPEGFuzzRegressionTests {
    /// Found by `make fuzz-jpeg`: a 2.7 KB file declaring a large picture whose data ends at
    /// once took seconds (decoding millions of empty blocks). It must fail fast.
    @Test func aTinyFileDeclaringAHugePictureFailsFast() {
      let bytes = JPEGFixture.bytes("fuzz-timeout-huge-declared.bin")
      #expect(bytes.count > 0)
      let start = ContinuousClock.now
      for scale in [JPEGDecoder.Scale.full, .eighth] {
        #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(bytes, scale: scale) }
      }
      #expect(ContinuousClock.now - start < Duration.seconds(1).scaled)
    }

    /// Found by `make fuzz-jpeg`: a fractional sampling ratio (3:2) made a smaller plane be
    /// read as full size (index out of range). Refused now, as libjpeg refuses it.
    @Test func fractionalSamplingIsRefusedNotCrashedOn() {
      let bytes = JPEGFixture.bytes("fuzz-crash-1.bin")
      #expect(bytes.count > 0)
      for scale in JPEGDecoder.Scale.allCases {
        #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(bytes, scale: scale) }
      }
    }

    /// A fuzz input decoded at every scale ends in an error or in a whole picture (the
    /// crashes themselves are what the sanitizer runs would catch).
    static func expectCleanResultOrErrorAtEveryScale(_ bytes: [UInt8]) {
      #expect(bytes.count > 0)
      for scale in JPEGDecoder.Scale.allCases {
        if let image = try? JPEGDecoder.decode(bytes, scale: scale) {
          #expect(image.pixels.count == image.width * image.height * 3)
        }
      }
    }

    /// Found by `make fuzz-jpeg`: luma sampled 3×2 against 1×1 chroma. At 1/2 the chroma
    /// transform was doubled to 8×8, which needs 1.5× upsampling; the ratio was truncated to
    /// 1 and the fused colour conversion read past the chroma plane (a heap overflow under
    /// ASan). libjpeg doubles only while the ratio stays whole, and so do we now.
    @Test func threeToOneSamplingDecodesAtEveryScale() throws {
      let bytes = JPEGFixture.bytes("fuzz-crash-2.bin")
      // The file is damaged further on; what matters is a clean result or a clean error.
      Self.expectCleanResultOrErrorAtEveryScale(bytes)
      #expect(try JPEGDecoder.size(of: bytes) == (64, 48))
    }

    /// Found by `make fuzz-jpeg`: a one-component baseline frame declaring 2×2 sampling.
    /// Its scan is not interleaved (one block per MCU), but it was streamed as if its MCU
    /// rows were two blocks high, writing past the plane (a heap overflow under ASan).
    @Test func aSampledSingleComponentFrameIsNotStreamedAsInterleaved() throws {
      Self.expectCleanResultOrErrorAtEveryScale(JPEGFixture.bytes("fuzz-crash-3.bin"))
      // The same layout, valid (`cjpeg -grayscale -sample 2x2`), decodes like libjpeg.
      #expect(
        try JPEGDecoderTests.compareWithEveryScaledReference("g-gray-sampled-2x2-21x13", tolerance: 1) == 4)
    }

    /// A valid file with 3×2 luma sampling (made with `cjpeg -sample 3x2,1x1,1x1`) decodes
    /// like libjpeg at every scale: chroma is upsampled 3× horizontally, 2× vertically.
    @Test func threeByTwoSamplingMatchesLibjpegAtEveryScale() throws {
      #expect(try JPEGDecoderTests.compareWithEveryScaledReference("g-sampling-3x2-50x34", tolerance: 1) == 4)
    }
  }
}
