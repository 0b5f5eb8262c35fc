/// What a file really is, from its first bytes (never from its name).
public enum ImageFormat: String, Sendable, Equatable, Codable {
  /// A known format by its signature, or none of them. AVIF, BMP and TIFF are known only
  /// to be named when they are refused.
  case jpeg, png, webp, gif, avif, bmp, tiff, unknown

  /// Sniffs the magic bytes: JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`,
  /// WEBP `RIFF….WEBP`, GIF `GIF8`, AVIF `….ftypavif` (or `avis`), BMP `BM`, TIFF
  /// `II*␀` or `MM␀*`.
  public init(sniffing bytes: some Collection<UInt8>) {
    let head = Array(bytes.prefix(12))
    if head.starts(with: [0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if head.count >= 12, head.starts(with: Array("RIFF".utf8)),
      Array(head[8..<12]) == Array("WEBP".utf8)
    {
      self = .webp
    } else if head.starts(with: Array("GIF8".utf8)) {
      self = .gif
    } else if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8),
      ["avif", "avis"].contains(String(decoding: head[8..<12], as: UTF8.self))
    {
      self = .avif
    } else if head.starts(with: Array("BM".utf8)) {
      self = .bmp
    } else if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
      self = .tiff
    } else {
      self = .unknown
    }
  }
}

extension ImageFormat {
  /// Throws ``ImageDecodingError/unsupportedFormat(_:)``, naming what the bytes are, unless
  /// they are in this format: how each decoder refuses another's file.
  func require(_ bytes: some Collection<UInt8>) throws(ImageDecodingError) {
    let format = ImageFormat(sniffing: bytes)
    guard format == self else { throw .unsupportedFormat(format) }
  }
}

/// Why a picture could not be decoded, in one sentence.
public enum ImageDecodingError: Error, Equatable, Sendable, Codable {
  /// The bytes are in a format we do not decode (an AVIF, say), whatever the name said.
  case unsupportedFormat(ImageFormat)
  /// A feature of the format we do not decode (a CMYK JPEG, a lossless JPEG…).
  case unsupportedFeature(String)
  /// The file ends before the picture does.
  case truncated
  /// The file breaks its format's rules.
  case corrupt(String)
  /// The declared size is beyond what we decode.
  case tooLarge(width: Int, height: Int)

  /// One sentence for a person.
  public var message: String {
    switch self {
    case .unsupportedFormat(let format):
      return format == .unknown
        ? "The picture is in an unsupported image format."
        : "The picture is \(format == .avif ? "an" : "a") \(format.rawValue.uppercased()), an unsupported image format."
    case .unsupportedFeature(let feature):
      return "The picture uses a feature we cannot show (\(feature))."
    case .truncated: return "The picture file is incomplete."
    case .corrupt: return "The picture file is damaged."
    case .tooLarge(let width, let height): return "The picture is too large to show (\(width)×\(height))."
    }
  }
}

/// Decodes the picture formats DogBreeds shows, JPEG, PNG, WEBP and GIF, told apart by
/// their bytes.
///
/// ```swift
/// let picture = try ImageDecoder.decode(bytes, fitting: (120, 88))
/// ```
public enum ImageDecoder {
  /// The most pixels a picture may have; a declared size beyond it is refused before any
  /// allocation (a 65535×65535 header in a tiny file costs nothing).
  public static let maxPixels = 40_000_000
  /// The largest width or height a picture may have; larger declared sizes are refused
  /// before any allocation.
  public static let maxDimension = 16_384

  /// Decodes a JPEG, a PNG, a WEBP or a GIF to at least the pixels it takes fitted in
  /// `target` with its shape kept (where it has that many), reduced by a power of two where
  /// it has many more (see ``JPEGDecoder/decode(_:fitting:)``, ``PNGDecoder/decode(_:fitting:)``,
  /// ``WEBPDecoder/decode(_:fitting:)`` and ``GIFDecoder/decode(_:fitting:)``).
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - target: About the pixels the picture will be shown at.
  /// - Returns: RGB pixels.
  /// - Throws: ``ImageDecodingError``; ``ImageDecodingError/unsupportedFormat(_:)`` for
  ///   anything else.
  public static func decode(_ bytes: [UInt8], fitting target: (width: Int, height: Int))
    throws(ImageDecodingError)
    -> RGBImage
  {
    let format = ImageFormat(sniffing: bytes)
    var image: RGBImage
    switch format {
    case .jpeg: image = try JPEGDecoder.decode(bytes, fitting: target)
    case .png: image = try PNGDecoder.decode(bytes, fitting: target)
    case .webp: image = try WEBPDecoder.decode(bytes, fitting: target)
    case .gif: image = try GIFDecoder.decode(bytes, fitting: target)
    case .avif, .bmp, .tiff, .unknown: throw .unsupportedFormat(format)
    }
    image.source = RGBImage.Source(bytes: bytes, fitting: target)
    return image
  }

  /// The largest power-of-two reduction, 8 at most, at which a `width`×`height` picture
  /// still has the pixels it takes fitted in `target` with its shape kept; 1 if even a
  /// reduction by 2 would not.
  ///
  /// A picture is always shown fitted in a box, so it needs the box's pixels only in the
  /// direction that bounds it: a 1920 × 1440 photo for an 800 × 360 box is shown
  /// 480 × 360, and its quarter has exactly that. The fitted size is rounded up, so a
  /// reduction never leaves a pixel fewer than the picture is shown with.
  static func reduction(width: Int, height: Int, fitting target: (width: Int, height: Int)) -> Int {
    guard width > 0, height > 0 else { return 1 }
    // The fitted picture, never larger than the picture itself (and so no product here
    // overflows): the box cut to the picture's size fits it the same way.
    let (boxWidth, boxHeight) = (min(target.width, width), min(target.height, height))
    let fittedWidth = min(boxWidth, (width * boxHeight + height - 1) / height)
    let fittedHeight = min(boxHeight, (height * boxWidth + width - 1) / width)
    for factor in [8, 4, 2]
    where (width + factor - 1) / factor >= fittedWidth && (height + factor - 1) / factor >= fittedHeight {
      return factor
    }
    return 1
  }
}

/// A channel `value` with opacity `alpha` (0…255) drawn over `background`, rounded to the
/// nearest level: how every decoder here shows transparency (the picture tests' references
/// are blended the same way).
@inline(__always)
func blend(_ value: Int, over background: UInt8, alpha: Int) -> UInt8 {
  UInt8((value * alpha + Int(background) * (255 - alpha) + 127) / 255)
}
