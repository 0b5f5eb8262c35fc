/// Decodes a lossless WEBP bitstream (VP8L) into ARGB pixels: the picture of a lossless
/// file, and the transparency of a lossy one (its `ALPH` chunk, the alpha in green).
///
/// Prefix codes with a colour cache and LZ77 copies (including VP8L's two-dimensional
/// distances), per-tile code groups, and the four transforms (predictor, cross-colour,
/// subtract-green, colour indexing), as the WebP Lossless Bitstream Specification defines
/// them.
struct VP8LDecoder {
  private var bits: VP8LBitReader

  /// A decoder of `data[start..<end]`.
  init(_ data: [UInt8], from start: Int, to end: Int) {
    bits = VP8LBitReader(data, from: start, to: end)
  }

  /// Reads a whole file's header (signature, size, version); returns the size.
  mutating func readHeader() throws(ImageDecodingError) -> (width: Int, height: Int) {
    let (width, height) = try reading { decoder throws(ImageDecodingError) in
      guard decoder.bits.read(8) == 0x2F else { throw .corrupt("VP8L signature") }
      let width = decoder.bits.read(14) + 1
      let height = decoder.bits.read(14) + 1
      _ = decoder.bits.read(1)  // whether alpha is used: the pixels say so themselves
      guard decoder.bits.read(3) == 0 else { throw .corrupt("VP8L version") }
      return (width, height)
    }
    guard width * height <= ImageDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
    return (width, height)
  }

  /// Decodes the picture's pixels, `width` × `height`, as ARGB.
  mutating func decodePixels(width: Int, height: Int) throws(ImageDecodingError) -> [UInt32] {
    try reading { decoder throws(ImageDecodingError) in
      try decoder.decodeImage(width: width, height: height, isMain: true)
    }
  }

  /// Runs `body`; a stream that ran out on the way is truncated, whatever the zeros read
  /// past its end made of it (they make invalid codes, copies or keys).
  private mutating func reading<T>(_ body: (inout Self) throws(ImageDecodingError) -> T)
    throws(ImageDecodingError) -> T
  {
    let result: T
    do throws(ImageDecodingError) {
      result = try body(&self)
    } catch {
      throw bits.isPastEnd ? .truncated : error
    }
    if bits.isPastEnd { throw .truncated }
    return result
  }

  // MARK: Images

  private enum Transform {
    case predictor(bits: Int, modes: [UInt32])
    case crossColor(bits: Int, multipliers: [UInt32])
    case subtractGreen
    case colorIndexing(bits: Int, palette: [UInt32])
  }

