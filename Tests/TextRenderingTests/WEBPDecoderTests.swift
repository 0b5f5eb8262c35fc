import Foundation
import Testing
import TextRendering

extension PictureSuites {
  struct WEBPDecoderTests {
    /// Lossy: simple and normal loop filters, sharpness, segments, several token
    /// partitions, odd sizes, a 1×1 picture; transparency raw and compressed with each
    /// filter. Lossless: every transform, colour caches, palettes of 3, 12 and 200 colours,
    /// transparency. Each exactly as libwebp's `dwebp` decodes it (blended over black).
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
        "sharpness-5-64x48", "lowest-quality-64x48", "alpha-raw-64x48", "alpha-horizontal-64x48",
        "alpha-vertical-64x48", "alpha-gradient-64x48", "alpha-compressed-64x48", "lossless-photo-64x48",
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
      func littleEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
      }
      let padded = Array(payload) + (payload.count % 2 == 1 ? [0] : [])
      return Array("RIFF".utf8) + littleEndian(12 + padded.count) + Array("WEBP".utf8) + kind
        + littleEndian(payload.count) + padded
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
