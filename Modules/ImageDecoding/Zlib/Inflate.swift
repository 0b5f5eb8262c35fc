/// A zlib (RFC 1950) / DEFLATE (RFC 1951) decompressor, for PNG's image data.
///
/// It writes at most `limit` bytes — a PNG header says exactly how many its pixels need, so
/// a small file that inflates to gigabytes (a "zip bomb") costs no more than the picture
/// it claims to be — and stops there. A stream that ends on its own is checked against its
/// Adler-32 checksum.
struct Inflater {
  private let input: [UInt8]
  private var position = 0
  /// Bits read ahead, least significant first (DEFLATE packs bits from the low end).
  private var bits: UInt64 = 0
  private var bitCount = 0
  /// Where the output goes: `limit` bytes, of which the first `count` are written.
  private let output: UnsafeMutablePointer<UInt8>
  private var count = 0
  private let limit: Int

  /// Inflates a zlib stream.
  ///
  /// - Parameters:
  ///   - zlib: The stream: header, DEFLATE blocks, Adler-32.
  ///   - limit: The most bytes to produce; inflating stops once there are this many.
  /// - Returns: The bytes, at most `limit` of them (fewer if the stream ends first).
  static func inflate(zlib: [UInt8], limit: Int) throws(ImageDecodingError) -> [UInt8] {
    guard zlib.count >= 2 else { throw .truncated }
    let method = zlib[0], flags = zlib[1]
    guard method & 0x0F == 8, method >> 4 <= 7, (UInt16(method) << 8 | UInt16(flags)) % 31 == 0 else {
      throw .corrupt("bad zlib header")
    }
    guard flags & 0x20 == 0 else { throw .unsupportedFeature("zlib preset dictionary") }
    var failure: ImageDecodingError?
    // Written in place: appending byte by byte cost a third of a PNG's decoding.
    let output = [UInt8](unsafeUninitializedCapacity: max(limit, 1)) { buffer, initialized in
      var inflater = Inflater(input: zlib, output: buffer.baseAddress!, limit: limit)
      do throws(ImageDecodingError) {
        try inflater.inflate()
      } catch {
        failure = error
      }
      initialized = inflater.count
    }
    if let failure { throw failure }
    return output
  }

  private init(input: [UInt8], output: UnsafeMutablePointer<UInt8>, limit: Int) {
    self.input = input
    self.output = output
    self.limit = limit
    position = 2
  }

  /// Inflates the blocks, then checks the checksum if the stream ended before the limit.
  private mutating func inflate() throws(ImageDecodingError) {
    guard try run() else { return }
    // The checksum follows the last block, on a byte boundary.
    bits >>= UInt64(bitCount % 8)
    bitCount -= bitCount % 8
    var expected: UInt32 = 0
    for _ in 0..<4 { expected = expected << 8 | UInt32(try take(8)) }
    guard adler32(UnsafeBufferPointer(start: output, count: count)) == expected else {
      throw .corrupt("bad zlib checksum")
    }
  }

  /// Decodes blocks until the last one ends (`true`) or the limit is reached (`false`).
  private mutating func run() throws(ImageDecodingError) -> Bool {
    while true {
      let isLast = try take(1) == 1
      let ended: Bool
      switch try take(2) {
      case 0: ended = try storedBlock()
      case 1: ended = try compressedBlock(literals: Self.fixedLiterals, distances: Self.fixedDistances)
      case 2:
        let (literals, distances) = try dynamicTables()
        ended = try compressedBlock(literals: literals, distances: distances)
      default: throw .corrupt("bad DEFLATE block type")
      }
      if ended && isLast { return true }
      // Everything asked for is there: what follows is not needed (nor read, nor checked).
      if count >= limit { return false }
    }
  }

  // MARK: Bits

  /// Tops the bit buffer up to at least 57 bits, or to the end of the input.
  @inline(__always)
  private mutating func refill() {
    while bitCount <= 56 && position < input.count {
      bits |= UInt64(input[position]) << UInt64(bitCount)
      position += 1
      bitCount += 8
    }
  }

  /// The next `count` bits (at most 32), first bit lowest.
  @inline(__always)
  private mutating func take(_ count: Int) throws(ImageDecodingError) -> Int {
    if bitCount < count {
      refill()
      guard bitCount >= count else { throw .truncated }
    }
    let value = Int(bits & ((1 << UInt64(count)) - 1))
    bits >>= UInt64(count)
    bitCount -= count
    return value
  }

  // MARK: Blocks

