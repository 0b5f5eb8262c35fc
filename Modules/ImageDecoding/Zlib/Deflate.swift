/// A zlib (RFC 1950) / DEFLATE (RFC 1951) compressor: the counterpart of the PNG decoder's
/// inflater, for payloads a terminal takes compressed (kitty's graphics protocol, `o=z`).
///
/// It favours speed over size, as zlib's fastest level does: matches are found greedily,
/// with one earlier position remembered per hash of four bytes, within DEFLATE's window of
/// 32 KiB. Each block of up to 16,384 symbols is written the smallest of three ways:
/// with Huffman codes made for it, with DEFLATE's fixed codes, or stored as it is, so that
/// bytes that do not compress (noise, or data compressed already) grow by a few bytes per
/// 64 KiB, never more.
public enum Deflate {
  /// `bytes` as one zlib stream: a two-byte header, DEFLATE blocks, the Adler-32 checksum.
  ///
  /// Any inflater restores the bytes from it (zlib's, Python's, this module's own).
  public static func zlib(_ bytes: [UInt8]) -> [UInt8] {
    // 32 KiB window, no dictionary, "fastest" (the check bits make 0x7801 a multiple of 31).
    var sink = BitSink(header: [0x78, 0x01], expected: bytes.count / 2 + 64)
    bytes.withUnsafeBufferPointer { input in
      var encoder = DeflateEncoder(input: input)
      defer { encoder.release() }
      encoder.encode(into: &sink)
    }
    var output = sink.finish()
    let checksum = bytes.withUnsafeBufferPointer { adler32($0) }
    for shift in [24, 16, 8, 0] as [UInt32] { output.append(UInt8(truncatingIfNeeded: checksum >> shift)) }
    return output
  }
}

/// LZ77 over the input into a block's symbols, then each block coded.
private struct DeflateEncoder {
  static let hashBits = 13
  static let window = 32_768
  static let minimumMatch = 4
  static let maximumMatch = 258
  static let blockSymbols = 16_384
  /// A match in ``symbols``: this bit; from bit 26 the length's code (0…28), from bit 21
  /// the distance's (0…29), from bit 13 the length's extra bits, below them the distance's.
  /// A literal is its byte.
  static let matchFlag: UInt32 = 1 << 31

  let input: UnsafeBufferPointer<UInt8>
  /// For each hash of four bytes, the last position it was seen at, plus one (0: never).
  private let head: UnsafeMutablePointer<Int32>
  private let symbols: UnsafeMutablePointer<UInt32>
  private var symbolCount = 0
  /// How often each literal/length symbol (0…285) and each distance code (0…29) occurs.
  private let literalCounts: UnsafeMutablePointer<Int>
  private let distanceCounts: UnsafeMutablePointer<Int>
  /// Where the current block's bytes start in the input.
  private var blockStart = 0

  init(input: UnsafeBufferPointer<UInt8>) {
    self.input = input
    head = .allocate(capacity: 1 << Self.hashBits)
    head.initialize(repeating: 0, count: 1 << Self.hashBits)
    symbols = .allocate(capacity: Self.blockSymbols)
    literalCounts = .allocate(capacity: 286)
    literalCounts.initialize(repeating: 0, count: 286)
    distanceCounts = .allocate(capacity: 30)
    distanceCounts.initialize(repeating: 0, count: 30)
  }

  func release() {
    head.deallocate()
    symbols.deallocate()
    literalCounts.deallocate()
    distanceCounts.deallocate()
  }

  mutating func encode(into sink: inout BitSink) {
    DeflateCodes.lengthCode.withUnsafeBufferPointer { lengthCodes in
      DeflateCodes.distanceCodes.withUnsafeBufferPointer { distanceCodes in
        encode(into: &sink, lengthCodes: lengthCodes, distanceCodes: distanceCodes)
      }
    }
  }

  private mutating func encode(
    into sink: inout BitSink, lengthCodes: UnsafeBufferPointer<UInt8>,
    distanceCodes: UnsafeBufferPointer<UInt8>
  ) {
    let count = input.count
    guard let base = input.baseAddress, count > 0 else {
      writeBlock(end: 0, last: true, into: &sink)
      return
    }
    let raw = UnsafeRawPointer(base)
    @inline(__always) func word(_ offset: Int) -> UInt32 {
      UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) func hash(_ word: UInt32) -> Int {
      Int((word &* 2_654_435_761) >> UInt32(32 - Self.hashBits))
    }
    // Locals, not properties: writes through these pointers could otherwise alias `self`
    // as far as the optimiser knows, and every access would load the property again.
    let (head, symbols, literalCounts, distanceCounts) = (head, symbols, literalCounts, distanceCounts)
    var symbolCount = 0
    var position = 0
    while position < count {
      if position + Self.minimumMatch <= count {
        let here = word(position)
        let slot = hash(here)
        let candidate = Int(head[slot]) - 1
        // (Past 2 GiB the positions wrap negative, and no match is found: stored, not wrong.)
        head[slot] = Int32(truncatingIfNeeded: position + 1)
        if candidate >= 0, position - candidate <= Self.window, word(candidate) == here {
          let length = matchLength(raw, candidate, position, limit: min(Self.maximumMatch, count - position))
          let distance = position - candidate
          let lengthCode = Int(lengthCodes[length - 3])
          let distanceCode = Int(
            distance <= 256 ? distanceCodes[distance - 1] : distanceCodes[256 + (distance - 1) >> 7])
          symbols[symbolCount] =
            Self.matchFlag | UInt32(lengthCode) << 26 | UInt32(distanceCode) << 21
            | UInt32(length - DeflateCodes.lengthBase[lengthCode]) << 13
            | UInt32(distance - DeflateCodes.distanceBase[distanceCode])
          symbolCount += 1
          literalCounts[257 + lengthCode] += 1
          distanceCounts[distanceCode] += 1
          // The match's last three positions are remembered, so that the next match in a
          // run (one byte, or one pixel of three, repeated) is as near as it can be.
          let end = position + length
          for inside in max(position + 1, end - 3)..<min(end, count - Self.minimumMatch + 1) {
            head[hash(word(inside))] = Int32(truncatingIfNeeded: inside + 1)
          }
          position = end
        } else {
          symbols[symbolCount] = UInt32(here & 0xFF)
          symbolCount += 1
          literalCounts[Int(here & 0xFF)] += 1
          position += 1
        }
      } else {
        symbols[symbolCount] = UInt32(base[position])
        symbolCount += 1
        literalCounts[Int(base[position])] += 1
        position += 1
      }
      if symbolCount == Self.blockSymbols, position < count {
        self.symbolCount = symbolCount
        writeBlock(end: position, last: false, into: &sink)
        symbolCount = 0
      }
    }
    self.symbolCount = symbolCount
    writeBlock(end: count, last: true, into: &sink)
  }

