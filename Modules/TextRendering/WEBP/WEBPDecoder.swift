/// A pure-Swift decoder for lossy WEBP pictures (VP8 key frames, RFC 6386), for terminal
/// pictures.
///
/// Simple (`VP8 `) and extended (`VP8X`) files. The colour planes are decoded as the
/// format defines them, loop filter included, and turned into RGB the way libwebp does by
/// default (chroma interpolated between samples). Transparency (`ALPH`) is not decoded: a
/// picture with it shows its colours as they are. Lossless (`VP8L`) and animated pictures
/// are refused by name.
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
    let frame = try frame(of: bytes)
    var decoder = try VP8Decoder(bytes, from: frame.lowerBound, to: frame.upperBound)
    try decoder.decode()
    return rgb(decoder)
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
    let image = try decode(bytes)
    let factor = ImageDecoder.reduction(width: image.width, height: image.height, covering: target)
    return factor == 1 ? image : image.reduced(by: factor)
  }

  /// The declared size, without decoding.
  public static func size(of bytes: [UInt8]) throws(ImageDecodingError) -> (width: Int, height: Int) {
    let frame = try frame(of: bytes)
    let decoder = try VP8Decoder(bytes, from: frame.lowerBound, to: frame.upperBound)
    return (decoder.width, decoder.height)
  }

  /// Where the VP8 key frame is in the RIFF container.
  static func frame(of bytes: [UInt8]) throws(ImageDecodingError) -> Range<Int> {
    guard ImageFormat(sniffing: bytes) == .webp else {
      throw .unsupportedFormat(ImageFormat(sniffing: bytes))
    }
    var position = 12
    let declaredEnd = 8 + littleEndian32(bytes, 4)
    let end = min(bytes.count, declaredEnd)
    while position + 8 <= end {
      let kind = String(decoding: bytes[position..<position + 4], as: UTF8.self)
      let length = littleEndian32(bytes, position + 4)
      let start = position + 8
      switch kind {
      case "VP8 ":
        guard start + length <= bytes.count else { throw .truncated }
        return start..<start + length
      case "VP8L":
        throw .unsupportedFeature("lossless WEBP")
      case "ANIM", "ANMF":
        throw .unsupportedFeature("animated WEBP")
      default:
        // VP8X, ICCP, ALPH, EXIF, XMP and unknown chunks: skipped (padded to even sizes).
        guard length <= end - start else { throw .truncated }
        position = start + length + (length & 1)
      }
    }
    // Chunks ran out: a file shorter than it says it is was cut short.
    throw declaredEnd > bytes.count ? .truncated : .corrupt("WEBP without a picture")
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
      let y = SIMD8<Int32>(
        truncatingIfNeeded: UnsafeRawPointer(luma + x).loadUnaligned(as: SIMD8<UInt8>.self))
      let cb = UnsafeRawPointer(u + x).loadUnaligned(as: SIMD8<Int32>.self)
      let cr = UnsafeRawPointer(v + x).loadUnaligned(as: SIMD8<Int32>.self)
      let scaled = (y &* 19_077) &>> 8
      let red = clip(scaled &+ ((cr &* 26_149) &>> 8) &- 14_234)
      let green = clip(scaled &- ((cb &* 6_419) &>> 8) &- ((cr &* 13_320) &>> 8) &+ 8_708)
      let blue = clip(scaled &+ ((cb &* 33_050) &>> 8) &- 17_685)
      let target = out + x * 3
      for lane in 0..<8 {
        target[lane * 3] = UInt8(truncatingIfNeeded: red[lane])
        target[lane * 3 + 1] = UInt8(truncatingIfNeeded: green[lane])
        target[lane * 3 + 2] = UInt8(truncatingIfNeeded: blue[lane])
      }
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
      for x in 1..<max(chromaWidth, 1) {
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
