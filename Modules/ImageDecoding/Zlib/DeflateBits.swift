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
