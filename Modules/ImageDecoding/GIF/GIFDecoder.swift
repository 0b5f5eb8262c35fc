/// A pure-Swift GIF decoder for terminal pictures: the first frame, as every viewer shows
/// a GIF before it animates.
///
/// GIF87a and GIF89a, global and local colour tables, interlaced frames, a frame placed
/// anywhere on the canvas; transparent pixels and the canvas outside the frame are black,
/// as transparency is for PNG and WEBP.
///
/// ```swift
/// let picture = try GIFDecoder.decode(bytes, fitting: (120, 88))
/// ```
public enum GIFDecoder {
  /// Decodes the first frame on its canvas.
  ///
  /// - Parameter bytes: The file.
  /// - Returns: RGB pixels at full size.
  /// - Throws: ``ImageDecodingError``.
  public static func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBImage {
    var reader = GIFReader(bytes)
    return try reader.firstFrame()
  }

  /// Decodes the first frame and reduces it as ``PNGDecoder/decode(_:fitting:)`` does.
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - target: About the pixels the picture will be shown at.
  /// - Returns: RGB pixels; ``RGBImage/isReduced`` when reduced.
  /// - Throws: ``ImageDecodingError``.
  public static func decode(_ bytes: [UInt8], fitting target: (width: Int, height: Int))
    throws(ImageDecodingError) -> RGBImage
  {
    try decode(bytes).reduced(covering: target)
  }
}

/// Walks a GIF's blocks up to its first image.
struct GIFReader {
  private let bytes: [UInt8]
  private var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  private mutating func byte() throws(ImageDecodingError) -> Int {
    guard position < bytes.count else { throw .truncated }
    defer { position += 1 }
    return Int(bytes[position])
  }

  private mutating func littleEndian16() throws(ImageDecodingError) -> Int {
    try byte() | (try byte()) << 8
  }

  private mutating func colorTable(_ flags: Int) throws(ImageDecodingError) -> [UInt8] {
    let count = 3 << ((flags & 7) + 1)
    guard position + count <= bytes.count else { throw .truncated }
    defer { position += count }
    return Array(bytes[position..<position + count])
  }

  /// The data sub-blocks that follow, joined.
  private mutating func subBlocks() throws(ImageDecodingError) -> [UInt8] {
    var data: [UInt8] = []
    while true {
      let length = try byte()
      if length == 0 { return data }
      guard position + length <= bytes.count else { throw .truncated }
      data += bytes[position..<position + length]
      position += length
    }
  }

  mutating func firstFrame() throws(ImageDecodingError) -> RGBImage {
    try ImageFormat.gif.require(bytes)
    guard bytes.count >= 13 else { throw .truncated }
    position = 6
    let width = try littleEndian16()
    let height = try littleEndian16()
    let flags = try byte()
    position += 2  // background colour index and aspect ratio: the canvas stays black
    guard width > 0, height > 0 else { throw .corrupt("empty GIF") }
    guard width * height <= ImageDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
    let globalColors = flags & 0x80 != 0 ? try colorTable(flags) : []
    var transparent: Int?
    while true {
      switch try byte() {
      case 0x21:  // an extension; only the graphic control one matters here
        let label = try byte()
        let data = try subBlocks()
        if label == 0xF9, data.count >= 4 {
          transparent = data[0] & 1 == 1 ? Int(data[3]) : nil
        }
      case 0x2C:
        return try image(canvas: (width, height), globalColors: globalColors, transparent: transparent)
      case 0x3B:
        throw .corrupt("GIF without an image")
      default:
        throw .corrupt("GIF block")
      }
    }
  }

