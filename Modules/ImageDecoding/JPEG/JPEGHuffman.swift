/// A Huffman table built for fast decoding: an 11-bit lookahead table for short codes, the
/// canonical `maxCode`/`valueOffset` arrays for the rest, and for AC tables a second
/// lookahead that also decodes the coefficient's extra bits when code and bits fit in 11
/// (most coefficients of a photo), so one lookup yields run, value and length.
///
/// A class over fixed, immutable memory: blocks share their tables, reading a `let`
/// pointer needs no exclusivity check or bounds check, and the decoder's validation
/// (symbol indexes, lengths ≤ 16) happens here, once, instead of per symbol.
final class HuffmanTable {
  static let lookaheadBits = 11
  /// For each 11-bit prefix: `(length << 8) | symbol`, or 0 if the code is longer.
  let lookahead: UnsafeMutablePointer<UInt16>
  /// For each 11-bit prefix that holds a whole code and its extra bits, the decoded
  /// coefficient: `value << 16 | run << 8 | length` (length of code plus bits), with
  /// `endOfBlock` set for an AC end-of-block code and `hit` for any DC entry (whose value
  /// may be 0). 0 when the slow path must decode.
  let fast: UnsafeMutablePointer<Int32>
  static let endOfBlock: Int32 = 0x1000
  static let hit: Int32 = 0x2000
  /// Largest code of each length (index 1…16; 17 is a sentinel), and the offset that
  /// turns a code of that length into a symbol index.
  let maxCode: UnsafeMutablePointer<Int32>
  let valueOffset: UnsafeMutablePointer<Int32>
  /// The symbols, padded to 256 so any index the tables produce is in bounds.
  let symbols: UnsafeMutablePointer<UInt8>

  /// Builds the table from the 16 code-length counts and the symbols of a DHT segment.
  /// `isDC`: a DC table, whose symbols are sizes alone (no run). Writes straight into the
  /// table's memory: a picture brings up to four tables, and building them through
  /// intermediate arrays cost as much as decoding a small picture's blocks.
  init(counts: [UInt8], symbols: [UInt8], isDC: Bool = false) throws(ImageDecodingError) {
    guard counts.count == 16, symbols.count == counts.reduce(0, { $0 + Int($1) }), symbols.count <= 256 else {
      throw .corrupt("bad Huffman table")
    }
    let size = 1 << Self.lookaheadBits
    lookahead = .allocate(capacity: size)
    lookahead.initialize(repeating: 0, count: size)
    fast = .allocate(capacity: size)
    fast.initialize(repeating: 0, count: size)
    maxCode = .allocate(capacity: 18)
    maxCode.initialize(repeating: -1, count: 18)
    valueOffset = .allocate(capacity: 18)
    valueOffset.initialize(repeating: 0, count: 18)
    self.symbols = .allocate(capacity: 256)
    self.symbols.initialize(repeating: 0, count: 256)
    _ = UnsafeMutableBufferPointer(start: self.symbols, count: symbols.count).update(from: symbols)

    var code = 0
    var index = 0
    for length in 1...16 {
      let count = Int(counts[length - 1])
      // Codes of one length must fit in that many bits (which also keeps the short
      // codes' prefixes inside the lookahead tables). A throw here frees the memory in deinit.
      guard code + count <= (1 << length) else { throw .corrupt("bad Huffman table") }
      if count > 0 {
        valueOffset[length] = Int32(index - code)
        if length <= Self.lookaheadBits {
          for offset in 0..<count {
            fillShortCode(code + offset, length: length, symbol: Int(symbols[index + offset]), isDC: isDC)
          }
        }
        index += count
        code += count
        maxCode[length] = Int32(code - 1)
      }
      code <<= 1
    }
    maxCode[17] = Int32.max
  }

  /// Enters a code of at most 11 bits: every 11-bit prefix that starts with it gets the
  /// symbol, and, where the coefficient's extra bits also fit, the decoded value (one
  /// run of equal entries per value of the extra bits).
  private func fillShortCode(_ code: Int, length: Int, symbol: Int, isDC: Bool) {
    let shift = Self.lookaheadBits - length
    let first = code << shift
    (lookahead + first).update(repeating: UInt16(length << 8) | UInt16(symbol), count: 1 << shift)
    let size = isDC ? symbol : symbol & 15
    let run = isDC ? 0 : symbol >> 4
    if !isDC && symbol == 0 {
      (fast + first).update(repeating: Self.endOfBlock | Int32(length), count: 1 << shift)
    } else if (isDC || size != 0), size <= shift {
      let rest = shift - size
      let flags = (isDC ? Self.hit : 0) | Int32(run) << 8 | Int32(length + size)
      for bits in 0..<(1 << size) {
        let value = size == 0 ? 0 : bits < (1 << (size - 1)) ? bits - (1 << size) + 1 : bits
        (fast + first + bits << rest).update(repeating: Int32(value) << 16 | flags, count: 1 << rest)
      }
    }
  }

