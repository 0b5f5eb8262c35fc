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

/// The output: bytes, and bits not yet a whole byte, least significant first (DEFLATE
/// packs bits from the low end of each byte).
struct BitSink {
  private var bytes: [UInt8]
  /// Bytes of `bytes` written; the rest is room.
  private var position: Int
  private var bits: UInt64 = 0
  private var bitCount = 0

  init(header: [UInt8], expected: Int) {
    bytes = header
    bytes.reserveCapacity(expected)
    position = header.count
  }

  /// Writes with a ``BitWriter`` that has room for `bits` more bits.
  mutating func write(reserving bits: Int, _ body: (inout BitWriter) -> Void) {
    let needed = position + (bitCount + bits + 7) / 8 + 8
    if bytes.count < needed { bytes.append(contentsOf: repeatElement(0, count: needed - bytes.count)) }
    let (position, bits, count) = (self.position, self.bits, bitCount)
    let written = bytes.withUnsafeMutableBytes { raw in
      var writer = BitWriter(base: raw.baseAddress!, position: position, bits: bits, count: count)
      body(&writer)
      return writer
    }
    (self.position, self.bits, bitCount) = (written.position, written.bits, written.count)
  }

  /// The bytes, the last one padded with zero bits.
  mutating func finish() -> [UInt8] {
    write(reserving: 8) { $0.alignToByte() }
    bytes.removeLast(bytes.count - position)
    return bytes
  }
}

/// Writes bits into memory reserved for them, 32 at a time.
struct BitWriter {
  let base: UnsafeMutableRawPointer
  var position: Int
  var bits: UInt64
  var count: Int

  /// Writes the low `length` bits of `value` (at most 32 at once).
  @inline(__always)
  mutating func put(_ value: UInt32, _ length: Int) {
    bits |= UInt64(value) << UInt64(count)
    count += length
    if count >= 32 {
      base.storeBytes(
        of: UInt32(truncatingIfNeeded: bits).littleEndian, toByteOffset: position, as: UInt32.self)
      position += 4
      bits >>= 32
      count -= 32
    }
  }

  /// Pads with zero bits to a byte boundary and writes out what is held.
  mutating func alignToByte() {
    while count > 0 {
      base.storeBytes(of: UInt8(truncatingIfNeeded: bits), toByteOffset: position, as: UInt8.self)
      position += 1
      bits >>= 8
      count = max(0, count - 8)
    }
    bits = 0
  }

  /// Copies `bytes` after whole bytes (after ``alignToByte()``).
  mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress, bytes.count > 0 else { return }
    (base + position).copyMemory(from: start, byteCount: bytes.count)
    position += bytes.count
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

/// A prefix code as written: each symbol's code, bit-reversed (DEFLATE sends a code from
/// its high bit, into bytes filled from their low bit), and its length (0: unused).
struct DeflateCode {
  var bits: UInt16 = 0
  var length: UInt8 = 0
}

/// The codes of one block, and DEFLATE's tables of lengths and distances.
struct DeflateCodes {
  var literals: [DeflateCode]
  var distances: [DeflateCode]

  init(literalLengths: [UInt8], distanceLengths: [UInt8]) {
    literals = Self.canonical(literalLengths)
    distances = Self.canonical(distanceLengths)
  }

  /// The bits the block's symbols take, without their extra bits.
  func dataBits(_ literalCounts: UnsafeBufferPointer<Int>, _ distanceCounts: UnsafeBufferPointer<Int>) -> Int
  {
    var total = 0
    for (symbol, count) in literalCounts.enumerated() { total += count * Int(literals[symbol].length) }
    for (symbol, count) in distanceCounts.enumerated() { total += count * Int(distances[symbol].length) }
    return total
  }

  /// DEFLATE's fixed codes (RFC 1951, 3.2.6).
  static let fixed = DeflateCodes(
    literalLengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 },
    distanceLengths: [UInt8](repeating: 5, count: 30))

  /// The canonical code for these lengths (RFC 1951, 3.2.2), each code bit-reversed.
  static func canonical(_ lengths: [UInt8]) -> [DeflateCode] {
    var counts = [Int](repeating: 0, count: 16)
    for length in lengths { counts[Int(length)] += 1 }
    counts[0] = 0
    var next = [Int](repeating: 0, count: 16)
    var code = 0
    for length in 1..<16 {
      code = (code + counts[length - 1]) << 1
      next[length] = code
    }
    return lengths.map { length in
      guard length > 0 else { return DeflateCode() }
      let code = next[Int(length)]
      next[Int(length)] += 1
      var reversed = 0
      for bit in 0..<Int(length) where code & (1 << bit) != 0 { reversed |= 1 << (Int(length) - 1 - bit) }
      return DeflateCode(bits: UInt16(reversed), length: length)
    }
  }

