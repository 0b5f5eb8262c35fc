/// A pure-Swift PNG decoder for terminal pictures.
///
/// Every standard PNG: greyscale, RGB, palette, greyscale with alpha and RGBA, at every
/// bit depth the format allows (1 to 16), interlaced (Adam7) or not, with `tRNS`
/// transparency. The result is RGB: transparent pixels are blended over the picture's own
/// background colour (`bKGD`) where it names one, else over black, which is what most
/// terminals are. 16-bit samples keep their high byte. An animated PNG shows its first
/// frame (the one every PNG reader shows). Chunk CRCs and the zlib checksum are checked (an
/// ancillary chunk with a bad CRC, such as a damaged `tRNS`, is left out, as libpng does).
///
/// ```swift
/// let picture = try PNGDecoder.decode(bytes, fitting: (120, 88))
/// ```
public enum PNGDecoder {
  /// Decodes the whole picture.
  ///
  /// - Parameter bytes: The file.
  /// - Returns: RGB pixels at full size.
  /// - Throws: ``ImageDecodingError``.
  public static func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBImage {
    let file = try PNGFile(bytes)
    return try file.decode()
  }

  /// Decodes the picture and reduces it by the largest power of two (up to 8) that leaves
  /// the pixels it takes fitted in `target` with its shape kept (averaging each square of
  /// pixels), as
  /// ``JPEGDecoder/decode(_:fitting:)`` does while decoding.
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - target: About the pixels the picture will be shown at.
  /// - Returns: RGB pixels; ``RGBImage/isReduced`` when reduced.
  /// - Throws: ``ImageDecodingError``.
  public static func decode(_ bytes: [UInt8], fitting target: (width: Int, height: Int))
    throws(ImageDecodingError)
    -> RGBImage
  {
    try decode(bytes).reduced(fitting: target)
  }

  /// The declared size, without decoding.
  public static func size(of bytes: [UInt8]) throws(ImageDecodingError) -> (width: Int, height: Int) {
    let header = try PNGFile.header(of: bytes)
    return (header.width, header.height)
  }
}

/// What `IHDR` says.
struct PNGHeader {
  let width: Int
  let height: Int
  let bitDepth: Int
  let colorType: Int
  let interlaced: Bool

  /// Samples per pixel.
  var channels: Int {
    switch colorType {
    case 2: return 3
    case 4: return 2
    case 6: return 4
    default: return 1
    }
  }

  /// A sample at this bit depth as 8 bits: 16-bit samples keep their high byte, lower
  /// depths are scaled to 0…255 (a value past the depth's largest, which only a damaged
  /// `bKGD` can give, counts as the largest).
  @inline(__always)
  func level(_ sample: Int) -> Int {
    switch bitDepth {
    case 16: return min(sample >> 8, 255)
    case 8: return min(sample, 255)
    default: return min(sample, (1 << bitDepth) - 1) * 255 / ((1 << bitDepth) - 1)
    }
  }

  /// Bytes of one unfiltered row of `width` pixels.
  func rowBytes(_ width: Int) -> Int { (width * channels * bitDepth + 7) / 8 }

  /// The distance in bytes between a byte and the one the filters compare it with.
  var filterStride: Int { max(1, channels * bitDepth / 8) }
}

/// A PNG split into the chunks the decoder needs.
struct PNGFile {
  let header: PNGHeader
  /// The palette as RGB triples.
  var palette: [UInt8] = []
  /// `tRNS`: alpha per palette entry, or the one grey or RGB value (16-bit big-endian
  /// samples) that is transparent.
  var transparency: [UInt8]?
  /// `bKGD`, as 8-bit RGB.
  var background: (UInt8, UInt8, UInt8) = (0, 0, 0)
  /// The `IDAT` chunks, joined: one zlib stream.
  var data: [UInt8] = []

