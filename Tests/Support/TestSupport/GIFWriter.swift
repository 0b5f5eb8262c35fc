// Test support: GIF files written by hand.

/// A GIF written byte by byte: a canvas with a global colour table, then frames (each with
/// its graphic control extension unless told otherwise) and the trailer.
public struct GIFWriter {
  /// The file so far, without its trailer.
  public private(set) var bytes: [UInt8]

  /// A `width` × `height` canvas whose global table holds `colors` (at most 256).
  public init(width: Int, height: Int, colors: [[UInt8]]) {
    bytes = Array("GIF89a".utf8) + Self.le16(width) + Self.le16(height)
    let (size, table) = Self.table(colors)
    bytes += [0x80 | size, 0, 0] + table
  }

  /// The file, with its trailer.
  public var file: [UInt8] { bytes + [0x3B] }

  /// An application extension with the loop count (NETSCAPE2.0's, unless told otherwise).
  public mutating func loop(_ count: Int, application: String = "NETSCAPE2.0") {
    bytes += [0x21, 0xFF, 11] + Array(application.utf8) + [3, 1] + Self.le16(count) + [0]
  }

  /// A frame of `indices`, `width` × `height` (the canvas's if not given: then all of it).
  public mutating func frame(
    _ indices: [UInt8], left: Int = 0, top: Int = 0, width: Int? = nil, height: Int? = nil,
    delay: Int = 10, disposal: Int = 0, transparent: UInt8? = nil, control: Bool = true,
    localColors: [[UInt8]]? = nil, interlaced: Bool = false
  ) {
    let canvasWidth = Int(bytes[6]) | Int(bytes[7]) << 8
    let canvasHeight = Int(bytes[8]) | Int(bytes[9]) << 8
    if control {
      bytes += [0x21, 0xF9, 4, UInt8(disposal << 2) | (transparent == nil ? 0 : 1)]
      bytes += Self.le16(delay) + [transparent ?? 0, 0]
    }
    bytes += [0x2C] + Self.le16(left) + Self.le16(top)
    bytes += Self.le16(width ?? canvasWidth) + Self.le16(height ?? canvasHeight)
    var flags: UInt8 = interlaced ? 0x40 : 0
    var table: [UInt8] = []
    if let localColors {
      let (size, colors) = Self.table(localColors)
      flags |= 0x80 | size
      table = colors
    }
    bytes += [flags] + table + [8]
    let data = Self.lzw(indices)
    for start in stride(from: 0, to: data.count, by: 255) {
      let block = data[start..<min(start + 255, data.count)]
      bytes += [UInt8(block.count)] + block
    }
    bytes += [0]
  }

  private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

  /// The size field and the table, padded to a power of two of at least 2 entries.
  private static func table(_ colors: [[UInt8]]) -> (UInt8, [UInt8]) {
    var size = 0
    while 2 << size < colors.count { size += 1 }
    let padded = colors + Array(repeating: [0, 0, 0], count: (2 << size) - colors.count)
    return (UInt8(size), padded.flatMap { $0 })
  }

  /// Indices as LZW data of minimum code size 8 that never makes use of its strings: each
  /// index a 9-bit code, with a clear code before every 254 of them so that codes stay 9
  /// bits wide; then the end code.
  private static func lzw(_ indices: [UInt8]) -> [UInt8] {
    var codes: [Int] = []
    for (offset, index) in indices.enumerated() {
      if offset % 254 == 0 { codes.append(256) }
      codes.append(Int(index))
    }
    codes.append(257)
    var data: [UInt8] = []
    var buffer = 0
    var count = 0
    for code in codes {
      buffer |= code << count
      count += 9
      while count >= 8 {
        data.append(UInt8(buffer & 0xFF))
        buffer >>= 8
        count -= 8
      }
    }
    if count > 0 { data.append(UInt8(buffer)) }
    return data
  }
}