  /// RFC 1951's lengths and distances (the inflater's tables), for the encoder's loops.
  static let lengthBase = Inflater.lengthBase
  static let distanceBase = Inflater.distanceBase
  static let lengthExtra = Inflater.lengthExtra.map(UInt8.init)
  static let distanceExtra = Inflater.distanceExtra.map(UInt8.init)

  /// For each match length less 3 (0…255), the index of its length code (0…28): 258 has
  /// a code of its own, not the last of 284's range.
  static let lengthCode: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 256)
    for index in 0..<29 {
      let start = Inflater.lengthBase[index]
      for length in start..<start + (1 << Inflater.lengthExtra[index]) where length <= 258 {
        table[length - 3] = UInt8(index)
      }
    }
    return table
  }()

  /// Distance codes: for distances up to 256 by distance less 1; beyond, by (distance
  /// less 1) / 128, past the first 256 entries (each code from 16 on covers whole 128s).
  static let distanceCodes: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 512)
    for index in 0..<30 {
      let start = Inflater.distanceBase[index]
      for distance in start..<start + (1 << Inflater.distanceExtra[index]) {
        if distance <= 256 {
          table[distance - 1] = UInt8(index)
        } else {
          table[256 + (distance - 1) >> 7] = UInt8(index)
        }
      }
    }
    return table
  }()
}

/// A block's own codes, built from how often it uses each symbol, and the header that
/// sends their lengths.
struct DynamicCodes {
  let codes: DeflateCodes
  /// The literal/length and distance codes' lengths that are sent (trailing unused ones
  /// left out, down to 257 and 1).
  private let sentLengths: [UInt8]
  private let literalCount: Int
  /// The lengths run-length coded: symbols 0…18 with their extra bits.
  private let runs: [(symbol: UInt8, extra: UInt8)]
  private let runCode: [DeflateCode]
  private let runLengthCount: Int
  /// The bits of the header after the block type.
  let headerBits: Int

  init(literalCounts: UnsafeBufferPointer<Int>, distanceCounts: UnsafeBufferPointer<Int>) {
    let literalLengths = Huffman.lengths(Array(literalCounts), limit: 15)
    let distanceLengths = Huffman.lengths(Array(distanceCounts), limit: 15)
    codes = DeflateCodes(literalLengths: literalLengths, distanceLengths: distanceLengths)
    var literalCount = 286
    while literalCount > 257, literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
    var distanceCount = 30
    while distanceCount > 1, distanceLengths[distanceCount - 1] == 0 { distanceCount -= 1 }
    self.literalCount = literalCount
    sentLengths = Array(literalLengths[0..<literalCount] + distanceLengths[0..<distanceCount])
    runs = Self.runs(sentLengths)
    var runCounts = [Int](repeating: 0, count: 19)
    for run in runs { runCounts[Int(run.symbol)] += 1 }
    let runLengths = Huffman.lengths(runCounts, limit: 7)
    runCode = DeflateCodes.canonical(runLengths)
    var runLengthCount = 19
    while runLengthCount > 4, runLengths[Inflater.codeLengthOrder[runLengthCount - 1]] == 0 {
      runLengthCount -= 1
    }
    self.runLengthCount = runLengthCount
    var bits = 5 + 5 + 4 + 3 * runLengthCount
    for run in runs { bits += Int(runCode[Int(run.symbol)].length) + Self.runExtraBits(run.symbol) }
    headerBits = bits
  }

  func dataBits(_ literalCounts: UnsafeBufferPointer<Int>, _ distanceCounts: UnsafeBufferPointer<Int>) -> Int
  {
    codes.dataBits(literalCounts, distanceCounts)
  }

  func writeHeader(_ writer: inout BitWriter) {
    writer.put(UInt32(literalCount - 257), 5)
    writer.put(UInt32(sentLengths.count - literalCount - 1), 5)
    writer.put(UInt32(runLengthCount - 4), 4)
    for index in 0..<runLengthCount {
      writer.put(UInt32(runCode[Inflater.codeLengthOrder[index]].length), 3)
    }
    for run in runs {
      let code = runCode[Int(run.symbol)]
      writer.put(UInt32(code.bits), Int(code.length))
      let extra = Self.runExtraBits(run.symbol)
      if extra > 0 { writer.put(UInt32(run.extra), extra) }
    }
  }

  private static func runExtraBits(_ symbol: UInt8) -> Int {
    switch symbol {
    case 16: 2
    case 17: 3
    case 18: 7
    default: 0
    }
  }

