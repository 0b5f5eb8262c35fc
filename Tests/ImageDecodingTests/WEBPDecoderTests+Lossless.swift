import Foundation
import ImageDecoding
import TestSupport
import Testing

/// A lossless (VP8L) bitstream written by hand, for the decoder's structural checks.
struct LosslessStream {
  var writer = BitWriter()

  /// The header: signature, size, the alpha hint, version.
  init(width: Int, height: Int, signature: Int = 0x2F, version: Int = 0) {
    writer.write(signature, 8)
    writer.write(width - 1, 14)
    writer.write(height - 1, 14)
    writer.write(0, 1)
    writer.write(version, 3)
  }

  mutating func write(_ value: Int, _ count: Int) { writer.write(value, count) }

  /// No transforms, no colour cache, one group of codes.
  mutating func plain() { write(0, 3) }

  /// A code of one symbol, which takes no bits to read.
  mutating func single(_ symbol: Int) {
    write(1, 1)
    write(0, 1)
    if symbol < 2 {
      write(0, 1)
      write(symbol, 1)
    } else {
      write(1, 1)
      write(symbol, 8)
    }
  }

  /// A code whose lengths are written with the code-length code of symbols 0 (`0`), 1
  /// (`10`) and 18 (`11`, a run of 11–138 zeros): `lengths` gives each symbol 0 or 1.
  mutating func lengths(_ lengths: [Int]) {
    write(0, 1)
    write(0, 4)  // four lengths of the code-length code: 17, 18, 0, 1
    for length in [0, 2, 1, 2] { write(length, 3) }
    write(0, 1)  // every symbol's length follows
    var index = 0
    while index < lengths.count {
      if lengths[index] == 1 {
        writer.writeCode(0b10, 2)
        index += 1
        continue
      }
      var run = 0
      while index + run < lengths.count, lengths[index + run] == 0, run < 138 { run += 1 }
      if run >= 11 {
        writer.writeCode(0b11, 2)
        write(run - 11, 7)
      } else {
        for _ in 0..<run { writer.writeCode(0, 1) }
      }
      index += run
    }
  }

  /// The green code of a `size`-symbol alphabet with two symbols, 0 (a literal green 0,
  /// code `0`) and `other` (code `1`).
  mutating func green(_ size: Int = 280, literalAnd other: Int) {
    lengths((0..<size).map { $0 == 0 || $0 == other ? 1 : 0 })
  }

  /// The file: a simple WEBP container.
  var file: [UInt8] { PictureSuites.WEBPDecoderTests.container(Array("VP8L".utf8)[...], writer.bytes[...]) }
}

extension PictureSuites.WEBPDecoderTests {
  /// A predictor transform over a 2×2 picture whose every residual is (20, 10, 30), alpha
  /// 0: the first row adds the pixel to its left (the first pixel opaque black), the first
  /// column the pixel above, and the last pixel its block's mode. Mode 0 and the unused 14
  /// and 15 predict opaque black; mode 1 the pixel to the left, for contrast.
  @Test func predictorModeZeroAndTheUnusedModesPredictOpaqueBlack() throws {
    for (mode, last) in [
      (0, [UInt8]([20, 10, 30])), (14, [20, 10, 30]), (15, [20, 10, 30]), (1, [60, 30, 90]),
    ] {
      var stream = LosslessStream(width: 2, height: 2)
      stream.write(1, 1)  // a transform:
      stream.write(0, 2)  // the predictor,
      stream.write(0, 3)  // in blocks of 4×4: one block, its mode in a 1×1 image's green
      stream.write(0, 1)  // (no colour cache)
      for symbol in [mode, 0, 0, 0, 0] { stream.single(symbol) }
      stream.write(0, 3)  // no more transforms, no cache, no code groups
      for symbol in [10, 20, 30, 0, 0] { stream.single(symbol) }
      let pixels = try WEBPDecoder.decode(stream.file).pixels
      #expect(pixels == [20, 10, 30, 40, 20, 60, 40, 20, 60] + last, "mode \(mode)")
    }
  }

