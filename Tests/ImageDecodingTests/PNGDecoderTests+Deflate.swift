import Foundation
import ImageDecoding
import TestSupport
import Testing

/// The inflater under PNG: its structural checks, on DEFLATE streams written by hand.
extension PictureSuites.PNGDecoderTests {
  /// A dynamic DEFLATE block's header, as far as it is read: `literals` (257…) and
  /// `distances` (1…) counted, then the code-length code's lengths in DEFLATE's order
  /// (16, 17, 18, 0, 8, …), then `body` writes the rest.
  static func dynamicBlock(
    literals: Int, distances: Int, codeLengthLengths: [Int], body: (inout BitWriter) -> Void = { _ in }
  ) -> [UInt8] {
    var writer = BitWriter()
    writer.write(1, 1)  // last block
    writer.write(2, 2)  // dynamic Huffman
    writer.write(literals - 257, 5)
    writer.write(distances - 1, 5)
    writer.write(codeLengthLengths.count - 4, 4)
    for length in codeLengthLengths { writer.write(length, 3) }
    body(&writer)
    return [0x78, 0x01] + writer.bytes
  }

  /// The inflater's own structural checks, each on a stream made by hand.
  @Test func malformedDeflateStreamsAreNamedErrors() throws {
    let rows: [[UInt8]] = [[0, 1, 2, 3]]
    func png(_ stream: [UInt8]) -> [UInt8] {
      PNGWriter.png(width: 1, height: 1, rows: rows, stream: stream)
    }
    // A window past 32 KB (CINFO 8; the check bits still right).
    let wideWindow = png([0x88, 0x1C] + PNGWriter.zlib([0, 1, 2, 3]).dropFirst(2))
    // More literal or distance codes than DEFLATE has.
    let tooManyLiterals = png(
      Self.dynamicBlock(literals: 287, distances: 1, codeLengthLengths: [0, 0, 0, 0]))
    let tooManyDistances = png(
      Self.dynamicBlock(literals: 257, distances: 31, codeLengthLengths: [0, 0, 0, 0]))
    // Code-length symbols 16 and 18, one bit each (16: 0, 18: 1); 16 repeats the length
    // before it, and here comes first.
    let repeatFirst = png(
      Self.dynamicBlock(literals: 257, distances: 1, codeLengthLengths: [1, 0, 1, 0]) { writer in
        writer.writeCode(0, 1)
        writer.write(0, 2)
      })
    // Symbols 18 and 1 (18: 1, 1: 0): literals 0 and 1 one bit long, the other 256
    // lengths zero, the end-of-block code (256) among them.
    let noEndCode = png(
      Self.dynamicBlock(
        literals: 257, distances: 1, codeLengthLengths: [0, 0, 1] + [Int](repeating: 0, count: 14) + [1]
      ) { writer in
        writer.writeCode(0, 1)
        writer.writeCode(0, 1)
        writer.writeCode(1, 1)
        writer.write(127, 7)  // 138 zeros
        writer.writeCode(1, 1)
        writer.write(107, 7)  // 118 zeros
      })
    // Fixed-Huffman blocks (literal 0 is `00110000`, lengths 257… `0000001`…, 280…
    // `11000000`…; distances five bits): length code 286, which DEFLATE does not use; a
    // copy from distance code 30, another unused one; a copy from before the first byte.
    func fixed(_ body: (inout BitWriter) -> Void) -> [UInt8] {
      var writer = BitWriter()
      writer.write(1, 1)
      writer.write(1, 2)
      body(&writer)
      return png([0x78, 0x01] + writer.bytes)
    }
    let lengthCode286 = fixed { $0.writeCode(0b1100_0110, 8) }
    let distanceCode30 = fixed {
      $0.writeCode(0b0011_0000, 8)
      $0.writeCode(1, 7)
      $0.writeCode(30, 5)
    }
    let beforeTheStart = fixed {
      $0.writeCode(1, 7)
      $0.writeCode(0, 5)
    }
    // Code-length codes: three symbols of one bit (more codes than one bit has); symbol
    // 18 alone (`0`), whose runs of 138 zeros pass the 258 lengths wanted.
    let oversubscribed = png(
      Self.dynamicBlock(literals: 257, distances: 1, codeLengthLengths: [1, 1, 1, 0]))
    let overrun = png(
      Self.dynamicBlock(literals: 257, distances: 1, codeLengthLengths: [0, 0, 1, 0]) { writer in
        for _ in 0..<2 {
          writer.writeCode(0, 1)
          writer.write(127, 7)
        }
      })
    // Code lengths 18 (`0`), 0 (`10`), 1 (`11`): the end code (256) the only literal, so
    // a `1` is no code at all.
    let notACode = png(
      Self.dynamicBlock(literals: 257, distances: 1, codeLengthLengths: [0, 0, 1, 2, 2]) { writer in
        writer.writeCode(0, 1)
        writer.write(127, 7)  // 138 zeros
        writer.writeCode(0, 1)
        writer.write(107, 7)  // 118 zeros
        writer.writeCode(0b11, 2)  // 256: one bit
        writer.writeCode(0b10, 2)  // the distance: none
        writer.writeCode(1, 1)
        writer.write(0, 16)  // bits enough for the longest code
      })
    let cases: [([UInt8], ImageDecodingError)] = [
      (lengthCode286, .corrupt("bad DEFLATE length code")),
      (distanceCode30, .corrupt("bad DEFLATE distance code")),
      (beforeTheStart, .corrupt("DEFLATE distance before the start")),
      (oversubscribed, .corrupt("bad DEFLATE code lengths")),
      (overrun, .corrupt("DEFLATE lengths overrun")),
      (notACode, .corrupt("bad DEFLATE code")),
      (wideWindow, .corrupt("bad zlib header")),
      (tooManyLiterals, .corrupt("bad DEFLATE code counts")),
      (tooManyDistances, .corrupt("bad DEFLATE code counts")),
      (repeatFirst, .corrupt("DEFLATE repeat with nothing before it")),
      (noEndCode, .corrupt("DEFLATE block without an end code")),
    ]
    for (bytes, error) in cases {
      #expect(throws: error) { try PNGDecoder.decode(bytes) }
    }
  }
}

/// Packs bits the way DEFLATE reads them: values from their low bit, Huffman codes from
/// their high bit.
struct BitWriter {
  var bytes: [UInt8] = []
  private var bitCount = 0

  mutating func write(_ value: Int, _ count: Int) {
    for bit in 0..<count { push(value >> bit & 1) }
  }

  mutating func writeCode(_ code: Int, _ length: Int) {
    for bit in (0..<length).reversed() { push(code >> bit & 1) }
  }

  private mutating func push(_ bit: Int) {
    if bitCount % 8 == 0 { bytes.append(0) }
    bytes[bytes.count - 1] |= UInt8(bit << (bitCount % 8))
    bitCount += 1
  }
}
