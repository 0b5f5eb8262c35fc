import Foundation
import Synchronization

/// A picture is written as its size, its pixels and whether it is reduced:
/// `{"width": 4, "height": 3, "pixels": "<base64>", "isReduced": false}`, the pixels as one
/// `Data` (base64 in JSON).
///
/// With a ``PixelStore`` in the coder's `userInfo` under ``pixelStoreKey``, the bytes are
/// kept in the store instead, each once, under a hash of them: a log that holds the same
/// picture in many actions holds it once. A picture ``ImageDecoder/decode(_:fitting:)``
/// made is kept as what it was decoded from (its ``source``: the encoded file, far smaller
/// than its pixels), with `"decodedFrom"` the key and `"fitting"` the size; reading it
/// decodes the file again, which gives the same pixels. Any other picture keeps its pixels,
/// with `"pixels"` the key.
extension RGBImage: Codable {
  private enum CodingKeys: String, CodingKey {
    case width, height, pixels, isReduced, decodedFrom, fitting
  }

  /// Where an encoder's or a decoder's `userInfo` holds the ``PixelStore`` pictures are
  /// written to and read from.
  public static let pixelStoreKey = CodingUserInfoKey(rawValue: "ImageDecoding.RGBImage.pixelStore")!

  /// Writes the size and the pixels: the bytes themselves, or, with a ``PixelStore`` under
  /// ``pixelStoreKey``, the key the store keeps them (or the file they were decoded from)
  /// under.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(width, forKey: .width)
    try container.encode(height, forKey: .height)
    if let store = encoder.userInfo[Self.pixelStoreKey] as? PixelStore {
      if let source {
        try container.encode(store.keep(source.bytes), forKey: .decodedFrom)
        try container.encode([source.fitting.width, source.fitting.height], forKey: .fitting)
      } else {
        try container.encode(store.keep(pixels), forKey: .pixels)
      }
    } else {
      try container.encode(Data(pixels), forKey: .pixels)
    }
    try container.encode(isReduced, forKey: .isReduced)
  }

  /// Reads what ``encode(to:)`` wrote. With a ``PixelStore`` under ``pixelStoreKey``,
  /// `pixels` or `decodedFrom` is a key the store must hold.
  ///
  /// - Throws: `DecodingError.dataCorrupted` where the store holds nothing under the key,
  ///   where the pixels are not `width × height × 3` bytes, or where the file a picture was
  ///   decoded from does not decode again to its size.
  public init(from decoder: any Swift.Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let width = try container.decode(Int.self, forKey: .width)
    let height = try container.decode(Int.self, forKey: .height)
    let store = decoder.userInfo[Self.pixelStoreKey] as? PixelStore
    func stored(_ key: CodingKeys) throws -> [UInt8] {
      let name = try container.decode(String.self, forKey: key)
      guard let bytes = store?.bytes(forKey: name) else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container,
          debugDescription: "No bytes are stored under \(name): the blob the picture refers to is missing.")
      }
      return bytes
    }
    if store != nil, container.contains(.decodedFrom) {
      let file = try stored(.decodedFrom)
      let fitting = try container.decode([Int].self, forKey: .fitting)
      guard fitting.count == 2 else {
        throw DecodingError.dataCorruptedError(
          forKey: .fitting, in: container, debugDescription: "The size a picture fits is [width, height].")
      }
      let image: RGBImage
      do {
        image = try ImageDecoder.decode(file, fitting: (fitting[0], fitting[1]))
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .decodedFrom, in: container,
          debugDescription: "The file the picture was decoded from does not decode: \(error.message)")
      }
      guard image.width == width, image.height == height else {
        throw DecodingError.dataCorruptedError(
          forKey: .decodedFrom, in: container,
          debugDescription:
            "The file the picture was decoded from decodes to \(image.width)×\(image.height), not \(width)×\(height)."
        )
      }
      self = image
      return
    }
    let pixels =
      store != nil ? try stored(.pixels) : [UInt8](try container.decode(Data.self, forKey: .pixels))
    let (area, overflow) = width.multipliedReportingOverflow(by: height)
    guard width >= 0, height >= 0, !overflow, area <= Int.max / 3, pixels.count == area * 3 else {
      throw DecodingError.dataCorruptedError(
        forKey: .pixels, in: container,
        debugDescription:
          "\(pixels.count) bytes of pixels for \(width)×\(height): a picture has width × height × 3.")
    }
    self.init(
      width: width, height: height, pixels: pixels,
      isReduced: try container.decodeIfPresent(Bool.self, forKey: .isReduced) ?? false)
  }
}