  /// Reads `IHDR` alone.
  static func header(of bytes: [UInt8]) throws(ImageDecodingError) -> PNGHeader {
    try ImageFormat.png.require(bytes)
    guard bytes.count >= 33 else { throw .truncated }
    guard bytes[8..<16].elementsEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) else {
      throw .corrupt("no PNG header")
    }
    guard crc32(bytes[12..<29]) == bigEndian32(bytes, 29) else { throw .corrupt("bad PNG header checksum") }
    let width = Int(bigEndian32(bytes, 16))
    let height = Int(bigEndian32(bytes, 20))
    let bitDepth = Int(bytes[24])
    let colorType = Int(bytes[25])
    let allowedDepths: [Int]
    switch colorType {
    case 0: allowedDepths = [1, 2, 4, 8, 16]
    case 3: allowedDepths = [1, 2, 4, 8]
    case 2, 4, 6: allowedDepths = [8, 16]
    default: throw .corrupt("PNG colour type \(colorType)")
    }
    guard allowedDepths.contains(bitDepth) else {
      throw .corrupt("PNG colour type \(colorType) at \(bitDepth) bits")
    }
    guard bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1 else { throw .corrupt("unknown PNG method") }
    guard width > 0, height > 0 else { throw .corrupt("empty PNG") }
    guard width <= ImageDecoder.maxDimension, height <= ImageDecoder.maxDimension,
      width * height <= ImageDecoder.maxPixels
    else { throw .tooLarge(width: width, height: height) }
    return PNGHeader(
      width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: bytes[28] == 1)
  }

  init(_ bytes: [UInt8]) throws(ImageDecodingError) {
    header = try Self.header(of: bytes)
    var position = 33
    var backgroundChunk: ArraySlice<UInt8>?
    chunks: while true {
      // A file whose image data is complete but that lacks `IEND` is still shown.
      if position == bytes.count && !data.isEmpty { break }
      guard position + 12 <= bytes.count else { throw .truncated }
      let length = Int(bigEndian32(bytes, position))
      guard length <= 0x7FFF_FFFF else { throw .corrupt("bad PNG chunk length") }
      let type = bytes[position + 4..<position + 8]
      guard type.allSatisfy({ (0x41...0x5A).contains($0 & ~0x20) }) else {
        throw .corrupt("bad PNG chunk type")
      }
      let start = position + 8
      guard start + length + 4 <= bytes.count else { throw .truncated }
      let body = bytes[start..<start + length]
      let isCritical = type.first! & 0x20 == 0
      position = start + length + 4
      // A damaged critical chunk ends decoding; a damaged ancillary one (`tRNS`, `bKGD`,
      // text) is left out, as libpng does, and the picture shown without it.
      if crc32(bytes[start - 4..<start + length]) != bigEndian32(bytes, start + length) {
        if isCritical { throw .corrupt("bad PNG chunk checksum") }
        continue
      }
      switch String(decoding: type, as: UTF8.self) {
      case "IDAT":
        data.append(contentsOf: body)
      case "PLTE":
        guard length % 3 == 0, length > 0, length <= 768 else { throw .corrupt("bad PNG palette") }
        palette = Array(body)
      case "tRNS":
        transparency = Array(body)
      case "bKGD":
        backgroundChunk = body
      case "IEND":
        break chunks
      case let name where isCritical:
        throw .unsupportedFeature("the PNG chunk \(name)")
      default:
        continue
      }
    }
    guard !data.isEmpty else { throw .corrupt("PNG without image data") }
    if header.colorType == 3 && palette.isEmpty { throw .corrupt("PNG without its palette") }
    if let backgroundChunk { background = backgroundColor(backgroundChunk) }
  }

  /// `bKGD` in 8-bit RGB (black where it does not make sense).
  private func backgroundColor(_ chunk: ArraySlice<UInt8>) -> (UInt8, UInt8, UInt8) {
    let values = Array(chunk)
    switch (header.colorType, values.count) {
    case (3, 1):
      let index = Int(values[0]) * 3
      guard index + 2 < palette.count else { return (0, 0, 0) }
      return (palette[index], palette[index + 1], palette[index + 2])
    case (0, 2), (4, 2):
      let grey = level(Int(values[0]) << 8 | Int(values[1]))
      return (grey, grey, grey)
    case (2, 6), (6, 6):
      return (
        level(Int(values[0]) << 8 | Int(values[1])), level(Int(values[2]) << 8 | Int(values[3])),
        level(Int(values[4]) << 8 | Int(values[5]))
      )
    default:
      return (0, 0, 0)
    }
  }

  /// A sample at the file's bit depth as 8 bits.
  private func level(_ sample: Int) -> UInt8 { UInt8(header.level(sample)) }

  // MARK: Pixels

  /// The seven Adam7 passes: first column and row, then the step between pixels.
  private static let adam7 = [
    (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
  ]

  /// The passes the picture is stored in, with each one's size.
  private var passes: [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)] {
    let steps = header.interlaced ? Self.adam7 : [(0, 0, 1, 1)]
    return steps.map { x, y, dx, dy in
      (
        x, y, dx, dy, header.width > x ? (header.width - x + dx - 1) / dx : 0,
        header.height > y ? (header.height - y + dy - 1) / dy : 0
      )
    }
  }

  func decode() throws(ImageDecodingError) -> RGBImage {
    // Each row of each (non-empty) pass is a filter byte and the row's samples.
    var expected = 0
    var widest = 0
    for pass in passes where pass.width > 0 && pass.height > 0 {
      expected += pass.height * (1 + header.rowBytes(pass.width))
      widest = max(widest, header.rowBytes(pass.width))
    }
    // 16-bit RGBA would need 8 bytes a pixel: such pictures are held to half the pixels.
    guard expected <= 4 * ImageDecoder.maxPixels else {
      throw .tooLarge(width: header.width, height: header.height)
    }
    let filtered = try Inflater.inflate(zlib: data, limit: expected)
    guard filtered.count == expected else { throw .truncated }
    // Every filter type is checked first, so that the loops below cannot fail.
    var offset = 0
    for pass in passes where pass.width > 0 && pass.height > 0 {
      for _ in 0..<pass.height {
        guard filtered[offset] <= 4 else { throw .corrupt("PNG filter type \(filtered[offset])") }
        offset += 1 + header.rowBytes(pass.width)
      }
    }

    let converter = PixelConverter(file: self)
    let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * widest)
    defer { rows.deallocate() }
    var pixels = [UInt8](repeating: 0, count: header.width * header.height * 3)
    filtered.withUnsafeBufferPointer { filtered in
      pixels.withUnsafeMutableBufferPointer { pixels in
        var offset = 0
        for pass in passes where pass.width > 0 && pass.height > 0 {
          let rowBytes = header.rowBytes(pass.width)
          var row = rows
          var previous = rows + widest
          previous.initialize(repeating: 0, count: rowBytes)
          for y in 0..<pass.height {
            Self.unfilter(
              filtered.baseAddress! + offset, into: row, previous: previous, count: rowBytes,
              stride: header.filterStride)
            offset += 1 + rowBytes
            converter.convert(
              UnsafeBufferPointer(start: row, count: rowBytes), count: pass.width, into: pixels,
              at: ((pass.y + y * pass.dy) * header.width + pass.x) * 3, step: pass.dx * 3)
            swap(&row, &previous)
          }
        }
      }
    }
    return RGBImage(width: header.width, height: header.height, pixels: pixels)
  }

  /// Undoes a row's filter (PNG specification, 9.2): `line` is the filter type and the
  /// row's `count` filtered bytes; `previous` the row above, unfiltered (zeros for the
  /// first). The type was checked to be 0…4.
  private static func unfilter(
    _ line: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>,
    count: Int, stride: Int
  ) {
    let data = line + 1
    let start = min(stride, count)
    switch line[0] {
    case 0:
      row.update(from: data, count: count)
    case 1:
      row.update(from: data, count: start)
      for index in start..<count { row[index] = data[index] &+ row[index - stride] }
    case 2:
      for index in 0..<count { row[index] = data[index] &+ previous[index] }
    case 3:
      for index in 0..<start { row[index] = data[index] &+ previous[index] / 2 }
      for index in start..<count {
        row[index] = data[index] &+ UInt8((Int(row[index - stride]) + Int(previous[index])) / 2)
      }
    default:
      // With no left neighbours, Paeth picks the byte above.
      for index in 0..<start { row[index] = data[index] &+ previous[index] }
      for index in start..<count {
        row[index] =
          data[index]
          &+ UInt8(paeth(Int(row[index - stride]), Int(previous[index]), Int(previous[index - stride])))
      }
    }
  }

  /// Of left, above and upper left, the one closest to `left + above - upperLeft`.
  @inline(__always)
  private static func paeth(_ left: Int, _ above: Int, _ upperLeft: Int) -> Int {
    let estimate = left + above - upperLeft
    let toLeft = abs(estimate - left)
    let toAbove = abs(estimate - above)
    let toUpperLeft = abs(estimate - upperLeft)
    if toLeft <= toAbove && toLeft <= toUpperLeft { return left }
    return toAbove <= toUpperLeft ? above : upperLeft
  }
}