  /// One image: the main one (with transforms and code groups) or a sub-image (a
  /// transform's data, the code-group map, a palette), which has neither.
  private mutating func decodeImage(width: Int, height: Int, isMain: Bool) throws(ImageDecodingError)
    -> [UInt32]
  {
    var codedWidth = width
    // Each with the width of the image it applies to (colour indexing narrows those after it).
    var transforms: [(transform: Transform, width: Int)] = []
    if isMain {
      var seen = Set<Int>()
      while bits.read(1) == 1 {
        let kind = bits.read(2)
        guard seen.insert(kind).inserted else { throw .corrupt("VP8L transform repeated") }
        switch kind {
        case 0, 1:
          let blockBits = bits.read(3) + 2
          let data = try decodeImage(
            width: Self.subsampled(codedWidth, blockBits), height: Self.subsampled(height, blockBits),
            isMain: false)
          transforms.append(
            (
              kind == 0
                ? .predictor(bits: blockBits, modes: data) : .crossColor(bits: blockBits, multipliers: data),
              codedWidth
            ))
        case 2:
          transforms.append((.subtractGreen, codedWidth))
        default:
          let count = bits.read(8) + 1
          let packing = count > 16 ? 0 : count > 4 ? 1 : count > 2 ? 2 : 3
          var palette = try decodeImage(width: count, height: 1, isMain: false)
          for index in 1..<max(palette.count, 1) {
            palette[index] = Self.addPixels(palette[index], palette[index - 1])
          }
          palette += [UInt32](repeating: 0, count: (1 << (8 >> packing)) - palette.count)
          transforms.append((.colorIndexing(bits: packing, palette: palette), codedWidth))
          codedWidth = Self.subsampled(codedWidth, packing)
        }
        if bits.isPastEnd { throw .truncated }
      }
    }
    var cacheBits = 0
    if bits.read(1) == 1 {
      cacheBits = bits.read(4)
      guard (1...11).contains(cacheBits) else { throw .corrupt("VP8L colour cache size") }
    }
    var groupBits = 0
    var groupMap: [UInt32] = []
    var groupCount = 1
    if isMain && bits.read(1) == 1 {
      groupBits = bits.read(3) + 2
      groupMap = try decodeImage(
        width: Self.subsampled(codedWidth, groupBits), height: Self.subsampled(height, groupBits),
        isMain: false)
      groupCount = Int(groupMap.map { ($0 >> 8) & 0xFFFF }.max() ?? 0) + 1
    }
    if bits.isPastEnd { throw .truncated }
    var groups: [CodeGroup] = []
    for _ in 0..<groupCount {
      groups.append(
        CodeGroup(
          green: try readCode(alphabet: 256 + 24 + (cacheBits > 0 ? 1 << cacheBits : 0)),
          red: try readCode(alphabet: 256), blue: try readCode(alphabet: 256),
          alpha: try readCode(alphabet: 256),
          distance: try readCode(alphabet: 40)))
      if bits.isPastEnd { throw .truncated }
    }
    var pixels = try decodeEntropyCoded(
      width: codedWidth, height: height, groups: groups, groupMap: groupMap, groupBits: groupBits,
      cacheBits: cacheBits)
    for (transform, width) in transforms.reversed() {
      Self.invert(transform, &pixels, width: width, height: height)
    }
    return pixels
  }

  private static func subsampled(_ size: Int, _ bits: Int) -> Int { (size + (1 << bits) - 1) >> bits }

  /// The five prefix codes that decode one region's pixels. A class: taking another
  /// region's group is then one retain, not one for each of its fifteen tables.
  private final class CodeGroup {
    let green: VP8LCode
    let red: VP8LCode
    let blue: VP8LCode
    let alpha: VP8LCode
    let distance: VP8LCode

    init(green: VP8LCode, red: VP8LCode, blue: VP8LCode, alpha: VP8LCode, distance: VP8LCode) {
      self.green = green
      self.red = red
      self.blue = blue
      self.alpha = alpha
      self.distance = distance
    }
  }

  private mutating func decodeEntropyCoded(
    width: Int, height: Int, groups: [CodeGroup], groupMap: [UInt32], groupBits: Int, cacheBits: Int
  ) throws(ImageDecodingError) -> [UInt32] {
    let total = width * height
    var pixels = [UInt32](repeating: 0, count: total)
    var cache = [UInt32](repeating: 0, count: cacheBits > 0 ? 1 << cacheBits : 0)
    var cached = 0  // pixels before this one are in the cache
    let groupColumns = groupBits > 0 ? Self.subsampled(width, groupBits) : 0
    var position = 0
    // Copying a group retains its tables: it is fetched again only when it changes.
    var groupIndex = 0
    var group = groups[0]
    while position < total {
      if groupBits > 0 {
        let x = position % width
        let y = position / width
        let index = Int((groupMap[(y >> groupBits) * groupColumns + (x >> groupBits)] >> 8) & 0xFFFF)
        if index != groupIndex {
          groupIndex = index
          group = groups[index]
        }
      }
      let code = bits.decode(group.green)
      if code < 256 {
        let red = bits.decode(group.red)
        let blue = bits.decode(group.blue)
        let alpha = bits.decode(group.alpha)
        pixels[position] = UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(code) << 8 | UInt32(blue)
        position += 1
      } else if code < 256 + 24 {
        let length = copyDistance(code - 256)
        let distanceCode = copyDistance(bits.decode(group.distance))
        let distance = Self.planeDistance(distanceCode, width: width)
        guard distance <= position, length <= total - position else {
          throw .corrupt("VP8L copy outside the picture")
        }
        for _ in 0..<length {
          pixels[position] = pixels[position - distance]
          position += 1
        }
      } else {
        // A cache key: the green alphabet has exactly as many as the cache has entries.
        // The cache is up to date: every step below brings it up to `position`.
        pixels[position] = cache[code - 280]
        position += 1
      }
      if bits.isPastEnd { throw .truncated }
      if cacheBits > 0 {
        while cached < position {
          cache[Self.hash(pixels[cached], cacheBits)] = pixels[cached]
          cached += 1
        }
      }
    }
    return pixels
  }

