import Foundation
import ImageDecoding
import TestSupport
import Testing

extension PictureSuites.JPEGDecoderTests {
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
}
