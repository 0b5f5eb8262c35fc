/// A pure-Swift decoder for WEBP pictures, for terminal pictures.
///
/// Lossy pictures (VP8 key frames, RFC 6386) are decoded as the format defines them, loop
/// filter included, and turned into RGB the way libwebp does by default (chroma
/// interpolated between samples); lossless ones (VP8L) with every transform the format
/// has. Transparency, a lossless picture's own or a lossy one's `ALPH` chunk (raw or
/// compressed, with any of its filters), is blended over black, as PNG's is. Simple and
/// extended (`VP8X`) files; an animation shows its first frame on its canvas.
///
/// ```swift
/// let picture = try WEBPDecoder.decode(bytes, fitting: (120, 88))
/// ```
public enum WEBPDecoder {
  /// Decodes the whole picture.
  ///
  /// - Parameter bytes: The file.
  /// - Returns: RGB pixels at full size.
  /// - Throws: ``ImageDecodingError``.
  public static func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> RGBImage {
    try decode(bytes, try picture(in: bytes))
  }

  private static func decode(_ bytes: [UInt8], _ picture: Picture) throws(ImageDecodingError) -> RGBImage {
    switch picture {
    case .frame(let inner, let x, let y, let canvas):
      let frame = try decode(bytes, inner)
      var pixels = [UInt8](repeating: 0, count: canvas.width * canvas.height * 3)
      let columns = max(0, min(frame.width, canvas.width - x))
      for row in 0..<max(0, min(frame.height, canvas.height - y)) where columns > 0 {
        let source = row * frame.width * 3
        let target = ((y + row) * canvas.width + x) * 3
        pixels.replaceSubrange(
          target..<target + columns * 3, with: frame.pixels[source..<source + columns * 3])
      }
      return RGBImage(width: canvas.width, height: canvas.height, pixels: pixels)
    case .lossy(let frame, let alpha):
      var decoder = try VP8Decoder(bytes, from: frame.lowerBound, to: frame.upperBound)
      try decoder.decode()
      var image = rgb(decoder)
      if let alpha {
        let plane = try alphaPlane(bytes, alpha, width: decoder.width, height: decoder.height)
        image = blended(image, alpha: { plane[$0] })
      }
      return image
    case .lossless(let range):
      var decoder = VP8LDecoder(bytes, from: range.lowerBound, to: range.upperBound)
      let size = try decoder.readHeader()
      let argb = try decoder.decodePixels(width: size.width, height: size.height)
      var pixels = [UInt8](repeating: 0, count: argb.count * 3)
      for (index, pixel) in argb.enumerated() {
        pixels[index * 3] = UInt8(truncatingIfNeeded: pixel >> 16)
        pixels[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
        pixels[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel)
      }
      return blended(
        RGBImage(width: size.width, height: size.height, pixels: pixels),
        alpha: { UInt8(truncatingIfNeeded: argb[$0] >> 24) })
    }
  }

  /// Decodes the picture and reduces it as ``PNGDecoder/decode(_:fitting:)`` does.
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
    switch try picture(in: bytes) {
    case .frame(_, _, _, let canvas):
      return canvas
    case .lossy(let frame, _):
      let decoder = try VP8Decoder(bytes, from: frame.lowerBound, to: frame.upperBound)
      return (decoder.width, decoder.height)
    case .lossless(let range):
      var decoder = VP8LDecoder(bytes, from: range.lowerBound, to: range.upperBound)
      return try decoder.readHeader()
    }
  }

  /// Where a file's picture is.
  indirect enum Picture {
    /// A VP8 frame, and the `ALPH` chunk's payload if the file has one.
    case lossy(Range<Int>, alpha: Range<Int>?)
    /// A VP8L bitstream.
    case lossless(Range<Int>)
    /// An animation's first frame: its picture, where it sits, and the canvas.
    case frame(Picture, x: Int, y: Int, canvas: (width: Int, height: Int))
  }