  private static func hash(_ pixel: UInt32, _ bits: Int) -> Int {
    Int((pixel &* 0x1E35_A7BD) >> UInt32(32 - bits))
  }

  /// A length or distance from its prefix symbol and extra bits.
  private mutating func copyDistance(_ symbol: Int) -> Int {
    if symbol < 4 { return symbol + 1 }
    let extra = (symbol - 2) >> 1
    let offset = (2 + (symbol & 1)) << extra
    return offset + bits.read(extra) + 1
  }

  /// The first 120 distance codes name nearby pixels by (dx, dy).
  private static func planeDistance(_ code: Int, width: Int) -> Int {
    guard code <= 120 else { return code - 120 }
    let packed = Int(VP8LTables.codeToPlane[code - 1])
    let distance = (packed >> 4) * width + 8 - (packed & 0xF)
    return max(distance, 1)
  }

  // MARK: Prefix codes

  private mutating func readCode(alphabet: Int) throws(ImageDecodingError) -> VP8LCode {
    var lengths = [UInt8](repeating: 0, count: alphabet)
    if bits.read(1) == 1 {  // one or two symbols, each with a one-bit code
      let count = bits.read(1) + 1
      let first = bits.read(bits.read(1) == 0 ? 1 : 8)
      guard first < alphabet else { throw .corrupt("VP8L symbol") }
      lengths[first] = 1
      if count == 2 {
        let second = bits.read(8)
        guard second < alphabet else { throw .corrupt("VP8L symbol") }
        lengths[second] = 1
      }
    } else {
      var lengthLengths = [UInt8](repeating: 0, count: 19)
      // 4…19 of the 19 code-length symbols' lengths, in the format's order.
      for index in 0..<bits.read(4) + 4 {
        lengthLengths[VP8LTables.codeLengthOrder[index]] = UInt8(bits.read(3))
      }
      let lengthCode = try VP8LCode(lengths: lengthLengths)
      var remaining = alphabet
      if bits.read(1) == 1 {
        let width = 2 + 2 * bits.read(3)
        remaining = 2 + bits.read(width)
        guard remaining <= alphabet else { throw .corrupt("VP8L code lengths") }
      }
      var symbol = 0
      var previous: UInt8 = 8
      while symbol < alphabet {
        if remaining == 0 { break }
        remaining -= 1
        let length = bits.decode(lengthCode)
        if length < 16 {
          lengths[symbol] = UInt8(length)
          symbol += 1
          if length != 0 { previous = UInt8(length) }
        } else {
          let slot = length - 16
          let repeatCount = bits.read([2, 3, 7][slot]) + [3, 3, 11][slot]
          guard symbol + repeatCount <= alphabet else { throw .corrupt("VP8L code lengths") }
          let value: UInt8 = length == 16 ? previous : 0
          for _ in 0..<repeatCount {
            lengths[symbol] = value
            symbol += 1
          }
        }
        if bits.isPastEnd { throw .truncated }
      }
    }
    return try VP8LCode(lengths: lengths)
  }

  // MARK: Transforms

