import Foundation
import ImageDecoding
import TestSupport
import Testing

extension PictureSuites {
  struct PNGDecoderTests {
    /// Every colour type at every bit depth, interlaced and not, all five filters, stored,
    /// fixed and dynamic DEFLATE, split IDATs, transparency, background and a photo.
    @Test(arguments: PNGFixture.referenced)
    func everyKindOfPNGDecodesToItsReference(name: String) throws {
      let image = try PNGDecoder.decode(PNGFixture.bytes(name + ".png"))
      #expect(pixelDifference(image.pixels, PNGFixture.bytes(name + ".rgb")) == nil, "\(name)")
      #expect(!image.isReduced)
    }

    /// The whole photo (the benchmark's) holds the 200×150 one at (150, 100).
    @Test func aLargerPhotoDecodesToo() throws {
      let image = try PNGDecoder.decode(PNGFixture.bytes("photo-500x375.png"))
      #expect(image.width == 500 && image.height == 375)
      guard image.width == 500 && image.height == 375 else { return }
      var crop: [UInt8] = []
      for y in 100..<250 {
        let left: Int = (y * 500 + 150) * 3
        crop += image.pixels[left..<left + 600]
      }
      #expect(pixelDifference(crop, PNGFixture.bytes("photo-200x150.rgb")) == nil)
    }

    @Test func theFixturesCoverEveryColourTypeDepthAndInterlacing() {
      let expected = [
        "c0-1bit", "c0-2bit", "c0-4bit", "c0-8bit", "c0-16bit", "c2-8bit", "c2-16bit", "c3-1bit", "c3-2bit",
        "c3-4bit", "c3-8bit", "c4-8bit", "c4-16bit", "c6-8bit", "c6-16bit",
      ]
      for name in expected {
        #expect(PNGFixture.referenced.contains(name), "\(name)")
        #expect(PNGFixture.referenced.contains(name + "-interlaced"), "\(name)-interlaced")
      }
    }

    @Test func theSizeIsReadWithoutDecoding() throws {
      let size = try PNGDecoder.size(of: PNGFixture.bytes("photo-200x150.png"))
      #expect(size.width == 200 && size.height == 150)
    }

    /// Like the JPEG decoder's scales: the largest power of two (up to 8) that still
    /// leaves the pixels the picture takes fitted in the target, each square averaged.
    /// Fitted in a box wider than its shape, the picture needs the box's height alone
    /// (`(400, 75)`: 100 × 75 is as tall as the box); in a taller one, its width alone.
    @Test func fittingReducesByThePowerOfTwoThatStillFillsTheFittedPicture() throws {
      let bytes = PNGFixture.bytes("photo-200x150.png")
      let full = try PNGDecoder.decode(bytes)
      for (target, factor) in [
        ((40, 30), 4), ((26, 19), 4), ((25, 18), 8), ((27, 20), 4), ((101, 76), 1), ((100, 75), 2),
        ((400, 75), 2),
        ((100, 900), 2), ((400, 76), 1), ((26, 1), 8),
      ] {
        let image = try PNGDecoder.decode(bytes, fitting: target)
        #expect(image.width == (200 + factor - 1) / factor, "\(target)")
        #expect(image.height == (150 + factor - 1) / factor, "\(target)")
        #expect(image.isReduced == (factor > 1))
        #expect(pixelDifference(image.pixels, Self.averaged(full, factor)) == nil, "\(target)")
      }
      // 19×13 by 8 is 3×2: the squares at the right and bottom edges are 3 and 5 pixels
      // wide and high, and each is the average of the pixels it has.
      let small = PNGFixture.bytes("c2-8bit.png")
      let eighth = try PNGDecoder.decode(small, fitting: (1, 1))
      #expect(eighth.width == 3 && eighth.height == 2)
      #expect(pixelDifference(eighth.pixels, Self.averaged(try PNGDecoder.decode(small), 8)) == nil)
    }

    /// Each `factor`×`factor` square (cut short at the edges) averaged, rounding halves up.
    static func averaged(_ image: RGBImage, _ factor: Int) -> [UInt8] {
      var result: [UInt8] = []
      for top in stride(from: 0, to: image.height, by: factor) {
        for left in stride(from: 0, to: image.width, by: factor) {
          for channel in 0..<3 {
            var sum = 0
            var count = 0
            for y in top..<min(top + factor, image.height) {
              for x in left..<min(left + factor, image.width) {
                sum += Int(image.pixels[(y * image.width + x) * 3 + channel])
                count += 1
              }
            }
            result.append(UInt8((sum + count / 2) / count))
          }
        }
      }
      return result
    }

