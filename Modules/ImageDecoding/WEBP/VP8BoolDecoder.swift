/// VP8's boolean entropy decoder (RFC 6386, section 7): each bit is read with the
/// probability, out of 256, that it is 0.
///
/// Past the end of its data it reads zeros, as libvpx and libwebp do; ``isPastEnd`` says
/// when a bit it decoded depended on them (libwebp's rule: the bytes it loads ahead of
/// the bits it decodes do not count).
struct VP8BoolDecoder {
  private let data: [UInt8]
  private var position: Int
  private let end: Int
  /// Two bytes of the stream, the first aligned with `range`.
  private var value: UInt32
  private var range: UInt32 = 255
  /// Bits shifted out of `value` since the last byte was loaded.
  private var shifted = 0
  /// Bytes loaded past the end.
  private var overread = 0
  /// Whether a decoded bit depended on a byte past the end.
  private(set) var isPastEnd = false

  /// A decoder of `data[start..<end]`.
  init(_ data: [UInt8], from start: Int, to end: Int) {
    self.data = data
    self.end = end
    position = start
    value = 0
    value = UInt32(nextByte()) << 8 | UInt32(nextByte())
  }

  private mutating func nextByte() -> UInt8 {
    guard position < end else {
      overread += 1
      return 0
    }
    defer { position += 1 }
    return data[position]
  }

  /// One bit, 0 with probability `probability / 256`.
  @inline(__always)
  mutating func bit(_ probability: UInt8) -> Bool {
    if overread > 0 { notePastEnd() }
    let split = 1 + (((range - 1) * UInt32(probability)) >> 8)
    let bigSplit = split << 8
    let result: Bool
    if value >= bigSplit {
      result = true
      range -= split
      value -= bigSplit
    } else {
      result = false
      range = split
    }
    // Renormalise: shift `range` back to 128…255 in one step, and `value` with it. At most
    // seven bits go, so at most one new byte comes in, at the place the bits after it
    // left for it.
    let shift = range.leadingZeroBitCount - 24
    value <<= UInt32(shift)
    range <<= UInt32(shift)
    shifted += shift
    if shifted >= 8 {
      shifted -= 8
      value |= UInt32(nextByte()) << UInt32(shifted)
    }
    return result
  }

  /// A bit is decided by the 8 bits at the front of `value`, which start `shifted` bits
  /// into the second-to-last byte loaded. They reach past the data's last byte once two
  /// bytes past it are loaded, or one is and `shifted` is not 0.
  private mutating func notePastEnd() {
    if overread > 1 || shifted > 0 { isPastEnd = true }
  }

  /// An unsigned number of `count` bits, most significant first, each even odds.
  mutating func literal(_ count: Int) -> Int {
    var result = 0
    for _ in 0..<count { result = result << 1 | (bit(128) ? 1 : 0) }
    return result
  }

  /// A `count`-bit magnitude followed by its sign.
  mutating func signedLiteral(_ count: Int) -> Int {
    let magnitude = literal(count)
    return bit(128) ? -magnitude : magnitude
  }

  /// A flag, then (if set) a `count`-bit signed number; 0 if the flag is clear.
  mutating func optionalSigned(_ count: Int) -> Int {
    bit(128) ? signedLiteral(count) : 0
  }
}