extension RGBImage {
  /// Pictures by content, for a log that stores each picture once: put one in an encoder's
  /// or a decoder's `userInfo` under ``RGBImage/pixelStoreKey``.
  ///
  /// Encoding a picture keeps its bytes here (the file it was decoded from, or its
  /// pixels), under the hex of their 64-bit FNV-1a hash, and writes the key in their place;
  /// the bytes kept since the owner last asked are ``takeNew()``'s to write out, each once,
  /// before what refers to them. Reading a log, its blobs are ``add(_:)``ed before the
  /// lines that refer to them, and decoding a picture takes its bytes from here.
  ///
  /// ```swift
  /// let store = RGBImage.PixelStore()
  /// let encoder = JSONEncoder()
  /// encoder.userInfo[RGBImage.pixelStoreKey] = store
  /// let line = try encoder.encode(action)
  /// for blob in store.takeNew() { write(try JSONEncoder().encode(blob)) }
  /// write(line)
  /// ```
  public final class PixelStore: Sendable {
    /// Bytes (a picture's pixels, or the file it was decoded from) and the key they are
    /// kept under: a line of a log.
    public struct Blob: Equatable, Sendable, Codable {
      /// The key pictures refer to the bytes by.
      public var key: String
      /// The bytes, written as one `Data` (base64 in JSON).
      public var bytes: [UInt8]

      /// Creates a blob.
      ///
      /// - Parameters:
      ///   - key: The key pictures refer to the bytes by.
      ///   - bytes: The bytes.
      public init(key: String, bytes: [UInt8]) {
        self.key = key
        self.bytes = bytes
      }

      private enum CodingKeys: String, CodingKey {
        case key, bytes
      }

      /// Reads a blob ``encode(to:)`` wrote.
      public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
          key: try container.decode(String.self, forKey: .key),
          bytes: [UInt8](try container.decode(Data.self, forKey: .bytes)))
      }

      /// Writes `{"key": …, "bytes": "<base64>"}`.
      public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(Data(bytes), forKey: .bytes)
      }
    }

    private struct Contents {
      var bytes: [String: [UInt8]] = [:]
      /// The keys kept by encoding and not yet taken out, in the order they were kept.
      var new: [String] = []
    }

    private let contents = Mutex(Contents())

    /// Creates an empty store.
    public init() {}

    /// Adds bytes under the key a log gives them, as a reader does with each blob before
    /// the lines that refer to it. They are not new: ``takeNew()`` does not give them back.
    ///
    /// - Parameter blob: The bytes and their key.
    public func add(_ blob: Blob) {
      contents.withLock { $0.bytes[blob.key] = blob.bytes }
    }

    /// The bytes kept under `key`, if any.
    ///
    /// - Parameter key: A key a picture was written with.
    /// - Returns: The bytes, or `nil`.
    public func bytes(forKey key: String) -> [UInt8]? {
      contents.withLock { $0.bytes[key] }
    }

    /// Takes out the bytes encoding kept since the last call, in the order they were kept:
    /// what a log writer writes before the line that refers to them.
    ///
    /// - Returns: Each blob once.
    public func takeNew() -> [Blob] {
      contents.withLock { contents in
        defer { contents.new = [] }
        return contents.new.map { Blob(key: $0, bytes: contents.bytes[$0]!) }
      }
    }

    /// Keeps `bytes` (once, however often they are kept) and returns their key: the hex of
    /// their FNV-1a hash, with `-1`, `-2`… after it for other bytes of the same hash.
    func keep(_ bytes: [UInt8]) -> String {
      let hash = Self.hash(bytes)
      return contents.withLock { contents in
        var key = hash
        var collisions = 0
        while let kept = contents.bytes[key] {
          if kept == bytes { return key }
          collisions += 1
          key = "\(hash)-\(collisions)"
        }
        contents.bytes[key] = bytes
        contents.new.append(key)
        return key
      }
    }

    /// The 64-bit FNV-1a hash of `bytes`, as 16 hex digits.
    static func hash(_ bytes: [UInt8]) -> String {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      let digits = String(hash, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
  }
}
