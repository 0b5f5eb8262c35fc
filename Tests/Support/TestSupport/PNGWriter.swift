// Test support: PNG files written by hand.

/// Writes PNGs for the tests that need a file no encoder would make: the scanlines go
/// into stored DEFLATE blocks, so each test says byte for byte what the decoder gets.
public enum PNGWriter {
  /// The CRC-32 a chunk ends with, one bit at a time.
  public static func crc(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return ~crc
  }

  /// `value` as four bytes, most significant first.
  public static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// A chunk: its length, type, body and CRC.
  public static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    return bigEndian(UInt32(body.count)) + typed + bigEndian(crc(typed))
  }

  /// A zlib stream of stored blocks holding `data`.
  public static func zlib(_ data: [UInt8], adler: UInt32? = nil) -> [UInt8] {
    var stream: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
      let end = min(start + 65_535, data.count)
      let length = end - start
      stream += [end == data.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8)]
      stream += [UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
      stream += data[start..<end]
      start = end
    } while start < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return stream + bigEndian(adler ?? (b << 16 | a))
  }

  /// An `IHDR` chunk (no interlacing).
  public static func header(width: Int, height: Int, depth: UInt8 = 8, colorType: UInt8 = 2) -> [UInt8] {
    chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [depth, colorType, 0, 0, 0])
  }

  /// A PNG of `rows`, each a filter type byte and the row's samples.
  public static func png(
    width: Int, height: Int, depth: UInt8 = 8, colorType: UInt8 = 2, rows: [[UInt8]],
    before: [UInt8] = [], stream: [UInt8]? = nil
  ) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    return signature + header(width: width, height: height, depth: depth, colorType: colorType) + before
      + chunk("IDAT", stream ?? zlib(rows.flatMap { $0 })) + chunk("IEND", [])
  }
}
