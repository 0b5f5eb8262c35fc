import Foundation
import ImageDecoding
import TestSupport
import Testing

extension PictureSuites {
  struct WEBPDecoderTests {
    /// Lossy: simple and normal loop filters, sharpness, segments, several token
    /// partitions, odd sizes, a 1×1 picture, a frame from libvpx (whose loop filter has
    /// deltas by reference frame and mode) and one at quantiser index 0 (where the
    /// second-order block's AC factor is raised to 8); transparency raw and compressed
    /// with each filter. Lossless: every transform, colour caches, palettes of 3, 12 and
    /// 200 colours, transparency. Each exactly as libwebp's `dwebp` decodes it (blended over black).
    @Test(arguments: WEBPFixture.referenced)
    func everyFixtureDecodesAsLibwebpDoes(name: String) throws {
      let image = try WEBPDecoder.decode(WEBPFixture.bytes(name + ".webp"))
      #expect(pixelDifference(image.pixels, WEBPFixture.bytes(name + ".rgb")) == nil, "\(name)")
      #expect(!image.isReduced)
    }

    @Test func theFixturesCoverWhatTheyClaim() {
      for name in [
        "simple-filter-64x48", "strong-filter-64x48", "no-filter-odd-33x17", "segments-sharp-120x90",
        "low-quality-1x1", "high-quality-odd-17x9", "alpha-vp8x-64x48", "partitions-4-200x150",
        "sharpness-5-64x48", "sharpness-4-64x48", "filter-level-15-64x48", "libvpx-deltas-64x48",
        "libvpx-quantizer-0-64x48",
        "lowest-quality-64x48", "alpha-raw-64x48", "alpha-horizontal-64x48", "alpha-vertical-64x48",
        "alpha-gradient-64x48", "alpha-compressed-64x48", "lossless-photo-64x48",
        "lossless-fast-odd-33x17", "lossless-alpha-64x48", "lossless-palette-3-64x48",
        "lossless-palette-12-64x48", "lossless-palette-200-64x48", "animated-80x60",
      ] {
        #expect(WEBPFixture.referenced.contains(name), "\(name)")
      }
    }

    @Test func theSharedFixtureDecodesAndItsSizeIsReadWithoutDecoding() throws {
      let bytes = JPEGFixture.bytes("synthetic-400x300.webp")
      let size = try WEBPDecoder.size(of: bytes)
      #expect(size.width == 400 && size.height == 300)
      let image = try WEBPDecoder.decode(bytes)
      #expect(image.width == 400 && image.height == 300)
      let reduced = try ImageDecoder.decode(bytes, fitting: (100, 75))
      #expect(reduced.width == 100 && reduced.height == 75 && reduced.isReduced)
      #expect(pixelDifference(reduced.pixels, PNGDecoderTests.averaged(image, 4)) == nil)
    }

    @Test func aLosslessPicturesSizeIsReadWithoutDecoding() throws {
      let size = try WEBPDecoder.size(of: WEBPFixture.bytes("lossless-fast-odd-33x17.webp"))
      #expect(size.width == 33 && size.height == 17)
    }