  /// Finds the picture's chunks in the RIFF container.
  static func picture(in bytes: [UInt8]) throws(ImageDecodingError) -> Picture {
    try ImageFormat.webp.require(bytes)
    let declaredEnd = 8 + littleEndian32(bytes, 4)
    guard let picture = try picture(in: bytes, from: 12, to: min(bytes.count, declaredEnd)) else {
      // Chunks ran out: a file shorter than it says it is was cut short.
      throw declaredEnd > bytes.count ? .truncated : .corrupt("WEBP without a picture")
    }
    return picture
  }

  /// The picture in the chunks of `bytes[start..<end]` (a file's, or an animation frame's).
  private static func picture(in bytes: [UInt8], from first: Int, to end: Int) throws(ImageDecodingError)
    -> Picture?
  {
    var position = first
    var alpha: Range<Int>?
    var canvas: (width: Int, height: Int)?
    while position + 8 <= end {
      let kind = String(decoding: bytes[position..<position + 4], as: UTF8.self)
      let length = littleEndian32(bytes, position + 4)
      let start = position + 8
      switch kind {
      case "VP8 ", "VP8L":
        guard start + length <= bytes.count else { throw .truncated }
        return kind == "VP8L"
          ? .lossless(start..<start + length) : .lossy(start..<start + length, alpha: alpha)
      case "ANMF":
        // An animation shows its first frame, as viewers do before it plays.
        guard length >= 16, start + length <= end else { throw .truncated }
        guard let canvas else { throw .corrupt("WEBP animation without a canvas") }
        guard let inner = try picture(in: bytes, from: start + 16, to: start + length) else {
          throw .corrupt("WEBP animation frame without a picture")
        }
        return .frame(
          inner, x: 2 * littleEndian24(bytes, start), y: 2 * littleEndian24(bytes, start + 3), canvas: canvas)
      default:
        // ANIM, ICCP, EXIF, XMP and unknown chunks are skipped (padded to even sizes); ALPH
        // is remembered for the VP8 frame after it, VP8X for an animation's canvas.
        guard length <= end - start else { throw .truncated }
        if kind == "ALPH" { alpha = start..<start + length }
        if kind == "VP8X", length >= 10 {
          let size = (1 + littleEndian24(bytes, start + 4), 1 + littleEndian24(bytes, start + 7))
          guard size.0 * size.1 <= ImageDecoder.maxPixels else {
            throw .tooLarge(width: size.0, height: size.1)
          }
          canvas = size
        }
        position = start + length + (length & 1)
      }
    }
    return nil
  }

  private static func littleEndian24(_ bytes: [UInt8], _ offset: Int) -> Int {
    Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
  }

  /// Decodes an `ALPH` chunk: a header byte, then the alpha values raw or as a lossless
  /// bitstream's green channel, then undoes its filter.
  static func alphaPlane(_ bytes: [UInt8], _ range: Range<Int>, width: Int, height: Int)
    throws(ImageDecodingError)
    -> [UInt8]
  {
    guard !range.isEmpty else { throw .truncated }
    let header = bytes[range.lowerBound]
    let method = header & 3
    let filter = (header >> 2) & 3
    guard method <= 1, (header >> 4) & 3 <= 1, header >> 6 == 0 else { throw .corrupt("WEBP alpha header") }
    let count = width * height
    var values: [UInt8]
    if method == 0 {
      guard range.count - 1 >= count else { throw .truncated }
      values = Array(bytes[range.lowerBound + 1..<range.lowerBound + 1 + count])
    } else {
      var decoder = VP8LDecoder(bytes, from: range.lowerBound + 1, to: range.upperBound)
      values = try decoder.decodePixels(width: width, height: height).map {
        UInt8(truncatingIfNeeded: $0 >> 8)
      }
    }
    // Filters predict from the left (first row, and horizontal), from above (vertical), or
    // from left + above − above-left (gradient); a row's first value always from above.
    for y in 0..<height {
      for x in 0..<width {
        let index = y * width + x
        let prediction: Int
        if y == 0 || filter == 0 {
          prediction = filter == 0 || x == 0 ? 0 : Int(values[index - 1])
        } else if x == 0 || filter == 2 {
          prediction = Int(values[index - width])
        } else if filter == 1 {
          prediction = Int(values[index - 1])
        } else {
          let gradient = Int(values[index - 1]) + Int(values[index - width]) - Int(values[index - width - 1])
          prediction = min(max(gradient, 0), 255)
        }
        values[index] = values[index] &+ UInt8(prediction)
      }
    }
    return values
  }