  /// Pictures written by hand first, to show that the writer above is right; then one
  /// stream for each way a lossless stream can be malformed, each a named error.
  @Test func malformedLosslessStreamsAreNamedErrors() throws {
    // 2×1: one symbol per channel, so every pixel is (50, 100, 25) and takes no bits.
    var plain = LosslessStream(width: 2, height: 1)
    plain.plain()
    for symbol in [100, 50, 25, 255, 0] { plain.single(symbol) }
    #expect(try WEBPDecoder.decode(plain.file).pixels == [50, 100, 25, 50, 100, 25])
    // A literal green 0 (red 50), then a copy of length 1 from distance code 2 (the pixel
    // to the left): the code-length code and LZ77 as written here.
    var copied = LosslessStream(width: 2, height: 1)
    copied.plain()
    copied.green(literalAnd: 256)
    for symbol in [50, 0, 255, 1] { copied.single(symbol) }
    copied.writer.writeCode(0, 1)
    copied.writer.writeCode(1, 1)
    #expect(try WEBPDecoder.decode(copied.file).pixels == [50, 0, 0, 50, 0, 0])

    func stream(_ width: Int = 2, _ height: Int = 1, _ body: (inout LosslessStream) -> Void) -> [UInt8] {
      var stream = LosslessStream(width: width, height: height)
      body(&stream)
      return stream.file
    }
    var cases: [([UInt8], ImageDecodingError, String)] = [
      (LosslessStream(width: 2, height: 1, signature: 0x2E).file, .corrupt("VP8L signature"), "signature"),
      (LosslessStream(width: 2, height: 1, version: 1).file, .corrupt("VP8L version"), "version"),
      (
        LosslessStream(width: 16_384, height: 16_384).file, .tooLarge(width: 16_384, height: 16_384),
        "too large"
      ),
      (
        stream { for _ in 0..<2 { $0.write(1, 1); $0.write(2, 2) } }, .corrupt("VP8L transform repeated"),
        "subtract green twice"
      ),
    ]
    for bits in [0, 12] {
      cases.append(
        (
          stream {
            $0.write(0, 1); $0.write(1, 1); $0.write(bits, 4)
          }, .corrupt("VP8L colour cache size"),
          "\(bits) cache bits"
        ))
    }
    // The distance alphabet has 40 symbols: 200 is none of them, as one symbol or the
    // second of two.
    cases.append(
      (
        stream {
          $0.plain(); for symbol in [0, 0, 0, 255, 200] { $0.single(symbol) }
        }, .corrupt("VP8L symbol"), "one"
      )
    )
    cases.append(
      (
        stream {
          $0.plain()
          for symbol in [0, 0, 0, 255] { $0.single(symbol) }
          $0.write(0b0011, 4)
          $0.write(200, 8)
        }, .corrupt("VP8L symbol"), "second"
      ))
    // The red code (alphabet 256, after a green code of one symbol), five ways that make
    // no code: lengths for more symbols than the alphabet has, as the count given first and
    // as a run of zeros past its end; no symbol; three of one bit (more than one bit has);
    // one of one bit and one of two (incomplete), with a code-length code of its own.
    let redCodes: [(String, ImageDecodingError, (inout LosslessStream) -> Void)] = [
      (
        "count", .corrupt("VP8L code lengths"),
        {
          $0.write(0, 1)
          $0.write(0, 4)
          for length in [0, 0, 1, 1] { $0.write(length, 3) }
          $0.write(1, 1)
          $0.write(7, 3)  // the count in 16 bits
          $0.write(300, 16)  // 302 symbols
        }
      ),
      ("run", .corrupt("VP8L code lengths"), { $0.lengths([Int](repeating: 0, count: 276)) }),
      ("empty", .corrupt("VP8L empty code"), { $0.lengths([Int](repeating: 0, count: 256)) }),
      (
        "oversubscribed", .corrupt("VP8L code lengths"),
        { $0.lengths([1, 1, 1] + [Int](repeating: 0, count: 253)) }
      ),
      (
        "incomplete", .corrupt("VP8L incomplete code"),
        {
          // Code-length code: symbol 1 (`0`), symbol 2 (`10`), 18 (`11`).
          $0.write(0, 1)
          $0.write(1, 4)
          for length in [0, 2, 0, 1, 2] { $0.write(length, 3) }
          $0.write(0, 1)
          $0.writer.writeCode(0, 1)
          $0.writer.writeCode(0b10, 2)
          $0.writer.writeCode(0b11, 2)
          $0.write(127, 7)
          $0.writer.writeCode(0b11, 2)
          $0.write(105, 7)
        }
      ),
    ]
    for (name, error, red) in redCodes {
      cases.append(
        (
          stream {
            $0.plain()
            $0.single(0)
            red(&$0)
          }, error, name
        ))
    }
    // Copies from before the first pixel (length 1, first), and past the last (length 2,
    // after one literal).
    for (lengthSymbol, literals, name) in [(256, 0, "before"), (257, 1, "past")] {
      cases.append(
        (
          stream {
            $0.plain()
            $0.green(literalAnd: lengthSymbol)
            for symbol in [0, 0, 255, 1] { $0.single(symbol) }
            for _ in 0..<literals { $0.writer.writeCode(0, 1) }
            $0.writer.writeCode(1, 1)
          }, .corrupt("VP8L copy outside the picture"), name
        ))
    }
    for (bytes, error, name) in cases {
      #expect(throws: error, "\(name)") { try WEBPDecoder.decode(bytes) }
    }
  }
}
