import Foundation

/// An animation is written as its frames (each a picture, as ``RGBImage`` writes one, and
/// its delay), how many times they play, and whether it is complete:
/// `{"frames": [{"image": …, "delay": …}], "plays": …, "isComplete": true}`.
///
/// With a ``RGBImage/PixelStore`` in the coder's `userInfo` under
/// ``RGBImage/pixelStoreKey``, an animation ``GIFDecoder/decodeAnimation(_:fitting:limits:)``
/// made is kept as what it was decoded from (its ``source``): the file, in the store once
/// (the same blob as its first frame's picture, which ``ImageDecoder/decode(_:fitting:)``
/// made from the same file), with `"decodedFrom"` the key, the size it fitted, the limits,
/// the count of frames and the plays. Reading it decodes the file again, which gives the
/// same frames: a log holds an animation's pixels as the file, not frame by frame.
extension Animation: Codable {
  private enum CodingKeys: String, CodingKey {
    case frames, plays, isComplete, decodedFrom, fitting, limits, frameCount
  }

  /// Writes the frames, or, with a ``RGBImage/PixelStore`` under ``RGBImage/pixelStoreKey``
  /// and a ``source``, the key the store keeps the file under and how it was decoded.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(plays, forKey: .plays)
    if let store = encoder.userInfo[RGBImage.pixelStoreKey] as? RGBImage.PixelStore, let source {
      try container.encode(store.keep(source.bytes), forKey: .decodedFrom)
      if let fitting = source.fitting {
        try container.encode([fitting.width, fitting.height], forKey: .fitting)
      }
      try container.encode(source.limits, forKey: .limits)
      try container.encode(frames.count, forKey: .frameCount)
    } else {
      try container.encode(frames, forKey: .frames)
      try container.encode(isComplete, forKey: .isComplete)
    }
  }

  /// Reads what ``encode(to:)`` wrote. With a ``RGBImage/PixelStore`` under
  /// ``RGBImage/pixelStoreKey``, `decodedFrom` is a key the store must hold.
  ///
  /// - Throws: `DecodingError.dataCorrupted` where the store holds nothing under the key,
  ///   where the file does not decode again to as many frames, or where there are no frames.
  public init(from decoder: any Swift.Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let plays = try container.decode(Plays.self, forKey: .plays)
    if let store = decoder.userInfo[RGBImage.pixelStoreKey] as? RGBImage.PixelStore,
      container.contains(.decodedFrom)
    {
      let key = try container.decode(String.self, forKey: .decodedFrom)
      guard let file = store.bytes(forKey: key) else {
        throw DecodingError.dataCorruptedError(
          forKey: .decodedFrom, in: container,
          debugDescription: "No bytes are stored under \(key): the blob the animation refers to is missing.")
      }
      let fitting = try container.decodeIfPresent([Int].self, forKey: .fitting)
      guard fitting == nil || fitting?.count == 2 else {
        throw DecodingError.dataCorruptedError(
          forKey: .fitting, in: container, debugDescription: "The size an animation fits is [width, height].")
      }
      let limits = try container.decode(Limits.self, forKey: .limits)
      let count = try container.decode(Int.self, forKey: .frameCount)
      do {
        self = try GIFDecoder.decodeAnimation(
          file, fitting: fitting.map { ($0[0], $0[1]) }, limits: limits)
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .decodedFrom, in: container,
          debugDescription: "The file the animation was decoded from does not decode: \(error.message)")
      }
      guard frames.count == count else {
        throw DecodingError.dataCorruptedError(
          forKey: .decodedFrom, in: container,
          debugDescription:
            "The file the animation was decoded from has \(frames.count) frames, not \(count).")
      }
      self.plays = plays
      return
    }
    let frames = try container.decode([AnimationFrame].self, forKey: .frames)
    guard !frames.isEmpty else {
      throw DecodingError.dataCorruptedError(
        forKey: .frames, in: container, debugDescription: "An animation has at least one frame.")
    }
    self.init(
      frames: frames, plays: plays,
      isComplete: try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? true)
  }
}