    @Test func anAnimationShowsItsFirstFrameOnItsCanvas() throws {
      let bytes = WEBPFixture.bytes("animated-80x60.webp")
      let size = try WEBPDecoder.size(of: bytes)
      #expect(size.width == 80 && size.height == 60)
      // A frame without the canvas a VP8X chunk gives is an error, not a guess.
      let at = try #require((0..<(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual("VP8X".utf8) })
      var noCanvas = bytes
      noCanvas.replaceSubrange(at..<at + 4, with: Array("XXXX".utf8))
      #expect(throws: ImageDecodingError.corrupt("WEBP animation without a canvas")) {
        try WEBPDecoder.decode(noCanvas)
      }
      #expect(throws: ImageDecodingError.unsupportedFormat(.png)) {
        try WEBPDecoder.decode(PNGFixture.bytes("c2-8bit.png"))
      }
    }

    @Test func structuralFaultsAreNamedErrors() throws {
      let good = WEBPFixture.bytes("simple-filter-64x48.webp")
      let frame = 20  // RIFF header (12) and the VP8 chunk's header (8)
      var notKey = good
      notKey[frame] |= 1
      #expect(throws: ImageDecodingError.corrupt("VP8 frame that is not a key frame")) {
        try WEBPDecoder.decode(notKey)
      }
      // Versions 0…3 are VP8's; 4 is none of them.
      var badProfile = good
      badProfile[frame] = badProfile[frame] & ~0x0E | 4 << 1
      #expect(throws: ImageDecodingError.corrupt("VP8 profile")) { try WEBPDecoder.decode(badProfile) }
      badProfile[frame] = badProfile[frame] & ~0x0E | 3 << 1
      #expect(throws: Never.self) { try WEBPDecoder.decode(badProfile) }
      var badStart = good
      badStart[frame + 3] = 0
      #expect(throws: ImageDecodingError.corrupt("VP8 start code")) { try WEBPDecoder.decode(badStart) }
      var empty = good
      empty[frame + 6] = 0
      empty[frame + 7] = 0
      #expect(throws: ImageDecodingError.corrupt("empty VP8 frame")) { try WEBPDecoder.decode(empty) }
      var huge = good
      for offset in 6..<10 { huge[frame + offset] = 0xFF }
      #expect(throws: ImageDecodingError.tooLarge(width: 16_383, height: 16_383)) {
        try WEBPDecoder.decode(huge)
      }
      let noPicture = Array("RIFF\u{C}\u{0}\u{0}\u{0}WEBPEXIF\u{0}\u{0}\u{0}\u{0}".utf8)
      #expect(throws: ImageDecodingError.corrupt("WEBP without a picture")) {
        try WEBPDecoder.decode(noPicture)
      }
    }

    /// A file cut anywhere is an error, never a crash nor a picture made of zeros.
    @Test func everyTruncationIsAnError() {
      let bytes = WEBPFixture.bytes("segments-sharp-120x90.webp")
      for length in 0..<bytes.count {
        #expect(throws: ImageDecodingError.self, "\(length)") {
          try WEBPDecoder.decode(Array(bytes.prefix(length)))
        }
      }
    }

    /// A bitstream cut short inside a container whose sizes agree with the cut (so only the
    /// decoder's own reading can notice) is truncated, unless no bit of the picture came
    /// from the bytes cut (arithmetic coding ends on spare bits): then the picture is the
    /// same. As libwebp decides (which also reads the padding byte after an odd-sized chunk
    /// as the stream's). Lossy, lossless with colour caches and transforms, with a palette.
    @Test(arguments: ["segments-sharp-120x90", "lossless-fast-odd-33x17", "lossless-palette-3-64x48"])
    func aBitstreamCutShortInsideItsContainerIsTruncated(name: String) throws {
      let bytes = WEBPFixture.bytes(name + ".webp")
      let whole = try WEBPDecoder.decode(bytes).pixels
      let payload = bytes[20...]
      var pictures = 0
      for length in 0..<payload.count {
        do throws(ImageDecodingError) {
          let image = try WEBPDecoder.decode(Self.container(bytes[12..<16], payload.prefix(length)))
          #expect(image.pixels == whole, "\(length)")
          pictures += 1
        } catch {
          #expect(error == .truncated, "\(length)")
        }
      }
      #expect(pictures <= 2)
    }

    /// Four token partitions: the sizes of the first three follow the first partition. A
    /// frame that ends among them (its container's sizes agreeing) is truncated.
    @Test func aFrameCutAmongItsPartitionSizesIsTruncated() throws {
      let bytes = WEBPFixture.bytes("partitions-4-200x150.webp")
      let payload = bytes[20...]
      let tag = Int(bytes[20]) | Int(bytes[21]) << 8 | Int(bytes[22]) << 16  // the frame's first bytes
      let sizes = 10 + tag >> 5  // after the frame's 10-byte header and the first partition
      for cut in [sizes, sizes + 4, sizes + 8] {
        #expect(throws: ImageDecodingError.truncated, "\(cut) bytes") {
          try WEBPDecoder.decode(Self.container(bytes[12..<16], payload.prefix(cut)))
        }
      }
      #expect(throws: Never.self) { try WEBPDecoder.decode(Self.container(bytes[12..<16], payload)) }
    }

    /// Where a stream's data ends, as libwebp 1.2.4's `dwebp` decides: the most bytes (an
    /// even number, so that libwebp's reading of the padding byte does not enter) that can
    /// be cut off the end of each simple file's bitstream, its container's sizes made to
    /// agree, with the picture still decoding. Arithmetic-coded (lossy) streams end on
    /// spare bits; lossless ones on the last code.
    @Test func aStreamEndsWhereLibwebpSaysItDoes() throws {
      let spare = [
        "detailed-200x150": 2, "high-quality-odd-17x9": 0, "low-quality-1x1": 0, "lowest-quality-64x48": 2,
        "no-filter-odd-33x17": 2, "partitions-4-200x150": 2, "photo-500x375": 2, "segments-sharp-120x90": 0,
        "sharpness-5-64x48": 2, "simple-filter-64x48": 0, "strong-filter-64x48": 0, "lossless-photo-64x48": 0,
        "lossless-fast-odd-33x17": 0, "lossless-palette-200-64x48": 0,
      ]
      for (name, spare) in spare {
        let bytes = WEBPFixture.bytes(name + ".webp")
        let whole = try WEBPDecoder.decode(bytes).pixels
        let payload = bytes[20...]
        for cut in stride(from: 0, through: 6, by: 2) {
          let image = try? WEBPDecoder.decode(Self.container(bytes[12..<16], payload.dropLast(cut)))
          #expect((image != nil) == (cut <= spare), "\(name) less \(cut) bytes")
          #expect(image == nil || image?.pixels == whole, "\(name) less \(cut) bytes")
        }
      }
    }

    /// A simple WEBP file: the RIFF header and one chunk, padded to an even length.
    static func container(_ kind: ArraySlice<UInt8>, _ payload: ArraySlice<UInt8>) -> [UInt8] {
      riff(chunk(String(decoding: kind, as: UTF8.self), Array(payload)))
    }

    /// `value` in `count` bytes, least significant first.
    static func littleEndian(_ value: Int, _ count: Int = 4) -> [UInt8] {
      (0..<count).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// A RIFF chunk: its kind, its length and its payload, padded to an even length.
    static func chunk(_ kind: String, _ payload: [UInt8]) -> [UInt8] {
      Array(kind.utf8) + littleEndian(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    /// A WEBP file of `chunks`.
    static func riff(_ chunks: [UInt8]) -> [UInt8] {
      Array("RIFF".utf8) + littleEndian(4 + chunks.count) + Array("WEBP".utf8) + chunks
    }

    /// `VP8X` for a canvas of `width`×`height` (flags: animation, alpha).
    static func extended(_ width: Int, _ height: Int, flags: UInt8 = 0x12) -> [UInt8] {
      chunk("VP8X", [flags, 0, 0, 0] + littleEndian(width - 1, 3) + littleEndian(height - 1, 3))
    }

    /// `ANMF` holding `frame` (a bitstream chunk) at `x`, `y` (even numbers).
    static func animationFrame(x: Int, y: Int, size: (Int, Int), _ frame: [UInt8]) -> [UInt8] {
      chunk(
        "ANMF",
        littleEndian(x / 2, 3) + littleEndian(y / 2, 3) + littleEndian(size.0 - 1, 3)
          + littleEndian(size.1 - 1, 3) + littleEndian(100, 3) + [0] + frame)
    }

    /// An animation's first frame is drawn where it says on its canvas and cut at the
    /// canvas's edges; one wholly outside leaves the canvas black.
    @Test func aFrameIsCutAtTheEdgesOfItsCanvas() throws {
      // The 33×17 lossless picture at (4, 2) on a 20×10 canvas, and where it ends.
      let file = WEBPFixture.bytes("lossless-fast-odd-33x17.webp")
      let frame = Array(file[12...])
      let reference = WEBPFixture.bytes("lossless-fast-odd-33x17.rgb")
      let placed = try WEBPDecoder.decode(
        Self.riff(Self.extended(20, 10) + Self.animationFrame(x: 4, y: 2, size: (33, 17), frame)))
      #expect(placed.width == 20 && placed.height == 10)
      var expected = [UInt8](repeating: 0, count: 20 * 10 * 3)
      for y in 2..<10 {
        for x in 4..<20 {
          let source = ((y - 2) * 33 + x - 4) * 3
          expected.replaceSubrange(
            (y * 20 + x) * 3..<(y * 20 + x + 1) * 3, with: reference[source..<source + 3])
        }
      }
      #expect(placed.pixels == expected)
      for (x, y) in [(20, 0), (0, 10), (40, 40)] {
        let outside = try WEBPDecoder.decode(
          Self.riff(Self.extended(20, 10) + Self.animationFrame(x: x, y: y, size: (33, 17), frame)))
        #expect(outside.pixels == [UInt8](repeating: 0, count: 20 * 10 * 3), "at \(x), \(y)")
      }
    }

    @Test func theExtendedContainersFaultsAreNamedErrors() throws {
      let frame = Array(WEBPFixture.bytes("lossless-fast-odd-33x17.webp")[12...])
      let canvas = Self.extended(40, 20)
      // An animation frame's header is 16 bytes.
      #expect(throws: ImageDecodingError.truncated) {
        try WEBPDecoder.decode(Self.riff(canvas + Self.chunk("ANMF", [UInt8](repeating: 0, count: 15))))
      }
      #expect(throws: ImageDecodingError.corrupt("WEBP animation frame without a picture")) {
        try WEBPDecoder.decode(
          Self.riff(canvas + Self.animationFrame(x: 0, y: 0, size: (33, 17), Self.chunk("EXIF", [1, 2, 3]))))
      }
      // A VP8X chunk too short to give a canvas gives none.
      #expect(throws: ImageDecodingError.corrupt("WEBP animation without a canvas")) {
        try WEBPDecoder.decode(
          Self.riff(
            Self.chunk("VP8X", [0x12, 0, 0, 0, 39, 0, 0, 19])
              + Self.animationFrame(x: 0, y: 0, size: (33, 17), frame)))
      }
      #expect(throws: ImageDecodingError.tooLarge(width: 8_000, height: 8_000)) {
        try WEBPDecoder.decode(
          Self.riff(Self.extended(8_000, 8_000) + Self.animationFrame(x: 0, y: 0, size: (33, 17), frame)))
      }
      // A file that ends before its picture was cut short; chunks past the end its RIFF
      // header gives are not read.
      #expect(throws: ImageDecodingError.truncated) {
        try WEBPDecoder.decode(Array(Self.riff(canvas + frame).prefix(12 + canvas.count)))
      }
      var early = Self.riff(canvas + frame)
      early.replaceSubrange(4..<8, with: Self.littleEndian(4 + canvas.count))
      #expect(throws: ImageDecodingError.corrupt("WEBP without a picture")) { try WEBPDecoder.decode(early) }
    }

    /// `ALPH` with each of its filters gives the picture the raw alpha values give (the
    /// values chosen so that the gradient filter's prediction leaves 0…255 and is clamped);
    /// a header the format does not define, or fewer values than pixels, is an error.
    @Test func everyAlphaFilterGivesTheSameTransparency() throws {
      let (width, height) = (17, 9)
      let frame = Array(WEBPFixture.bytes("high-quality-odd-17x9.webp")[12...])
      let alpha = (0..<width * height).map {
        UInt8(truncatingIfNeeded: 37 + $0 % width * 40 + $0 / width * 90)
      }
      func file(_ header: UInt8, _ values: [UInt8]) -> [UInt8] {
        Self.riff(Self.extended(width, height, flags: 0x10) + Self.chunk("ALPH", [header] + values) + frame)
      }
      let raw = try WEBPDecoder.decode(file(0, alpha))
      // (The values do make it transparent.)
      #expect(raw.pixels != (try WEBPDecoder.decode(WEBPFixture.bytes("high-quality-odd-17x9.webp"))).pixels)
      func value(_ x: Int, _ y: Int) -> Int { Int(alpha[y * width + x]) }
      var clamped = 0
      for filter in 1...3 {
        // The predictor as the container's specification gives it: nothing for the first
        // value, the left for the rest of the first row, above for the first column.
        var filtered = alpha
        for y in 0..<height {
          for x in 0..<width {
            var prediction: Int
            switch (x, y, filter) {
            case (0, 0, _): prediction = 0
            case (_, 0, _): prediction = value(x - 1, 0)
            case (0, _, _), (_, _, 2): prediction = value(x, y - 1)
            case (_, _, 1): prediction = value(x - 1, y)
            default:
              prediction = value(x - 1, y) + value(x, y - 1) - value(x - 1, y - 1)
              if !(0...255).contains(prediction) { clamped += 1 }
              prediction = min(max(prediction, 0), 255)
            }
            filtered[y * width + x] = alpha[y * width + x] &- UInt8(prediction)
          }
        }
        let image = try WEBPDecoder.decode(file(UInt8(filter) << 2, filtered))
        #expect(image.pixels == raw.pixels, "filter \(filter)")
      }
      #expect(clamped > 10)
      // Compression method 2, preprocessing 2, the reserved bits.
      for header: UInt8 in [2, 0x20, 0x40] {
        #expect(throws: ImageDecodingError.corrupt("WEBP alpha header"), "\(header)") {
          try WEBPDecoder.decode(file(header, alpha))
        }
      }
      #expect(throws: ImageDecodingError.truncated) {
        try WEBPDecoder.decode(file(0, Array(alpha.dropLast())))
      }
      #expect(throws: ImageDecodingError.truncated) {
        try WEBPDecoder.decode(
          Self.riff(Self.extended(width, height, flags: 0x10) + Self.chunk("ALPH", []) + frame))
      }
    }

    /// Every byte of the compressed frame damaged in turn: an error or a picture of the
    /// declared size, never a crash.
    @Test func damagedDataIsAnErrorOrAPictureNeverACrash() throws {
      let bytes = WEBPFixture.bytes("no-filter-odd-33x17.webp")
      for offset in 20..<bytes.count {
        for mask: UInt8 in [0x01, 0x80, 0xFF] {
          var damaged = bytes
          damaged[offset] ^= mask
          if let image = try? WEBPDecoder.decode(damaged) {
            #expect(image.pixels.count == image.width * image.height * 3)
          }
        }
      }
    }
  }
}