    @Test func theImageDecoderTellsTheFormatsApartByTheirBytes() throws {
      let png = PNGFixture.bytes("photo-200x150.png")
      #expect(try ImageDecoder.decode(png, fitting: (50, 40)) == PNGDecoder.decode(png, fitting: (50, 40)))
      let jpeg = JPEGFixture.bytes("g-420-64x48.jpg")
      #expect(try ImageDecoder.decode(jpeg, fitting: (16, 12)) == JPEGDecoder.decode(jpeg, fitting: (16, 12)))
      let webp = JPEGFixture.bytes("synthetic-400x300.webp")
      #expect(try ImageDecoder.decode(webp, fitting: (50, 40)) == WEBPDecoder.decode(webp, fitting: (50, 40)))
      let gif = GIFFixture.bytes("photo-64x48.gif")
      #expect(try ImageDecoder.decode(gif, fitting: (16, 12)) == GIFDecoder.decode(gif, fitting: (16, 12)))
      let avif = Array("\u{0}\u{0}\u{0}\u{1C}ftypavif\u{0}\u{0}\u{0}\u{0}".utf8)
      #expect(throws: ImageDecodingError.unsupportedFormat(.avif)) {
        try ImageDecoder.decode(avif, fitting: (10, 10))
      }
      #expect(
        ImageDecodingError.unsupportedFormat(.avif).message
          == "The picture is an AVIF, an unsupported image format.")
      // An AVIF image sequence too.
      #expect(ImageFormat(sniffing: Array("\u{0}\u{0}\u{0}\u{1C}ftypavis\u{0}\u{0}\u{0}\u{0}".utf8)) == .avif)
      #expect(ImageFormat(sniffing: Array("BM6\u{0}".utf8)) == .bmp)
      #expect(ImageFormat(sniffing: [0x4D, 0x4D, 0x00, 0x2A, 0]) == .tiff)
      #expect(ImageFormat(sniffing: [0x49, 0x49, 0x2A, 0x00, 0]) == .tiff)
      #expect(throws: ImageDecodingError.unsupportedFormat(.unknown)) {
        try ImageDecoder.decode(Array("<html>".utf8), fitting: (10, 10))
      }
      // A PNG behind a .jpg name is a PNG.
      #expect(throws: Never.self) {
        try ImageDecoder.decode(JPEGFixture.bytes("g-png-named.jpg"), fitting: (1, 1))
      }
      #expect(throws: ImageDecodingError.unsupportedFormat(.jpeg)) { try PNGDecoder.decode(jpeg) }
    }

    @Test func aHandWrittenPictureDecodesAsWritten() throws {
      // 2×2 RGB: a None row and an Up row (which adds the row above).
      let bytes = PNGWriter.png(
        width: 2, height: 2, rows: [[0, 10, 20, 30, 40, 50, 60], [2, 1, 1, 1, 2, 2, 2]])
      let image = try PNGDecoder.decode(bytes)
      #expect(image.pixels == [10, 20, 30, 40, 50, 60, 11, 21, 31, 42, 52, 62])
    }

    @Test func aPaletteIndexPastThePaletteIsBlack() throws {
      let palette = PNGWriter.chunk("PLTE", [255, 0, 0, 0, 255, 0])
      let bytes = PNGWriter.png(width: 3, height: 1, colorType: 3, rows: [[0, 1, 0, 7]], before: palette)
      #expect(try PNGDecoder.decode(bytes).pixels == [0, 255, 0, 255, 0, 0, 0, 0, 0])
    }

    @Test func moreImageDataThanTheHeaderNeedsIsIgnoredAndLessIsTruncation() throws {
      let rows: [[UInt8]] = [[0, 1, 2, 3], [0, 4, 5, 6]]
      let longer = PNGWriter.png(
        width: 1, height: 2, rows: rows, stream: PNGWriter.zlib(rows.flatMap { $0 } + [9, 9]))
      #expect(try PNGDecoder.decode(longer).pixels == [1, 2, 3, 4, 5, 6])
      let shorter = PNGWriter.png(width: 1, height: 2, rows: rows, stream: PNGWriter.zlib(rows[0]))
      #expect(throws: ImageDecodingError.truncated) { try PNGDecoder.decode(shorter) }
    }

    /// A small file that inflates to far more than its pixels need costs only its pixels:
    /// inflating stops at the size the header gives.
    @Test func inflatingStopsAtWhatTheHeaderDeclares() throws {
      // 1,000,000 zero bytes as fixed-Huffman DEFLATE: a literal 0, then length-258
      // copies at distance 1, each the 7-bit code 1000101 (symbol 285) and the 5-bit
      // distance code 0 — 12 bits per 258 bytes.
      var writer = BitWriter()
      writer.write(1, 1)  // last block
      writer.write(1, 2)  // fixed Huffman
      writer.writeCode(0b0011_0000, 8)  // literal 0
      for _ in 0..<3_876 {
        writer.writeCode(0b1100_0101, 8)  // 285: length 258 (8-bit code 11000101)
        writer.writeCode(0, 5)  // distance 1
      }
      writer.writeCode(0, 7)  // end of block
      let stream: [UInt8] = [0x78, 0x01] + writer.bytes + [0, 0, 0, 0]
      #expect(stream.count < 7_000)
      let rows = [[UInt8]](repeating: [0, 0, 0, 0], count: 100)
      let bytes = PNGWriter.png(width: 1, height: 100, rows: rows, stream: stream)
      // 400 bytes are wanted; the rest (and the checksum, which is wrong) is never read.
      #expect(try PNGDecoder.decode(bytes).pixels == [UInt8](repeating: 0, count: 300))
    }

    @Test func structuralFaultsAreNamedErrors() throws {
      let rows: [[UInt8]] = [[0, 1, 2, 3]]
      let good = PNGWriter.png(width: 1, height: 1, rows: rows)
      #expect(try PNGDecoder.decode(good).pixels == [1, 2, 3])

      var badCRC = good
      badCRC[badCRC.count - 20] ^= 1  // inside the IDAT chunk
      #expect(throws: ImageDecodingError.corrupt("bad PNG chunk checksum")) { try PNGDecoder.decode(badCRC) }
      var badHeader = good
      badHeader[20] = 0x7F
      #expect(throws: ImageDecodingError.corrupt("bad PNG header checksum")) {
        try PNGDecoder.decode(badHeader)
      }

      let cases: [([UInt8], ImageDecodingError)] = [
        (PNGWriter.png(width: 1, height: 1, rows: [[5, 1, 2, 3]]), .corrupt("PNG filter type 5")),
        (
          PNGWriter.png(width: 1, height: 1, rows: rows, stream: PNGWriter.zlib([0, 1, 2, 3], adler: 7)),
          .corrupt("bad zlib checksum")
        ),
        (
          PNGWriter.png(
            width: 1, height: 1, rows: rows,
            stream: [0x78, 0x02] + PNGWriter.zlib([0, 1, 2, 3]).dropFirst(2)),
          .corrupt("bad zlib header")
        ),
        (
          PNGWriter.png(
            width: 1, height: 1, rows: rows,
            stream: [0x78, 0xBB] + PNGWriter.zlib([0, 1, 2, 3]).dropFirst(2)),
          .unsupportedFeature("zlib preset dictionary")
        ),
        (
          PNGWriter.png(width: 1, height: 1, rows: rows, stream: [0x78, 0x01, 0x07]),
          .corrupt("bad DEFLATE block type")
        ),
        (
          PNGWriter.png(
            width: 1, height: 1, rows: rows, stream: [0x78, 0x01, 0x01, 4, 0, 0xFB, 0xFE, 0, 1, 2, 3]),
          .corrupt("bad stored block length")
        ),
        (PNGWriter.png(width: 1, height: 1, colorType: 3, rows: rows), .corrupt("PNG without its palette")),
        (PNGWriter.png(width: 1, height: 1, colorType: 1, rows: rows), .corrupt("PNG colour type 1")),
        (PNGWriter.png(width: 1, height: 1, depth: 4, rows: rows), .corrupt("PNG colour type 2 at 4 bits")),
        (PNGWriter.png(width: 0, height: 1, rows: rows), .corrupt("empty PNG")),
        (PNGWriter.png(width: 20_000, height: 1, rows: rows), .tooLarge(width: 20_000, height: 1)),
        (PNGWriter.png(width: 8_000, height: 8_000, rows: rows), .tooLarge(width: 8_000, height: 8_000)),
        (
          PNGWriter.png(width: 1, height: 1, rows: rows, before: PNGWriter.chunk("QUUX", [])),
          .unsupportedFeature("the PNG chunk QUUX")
        ),
        (
          PNGWriter.png(width: 1, height: 1, rows: rows, before: PNGWriter.chunk("Q1UX", [])),
          .corrupt("bad PNG chunk type")
        ),
        (Array(good.prefix(33)) + PNGWriter.chunk("IEND", []), .corrupt("PNG without image data")),
        (Array(good.prefix(20)), .truncated),
        (
          Array(good.prefix(8)) + PNGWriter.chunk("IDAT", Array(repeating: 0, count: 13)),
          .corrupt("no PNG header")
        ),
      ]
      for (bytes, error) in cases {
        #expect(throws: error) { try PNGDecoder.decode(bytes) }
      }
      #expect(
        ImageDecodingError.unsupportedFeature("the PNG chunk QUUX").message
          == "The picture uses a feature we cannot show (the PNG chunk QUUX).")
    }

    /// What `IHDR` may hold, beyond the colour types and depths above: each method byte,
    /// both sizes, and a size that is within the pixel limit but not at 8 bytes a pixel.
    @Test func theHeaderHoldsOnlyWhatTheFormatDefines() throws {
      let rows: [[UInt8]] = [[0, 1, 2, 3]]
      let good = PNGWriter.png(width: 1, height: 1, rows: rows)
      // Compression method and filter method 0; interlace method 0 or 1.
      for (offset, value): (Int, UInt8) in [(26, 1), (27, 1), (28, 2)] {
        var bytes = good
        bytes[offset] = value
        bytes.replaceSubrange(29..<33, with: PNGWriter.bigEndian(PNGWriter.crc(bytes[12..<29])))
        #expect(throws: ImageDecodingError.corrupt("unknown PNG method"), "byte \(offset)") {
          try PNGDecoder.decode(bytes)
        }
      }
      let palette = PNGWriter.chunk("PLTE", [255, 0, 0])
      #expect(throws: ImageDecodingError.corrupt("PNG colour type 3 at 16 bits")) {
        try PNGDecoder.decode(
          PNGWriter.png(width: 1, height: 1, depth: 16, colorType: 3, rows: [[0, 0, 0]], before: palette))
      }
      #expect(throws: ImageDecodingError.corrupt("empty PNG")) {
        try PNGDecoder.decode(PNGWriter.png(width: 1, height: 0, rows: rows))
      }
      // 21 million pixels (the limit is 40 million) of 16-bit RGBA: 168 MB unfiltered.
      #expect(throws: ImageDecodingError.tooLarge(width: 6_000, height: 3_500)) {
        try PNGDecoder.decode(PNGWriter.png(width: 6_000, height: 3_500, depth: 16, colorType: 6, rows: rows))
      }
    }

    @Test func chunksAreCheckedByNameLengthAndChecksum() throws {
      let rows: [[UInt8]] = [[0, 1, 2, 3]]
      let good = PNGWriter.png(width: 1, height: 1, rows: rows)
      // A file that ends right after its header was cut short.
      #expect(throws: ImageDecodingError.truncated) { try PNGDecoder.decode(Array(good.prefix(33))) }
      // A chunk's length is at most 2³¹ − 1.
      #expect(throws: ImageDecodingError.corrupt("bad PNG chunk length")) {
        try PNGDecoder.decode(Array(good.prefix(33)) + [0x80, 0, 0, 0] + Array("tEXt".utf8) + [0, 0, 0, 0])
      }
      // A chunk's name is four letters; `@` is the one below `A`.
      #expect(throws: ImageDecodingError.corrupt("bad PNG chunk type")) {
        try PNGDecoder.decode(
          PNGWriter.png(width: 1, height: 1, rows: rows, before: PNGWriter.chunk("QU@X", [])))
      }
      // A palette is 1 to 256 RGB triples.
      for entries in [[], [1, 2, 3, 4], [UInt8](repeating: 9, count: 257 * 3)] {
        let bytes = PNGWriter.png(
          width: 1, height: 1, colorType: 3, rows: [[0, 0]], before: PNGWriter.chunk("PLTE", entries))
        #expect(throws: ImageDecodingError.corrupt("bad PNG palette"), "\(entries.count) bytes") {
          try PNGDecoder.decode(bytes)
        }
      }
      // An ancillary chunk with a bad checksum is left out: here the transparency that
      // would have made the pixel black.
      var transparency = PNGWriter.chunk("tRNS", [0, 1, 0, 2, 0, 3])
      #expect(
        try PNGDecoder.decode(PNGWriter.png(width: 1, height: 1, rows: rows, before: transparency)).pixels
          == [0, 0, 0])
      transparency[transparency.count - 1] ^= 1
      #expect(
        try PNGDecoder.decode(PNGWriter.png(width: 1, height: 1, rows: rows, before: transparency)).pixels
          == [1, 2, 3])
    }

    /// Transparent pixels are blended over the `bKGD` colour, for each colour type that
    /// can have one; a damaged `bKGD` gives black (a palette index past the palette) or the
    /// depth's largest value (a grey past it).
    @Test func transparencyIsBlendedOverTheBackgroundTheFileNames() throws {
      func pixels(_ bytes: [UInt8]) throws -> [UInt8] { try PNGDecoder.decode(bytes).pixels }
      // Grey and alpha: a transparent white pixel, then an opaque one.
      let greyAlpha = PNGWriter.png(
        width: 2, height: 1, colorType: 4, rows: [[0, 255, 0, 255, 255]],
        before: PNGWriter.chunk("bKGD", [0, 0x40]))
      #expect(try pixels(greyAlpha) == [0x40, 0x40, 0x40, 255, 255, 255])
      // 8-bit RGB with a transparent colour (not the plain copy that RGB without one is).
      let rgb = PNGWriter.png(
        width: 2, height: 1, rows: [[0, 10, 20, 30, 40, 50, 60]],
        before: PNGWriter.chunk("tRNS", [0, 10, 0, 20, 0, 30]) + PNGWriter.chunk("bKGD", [0, 1, 0, 2, 0, 3]))
      #expect(try pixels(rgb) == [1, 2, 3, 40, 50, 60])
      // A palette whose first entry is transparent, over its second, then over index 2,
      // which it does not have.
      let palette = PNGWriter.chunk("PLTE", [255, 0, 0, 0, 0, 255]) + PNGWriter.chunk("tRNS", [0])
      for (index, colour): (UInt8, [UInt8]) in [(1, [0, 0, 255]), (2, [0, 0, 0])] {
        let bytes = PNGWriter.png(
          width: 1, height: 1, colorType: 3, rows: [[0, 0]],
          before: palette + PNGWriter.chunk("bKGD", [index]))
        #expect(try pixels(bytes) == colour, "background \(index)")
      }
      // A `bKGD` of the wrong length for the colour type (three bytes for RGB): black.
      let wrongLength = PNGWriter.png(
        width: 1, height: 1, rows: [[0, 10, 20, 30]],
        before: PNGWriter.chunk("tRNS", [0, 10, 0, 20, 0, 30]) + PNGWriter.chunk("bKGD", [0, 1, 0]))
      #expect(try pixels(wrongLength) == [0, 0, 0])
      // 2-bit grey, 1 transparent: the sample is compared (not its 8-bit level, 85); the
      // background, 255 at 16 bits, is past 2 bits' largest (3), so white.
      let lowDepth = PNGWriter.png(
        width: 3, height: 1, depth: 2, colorType: 0, rows: [[0, 0b0110_1100]],
        before: PNGWriter.chunk("tRNS", [0, 1]) + PNGWriter.chunk("bKGD", [0, 0xFF]))
      #expect(try pixels(lowDepth) == [255, 255, 255, 170, 170, 170, 255, 255, 255])
    }

    @Test func aFileThatEndsAfterItsImageDataIsShownAndOneCutShorterIsNot() throws {
      let bytes = PNGFixture.bytes("c2-8bit-interlaced.png")
      let reference = PNGFixture.bytes("c2-8bit-interlaced.rgb")
      // Without IEND (the last 12 bytes) the picture is whole.
      #expect(try PNGDecoder.decode(Array(bytes.dropLast(12))).pixels == reference)
      for length in 0..<(bytes.count - 12) {
        #expect(throws: ImageDecodingError.self) { try PNGDecoder.decode(Array(bytes.prefix(length))) }
      }
    }

    /// Every byte of the compressed data flipped in turn (checksums of the chunk made right
    /// again, so the damage reaches the inflater and the filters): an error or a picture,
    /// never a crash.
    @Test func damagedImageDataIsAnErrorOrAPictureNeverACrash() throws {
      for name in ["c3-2bit-interlaced", "c6-16bit", "c0-1bit"] {
        let bytes = PNGFixture.bytes(name + ".png")
        let idat = try #require(
          (0..<(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual("IDAT".utf8) })
        let length =
          Int(bytes[idat - 4]) << 24 | Int(bytes[idat - 3]) << 16 | Int(bytes[idat - 2]) << 8
          | Int(bytes[idat - 1])
        var failures = 0
        for offset in idat + 4..<idat + 4 + length {
          for mask: UInt8 in [0x01, 0x80, 0xFF] {
            var damaged = bytes
            damaged[offset] ^= mask
            let crc = PNGWriter.bigEndian(PNGWriter.crc(damaged[idat..<idat + 4 + length]))
            damaged.replaceSubrange(idat + 4 + length..<idat + 8 + length, with: crc)
            do {
              let image = try PNGDecoder.decode(damaged)
              #expect(image.pixels.count == image.width * image.height * 3)
            } catch {
              failures += 1
            }
          }
        }
        // The zlib checksum catches nearly all of them.
        #expect(failures > length * 2, "\(name): \(failures) of \(length * 3)")
      }
    }
  }
}
