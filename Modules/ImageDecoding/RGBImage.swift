#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An 8-bit RGB raster, row by row.
public struct RGBImage: Hashable, Sendable {
  /// Pixels per row.
  public let width: Int
  /// Rows of pixels.
  public let height: Int
  /// `width * height * 3` bytes.
  public let pixels: [UInt8]
  /// Whether this is a reduced-scale decode of a picture that has more pixels (decoding it
  /// again at a larger scale would add detail).
  public var isReduced: Bool
  /// What ``ImageDecoder/decode(_:fitting:)`` made this picture from, when it did: decoding
  /// that again gives these very pixels, so a log keeps the encoded bytes, a tenth of the
  /// pixels' size or less, in their place. Not part of the picture's equality.
  public internal(set) var source: Source?
  /// The identity of these pixels: copies of the picture share it, and a picture made
  /// anew has its own, even with the same pixels. What is worked out from a picture (its
  /// cells at a size, say) can be kept under it, weakly, for as long as the picture lives.
  /// Not part of the picture's equality.
  public let identity = Identity()

  /// The identity of a picture's pixels (see ``RGBImage/identity``).
  public final class Identity: Sendable {
    init() {}
  }

  /// An encoded picture and the size it was decoded to fit.
  public struct Source: Sendable {
    /// The encoded picture (JPEG, PNG, WEBP or GIF).
    public let bytes: [UInt8]
    /// The size it was decoded to fit.
    public let fitting: (width: Int, height: Int)
  }

  /// Creates an image; `pixels` must hold exactly `width * height * 3` bytes.
  public init(width: Int, height: Int, pixels: [UInt8], isReduced: Bool = false) {
    precondition(pixels.count == width * height * 3, "RGBImage needs width × height × 3 bytes")
    self.width = width
    self.height = height
    self.pixels = pixels
    self.isReduced = isReduced
  }

  /// Whether two pictures have the same size and pixels (wherever they came from).
  ///
  /// Copies of one picture are equal at once; others compare their pixels as memory, so
  /// that comparing two frames of a large animation (as a store does with its states)
  /// costs a fraction of a millisecond.
  public static func == (left: RGBImage, right: RGBImage) -> Bool {
    guard left.width == right.width, left.height == right.height, left.isReduced == right.isReduced
    else { return false }
    if left.identity === right.identity { return true }
    return left.pixels.withUnsafeBytes { left in
      right.pixels.withUnsafeBytes { right in
        left.count == right.count
          && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
      }
    }
  }

  /// Hashes the size and the pixels.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(width)
    hasher.combine(height)
    hasher.combine(isReduced)
    hasher.combine(pixels)
  }
}

extension RGBImage: CustomReflectable {
  /// Mirrors as the size and a summary of the pixels, so that dumps and diffs (`--trace`,
  /// test failures) take a few lines rather than one per byte, and still show that two
  /// pictures of the same size differ.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: ["width": width, "height": height, "pixels": PixelSummary(pixels), "isReduced": isReduced],
      displayStyle: .struct)
  }
}

/// How ``RGBImage`` shows its pixels in dumps: `562500 bytes, FNV-1a 9dc5b1a4`.
struct PixelSummary: CustomStringConvertible, CustomReflectable {
  let description: String

  init(_ pixels: [UInt8]) {
    var hash: UInt32 = 2_166_136_261
    for byte in pixels { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    description = "\(pixels.count) bytes, FNV-1a \(String(hash, radix: 16))"
  }

  /// No children: dumps show the description.
  var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension RGBImage {
  /// An area-averaged copy at `width` × `height`: each pixel the mean of the pixels it
  /// covers (no larger than the image).
  ///
  /// - Parameters:
  ///   - width: The copy's width in pixels.
  ///   - height: The copy's height in pixels.
  /// - Returns: The copy.
  public func downscaled(width: Int, height: Int) -> RGBImage {
    if width == self.width, height == self.height { return self }
    let image = self
    // Each column's span of source columns, worked out once.
    let spans = (0..<width).map { x -> (start: Int, end: Int) in
      let x0 = x * image.width / width
      return (x0, min(image.width, max(x0 + 1, (x + 1) * image.width / width)))
    }
    var output = [UInt8](repeating: 0, count: width * height * 3)
    image.pixels.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { output in
        for y in 0..<height {
          let y0 = y * image.height / height
          let y1 = min(image.height, max(y0 + 1, (y + 1) * image.height / height))
          for x in 0..<width {
            let (x0, x1) = spans[x]
            var (r, g, b) = (0, 0, 0)
            for sy in y0..<y1 {
              var index = (sy * image.width + x0) * 3
              for _ in x0..<x1 {
                r &+= Int(source[index])
                g &+= Int(source[index + 1])
                b &+= Int(source[index + 2])
                index &+= 3
              }
            }
            let count = max(1, (y1 - y0) * (x1 - x0))
            let target = (y * width + x) * 3
            output[target] = UInt8(truncatingIfNeeded: r / count)
            output[target + 1] = UInt8(truncatingIfNeeded: g / count)
            output[target + 2] = UInt8(truncatingIfNeeded: b / count)
          }
        }
      }
    }
    return RGBImage(width: width, height: height, pixels: output)
  }
}
