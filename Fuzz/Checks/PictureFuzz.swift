import ImageDecoding

/// The picture decoders' harnesses: whatever the input, decoding ends in an error or in a
/// picture whose pixel buffer matches its size, never in a crash or a hang.
public enum PictureFuzz {
  /// The JPEG decoder at every scale.
  public static func jpeg(_ bytes: [UInt8]) throws(FuzzFailure) {
    // Large pictures are decoded at 1/8 only (all entropy data is still decoded), so each
    // input stays fast enough for millions of runs.
    guard let size = try? JPEGDecoder.size(of: bytes) else { return }
    // Small ones also at 1/2 or 1/4 (alternating with the input's length), which run the
    // reduced inverse DCTs.
    let reduced: JPEGDecoder.Scale = bytes.count % 2 == 0 ? .half : .quarter
    let scales: [JPEGDecoder.Scale] =
      size.width * size.height <= 256 * 256 ? [.full, reduced, .eighth] : [.eighth]
    for scale in scales {
      try whole(try? JPEGDecoder.decode(bytes, scale: scale))
    }
  }

  /// The PNG decoder and its inflater.
  public static func png(_ bytes: [UInt8]) throws(FuzzFailure) {
    var bytes = bytes
    // Mutations rarely keep a chunk's CRC right, and a wrong one stops decoding at once:
    // the input's CRCs are recomputed, so that the damage reaches the inflater and the
    // filters (an input whose length is a multiple of 7 keeps its own, to test the check).
    if bytes.count % 7 != 0 { fixChecksums(&bytes) }
    // Pictures larger than 256×256 pixels are skipped: a tiny input declaring a large size
    // is refused quickly or inflates to its limit, and would slow the search down.
    guard let size = try? PNGDecoder.size(of: bytes), size.width * size.height <= 256 * 256 else { return }
    try whole(try? PNGDecoder.decode(bytes, fitting: (size.width / 3, size.height / 3)))
  }

  /// The WEBP decoders (lossy, lossless, transparency).
  public static func webp(_ bytes: [UInt8]) throws(FuzzFailure) {
    // Pictures larger than 256×256 pixels are skipped: a tiny input declaring a large size
    // decodes every macroblock from zeros, which would slow the search down.
    guard let size = try? WEBPDecoder.size(of: bytes), size.width * size.height <= 256 * 256 else { return }
    try whole(try? WEBPDecoder.decode(bytes, fitting: (size.width / 3, size.height / 3)))
  }

  /// The GIF decoder, for the first frame and for every frame: an animation is decoded
  /// where the first frame is, starts with that frame, and has frames of one size.
  public static func gif(_ bytes: [UInt8]) throws(FuzzFailure) {
    // Canvases larger than 256×256 pixels are skipped, as for the other decoders.
    guard bytes.count >= 10, Int(bytes[6]) | Int(bytes[7]) << 8 <= 256,
      Int(bytes[8]) | Int(bytes[9]) << 8 <= 256
    else { return }
    let first = try? GIFDecoder.decode(bytes, fitting: (16, 16))
    try whole(first)
    let animation = try? GIFDecoder.decodeAnimation(bytes, fitting: (16, 16))
    try require(
      (animation == nil) == (first == nil), "the first frame \(first == nil ? "failed" : "decoded") alone")
    guard let animation, let first else { return }
    try require(animation.frames.first?.image == first, "an animation starting with another first frame")
    for frame in animation.frames {
      try whole(frame.image)
      try require(
        frame.image.width == first.width && frame.image.height == first.height,
        "a \(frame.image.width)×\(frame.image.height) frame after a \(first.width)×\(first.height) one")
    }
  }

  /// A decoded picture (if any) has exactly the pixels its size says.
  private static func whole(_ image: RGBImage?) throws(FuzzFailure) {
    guard let image else { return }
    try require(
      image.pixels.count == image.width * image.height * 3,
      "a \(image.width)×\(image.height) picture with \(image.pixels.count) bytes of pixels")
  }

  /// Rewrites every chunk's CRC to match its contents.
  private static func fixChecksums(_ bytes: inout [UInt8]) {
    var position = 8
    while position + 12 <= bytes.count {
      let length =
        Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8
        | Int(bytes[position + 3])
      let end = position + 8 + length
      guard length >= 0, end + 4 <= bytes.count else { return }
      let crc = crc32(bytes[position + 4..<end])
      bytes[end] = UInt8(crc >> 24)
      bytes[end + 1] = UInt8(crc >> 16 & 0xFF)
      bytes[end + 2] = UInt8(crc >> 8 & 0xFF)
      bytes[end + 3] = UInt8(crc & 0xFF)
      position = end + 4
    }
  }
}
