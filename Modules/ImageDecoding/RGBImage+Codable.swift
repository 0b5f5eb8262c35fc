import Foundation
import Synchronization

/// A picture is written as its size, its pixels and whether it is reduced:
/// `{"width": 4, "height": 3, "pixels": "<base64>", "isReduced": false}`, the pixels as one
/// `Data` (base64 in JSON).
///
/// With a ``PixelStore`` in the coder's `userInfo` under ``pixelStoreKey``, the pixels are
/// kept in the store instead, and `pixels` is the key they are kept under (the hex of a hash
/// of their bytes): a log that holds the same picture in many actions holds its bytes once.
extension RGBImage: Codable {
  private enum CodingKeys: String, CodingKey {
    case width, height, pixels, isReduced
  }

  /// Where an encoder's or a decoder's `userInfo` holds the ``PixelStore`` pictures' pixels
  /// are written to and read from.
  public static let pixelStoreKey = CodingUserInfoKey(rawValue: "ImageDecoding.RGBImage.pixelStore")!

  /// Writes the size and the pixels: the bytes themselves, or, with a ``PixelStore`` under
  /// ``pixelStoreKey``, the key the store keeps them under.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(width, forKey: .width)
    try container.encode(height, forKey: .height)
    if let store = encoder.userInfo[Self.pixelStoreKey] as? PixelStore {
      try container.encode(store.keep(pixels), forKey: .pixels)
    } else {
      try container.encode(Data(pixels), forKey: .pixels)
    }
    try container.encode(isReduced, forKey: .isReduced)
  }

  /// Reads what ``encode(to:)`` wrote. With a ``PixelStore`` under ``pixelStoreKey``,
  /// `pixels` is a key the store must hold.
  ///
  /// - Throws: `DecodingError.dataCorrupted` where the store holds nothing under the key,
  ///   or where the pixels are not `width × height × 3` bytes.
  public init(from decoder: any Swift.Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let width = try container.decode(Int.self, forKey: .width)
    let height = try container.decode(Int.self, forKey: .height)
    let pixels: [UInt8]
    if let store = decoder.userInfo[Self.pixelStoreKey] as? PixelStore {
      let key = try container.decode(String.self, forKey: .pixels)
      guard let stored = store.pixels(forKey: key) else {
        throw DecodingError.dataCorruptedError(
          forKey: .pixels, in: container,
          debugDescription: "No pixels are stored under \(key): the blob the picture refers to is missing.")
      }
      pixels = stored
    } else {
      pixels = [UInt8](try container.decode(Data.self, forKey: .pixels))
    }
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
  /// Pictures' pixels by content, for a log that stores each picture once: put one in an
  /// encoder's or a decoder's `userInfo` under ``RGBImage/pixelStoreKey``.
  ///
  /// Encoding a picture keeps its pixels here, under the hex of their 64-bit FNV-1a hash,
  /// and writes the key in their place; the pixels kept since the owner last asked are
  /// ``takeNew()``'s to write out, each once, before what refers to them. Reading a log, its
  /// blobs are ``add(_:)``ed before the lines that refer to them, and decoding a picture
  /// takes its pixels from here.
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
    /// Pixels and the key they are kept under: a line of a log.
    public struct Blob: Equatable, Sendable, Codable {
      /// The key pictures refer to the pixels by.
      public var key: String
      /// The pixels, written as one `Data` (base64 in JSON).
      public var pixels: [UInt8]

      /// Creates a blob.
      ///
      /// - Parameters:
      ///   - key: The key pictures refer to the pixels by.
      ///   - pixels: The pixels.
      public init(key: String, pixels: [UInt8]) {
        self.key = key
        self.pixels = pixels
      }

      private enum CodingKeys: String, CodingKey {
        case key, pixels
      }

      /// Reads a blob ``encode(to:)`` wrote.
      public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
          key: try container.decode(String.self, forKey: .key),
          pixels: [UInt8](try container.decode(Data.self, forKey: .pixels)))
      }

      /// Writes `{"key": …, "pixels": "<base64>"}`.
      public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(Data(pixels), forKey: .pixels)
      }
    }

    private struct Contents {
      var pixels: [String: [UInt8]] = [:]
      /// The keys kept by encoding and not yet taken out, in the order they were kept.
      var new: [String] = []
    }

    private let contents = Mutex(Contents())

    /// Creates an empty store.
    public init() {}

    /// Adds pixels under the key a log gives them, as a reader does with each blob before
    /// the lines that refer to it. They are not new: ``takeNew()`` does not give them back.
    ///
    /// - Parameter blob: The pixels and their key.
    public func add(_ blob: Blob) {
      contents.withLock { $0.pixels[blob.key] = blob.pixels }
    }

    /// The pixels kept under `key`, if any.
    ///
    /// - Parameter key: A key a picture was written with.
    /// - Returns: The pixels, or `nil`.
    public func pixels(forKey key: String) -> [UInt8]? {
      contents.withLock { $0.pixels[key] }
    }

    /// Takes out the pixels encoding kept since the last call, in the order they were kept:
    /// what a log writer writes before the line that refers to them.
    ///
    /// - Returns: Each blob once.
    public func takeNew() -> [Blob] {
      contents.withLock { contents in
        defer { contents.new = [] }
        return contents.new.map { Blob(key: $0, pixels: contents.pixels[$0]!) }
      }
    }

    /// Keeps `pixels` (once, however often they are kept) and returns their key: the hex
    /// of their FNV-1a hash, with `-1`, `-2`… after it for other pixels of the same hash.
    func keep(_ pixels: [UInt8]) -> String {
      let hash = Self.hash(pixels)
      return contents.withLock { contents in
        var key = hash
        var collisions = 0
        while let kept = contents.pixels[key] {
          if kept == pixels { return key }
          collisions += 1
          key = "\(hash)-\(collisions)"
        }
        contents.pixels[key] = pixels
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