  /// Code lengths as DEFLATE sends them: 16 repeats the length before 3–6 times, 17 and
  /// 18 give 3–10 and 11–138 zeros.
  private static func runs(_ lengths: [UInt8]) -> [(symbol: UInt8, extra: UInt8)] {
    var runs: [(symbol: UInt8, extra: UInt8)] = []
    var index = 0
    while index < lengths.count {
      let length = lengths[index]
      var count = 1
      while index + count < lengths.count, lengths[index + count] == length { count += 1 }
      index += count
      if length == 0 {
        while count >= 11 {
          let taken = min(count, 138)
          runs.append((18, UInt8(taken - 11)))
          count -= taken
        }
        if count >= 3 {
          runs.append((17, UInt8(count - 3)))
          count = 0
        }
      } else {
        runs.append((length, 0))
        count -= 1
        while count >= 3 {
          let taken = min(count, 6)
          runs.append((16, UInt8(taken - 3)))
          count -= taken
        }
      }
      for _ in 0..<count { runs.append((length, 0)) }
    }
    return runs
  }
}

/// Huffman code lengths from symbol counts.
enum Huffman {
  /// Each symbol's code length, at most `limit`, for a code that is complete: 0 for a
  /// symbol that does not occur, and where fewer than two do, two codes of one bit (a
  /// symbol that does not occur gets the other), as every inflater takes.
  ///
  /// Optimal lengths (Moffat and Katajainen's in-place algorithm, on the counts sorted)
  /// are cut to `limit` as miniz does: the codes too long are put at the limit, then
  /// codes are lengthened by one, shortest-used first, until the lengths fit again.
  static func lengths(_ counts: [Int], limit: Int) -> [UInt8] {
    var lengths = [UInt8](repeating: 0, count: counts.count)
    // In increasing count, ties by symbol, so that a block's codes do not depend on a sort's whims.
    let used = counts.indices.filter { counts[$0] > 0 }.sorted { (counts[$0], $0) < (counts[$1], $1) }
    guard used.count >= 2 else {
      let first = used.first ?? 0
      lengths[first] = 1
      if counts.count > 1 { lengths[first == 0 ? 1 : 0] = 1 }
      return lengths
    }
    var depths = used.map { counts[$0] }
    minimumRedundancy(&depths)
    // depths is now non-increasing: the rarest symbol's code is the longest.
    if depths[0] > limit {
      var perLength = [Int](repeating: 0, count: depths[0] + 1)
      for depth in depths { perLength[depth] += 1 }
      for length in limit + 1..<perLength.count {
        perLength[limit] += perLength[length]
        perLength[length] = 0
      }
      var total = 0
      for length in 1...limit { total += perLength[length] << (limit - length) }
      while total > 1 << limit {
        perLength[limit] -= 1
        for length in stride(from: limit - 1, to: 0, by: -1) where perLength[length] > 0 {
          perLength[length] -= 1
          perLength[length + 1] += 2
          break
        }
        total -= 1
      }
      var index = 0
      for length in stride(from: limit, through: 1, by: -1) {
        for _ in 0..<perLength[length] {
          depths[index] = length
          index += 1
        }
      }
    }
    for (index, symbol) in used.enumerated() { lengths[symbol] = UInt8(depths[index]) }
    return lengths
  }

  /// Moffat and Katajainen's in-place computation of minimum-redundancy code lengths:
  /// `weights`, in increasing order, become their symbols' code lengths (at least two).
  private static func minimumRedundancy(_ weights: inout [Int]) {
    let count = weights.count
    // First pass, left to right: the internal nodes' weights, then their parents.
    weights[0] += weights[1]
    var root = 0
    var leaf = 2
    for next in 1..<count - 1 {
      if leaf >= count || weights[root] < weights[leaf] {
        weights[next] = weights[root]
        weights[root] = next
        root += 1
      } else {
        weights[next] = weights[leaf]
        leaf += 1
      }
      if leaf >= count || (root < next && weights[root] < weights[leaf]) {
        weights[next] += weights[root]
        weights[root] = next
        root += 1
      } else {
        weights[next] += weights[leaf]
        leaf += 1
      }
    }
    // Second pass, right to left: the internal nodes' depths.
    weights[count - 2] = 0
    for next in stride(from: count - 3, through: 0, by: -1) { weights[next] = weights[weights[next]] + 1 }
    // Third pass, right to left: the leaves' depths.
    var available = 1
    var used = 0
    var depth = 0
    var root2 = count - 2
    var next = count - 1
    while available > 0 {
      while root2 >= 0, weights[root2] == depth {
        used += 1
        root2 -= 1
      }
      while available > used {
        weights[next] = depth
        next -= 1
        available -= 1
      }
      available = 2 * used
      depth += 1
      used = 0
    }
  }
}