/// Turns unfiltered rows into 8-bit RGB, blending transparency over the background.
struct PixelConverter {
  let header: PNGHeader
  /// The palette with its alpha, as RGBA quadruples (256 entries: an index past the
  /// palette's end is black).
  private var palette: [UInt8] = []
  /// The transparent grey or RGB value, at full precision, if any.
  private var transparentValue: [Int]?
  private let background: (UInt8, UInt8, UInt8)

  init(file: PNGFile) {
    header = file.header
    background = file.background
    let transparency = file.transparency ?? []
    switch header.colorType {
    case 3:
      palette = [UInt8](repeating: 0, count: 256 * 4)
      for index in 0..<file.palette.count / 3 {
        palette[index * 4] = file.palette[index * 3]
        palette[index * 4 + 1] = file.palette[index * 3 + 1]
        palette[index * 4 + 2] = file.palette[index * 3 + 2]
        palette[index * 4 + 3] = index < transparency.count ? transparency[index] : 255
      }
    case 0 where transparency.count == 2, 2 where transparency.count == 6:
      transparentValue = Swift.stride(from: 0, to: transparency.count, by: 2).map {
        Int(transparency[$0]) << 8 | Int(transparency[$0 + 1])
      }
    default:
      break
    }
  }

  /// The `index`th sample of a row, at its full precision.
  @inline(__always)
  private func sample(_ row: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
    switch header.bitDepth {
    case 8: return Int(row[index])
    case 16: return Int(row[index * 2]) << 8 | Int(row[index * 2 + 1])
    default:
      let bit = index * header.bitDepth
      let shift = 8 - header.bitDepth - bit % 8
      return Int(row[bit / 8] >> UInt8(shift)) & ((1 << header.bitDepth) - 1)
    }
  }