  private mutating func image(
    canvas: (width: Int, height: Int), globalColors: [UInt8], transparent: Int?
  ) throws(ImageDecodingError) -> RGBImage {
    let left = try littleEndian16()
    let top = try littleEndian16()
    let width = try littleEndian16()
    let height = try littleEndian16()
    let flags = try byte()
    // The frame's own size is checked too: a tiny file could otherwise ask for gigabytes.
    guard width * height <= ImageDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
    let colors = flags & 0x80 != 0 ? try colorTable(flags) : globalColors
    guard !colors.isEmpty else { throw .corrupt("GIF without colours") }
    let interlaced = flags & 0x40 != 0
    let minimumCodeSize = try byte()
    // The codes below the clear code are colour indices, so at most 8 bits; the format
    // asks for 2 even for two colours, and with 1 the point where codes widen is not defined.
    guard (2...8).contains(minimumCodeSize) else { throw .corrupt("GIF code size") }
    let indices = try GIFLZW.decode(try subBlocks(), minimumCodeSize: minimumCodeSize, count: width * height)
    var pixels = [UInt8](repeating: 0, count: canvas.width * canvas.height * 3)
    for (row, y) in Self.rowOrder(height: height, interlaced: interlaced).enumerated() {
      let canvasY = top + y
      guard canvasY < canvas.height else { continue }
      for x in 0..<width where left + x < canvas.width {
        let index = Int(indices[row * width + x])
        guard index != transparent, index * 3 + 2 < colors.count else { continue }
        let target = (canvasY * canvas.width + left + x) * 3
        pixels[target] = colors[index * 3]
        pixels[target + 1] = colors[index * 3 + 1]
        pixels[target + 2] = colors[index * 3 + 2]
      }
    }
    return RGBImage(width: canvas.width, height: canvas.height, pixels: pixels)
  }

  /// The picture row each stored row is: in order, or the four interlacing passes (every
  /// eighth row from 0, every eighth from 4, every fourth from 2, every second from 1).
  static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
    guard interlaced else { return Array(0..<height) }
    return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
      Array(stride(from: start, to: height, by: step))
    }
  }
}

/// GIF's variable-width LZW decompression.
enum GIFLZW {
  /// Decodes up to `count` colour indices; fewer is a truncated picture.
  static func decode(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws(ImageDecodingError) -> [UInt8]
  {
    let clear = 1 << minimumCodeSize
    let end = clear + 1
    var prefix = [Int](repeating: 0, count: 4096)
    var suffix = [UInt8](repeating: 0, count: 4096)
    var first = [UInt8](repeating: 0, count: 4096)
    for code in 0..<clear {
      suffix[code] = UInt8(truncatingIfNeeded: code)
      first[code] = UInt8(truncatingIfNeeded: code)
    }
    var output = [UInt8]()
    // Each byte of data yields at most a 4,096-byte string, and most yield far less.
    output.reserveCapacity(min(count, data.count * 16))
    var stack = [UInt8]()
    var width = minimumCodeSize + 1
    var next = end + 1
    var previous: Int?
    var bitBuffer = 0
    var bitCount = 0
    var position = 0
    while output.count < count {
      while bitCount < width {
        guard position < data.count else { throw .truncated }
        bitBuffer |= Int(data[position]) << bitCount
        position += 1
        bitCount += 8
      }
      let code = bitBuffer & ((1 << width) - 1)
      bitBuffer >>= width
      bitCount -= width
      if code == clear {
        width = minimumCodeSize + 1
        next = end + 1
        previous = nil
        continue
      }
      if code == end { break }
      guard let old = previous else {
        guard code < clear else { throw .corrupt("GIF code") }
        output.append(suffix[code])
        previous = code
        continue
      }
      guard code <= next, code < 4096 else { throw .corrupt("GIF code") }
      // A code not yet in the table (the one being made) is the previous string and its
      // own first byte.
      let string = code < next ? code : old
      var walk = string
      stack.removeAll(keepingCapacity: true)
      while walk >= clear {
        stack.append(suffix[walk])
        walk = prefix[walk]
      }
      stack.append(suffix[walk])
      output.append(contentsOf: stack.reversed())
      let firstByte = first[string]
      if code == next { output.append(firstByte) }
      if next < 4096 {
        prefix[next] = old
        suffix[next] = firstByte
        first[next] = first[old]
        next += 1
        if next == 1 << width && width < 12 { width += 1 }
      }
      previous = code
    }
    guard output.count >= count else { throw .truncated }
    return Array(output.prefix(count))
  }
}
