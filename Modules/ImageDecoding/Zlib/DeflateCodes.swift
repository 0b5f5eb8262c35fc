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
