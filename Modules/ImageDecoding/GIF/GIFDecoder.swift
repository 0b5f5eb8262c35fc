/// A pure-Swift GIF decoder for terminal pictures: the first frame, as every viewer shows
/// a GIF before it animates, or every frame of an animation with how long each stays
/// (``decodeAnimation(_:fitting:limits:)``).
///
/// GIF87a and GIF89a, global and local colour tables, interlaced frames, a frame placed
/// anywhere on the canvas; transparent pixels and the canvas outside the frame are black,
/// as transparency is for PNG and WEBP.
///
/// ```swift
/// let picture = try GIFDecoder.decode(bytes, fitting: (120, 88))
/// let animation = try GIFDecoder.decodeAnimation(bytes, fitting: (120, 88))
/// ```
public enum GIFDecoder {
  /// Decodes the first frame on its canvas.
  ///
  /// - Parameter bytes: The file.
  /// - Returns: RGB pixels at full size.
  /// - Throws: ``ImageDecodingError``.
  public static func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBImage {
    var reader = GIFReader(bytes)
    let screen = try reader.screen()
    guard let image = try reader.nextImage() else { throw .corrupt("GIF without an image") }
    var canvas = GIFCanvas(width: screen.width, height: screen.height)
    canvas.draw(image, indices: try reader.indices(of: image))
    return canvas.image
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
    try decode(bytes).reduced(fitting: target)
  }
}

/// The logical screen a GIF's frames are drawn on.
struct GIFScreen {
  /// Pixels across.
  var width: Int
  /// Pixels down.
  var height: Int
  /// The global colour table, RGB triples; empty where there is none.
  var colors: [UInt8]
}

/// One image of a GIF, as its descriptor and the graphic control extension before it say.
struct GIFImage {
  /// Where the image starts on the canvas, and its size.
  var left: Int
  var top: Int
  var width: Int
  var height: Int
  /// Its colour table (local, else global), RGB triples.
  var colors: [UInt8]
  var interlaced: Bool
  /// The colour index that is not drawn, if any.
  var transparent: Int?
  /// What happens to its area before the next image is drawn: 2 restores it to the
  /// background, 3 to what it was before; anything else leaves it.
  var disposal: Int
  /// How long it stays, in hundredths of a second, as the file says.
  var delay: Int
  /// The LZW minimum code size.
  var codeSize: Int
}

/// Walks a GIF's blocks, image by image.
struct GIFReader {
  private let bytes: [UInt8]
  private var position = 0
  /// The loop count of the NETSCAPE2.0 (or ANIMEXTS1.0) extension seen so far: 0 for
  /// forever; `nil` where there is none.
  private(set) var loopCount: Int?
  private var globalColors: [UInt8] = []

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

  /// Moves past the data sub-blocks that follow without copying them.
  private mutating func skipSubBlocks() throws(ImageDecodingError) {
    while true {
      let length = try byte()
      if length == 0 { return }
      guard position + length <= bytes.count else { throw .truncated }
      position += length
    }
  }

  /// Reads the header and the logical screen descriptor (and the global colour table).
  mutating func screen() throws(ImageDecodingError) -> GIFScreen {
    try ImageFormat.gif.require(bytes)
    guard bytes.count >= 13 else { throw .truncated }
    position = 6
    let width = try littleEndian16()
    let height = try littleEndian16()
    let flags = try byte()
    position += 2  // background colour index and aspect ratio: the canvas stays black
    guard width > 0, height > 0 else { throw .corrupt("empty GIF") }
    guard width * height <= ImageDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
    globalColors = flags & 0x80 != 0 ? try colorTable(flags) : []
    return GIFScreen(width: width, height: height, colors: globalColors)
  }

  /// The next image's descriptor, with the graphic control extension before it, and the
  /// reader at its LZW data; `nil` at the trailer. Extensions on the way are read (the
  /// loop count) or passed over.
  mutating func nextImage() throws(ImageDecodingError) -> GIFImage? {
    var transparent: Int?
    var disposal = 0
    var delay = 0
    while true {
      switch try byte() {
      case 0x21:  // an extension: graphic control and the loop count matter here
        let label = try byte()
        guard label == 0xF9 || label == 0xFF else {
          try skipSubBlocks()
          continue
        }
        let data = try subBlocks()
        if label == 0xF9, data.count >= 4 {
          transparent = data[0] & 1 == 1 ? Int(data[3]) : nil
          disposal = Int(data[0] >> 2) & 7
          delay = Int(data[1]) | Int(data[2]) << 8
        } else if label == 0xFF, data.count >= 14, data[11] == 1,
          data.starts(with: Self.netscape) || data.starts(with: Self.animexts)
        {
          loopCount = Int(data[12]) | Int(data[13]) << 8
        }
      case 0x2C:
        return try image(transparent: transparent, disposal: disposal, delay: delay)
      case 0x3B:
        return nil
      default:
        throw .corrupt("GIF block")
      }
    }
  }