  /// Adds two pixels channel by channel, each modulo 256.
  private static func addPixels(_ a: UInt32, _ b: UInt32) -> UInt32 {
    let alphaAndGreen = (a & 0xFF00_FF00) &+ (b & 0xFF00_FF00)
    let redAndBlue = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF)
    return (alphaAndGreen & 0xFF00_FF00) | (redAndBlue & 0x00FF_00FF)
  }

  private static func average2(_ a: UInt32, _ b: UInt32) -> UInt32 {
    (((a ^ b) & 0xFEFE_FEFE) >> 1) &+ (a & b)
  }

  /// The channel at `shift` (24 alpha, 16 red, 8 green, 0 blue).
  @inline(__always)
  private static func channel(_ pixel: UInt32, _ shift: UInt32) -> Int { Int((pixel >> shift) & 0xFF) }

  /// Builds a pixel from a function of each channel's shift, clamping each to 0…255.
  @inline(__always)
  private static func perChannel(_ value: (UInt32) -> Int) -> UInt32 {
    var pixel: UInt32 = 0
    for shift in stride(from: UInt32(0), through: 24, by: 8) {
      pixel |= UInt32(min(max(value(shift), 0), 255)) << shift
    }
    return pixel
  }

  /// The prediction of mode `mode` from the left, top, top-left and top-right pixels.
  private static func predict(_ mode: Int, left: UInt32, top: UInt32, topLeft: UInt32, topRight: UInt32)
    -> UInt32
  {
    switch mode {
    case 1: return left
    case 2: return top
    case 3: return topRight
    case 4: return topLeft
    case 5: return average2(average2(left, topRight), top)
    case 6: return average2(left, topLeft)
    case 7: return average2(left, top)
    case 8: return average2(topLeft, top)
    case 9: return average2(top, topRight)
    case 10: return average2(average2(left, topLeft), average2(top, topRight))
    case 11:
      // Of top and left, the one on the side where the gradient is smaller.
      var score = 0
      for shift in stride(from: UInt32(0), through: 24, by: 8) {
        let corner = channel(topLeft, shift)
        score += abs(channel(left, shift) - corner) - abs(channel(top, shift) - corner)
      }
      return score <= 0 ? top : left
    case 12:
      return perChannel { channel(left, $0) + channel(top, $0) - channel(topLeft, $0) }
    case 13:
      let average = average2(left, top)
      return perChannel { channel(average, $0) + (channel(average, $0) - channel(topLeft, $0)) / 2 }
    default:
      return 0xFF00_0000  // 0, and the unused 14 and 15: opaque black
    }
  }

  private static func invert(_ transform: Transform, _ pixels: inout [UInt32], width: Int, height: Int) {
    switch transform {
    case .subtractGreen:
      for index in pixels.indices {
        let pixel = pixels[index]
        let green = (pixel >> 8) & 0xFF
        pixels[index] = addPixels(pixel, green << 16 | green)
      }
    case .predictor(let blockBits, let modes):
      let columns = subsampled(width, blockBits)
      pixels.withUnsafeMutableBufferPointer { pixels in
        // The first row predicts from the left (its first pixel from opaque black), the
        // first column from above; the rest by the mode of their block, one run of a
        // block's row at a time. The top-right of the last column is the first pixel of
        // this row.
        pixels[0] = addPixels(pixels[0], 0xFF00_0000)
        for x in 1..<width { pixels[x] = addPixels(pixels[x], pixels[x - 1]) }
        for y in 1..<max(height, 1) {
          let row = y * width
          pixels[row] = addPixels(pixels[row], pixels[row - width])
          var x = 1
          while x < width {
            let end = min(width, ((x >> blockBits) + 1) << blockBits)
            let mode = Int((modes[(y >> blockBits) * columns + (x >> blockBits)] >> 8) & 0xF)
            for index in (row + x)..<(row + end) {
              let prediction = predict(
                mode, left: pixels[index - 1], top: pixels[index - width], topLeft: pixels[index - width - 1],
                topRight: pixels[index - width + 1])
              pixels[index] = addPixels(pixels[index], prediction)
            }
            x = end
          }
        }
      }
    case .crossColor(let blockBits, let multipliers):
      let columns = subsampled(width, blockBits)
      // Each multiplier and channel taken as a signed byte; one block's row at a time.
      func signed(_ value: UInt32) -> Int { Int(Int8(truncatingIfNeeded: value)) }
      pixels.withUnsafeMutableBufferPointer { pixels in
        for y in 0..<height {
          var x = 0
          while x < width {
            let end = min(width, ((x >> blockBits) + 1) << blockBits)
            let element = multipliers[(y >> blockBits) * columns + (x >> blockBits)]
            let (greenToRed, greenToBlue, redToBlue) = (
              signed(element), signed(element >> 8), signed(element >> 16)
            )
            for index in (y * width + x)..<(y * width + end) {
              let pixel = pixels[index]
              let green = signed(pixel >> 8)
              let red = (Int((pixel >> 16) & 0xFF) + (greenToRed * green) >> 5) & 0xFF
              let blue =
                (Int(pixel & 0xFF) + (greenToBlue * green) >> 5 + (redToBlue * signed(UInt32(red))) >> 5)
                & 0xFF
              pixels[index] = (pixel & 0xFF00_FF00) | UInt32(red) << 16 | UInt32(blue)
            }
            x = end
          }
        }
      }
    case .colorIndexing(let packing, let palette):
      let packedWidth = subsampled(width, packing)
      let bitsPerIndex = 8 >> packing
      let mask = (1 << bitsPerIndex) - 1
      var result = [UInt32](repeating: 0, count: width * height)
      for y in 0..<height {
        for x in 0..<width {
          let packed = Int((pixels[y * packedWidth + (x >> packing)] >> 8) & 0xFF)
          let index = (packed >> ((x & ((1 << packing) - 1)) * bitsPerIndex)) & mask
          result[y * width + x] = palette[index]
        }
      }
      pixels = result
    }
  }
}