  /// The picture blended over black by each pixel's alpha.
  private static func blended(_ image: RGBImage, alpha: (Int) -> UInt8) -> RGBImage {
    var pixels = image.pixels
    for index in 0..<image.width * image.height {
      let opacity = Int(alpha(index))
      guard opacity != 255 else { continue }
      for channel in 0..<3 {
        pixels[index * 3 + channel] = blend(Int(pixels[index * 3 + channel]), over: 0, alpha: opacity)
      }
    }
    return RGBImage(width: image.width, height: image.height, pixels: pixels)
  }

  private static func littleEndian32(_ bytes: [UInt8], _ offset: Int) -> Int {
    guard offset + 4 <= bytes.count else { return 0 }
    return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
      | Int(bytes[offset + 3]) << 24
  }

  // MARK: Colour

  /// The planes as RGB, with libwebp's "fancy" chroma upsampling: each pixel's chroma is
  /// weighted 9:3:3:1 from the four nearest samples, with libwebp's roundings, and its
  /// YUV to RGB conversion (BT.601, 14-bit fixed point).
  static func rgb(_ frame: VP8Decoder) -> RGBImage {
    let width = frame.width
    let height = frame.height
    let chromaWidth = (width + 1) / 2
    let chromaHeight = (height + 1) / 2
    let (yStride, uvStride) = (frame.yStride, frame.uvStride)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    // Buffers rather than arrays: an array variable used inside the closures below is
    // checked for exclusive access at every element (a third of the conversion's time).
    let rowU = UnsafeMutableBufferPointer<Int32>.allocate(capacity: width)
    let rowV = UnsafeMutableBufferPointer<Int32>.allocate(capacity: width)
    defer {
      rowU.deallocate()
      rowV.deallocate()
    }
    frame.y.withUnsafeBufferPointer { yPlane in
      frame.u.withUnsafeBufferPointer { uPlane in
        frame.v.withUnsafeBufferPointer { vPlane in
          pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
              // The luma row's two chroma rows, the nearer first ("near" weighs 3, "far" 1).
              let near: Int
              let far: Int
              if y == 0 {
                (near, far) = (0, 0)
              } else if y % 2 == 1 {
                (near, far) = ((y - 1) / 2, min((y + 1) / 2, chromaHeight - 1))
              } else {
                (near, far) = (y / 2, y / 2 - 1)
              }
              upsample(
                uPlane.baseAddress! + near * uvStride, uPlane.baseAddress! + far * uvStride, chromaWidth,
                width, into: rowU)
              upsample(
                vPlane.baseAddress! + near * uvStride, vPlane.baseAddress! + far * uvStride, chromaWidth,
                width, into: rowV)
              convertRow(
                yPlane.baseAddress! + y * yStride, rowU.baseAddress!, rowV.baseAddress!,
                pixels.baseAddress! + y * width * 3, width)
            }
          }
        }
      }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  /// libwebp's conversion of one row, eight pixels at a time: `(value * k) >> 8` terms,
  /// then 14-bit fixed point clipped to 0…255.
  @inline(__always)
  private static func convertRow(
    _ luma: UnsafePointer<UInt8>, _ u: UnsafePointer<Int32>, _ v: UnsafePointer<Int32>,
    _ out: UnsafeMutablePointer<UInt8>, _ count: Int
  ) {
    @inline(__always)
    func clip(_ value: SIMD8<Int32>) -> SIMD8<Int32> {
      let nonNegative = value & ~(value &>> 31)
      // Above 16383 every bit is set, which shifts down to a low byte of 255.
      return (nonNegative | ((16_383 &- nonNegative) &>> 31)) &>> 6
    }
    var x = 0
    while x + 8 <= count {
      let y = YCbCr.widen(luma + x)
      let cb = UnsafeRawPointer(u + x).loadUnaligned(as: SIMD8<Int32>.self)
      let cr = UnsafeRawPointer(v + x).loadUnaligned(as: SIMD8<Int32>.self)
      let scaled = (y &* 19_077) &>> 8
      let red = clip(scaled &+ ((cr &* 26_149) &>> 8) &- 14_234)
      let green = clip(scaled &- ((cb &* 6_419) &>> 8) &- ((cr &* 13_320) &>> 8) &+ 8_708)
      let blue = clip(scaled &+ ((cb &* 33_050) &>> 8) &- 17_685)
      YCbCr.storeInterleaved(red, green, blue, to: out + x * 3)
      x += 8
    }
    func clip(_ value: Int32) -> UInt8 { value & ~0x3FFF == 0 ? UInt8(value >> 6) : value < 0 ? 0 : 255 }
    while x < count {
      let scaled = (Int32(luma[x]) * 19_077) >> 8
      out[x * 3] = clip(scaled + (v[x] * 26_149) >> 8 - 14_234)
      out[x * 3 + 1] = clip(scaled - (u[x] * 6_419) >> 8 - (v[x] * 13_320) >> 8 + 8_708)
      out[x * 3 + 2] = clip(scaled + (u[x] * 33_050) >> 8 - 17_685)
      x += 1
    }
  }