  deinit {
    lookahead.deallocate()
    fast.deallocate()
    maxCode.deallocate()
    valueOffset.deallocate()
    symbols.deallocate()
  }
}

/// A scan's entropy-coded data, made ready for fast reading once: byte stuffing (`FF 00`)
/// and fill bytes removed, split at restart markers into segments, and followed by zero
/// padding so that reading ahead never needs a bounds check.
final class EntropyCodedData {
  /// The unstuffed bytes of every segment, back to back, then `padding` zero bytes.
  let bytes: UnsafeMutablePointer<UInt8>
  /// Where each segment ends in `bytes`; segment `i` starts where `i - 1` ends.
  let segmentEnds: UnsafeMutableBufferPointer<Int>
  /// In the file: the marker that ended the scan (or the end of the data).
  let scanEnd: Int
  /// Zero bytes after the data: two loads' worth, so a reader may look ahead freely.
  static let padding = 16

  /// Copies the data from `start` up to the first marker that is not `RSTn`.
  init(_ data: UnsafeBufferPointer<UInt8>, from start: Int) {
    bytes = .allocate(capacity: max(0, data.count - start) + Self.padding)
    let walk = Self.walk(data, from: start, copyingTo: bytes)
    (bytes + walk.length).initialize(repeating: 0, count: Self.padding)
    segmentEnds = .allocate(capacity: walk.segmentEnds.count)
    _ = segmentEnds.initialize(from: walk.segmentEnds)
    scanEnd = walk.scanEnd
  }

  /// Where a scan starting at `start` ends (its closing marker), without copying it: for
  /// scans whose data is skipped.
  static func scanEnd(of data: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    walk(data, from: start, copyingTo: nil).scanEnd
  }

  /// Walks a scan's data: unstuffs it into `output` (when given), notes where each
  /// restart segment ends there, and finds the marker that ends the scan.
  private static func walk(
    _ data: UnsafeBufferPointer<UInt8>, from start: Int, copyingTo output: UnsafeMutablePointer<UInt8>?
  ) -> (length: Int, segmentEnds: [Int], scanEnd: Int) {
    var ends: [Int] = []
    var input = start
    var length = 0
    var end = data.count
    scanning: while input < data.count {
      // Eight bytes at a time while none of them is FF: a byte of `word` is FF where a
      // byte of its complement is zero, which the classic zero-byte test finds (its
      // borrows can flag extra bytes, never miss one, and then the byte path decides).
      while input &+ 8 <= data.count {
        let word = UnsafeRawPointer(data.baseAddress! + input).loadUnaligned(as: UInt64.self)
        let inverted = ~word
        if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 != 0 { break }
        UnsafeMutableRawPointer(output?.advanced(by: length))?.storeBytes(of: word, as: UInt64.self)
        input &+= 8
        length &+= 8
      }
      guard input < data.count else { break }
      let byte = data[input]
      if byte != 0xFF {
        output?[length] = byte
        length += 1
        input += 1
        continue
      }
      var next = input + 1
      while next < data.count, data[next] == 0xFF { next += 1 }  // fill bytes
      guard next < data.count else { break }
      switch data[next] {
      case 0x00:  // stuffing: a data byte FF
        output?[length] = 0xFF
        length += 1
        input = next + 1
      case 0xD0...0xD7:  // a restart marker ends a segment
        ends.append(length)
        input = next + 1
      default:  // any other marker ends the scan; the parser reads it from its last FF
        end = next - 1
        break scanning
      }
    }
    ends.append(length)
    return (length, ends, end)
  }

  deinit {
    bytes.deallocate()
    segmentEnds.deallocate()
  }
}

/// Reads a scan's entropy-coded data bit by bit through a 64-bit buffer, feeding zeros
/// after the data ends (as the standard says) and noting when bits beyond the real data
/// were consumed.
///
/// The data is prepared by ``EntropyCodedData``, so topping up the buffer is one
/// unaligned load and a shift: no `FF` checks and no calls in the decoding loops, which
/// lets the optimiser keep the buffer and count in registers. The reader only points
/// into that data (the caller keeps it alive), so it is a plain value: copying it costs
/// no reference counting.
struct BitReader {
  private let bytes: UnsafePointer<UInt8>
  private let segmentEnds: UnsafeBufferPointer<Int>
  /// Reading position in the unstuffed bytes; never beyond `limit`.
  private var position = 0
  private let limit: Int
  private var buffer: UInt64 = 0
  private var count = 0
  private var segment = 0
  private var segmentEnd: Int

  /// Bits were consumed beyond the current segment's data (not merely read ahead). A
  /// valid stream never does that (encoders pad the last byte with ones), so the data is
  /// truncated; stopping here also keeps a tiny file that declares a huge picture from
  /// decoding millions of empty blocks.
  var ranOut: Bool { position &* 8 &- count > segmentEnd &* 8 }

