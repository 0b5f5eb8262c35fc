import Foundation
import TestSupport
import Testing

@testable import ImageDecoding

/// The zlib compressor, checked by the module's own inflater: whatever it is given comes
/// back byte for byte, in a stream the inflater's checks (header, codes, checksum) accept.
extension PictureSuites {
  struct DeflateTests {
    /// Compressed, then inflated; the bytes must come back exactly.
    static func roundTrip(_ bytes: [UInt8]) throws -> (restored: [UInt8], compressed: [UInt8]) {
      let compressed = Deflate.zlib(bytes)
      return (try Inflater.inflate(zlib: compressed, limit: bytes.count + 1), compressed)
    }

    /// Bytes from a seeded generator: the same every run.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
      var state = seed
      return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
      }
    }

    @Test func nothingCompressesToAnEmptyStream() throws {
      let (restored, compressed) = try Self.roundTrip([])
      #expect(restored.isEmpty)
      // Header, one fixed block with only its end (two bytes), Adler-32 of nothing (1).
      #expect(compressed == [0x78, 0x01, 0x03, 0x00, 0, 0, 0, 1], "\(compressed)")
    }

    /// Every length from 0 to 600 (a few bytes, less than a match, a match's worth, more),
    /// of bytes that repeat and bytes that do not: no size is a special case.
    @Test func everySmallSizeComesBack() throws {
      let noise = Self.noise(600, seed: 7)
      let pattern = (0..<600).map { UInt8($0 % 7) }
      for count in 0...600 {
        for bytes in [Array(noise[0..<count]), Array(pattern[0..<count])] {
          let restored = try Self.roundTrip(bytes).restored
          #expect(restored == bytes, "\(count) bytes")
          if restored != bytes { return }
        }
      }
    }

    /// Noise does not compress: it is stored, a few bytes more per 64 KiB, never more.
    @Test(arguments: [1, 65_535, 65_536, 200_000])
    func noiseIsStoredAndBarelyGrows(count: Int) throws {
      let bytes = Self.noise(count, seed: UInt64(count))
      let (restored, compressed) = try Self.roundTrip(bytes)
      #expect(restored == bytes)
      let blocks = (count + 16_383) / 16_384
      #expect(compressed.count <= count + 6 + 5 * blocks, "\(compressed.count) bytes for \(count)")
    }

    /// Long runs (a flat picture, a single colour repeated) become matches of 258 bytes.
    @Test func longRunsShrinkToAlmostNothing() throws {
      let zeros = [UInt8](repeating: 0, count: 1 << 20)
      let (restored, compressed) = try Self.roundTrip(zeros)
      #expect(restored == zeros)
      // 4,065 matches of 258 bytes a byte back, two bits each (zlib's fastest level: 4,596 bytes).
      #expect(compressed.count < 1_100, "\(compressed.count)")
      // One colour, three bytes a pixel: a run of period 3.
      let grey = [UInt8]((0..<100_000).flatMap { _ in [0x30, 0x60, 0x90] as [UInt8] })
      let greyRound = try Self.roundTrip(grey)
      #expect(greyRound.restored == grey)
      #expect(greyRound.compressed.count < 2_048, "\(greyRound.compressed.count)")
    }

    /// A block of noise seen again within the window (32 KiB) is a match; the window
    /// and the blocks' boundaries (16,384 symbols) are crossed.
    @Test func repeatsFarBackAndAcrossBlocksAreFound() throws {
      let chunk = Self.noise(30_000, seed: 3)
      let bytes = chunk + chunk + Self.noise(40_000, seed: 4) + chunk
      let (restored, compressed) = try Self.roundTrip(bytes)
      #expect(restored == bytes)
      // The second copy costs next to nothing; the third, 70,000 bytes back, is out of reach.
      #expect(compressed.count < 30_000 + 40_000 + 30_000 + 2_000, "\(compressed.count)")
      #expect(compressed.count > 30_000 + 40_000 + 30_000 - 1_000, "\(compressed.count)")
    }

    /// A photograph's pixels (what kitty is sent): smaller, and exactly restored.
    @Test func aPhotographsPixelsComeBackSmaller() throws {
      let image = try PNGDecoder.decode(PNGFixture.bytes("photo-500x375.png"))
      let (restored, compressed) = try Self.roundTrip(image.pixels)
      #expect(pixelDifference(restored, image.pixels) == nil)
      #expect(compressed.count < image.pixels.count * 9 / 10, "\(compressed.count) of \(image.pixels.count)")
    }

    /// Skewed counts (Fibonacci's, whose optimal code is as deep as there are symbols)
    /// make codes longer than DEFLATE's 15 bits: they are cut to the limit and stay a
    /// complete prefix code.
    @Test func codesLongerThanTheLimitAreCut() throws {
      var counts = [1, 1]
      while counts.count < 30 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
      for limit in [7, 15] {
        let lengths = Huffman.lengths(counts, limit: limit)
        #expect(lengths.allSatisfy { $0 >= 1 && $0 <= limit }, "\(lengths)")
        let kraft = lengths.reduce(0) { $0 + (1 << (limit - Int($1))) }
        #expect(kraft == 1 << limit, "complete: \(lengths)")
        // The most frequent symbol keeps the shortest code.
        #expect(lengths.last == lengths.min())
      }
      // The same skew in bytes: 1, 1, 2, 3, 5, … of 24 byte values, shuffled.
      var bytes: [UInt8] = []
      for (value, count) in counts.prefix(24).enumerated() {
        bytes += repeatElement(UInt8(value * 10), count: count)
      }
      var generator = SeededBytes(seed: 11)
      bytes.shuffle(using: &generator)
      let (restored, _) = try Self.roundTrip(bytes)
      #expect(restored == bytes)
    }

    /// One symbol, or none: two codes of one bit, which every inflater takes.
    @Test func aSingleSymbolStillMakesACompleteCode() {
      #expect(Huffman.lengths([0, 0, 5, 0], limit: 15) == [1, 0, 1, 0])
      #expect(Huffman.lengths([0, 0, 0], limit: 15) == [1, 1, 0])
      #expect(Huffman.lengths([4], limit: 15) == [1])
    }

    /// The checksum is zlib's: a stream whose data was changed fails to inflate.
    @Test func aDamagedStreamIsCaught() throws {
      let bytes = [UInt8](repeating: 7, count: 5_000) + Self.noise(3_000, seed: 9)
      var compressed = Deflate.zlib(bytes)
      compressed[compressed.count - 1] ^= 1
      #expect(throws: ImageDecodingError.self) { try Inflater.inflate(zlib: compressed, limit: bytes.count) }
    }
  }
}

/// A seeded generator for shuffles.
struct SeededBytes: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state
  }
}