  /// One row of chroma at luma resolution, from chroma rows `near` and `far`.
  private static func upsample(
    _ near: UnsafePointer<UInt8>, _ far: UnsafePointer<UInt8>, _ chromaWidth: Int, _ width: Int,
    into row: UnsafeMutableBufferPointer<Int32>
  ) {
    do {
      row[0] = Int32((3 * Int(near[0]) + Int(far[0]) + 2) >> 2)
      var x = 1
      // Eight samples at a time: the same sums, lane by lane.
      while x + 8 <= chromaWidth {
        let (n0, n1) = (YCbCr.widen(near + x - 1), YCbCr.widen(near + x))
        let (f0, f1) = (YCbCr.widen(far + x - 1), YCbCr.widen(far + x))
        let average = n0 &+ n1 &+ f0 &+ f1 &+ 8
        let left = (((average &+ 2 &* (n1 &+ f0)) &>> 3) &+ n0) &>> 1
        let right = (((average &+ 2 &* (n0 &+ f1)) &>> 3) &+ n1) &>> 1
        let target = row.baseAddress! + 2 * x - 1
        for lane in 0..<8 {
          target[2 * lane] = left[lane]
          target[2 * lane + 1] = right[lane]
        }
        x += 8
      }
      for x in x..<max(chromaWidth, 1) {
        // Pixels 2x − 1 and 2x lie between samples x − 1 and x.
        let (n0, n1, f0, f1) = (Int(near[x - 1]), Int(near[x]), Int(far[x - 1]), Int(far[x]))
        let average = n0 + n1 + f0 + f1 + 8
        let towardLeft = (average + 2 * (n1 + f0)) >> 3
        let towardRight = (average + 2 * (n0 + f1)) >> 3
        row[2 * x - 1] = Int32((towardLeft + n0) >> 1)
        row[2 * x] = Int32((towardRight + n1) >> 1)
      }
      if width % 2 == 0 {
        row[width - 1] = Int32((3 * Int(near[chromaWidth - 1]) + Int(far[chromaWidth - 1]) + 2) >> 2)
      }
    }
  }
}
