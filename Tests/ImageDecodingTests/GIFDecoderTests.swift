import ImageDecoding
import TestSupport
import Testing

extension PictureSuites {
  struct GIFDecoderTests {
    /// 256 and 2 colours, interlaced and not, transparency, the first frame of an
    /// animation, a local colour table and a frame placed on a larger canvas, a code table
    /// that fills and is kept (no clear code: its last strings, up to code 4095, are used).
    @Test(arguments: GIFFixture.referenced)
    func everyFixtureDecodesToItsReference(name: String) throws {
      let image = try GIFDecoder.decode(GIFFixture.bytes(name + ".gif"))
      #expect(pixelDifference(image.pixels, GIFFixture.bytes(name + ".rgb")) == nil, "\(name)")
    }

    @Test func theFixturesCoverWhatTheyClaim() {
      for name in [
        "photo-64x48", "photo-interlaced-64x48", "two-colours-odd-33x17", "transparent-40x30",
        "animated-48x36",
        "local-table-offset-50x40", "photo-200x150", "local-over-global-20x10", "deferred-clear-64x64",
      ] {
        #expect(GIFFixture.referenced.contains(name), "\(name)")
      }
    }

    @Test func interlacedRowsComeInFourPasses() throws {
      // The interlaced file holds the same picture as the plain one.
      let plain = try GIFDecoder.decode(GIFFixture.bytes("photo-64x48.gif"))
      let interlaced = try GIFDecoder.decode(GIFFixture.bytes("photo-interlaced-64x48.gif"))
      #expect(plain == interlaced)
    }

    @Test func theImageDecoderDrawsGIFsAndReducesThem() throws {
      let bytes = GIFFixture.bytes("photo-64x48.gif")
      let reduced = try ImageDecoder.decode(bytes, fitting: (16, 12))
      #expect(reduced.width == 16 && reduced.height == 12 && reduced.isReduced)
      #expect(
        pixelDifference(reduced.pixels, PNGDecoderTests.averaged(try GIFDecoder.decode(bytes), 4)) == nil)
    }