  /// Reads `data`, which must outlive the reader.
  init(_ data: EntropyCodedData) {
    bytes = UnsafePointer(data.bytes)
    segmentEnds = UnsafeBufferPointer(data.segmentEnds)
    segmentEnd = segmentEnds[0]
    limit = segmentEnds[segmentEnds.count - 1] + EntropyCodedData.padding - 8
  }

  /// Tops the buffer up to at least 57 bits with as many whole bytes as fit. Past the last
  /// byte it reads the zero padding, and stays there.
  @inline(__always)
  private mutating func fill() {
    let word = UInt64(bigEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
    let taken = (64 &- count) &>> 3
    buffer |=
      (word & (~0 &<< UInt64(truncatingIfNeeded: 64 &- taken &* 8))) &>> UInt64(truncatingIfNeeded: count)
    count &+= taken &* 8
    position = min(position &+ taken, limit)
  }

  @inline(__always)
  mutating func bits(_ n: Int) -> Int {
    guard n > 0 else { return 0 }
    if count < n { fill() }
    let value = Int(buffer &>> UInt64(truncatingIfNeeded: 64 &- n))
    buffer &<<= UInt64(truncatingIfNeeded: n)
    count &-= n
    return value
  }

  @inline(__always)
  mutating func bit() -> Int { bits(1) }

  /// The next ``HuffmanTable/lookaheadBits`` bits, without consuming them (the buffer
  /// holds at least 16 after).
  @inline(__always)
  mutating func peekLookahead() -> Int {
    if count < 16 { fill() }
    return Int(buffer &>> UInt64(truncatingIfNeeded: 64 &- HuffmanTable.lookaheadBits))
  }

  /// Consumes `n` bits already in the buffer (after ``peekLookahead()``; `n` ≤ 16).
  @inline(__always)
  mutating func skip(_ n: Int) {
    buffer &<<= UInt64(truncatingIfNeeded: n)
    count &-= n
  }

  /// The next Huffman symbol.
  @inline(__always)
  mutating func decode(_ table: HuffmanTable) throws(ImageDecodingError) -> Int {
    let entry = table.lookahead[peekLookahead()]
    if entry != 0 {
      skip(Int(entry >> 8))
      return Int(entry & 0xFF)
    }
    // peekLookahead left at least 16 bits in the buffer: enough for the longest code.
    let long = Self.decodeLong(Int(buffer &>> 48), table)
    guard long >= 0 else { throw .corrupt("bad Huffman code") }
    skip(long >> 8)
    return long & 0xFF
  }

  /// A code longer than the lookahead, from the next 16 bits: canonical decoding.
  /// Returns `length << 8 | symbol`, or -1 for a code the table does not have.
  @inline(never)
  private static func decodeLong(_ window: Int, _ table: HuffmanTable) -> Int {
    for length in (HuffmanTable.lookaheadBits + 1)...16 {
      let code = Int32(window >> (16 - length))
      if code <= table.maxCode[length] {
        let index = Int(code + table.valueOffset[length])
        guard index >= 0, index < 256 else { return -1 }
        return length << 8 | Int(table.symbols[index])
      }
    }
    return -1
  }

  /// Reads `n` bits and sign-extends them as JPEG coefficients are coded. `n` comes from
  /// a Huffman symbol, which corrupt tables can make anything up to 255: beyond 16 is an
  /// error, never a shift past the buffer.
  @inline(__always)
  mutating func receiveExtend(_ n: Int) throws(ImageDecodingError) -> Int {
    guard n > 0 else { return 0 }
    guard n <= 16 else { throw .corrupt("bad coefficient size") }
    return extend(n)
  }

  /// ``receiveExtend(_:)`` for a size known to be 1…15 (the low nibble of an AC symbol).
  @inline(__always)
  mutating func extend(_ n: Int) -> Int {
    let value = bits(n)
    return value < (1 &<< (n &- 1)) ? value &- (1 &<< n) &+ 1 : value
  }

  /// At a restart marker: drop the buffered bits and go on with the next segment. A scan
  /// whose data ended without one is damaged.
  @inline(__always)
  mutating func restart() throws(ImageDecodingError) {
    segment &+= 1
    guard segment < segmentEnds.count else { throw .corrupt("expected a restart marker") }
    position = segmentEnd
    segmentEnd = segmentEnds[segment]
    buffer = 0
    count = 0
  }
}

/// ``zigzag`` at a fixed address, for the decoding loops (allocated once, never freed).
/// Written once by the global's thread-safe initialiser and only read after: sharing it
/// between threads is safe although the pointer type is not `Sendable`.
nonisolated(unsafe) let zigzagPointer: UnsafePointer<Int> = {
  let pointer = UnsafeMutablePointer<Int>.allocate(capacity: zigzag.count)
  pointer.initialize(from: zigzag, count: zigzag.count)
  return UnsafePointer(pointer)
}()

/// Natural (row-major) position of the k-th coefficient in zig-zag order, with 16 extra
/// entries so a corrupt run length cannot index past the block.
let zigzag: [Int] = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21,
  28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60,
  61, 54,
  47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
]