  /// A sample as 8 bits.
  @inline(__always)
  private func level(_ sample: Int) -> Int { header.level(sample) }

  /// Writes `count` pixels of `row` to `pixels`, the first at `start`, then every `step`.
  func convert(
    _ row: UnsafeBufferPointer<UInt8>, count: Int, into pixels: UnsafeMutableBufferPointer<UInt8>,
    at start: Int,
    step: Int
  ) {
    // The most common kind (8-bit RGB, no transparency) is a copy.
    if header.colorType == 2 && header.bitDepth == 8 && transparentValue == nil {
      var target = start
      for x in 0..<count {
        pixels[target] = row[x * 3]
        pixels[target + 1] = row[x * 3 + 1]
        pixels[target + 2] = row[x * 3 + 2]
        target += step
      }
      return
    }
    var target = start
    for x in 0..<count {
      var red: Int, green: Int, blue: Int, alpha = 255
      switch header.colorType {
      case 0:
        let grey = sample(row, x)
        red = level(grey)
        green = red
        blue = red
        if let transparentValue, transparentValue[0] == grey { alpha = 0 }
      case 2:
        let r = sample(row, x * 3), g = sample(row, x * 3 + 1), b = sample(row, x * 3 + 2)
        red = level(r)
        green = level(g)
        blue = level(b)
        if let transparentValue, transparentValue == [r, g, b] { alpha = 0 }
      case 3:
        let entry = sample(row, x) * 4
        red = Int(palette[entry])
        green = Int(palette[entry + 1])
        blue = Int(palette[entry + 2])
        alpha = Int(palette[entry + 3])
      case 4:
        red = level(sample(row, x * 2))
        green = red
        blue = red
        alpha = level(sample(row, x * 2 + 1))
      default:
        red = level(sample(row, x * 4))
        green = level(sample(row, x * 4 + 1))
        blue = level(sample(row, x * 4 + 2))
        alpha = level(sample(row, x * 4 + 3))
      }
      if alpha == 255 {
        pixels[target] = UInt8(red)
        pixels[target + 1] = UInt8(green)
        pixels[target + 2] = UInt8(blue)
      } else {
        pixels[target] = blend(red, over: background.0, alpha: alpha)
        pixels[target + 1] = blend(green, over: background.1, alpha: alpha)
        pixels[target + 2] = blend(blue, over: background.2, alpha: alpha)
      }
      target += step
    }
  }
}