    @Test func faultsAreNamedErrors() {
      let good = GIFFixture.bytes("two-colours-odd-33x17.gif")
      var empty = good
      empty[6] = 0
      empty[7] = 0
      #expect(throws: ImageDecodingError.corrupt("empty GIF")) { try GIFDecoder.decode(empty) }
      var huge = good
      for offset in 6..<10 { huge[offset] = 0xFF }
      #expect(throws: ImageDecodingError.tooLarge(width: 65_535, height: 65_535)) {
        try GIFDecoder.decode(huge)
      }
      let noImage = Array(good.prefix(13 + (3 << ((Int(good[10]) & 7) + 1)))) + [0x3B]
      #expect(throws: ImageDecodingError.corrupt("GIF without an image")) { try GIFDecoder.decode(noImage) }
      // After the header and colours: an extension (0x21), an image (0x2C) or the end (0x3B).
      let unknownBlock = Array(noImage.dropLast()) + [0x2D]
      #expect(throws: ImageDecodingError.corrupt("GIF block")) { try GIFDecoder.decode(unknownBlock) }
      #expect(throws: ImageDecodingError.unsupportedFormat(.png)) {
        try GIFDecoder.decode(PNGFixture.bytes("c2-8bit.png"))
      }
      for length in 0..<(good.count - 1) {
        #expect(throws: ImageDecodingError.self, "\(length)") {
          try GIFDecoder.decode(Array(good.prefix(length)))
        }
      }
    }

    /// A 1 × 1 GIF made by hand: red from a global table of two colours (or no table), its
    /// LZW data declared with the minimum code size `codeSize` and written for a size of 2
    /// (clear, colour 0, end: three codes of three bits).
    static func tinyGIF(globalColors: Bool = true, codeSize: UInt8 = 2) -> [UInt8] {
      var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, globalColors ? 0x80 : 0, 0, 0]
      if globalColors { bytes += [255, 0, 0, 0, 0, 255] }
      return bytes + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, codeSize, 2, 0x44, 0x01, 0, 0x3B]
    }

    @Test func aFrameWithoutColoursOrWithABadCodeSizeIsRefused() throws {
      #expect(try GIFDecoder.decode(Self.tinyGIF()).pixels == [255, 0, 0])
      #expect(throws: ImageDecodingError.corrupt("GIF without colours")) {
        try GIFDecoder.decode(Self.tinyGIF(globalColors: false))
      }
      // Colour indices are at most 8 bits, and the format asks for at least 2 (a size of 9
      // would make codes for colours no table has; with 1, when codes widen is undefined).
      for codeSize: UInt8 in [0, 1, 9, 11, 12] {
        #expect(throws: ImageDecodingError.corrupt("GIF code size"), "\(codeSize)") {
          try GIFDecoder.decode(Self.tinyGIF(codeSize: codeSize))
        }
      }
    }

    /// The first code after a clear code must be a colour: no string has been made yet.
    @Test func aStringCodeBeforeAnyStringIsRefused() throws {
      // clear (4), 6, end (5) in three bits each, where 6 would be the first string made.
      var bytes = Self.tinyGIF()
      let data = bytes.count - 4
      #expect(Array(bytes[data..<data + 2]) == [0x44, 0x01])
      bytes[data] = 0x74
      #expect(throws: ImageDecodingError.corrupt("GIF code")) { try GIFDecoder.decode(bytes) }
    }

    /// An end code before every pixel has its colour is a picture cut short.
    @Test func codesEndingBeforeEveryPixelAreTruncated() throws {
      var bytes = Self.tinyGIF()
      #expect(try GIFDecoder.decode(bytes).pixels == [255, 0, 0])
      // The same codes (one pixel, then the end) for a frame, and a canvas, two pixels wide.
      bytes[6] = 2
      bytes[bytes.firstIndex(of: 0x2C)! + 5] = 2
      #expect(throws: ImageDecodingError.truncated) { try GIFDecoder.decode(bytes) }
    }

    /// Only the graphic control extension says which colour is transparent: a comment or
    /// an application's block after it (however its bytes read) leaves that as it was.
    @Test func otherExtensionsDoNotChangeTransparency() throws {
      let plain = Self.tinyGIF()
      let image = plain.firstIndex(of: 0x2C)!
      // Colour 0 (the pixel's) transparent.
      let control: [UInt8] = [0x21, 0xF9, 4, 0x01, 0, 0, 0, 0]
      let comment: [UInt8] = [0x21, 0xFE, 14] + Array("Made with GIMP".utf8) + [0]
      let application: [UInt8] = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
      for extensions in [control, control + comment, control + application, comment + control] {
        var bytes = plain
        bytes.insert(contentsOf: extensions, at: image)
        #expect(try GIFDecoder.decode(bytes).pixels == [0, 0, 0], "\(extensions.count)")
      }
      for extensions in [comment, application] {
        var bytes = plain
        bytes.insert(contentsOf: extensions, at: image)
        #expect(try GIFDecoder.decode(bytes).pixels == [255, 0, 0], "\(extensions.count)")
      }
    }

    /// Found by `make fuzz-gif`: a frame declaring 65,535 × 65,535 pixels in a 1 KB file made
    /// the decoder ask for 4 GB before reading any of them.
    @Test func aFrameLargerThanAnyPictureIsRefusedBeforeAllocating() {
      let bytes = FixtureFolder.fuzzFindings("gif").bytes("oom-frame-size.bin")
      #expect(!bytes.isEmpty)
      #expect(throws: ImageDecodingError.tooLarge(width: 65_535, height: 65_535)) {
        try GIFDecoder.decode(bytes)
      }
    }

    /// Every byte damaged in turn: an error or a picture of the canvas's size, never a
    /// crash or a hang.
    @Test func damagedDataIsAnErrorOrAPictureNeverACrash() {
      let bytes = GIFFixture.bytes("transparent-40x30.gif")
      for offset in 6..<bytes.count {
        for mask: UInt8 in [0x01, 0x80, 0xFF] {
          var damaged = bytes
          damaged[offset] ^= mask
          if let image = try? GIFDecoder.decode(damaged) {
            #expect(image.pixels.count == image.width * image.height * 3)
          }
        }
      }
    }
  }
}