  private static let netscape = Array("NETSCAPE2.0".utf8)
  private static let animexts = Array("ANIMEXTS1.0".utf8)

  private mutating func image(transparent: Int?, disposal: Int, delay: Int) throws(ImageDecodingError)
    -> GIFImage
  {
    let left = try littleEndian16()
    let top = try littleEndian16()
    let width = try littleEndian16()
    let height = try littleEndian16()
    let flags = try byte()
    // The frame's own size is checked too: a tiny file could otherwise ask for gigabytes.
    guard width * height <= ImageDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
    let colors = flags & 0x80 != 0 ? try colorTable(flags) : globalColors
    guard !colors.isEmpty else { throw .corrupt("GIF without colours") }
    let minimumCodeSize = try byte()
    // The codes below the clear code are colour indices, so at most 8 bits; the format
    // asks for 2 even for two colours, and with 1 the point where codes widen is not defined.
    guard (2...8).contains(minimumCodeSize) else { throw .corrupt("GIF code size") }
    return GIFImage(
      left: left, top: top, width: width, height: height, colors: colors, interlaced: flags & 0x40 != 0,
      transparent: transparent, disposal: disposal, delay: delay, codeSize: minimumCodeSize)
  }

  /// Decodes `image`'s colour indices (the reader at its data, as ``nextImage()`` left it)
  /// and moves past them.
  mutating func indices(of image: GIFImage) throws(ImageDecodingError) -> [UInt8] {
    try GIFLZW.decode(try subBlocks(), minimumCodeSize: image.codeSize, count: image.width * image.height)
  }
}

/// The canvas a GIF's frames are drawn on: black where nothing is drawn.
struct GIFCanvas {
  let width: Int
  let height: Int
  var pixels: [UInt8]

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    pixels = [UInt8](repeating: 0, count: width * height * 3)
  }

  var image: RGBImage { RGBImage(width: width, height: height, pixels: pixels) }

  /// The part of `image`'s rectangle on the canvas, as x and y ranges (empty where none).
  func area(of image: GIFImage) -> (x: Range<Int>, y: Range<Int>) {
    let x = min(image.left, width)..<min(image.left + image.width, width)
    let y = min(image.top, height)..<min(image.top + image.height, height)
    return (x, y)
  }

  /// Draws `image`'s pixels (`indices`, as stored: interlaced where it is), but for its
  /// transparent colour and colours its table does not have, over what is there.
  mutating func draw(_ image: GIFImage, indices: [UInt8]) {
    let colors = image.colors
    let (left, top, width) = (image.left, image.top, image.width)
    for (row, y) in GIFReader.rowOrder(height: image.height, interlaced: image.interlaced).enumerated() {
      let canvasY = top + y
      guard canvasY < height else { continue }
      for x in 0..<width where left + x < self.width {
        let index = Int(indices[row * width + x])
        guard index != image.transparent, index * 3 + 2 < colors.count else { continue }
        let target = (canvasY * self.width + left + x) * 3
        pixels[target] = colors[index * 3]
        pixels[target + 1] = colors[index * 3 + 1]
        pixels[target + 2] = colors[index * 3 + 2]
      }
    }
  }

  /// The pixels in `area`, row by row.
  func copy(_ area: (x: Range<Int>, y: Range<Int>)) -> [UInt8] {
    var saved: [UInt8] = []
    saved.reserveCapacity(area.x.count * area.y.count * 3)
    for y in area.y {
      saved += pixels[(y * width + area.x.lowerBound) * 3..<(y * width + area.x.upperBound) * 3]
    }
    return saved
  }

  /// Puts back pixels ``copy(_:)`` took from `area`.
  mutating func paste(_ saved: [UInt8], in area: (x: Range<Int>, y: Range<Int>)) {
    let rowBytes = area.x.count * 3
    for (row, y) in area.y.enumerated() {
      let start = (y * width + area.x.lowerBound) * 3
      pixels.replaceSubrange(start..<start + rowBytes, with: saved[row * rowBytes..<(row + 1) * rowBytes])
    }
  }

  /// Clears `area` to black, as the background (transparent, for a browser) is shown.
  mutating func clear(_ area: (x: Range<Int>, y: Range<Int>)) {
    for y in area.y {
      let start = (y * width + area.x.lowerBound) * 3
      for offset in start..<start + area.x.count * 3 { pixels[offset] = 0 }
    }
  }
}

extension GIFReader {
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