extension RGBImage {
  /// The picture reduced by the largest power of two (up to 8) that leaves the pixels it
  /// takes fitted in `target` (``ImageDecoder/reduction(width:height:fitting:)``), for
  /// decoders that cannot reduce while decoding.
  func reduced(fitting target: (width: Int, height: Int)) -> RGBImage {
    let factor = ImageDecoder.reduction(width: width, height: height, fitting: target)
    return factor == 1 ? self : reduced(by: factor)
  }

  /// The picture with each `factor`×`factor` square of pixels averaged into one (the
  /// squares at the right and bottom edges may be smaller); marked reduced.
  func reduced(by factor: Int) -> RGBImage {
    let newWidth = (width + factor - 1) / factor
    let newHeight = (height + factor - 1) / factor
    var sums = [Int](repeating: 0, count: newWidth * 3)
    var result = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
    for blockRow in 0..<newHeight {
      for index in sums.indices { sums[index] = 0 }
      let rows = min(factor, height - blockRow * factor)
      for y in blockRow * factor..<blockRow * factor + rows {
        for x in 0..<width {
          let source = (y * width + x) * 3
          let target = x / factor * 3
          sums[target] += Int(pixels[source])
          sums[target + 1] += Int(pixels[source + 1])
          sums[target + 2] += Int(pixels[source + 2])
        }
      }
      for column in 0..<newWidth {
        let count = rows * min(factor, width - column * factor)
        for channel in 0..<3 {
          result[(blockRow * newWidth + column) * 3 + channel] = UInt8(
            (sums[column * 3 + channel] + count / 2) / count)
        }
      }
    }
    return RGBImage(width: newWidth, height: newHeight, pixels: result, isReduced: true)
  }
}

/// The big-endian 32-bit number at `offset`.
private func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
  UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
    | UInt32(bytes[offset + 3])
}

/// The CRC-32 PNG chunks end with (ISO 3309, the one zlib and Ethernet use).
package func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc = crc32Table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
  }
  return crc ^ 0xFFFF_FFFF
}

private let crc32Table: [UInt32] = (0..<256).map { index in
  var value = UInt32(index)
  for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
  return value
}