  /// How many bytes from `position` repeat those from `candidate` (whose first four are
  /// known equal), at most `limit`: eight compared at a time.
  @inline(__always)
  private func matchLength(_ raw: UnsafeRawPointer, _ candidate: Int, _ position: Int, limit: Int) -> Int {
    var length = Self.minimumMatch
    while length + 8 <= limit {
      let difference =
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: candidate + length, as: UInt64.self))
        ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position + length, as: UInt64.self))
      if difference != 0 { return length + difference.trailingZeroBitCount / 8 }
      length += 8
    }
    let bytes = raw.assumingMemoryBound(to: UInt8.self)
    while length < limit, bytes[candidate + length] == bytes[position + length] { length += 1 }
    return length
  }

  // MARK: Blocks

  /// Writes the symbols gathered as one block (the input's bytes up to `end`), the smallest
  /// of dynamic codes, fixed codes and stored, and starts the next.
  private mutating func writeBlock(end: Int, last: Bool, into sink: inout BitSink) {
    literalCounts[256] += 1  // the end of the block
    let literals = UnsafeBufferPointer(start: literalCounts, count: 286)
    let distances = UnsafeBufferPointer(start: distanceCounts, count: 30)
    let dynamic = DynamicCodes(literalCounts: literals, distanceCounts: distances)
    var extraBits = 0
    for index in 0..<29 { extraBits += literals[257 + index] * Inflater.lengthExtra[index] }
    for index in 0..<30 { extraBits += distances[index] * Inflater.distanceExtra[index] }
    let dynamicBits = 3 + dynamic.headerBits + dynamic.dataBits(literals, distances) + extraBits
    let fixedBits = 3 + DeflateCodes.fixed.dataBits(literals, distances) + extraBits
    let storedBytes = end - blockStart
    let chunks = max(1, (storedBytes + 65_534) / 65_535)
    let storedBits = chunks * (3 + 7 + 32) + storedBytes * 8

    if storedBits < min(dynamicBits, fixedBits) {
      let stored = UnsafeBufferPointer(rebasing: input[blockStart..<end])
      sink.write(reserving: storedBits) { writer in
        var start = 0
        repeat {
          let length = min(65_535, stored.count - start)
          let isLast = last && start + length == stored.count
          writer.put(isLast ? 1 : 0, 3)  // stored
          writer.alignToByte()
          writer.put(UInt32(length) | UInt32(~UInt16(length)) << 16, 32)
          writer.copy(UnsafeBufferPointer(rebasing: stored[start..<start + length]))
          start += length
        } while start < stored.count
      }
    } else {
      let useDynamic = dynamicBits <= fixedBits
      let codes = useDynamic ? dynamic.codes : DeflateCodes.fixed
      sink.write(reserving: useDynamic ? dynamicBits : fixedBits) { writer in
        writer.put((last ? 1 : 0) | (useDynamic ? 2 : 1) << 1, 3)
        if useDynamic { dynamic.writeHeader(&writer) }
        writeSymbols(codes, &writer)
      }
    }
    symbolCount = 0
    literalCounts.update(repeating: 0, count: 286)
    distanceCounts.update(repeating: 0, count: 30)
    blockStart = end
  }

  private func writeSymbols(_ codes: DeflateCodes, _ writer: inout BitWriter) {
    codes.literals.withUnsafeBufferPointer { literals in
      codes.distances.withUnsafeBufferPointer { distances in
        DeflateCodes.lengthExtra.withUnsafeBufferPointer { lengthExtra in
          DeflateCodes.distanceExtra.withUnsafeBufferPointer { distanceExtra in
            for index in 0..<symbolCount {
              let symbol = symbols[index]
              if symbol & Self.matchFlag == 0 {
                let code = literals[Int(symbol)]
                writer.put(UInt32(code.bits), Int(code.length))
                continue
              }
              let lengthCode = Int(symbol >> 26 & 0x1F)
              let distanceCode = Int(symbol >> 21 & 0x1F)
              let length = literals[257 + lengthCode]
              writer.put(UInt32(length.bits), Int(length.length))
              writer.put(symbol >> 13 & 0xFF, Int(lengthExtra[lengthCode]))
              let distance = distances[distanceCode]
              writer.put(UInt32(distance.bits), Int(distance.length))
              writer.put(symbol & 0x1FFF, Int(distanceExtra[distanceCode]))
            }
          }
        }
        let end = literals[256]
        writer.put(UInt32(end.bits), Int(end.length))
      }
    }
  }
}