  /// Copies a stored block; `false` if the limit stopped it before its end.
  private mutating func storedBlock() throws(ImageDecodingError) -> Bool {
    // Skip to a byte boundary; the buffer then holds whole bytes.
    _ = try take(bitCount % 8)
    let length = try take(16)
    let complement = try take(16)
    guard length == ~complement & 0xFFFF else { throw .corrupt("bad stored block length") }
    // Bytes still in the bit buffer come first, then straight from the input.
    let wanted = min(length, limit - count)
    var remaining = wanted
    while remaining > 0 && bitCount >= 8 {
      output[count] = UInt8(try take(8))
      count += 1
      remaining -= 1
    }
    guard position + remaining <= input.count else { throw .truncated }
    input.withUnsafeBufferPointer {
      (output + count).update(from: $0.baseAddress! + position, count: remaining)
    }
    count += remaining
    position += remaining
    return wanted == length
  }

  /// Decodes a Huffman-coded block; `false` if the limit stopped it before its end.
  private mutating func compressedBlock(
    literals: DeflateHuffman, distances: DeflateHuffman
  ) throws(ImageDecodingError) -> Bool {
    while true {
      let symbol = try decode(literals)
      if symbol < 256 {
        guard count < limit else { return false }
        output[count] = UInt8(symbol)
        count += 1
        continue
      }
      if symbol == 256 { return true }
      let lengthIndex = symbol - 257
      guard lengthIndex < 29 else { throw .corrupt("bad DEFLATE length code") }
      let length = Self.lengthBase[lengthIndex] + (try take(Self.lengthExtra[lengthIndex]))
      let distanceCode = try decode(distances)
      guard distanceCode < 30 else { throw .corrupt("bad DEFLATE distance code") }
      let distance = Self.distanceBase[distanceCode] + (try take(Self.distanceExtra[distanceCode]))
      guard distance <= count else { throw .corrupt("DEFLATE distance before the start") }
      let copied = min(length, limit - count)
      if distance >= copied {
        (output + count).update(from: output + count - distance, count: copied)
      } else {
        // The copy overlaps what it writes (a run): byte by byte, in order.
        for index in count..<count + copied { output[index] = output[index - distance] }
      }
      count += copied
      guard copied == length else { return false }
    }
  }

  /// Reads a dynamic block's code lengths and builds its two tables.
  private mutating func dynamicTables() throws(ImageDecodingError) -> (DeflateHuffman, DeflateHuffman) {
    let literalCount = try take(5) + 257
    let distanceCount = try take(5) + 1
    let codeLengthCount = try take(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else { throw .corrupt("bad DEFLATE code counts") }
    var codeLengthLengths = [UInt8](repeating: 0, count: 19)
    for index in 0..<codeLengthCount {
      codeLengthLengths[Self.codeLengthOrder[index]] = UInt8(try take(3))
    }
    let codeLengths = try DeflateHuffman(lengths: codeLengthLengths[...])
    var lengths = [UInt8]()
    lengths.reserveCapacity(literalCount + distanceCount)
    while lengths.count < literalCount + distanceCount {
      let symbol = try decode(codeLengths)
      switch symbol {
      case 0..<16:
        lengths.append(UInt8(symbol))
      case 16:
        guard let previous = lengths.last else { throw .corrupt("DEFLATE repeat with nothing before it") }
        lengths.append(contentsOf: repeatElement(previous, count: 3 + (try take(2))))
      case 17:
        lengths.append(contentsOf: repeatElement(0, count: 3 + (try take(3))))
      default:
        lengths.append(contentsOf: repeatElement(0, count: 11 + (try take(7))))
      }
    }
    guard lengths.count == literalCount + distanceCount else { throw .corrupt("DEFLATE lengths overrun") }
    guard lengths[256] != 0 else { throw .corrupt("DEFLATE block without an end code") }
    return (
      try DeflateHuffman(lengths: lengths[0..<literalCount]),
      try DeflateHuffman(lengths: lengths[literalCount...])
    )
  }

  /// Decodes one symbol: one lookup for codes of up to ``DeflateHuffman/fastBits`` bits,
  /// a canonical walk for longer ones.
  @inline(__always)
  private mutating func decode(_ table: DeflateHuffman) throws(ImageDecodingError) -> Int {
    if bitCount < 15 { refill() }
    if let (symbol, length) = table.lookup(bits) {
      guard length <= bitCount else { throw .truncated }
      bits >>= UInt64(length)
      bitCount -= length
      return symbol
    }
    guard let symbol = try table.walk({ () throws(ImageDecodingError) in try take(1) }) else {
      throw .corrupt("bad DEFLATE code")
    }
    return symbol
  }

  // MARK: Constants (RFC 1951, 3.2.5 and 3.2.6); the deflater (``Deflate``) shares them.

  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
    227, 258,
  ]
  static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
    4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]
  static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  private static let fixedLiterals: DeflateHuffman = {
    var lengths = [UInt8](repeating: 8, count: 288)
    for index in 144..<256 { lengths[index] = 9 }
    for index in 256..<280 { lengths[index] = 7 }
    // The fixed code is complete; building it cannot fail.
    return try! DeflateHuffman(lengths: lengths[...])
  }()
  /// All 32 five-bit codes, as RFC 1951 gives them: 30 and 31 are codes that no valid
  /// stream uses, and are named as such when met.
  private static let fixedDistances = try! DeflateHuffman(lengths: [UInt8](repeating: 5, count: 32)[...])
}