/// A prefix code of VP8L: DEFLATE's canonical codes, read with ``VP8LBitReader``. A code
/// with a single symbol takes no bits at all.
struct VP8LCode {
  let table: DeflateHuffman
  /// The one symbol of a code that has only one.
  let single: Int?

  init(lengths: [UInt8]) throws(ImageDecodingError) {
    let used = lengths.indices.filter { lengths[$0] != 0 }
    guard !used.isEmpty else { throw .corrupt("VP8L empty code") }
    single = used.count == 1 ? used[0] : nil
    // Lengths that give more codes than there are (oversubscribed), or, unlike DEFLATE,
    // fewer (a code of more than one symbol must be complete), make no code.
    var kraft = 0
    for length in lengths where length != 0 { kraft += 1 << (15 - Int(length)) }
    guard kraft <= 1 << 15 else { throw .corrupt("VP8L code lengths") }
    guard single != nil || kraft == 1 << 15 else { throw .corrupt("VP8L incomplete code") }
    table = try DeflateHuffman(lengths: lengths[...])
  }
}

/// Reads VP8L's bits, least significant first. Past the end it reads zeros and says so.
struct VP8LBitReader {
  private let data: [UInt8]
  private var position: Int
  private let end: Int
  private var buffer: UInt64 = 0
  private var count = 0
  /// Bits taken that the data did not have.
  private var missing = 0
  var isPastEnd: Bool { missing > 0 }

  init(_ data: [UInt8], from start: Int, to end: Int) {
    self.data = data
    position = start
    self.end = end
  }

  @inline(__always)
  private mutating func refill() {
    while count <= 56 && position < end {
      buffer |= UInt64(data[position]) << UInt64(count)
      position += 1
      count += 8
    }
  }

  /// The next `n` bits (at most 24).
  mutating func read(_ n: Int) -> Int {
    guard n > 0 else { return 0 }
    if count < n { refill() }
    if count < n {
      missing += n - count
      buffer &= (1 << UInt64(count)) - 1
      count = n
    }
    let value = Int(buffer & ((1 << UInt64(n)) - 1))
    buffer >>= UInt64(n)
    count -= n
    return value
  }

  /// One symbol of `code`.
  mutating func decode(_ code: VP8LCode) -> Int {
    if let single = code.single { return single }
    if count < 15 { refill() }
    if let (symbol, length) = code.table.lookup(buffer) {
      _ = read(length)
      return symbol
    }
    // A complete code (VP8LCode checks) always has a symbol; 0 keeps a damaged stream going.
    return code.table.walk { read(1) } ?? 0
  }
}
