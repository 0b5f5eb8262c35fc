/// A Huffman table built for fast decoding: a 9-bit lookahead table for short codes, the
/// canonical `maxCode`/`valueOffset` arrays for the rest, and for AC tables a second
/// lookahead that also decodes the coefficient's extra bits when code and bits fit in 9
/// (most coefficients of a photo), so one lookup yields run, value and length.
///
/// A class over fixed, immutable memory: blocks share their tables, reading a `let`
/// pointer needs no exclusivity check or bounds check, and the decoder's validation
/// (symbol indexes, lengths ≤ 16) happens here, once, instead of per symbol.
final class HuffmanTable {
  static let lookaheadBits = 9
  /// For each 9-bit prefix: `(length << 8) | symbol`, or 0 if the code is longer.
  let lookahead: UnsafeMutablePointer<UInt16>
  /// For each 9-bit prefix that holds a whole code and its extra bits, the decoded
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
  init(counts: [UInt8], symbols: [UInt8], isDC: Bool = false) throws(JPEGError) {
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
      // codes' prefixes inside the 9-bit tables). A throw here frees the memory in deinit.
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

  /// Enters a code of at most 9 bits: every 9-bit prefix that starts with it gets the
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

/// Reads the entropy-coded data bit by bit: undoes byte stuffing (`FF 00`), stops at a
/// marker (feeding zeros after it, as the standard says), and notes running out of data.
struct BitReader {
  let data: [UInt8]
  var position: Int
  private var buffer: UInt64 = 0
  private var count = 0
  /// A marker (other than stuffing) was reached; its second byte.
  private(set) var marker: UInt8?
  /// Zero bytes fed after the data ended (at a marker or the end of the file).
  private var zeroBytes = 0

  /// Bits were consumed beyond the real data (not merely read ahead). A valid stream never
  /// does that (encoders pad the last byte with ones), so the data is truncated; stopping
  /// here also keeps a tiny file that declares a huge picture from decoding millions of
  /// empty blocks.
  var ranOut: Bool { zeroBytes * 8 - count > 0 }

  init(data: [UInt8], position: Int) {
    self.data = data
    self.position = position
  }

  /// Tops the buffer up to at least 57 bits. The common case — eight plain bytes ahead,
  /// none of them `FF` — takes as many whole bytes as fit in one 64-bit load; near the
  /// end a byte loop does the same, and stuffing and markers take the slow path.
  @inline(__always)
  private mutating func fill() {
    if marker == nil {
      if position &+ 8 <= data.count {
        let word = data.withUnsafeBytes {
          UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        }
        let taken = (64 &- count) &>> 3
        let kept = ~UInt64(0) &<< UInt64(64 &- taken &* 8)
        // A byte of `word` is FF where a byte of its complement is zero; borrows can only
        // flag extra bytes, never hide one, and then the byte loop below decides.
        let inverted = ~word
        let ffBytes = (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080
        if ffBytes & kept == 0 {
          buffer |= (word & kept) &>> UInt64(count)
          count &+= taken &* 8
          position &+= taken
          return
        }
      }
      while count <= 56, position < data.count {
        let byte = data[position]
        if byte == 0xFF { break }
        buffer |= UInt64(byte) << UInt64(56 - count)
        count += 8
        position += 1
      }
      if count > 56 { return }
    }
    slowFill()
  }

  @inline(never)
  private mutating func slowFill() {
    while count <= 56 {
      var byte: UInt8 = 0
      if marker == nil, position < data.count {
        byte = data[position]
        if byte == 0xFF {
          var next = position + 1
          while next < data.count, data[next] == 0xFF { next += 1 }  // fill bytes
          if next < data.count, data[next] == 0x00 {
            position = next + 1
          } else if next < data.count {
            marker = data[next]
            byte = 0
            zeroBytes += 1
          } else {
            byte = 0
            position = data.count
            zeroBytes += 1
          }
        } else {
          position += 1
        }
      } else {
        zeroBytes += 1
      }
      buffer |= UInt64(byte) << UInt64(56 - count)
      count += 8
    }
  }

  @inline(__always)
  mutating func bits(_ n: Int) -> Int {
    guard n > 0 else { return 0 }
    if count < n { fill() }
    let value = Int(buffer >> UInt64(64 - n))
    buffer <<= UInt64(n)
    count -= n
    return value
  }

  @inline(__always)
  mutating func bit() -> Int { bits(1) }

  /// The next 9 bits, without consuming them (the buffer holds at least 16 after).
  @inline(__always)
  mutating func peek9() -> Int {
    if count < 16 { fill() }
    return Int(buffer >> UInt64(64 - HuffmanTable.lookaheadBits))
  }

  /// Consumes `n` bits already in the buffer (after ``peek9()``; `n` ≤ 16).
  @inline(__always)
  mutating func skip(_ n: Int) {
    buffer <<= UInt64(n)
    count -= n
  }

  /// The next Huffman symbol.
  @inline(__always)
  mutating func decode(_ table: HuffmanTable) throws(JPEGError) -> Int {
    let entry = table.lookahead[peek9()]
    if entry != 0 {
      skip(Int(entry >> 8))
      return Int(entry & 0xFF)
    }
    return try decodeLong(table)
  }

  /// A code longer than the lookahead: canonical decoding, one bit at a time.
  @inline(never)
  private mutating func decodeLong(_ table: HuffmanTable) throws(JPEGError) -> Int {
    var code = Int32(bits(HuffmanTable.lookaheadBits))
    var length = HuffmanTable.lookaheadBits
    while length < 16 {
      code = (code << 1) | Int32(bit())
      length += 1
      if code <= table.maxCode[length] {
        let index = Int(code + table.valueOffset[length])
        guard index >= 0, index < 256 else { throw .corrupt("bad Huffman code") }
        return Int(table.symbols[index])
      }
    }
    throw .corrupt("bad Huffman code")
  }

  /// Reads `n` bits and sign-extends them as JPEG coefficients are coded. `n` comes from
  /// a Huffman symbol, which corrupt tables can make anything up to 255: beyond 16 is an
  /// error, never a shift past the buffer.
  @inline(__always)
  mutating func receiveExtend(_ n: Int) throws(JPEGError) -> Int {
    guard n > 0 else { return 0 }
    guard n <= 16 else { throw .corrupt("bad coefficient size") }
    let value = bits(n)
    return value < (1 << (n - 1)) ? value - (1 << n) + 1 : value
  }

  /// At a restart marker: drop the buffered bits and step past `RSTn`.
  mutating func restart() throws(JPEGError) {
    buffer = 0
    count = 0
    zeroBytes = 0
    if let marker {
      guard (0xD0...0xD7).contains(marker) else { throw .corrupt("expected a restart marker") }
      // `position` points at the FF of the marker.
      while position < data.count, data[position] == 0xFF { position += 1 }
      position += 1
      self.marker = nil
    } else {
      // No marker where one belongs: the data is damaged; look for it.
      while position + 1 < data.count, !(data[position] == 0xFF && (0xD0...0xD7).contains(data[position + 1]))
      {
        position += 1
      }
      position = min(data.count, position + 2)
    }
  }

  /// Where the scan's data ended (the next marker).
  mutating func endOfScan() -> Int {
    var index = position
    while index + 1 < data.count {
      if data[index] == 0xFF, data[index + 1] != 0x00, !(0xD0...0xD7).contains(data[index + 1]),
        data[index + 1] != 0xFF
      {
        return index
      }
      index += 1
    }
    return data.count
  }
}

/// Natural (row-major) position of the k-th coefficient in zig-zag order, with 16 extra
/// entries so a corrupt run length cannot index past the block.
let zigzag: [Int] = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21,
  28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60,
  61, 54,
  47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
]