/// A canonical Huffman code of DEFLATE: a lookup table for short codes, counts and
/// symbols in code order for the rest.
struct DeflateHuffman: Sendable {
  static let fastBits = 10
  static let fastMask: UInt64 = (1 << UInt64(fastBits)) - 1
  /// For each `fastBits`-bit window of the input: `symbol << 4 | length`, or 0 when the
  /// code there is longer (or unused).
  let fast: [UInt16]
  /// How many codes have each length (index 1…15).
  let counts: [UInt16]
  /// The symbols, ordered by code.
  let symbols: [UInt16]

  /// The symbol and code length at the start of `window` (the next bits of the input,
  /// first bit lowest), or nil when the code there is longer than `fastBits` (or unused).
  @inline(__always)
  func lookup(_ window: UInt64) -> (symbol: Int, length: Int)? {
    let entry = fast[Int(window & Self.fastMask)]
    return entry == 0 ? nil : (Int(entry >> 4), Int(entry & 15))
  }

  /// Decodes a code of any length from bits read one at a time by `nextBit`: codes are
  /// sent most significant bit first, so the code is built up and compared with each
  /// length's range of codes. Nil for a code no symbol has.
  @inline(__always)
  func walk<Failure: Error>(_ nextBit: () throws(Failure) -> Int) throws(Failure) -> Int? {
    var code = 0
    var first = 0
    var index = 0
    for length in 1...15 {
      code |= try nextBit()
      let count = Int(counts[length])
      if code - first < count { return Int(symbols[index + code - first]) }
      index += count
      first = (first + count) << 1
      code <<= 1
    }
    return nil
  }

  /// Builds the code from each symbol's code length (0: unused).
  ///
  /// - Throws: ``ImageDecodingError/corrupt(_:)`` for lengths that give more codes than
  ///   bits allow. An incomplete code is accepted (DEFLATE sends one for a single
  ///   distance); an unused code met in the data is an error when decoding.
  init(lengths: ArraySlice<UInt8>) throws(ImageDecodingError) {
    var counts = [UInt16](repeating: 0, count: 16)
    for length in lengths { counts[Int(length)] += 1 }
    counts[0] = 0
    var available = 1
    for length in 1...15 {
      available = available << 1 - Int(counts[length])
      guard available >= 0 else { throw .corrupt("bad DEFLATE code lengths") }
    }
    var offsets = [Int](repeating: 0, count: 16)
    for length in 1..<15 { offsets[length + 1] = offsets[length] + Int(counts[length]) }
    var symbols = [UInt16](repeating: 0, count: lengths.count)
    for (symbol, length) in lengths.enumerated() where length != 0 {
      symbols[offsets[Int(length)]] = UInt16(symbol)
      offsets[Int(length)] += 1
    }
    // Short codes into the lookup table, bit-reversed, since the input is read from its
    // low bits up while codes are sent from their high bit down.
    var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
    var code = 0
    var index = 0
    for length in 1...Self.fastBits {
      for _ in 0..<Int(counts[length]) {
        var reversed = 0
        for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
        let entry = symbols[index] << 4 | UInt16(length)
        var slot = reversed
        while slot < fast.count {
          fast[slot] = entry
          slot += 1 << length
        }
        code += 1
        index += 1
      }
      code <<= 1
    }
    self.fast = fast
    self.counts = counts
    self.symbols = symbols
  }
}

/// The Adler-32 checksum zlib ends a stream with.
func adler32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
  var a: UInt32 = 1
  var b: UInt32 = 0
  var start = 0
  // 5,552 bytes is the most that can be summed before `b` could overflow 32 bits.
  while start < bytes.count {
    let end = min(start + 5_552, bytes.count)
    for index in start..<end {
      a &+= UInt32(bytes[index])
      b &+= a
    }
    a %= 65_521
    b %= 65_521
    start = end
  }
  return b << 16 | a
}
