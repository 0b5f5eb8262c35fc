import Foundation
import ImageDecoding
import TestSupport
import Testing

/// A JSON encoder that writes pictures' pixels into `store`.
func encoder(_ store: RGBImage.PixelStore) -> JSONEncoder {
  let encoder = JSONEncoder()
  encoder.userInfo[RGBImage.pixelStoreKey] = store
  return encoder
}

/// A JSON decoder that reads pictures' pixels from `store`.
func decoder(_ store: RGBImage.PixelStore) -> JSONDecoder {
  let decoder = JSONDecoder()
  decoder.userInfo[RGBImage.pixelStoreKey] = store
  return decoder
}

/// `data` as a JSON object.
func object(_ data: Data) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A picture written and read back: its pixels as one base64 `Data`, or as a key into a
/// pixel store.
struct RGBImageCodingTests {
  let picture = RGBImage(width: 2, height: 1, pixels: [1, 2, 3, 250, 251, 252], isReduced: true)

  @Test func thePixelsAreOneBase64String() throws {
    let data = try JSONEncoder().encode(picture)
    let json = try object(data)
    #expect(json["pixels"] as? String == Data(picture.pixels).base64EncodedString())
    #expect(json["width"] as? Int == 2 && json["height"] as? Int == 1)
    #expect(try JSONDecoder().decode(RGBImage.self, from: data) == picture)
  }

  @Test func pixelsOfTheWrongSizeAreRefused() throws {
    let data = Data(#"{"width": 2, "height": 2, "pixels": "AQID", "isReduced": false}"#.utf8)
    #expect {
      try JSONDecoder().decode(RGBImage.self, from: data)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription.contains("3 bytes of pixels for 2×2")
    }
  }

  /// A decoded picture is kept as the file it came from, a fraction of its pixels' size,
  /// and reading it decodes the file again to the same pixels.
  @Test func withAStoreADecodedPictureIsKeptAsItsFile() throws {
    let file = JPEGFixture.bytes("g-420-64x48.jpg")
    let decoded = try ImageDecoder.decode(file, fitting: (width: 16, height: 12))
    #expect(decoded.isReduced)
    let store = RGBImage.PixelStore()
    let line = try encoder(store).encode(decoded)
    let blobs = store.takeNew()
    #expect(blobs.map(\.bytes) == [file])
    let json = try object(line)
    #expect(json["decodedFrom"] as? String == blobs.first?.key)
    #expect(json["fitting"] as? [Int] == [16, 12])
    #expect(json["pixels"] == nil)
    let reader = RGBImage.PixelStore()
    for blob in blobs { reader.add(blob) }
    let read = try decoder(reader).decode(RGBImage.self, from: line)
    #expect(read == decoded)
    #expect(read.pixels == decoded.pixels)
    // Without a store, the pixels themselves.
    #expect(
      try object(try JSONEncoder().encode(decoded))["pixels"] as? String
        == Data(decoded.pixels).base64EncodedString())
  }

  @Test func aFileThatNoLongerDecodesToThePicturesSizeIsRefused() throws {
    let file = JPEGFixture.bytes("g-420-64x48.jpg")
    let store = RGBImage.PixelStore()
    let line = try encoder(store).encode(try ImageDecoder.decode(file, fitting: (width: 64, height: 48)))
    let reader = RGBImage.PixelStore()
    for blob in store.takeNew() { reader.add(blob) }
    let edited = Data(
      String(decoding: line, as: UTF8.self).replacingOccurrences(of: "\"width\":64", with: "\"width\":65")
        .utf8)
    #expect {
      try decoder(reader).decode(RGBImage.self, from: edited)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription == "The file the picture was decoded from decodes to 64×48, not 65×48."
    }
  }

  @Test func withAStoreThePixelsAreKeptOnceAndWrittenAsTheirKey() throws {
    let store = RGBImage.PixelStore()
    let first = try encoder(store).encode([picture, picture])
    let blobs = store.takeNew()
    #expect(blobs.count == 1)
    let key = try #require(blobs.first?.key)
    #expect(key.count == 16 && key.allSatisfy(\.isHexDigit))
    #expect(blobs.first?.bytes == picture.pixels)
    #expect(String(decoding: first, as: UTF8.self).contains("\"pixels\":\"\(key)\""))
    // Taken out once: writing the same picture again has nothing new to write.
    _ = try encoder(store).encode(picture)
    #expect(store.takeNew().isEmpty)
    #expect(try decoder(store).decode([RGBImage].self, from: first) == [picture, picture])
  }

  @Test func aReaderRestoresThePixelsFromTheBlobsOfALog() throws {
    let writer = RGBImage.PixelStore()
    let line = try encoder(writer).encode(picture)
    let blobLines = try writer.takeNew().map { try JSONEncoder().encode($0) }
    let reader = RGBImage.PixelStore()
    for blobLine in blobLines {
      reader.add(try JSONDecoder().decode(RGBImage.PixelStore.Blob.self, from: blobLine))
    }
    #expect(try decoder(reader).decode(RGBImage.self, from: line) == picture)
    // What a reader added is in the log already: not new.
    #expect(reader.takeNew().isEmpty)
  }

  @Test func aMissingBlobIsNamedInTheError() throws {
    let line = try encoder(RGBImage.PixelStore()).encode(picture)
    let key = try #require(try object(line)["pixels"] as? String)
    #expect {
      try decoder(RGBImage.PixelStore()).decode(RGBImage.self, from: line)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription.contains(key) && context.codingPath.last?.stringValue == "pixels"
    }
  }

  @Test func otherPixelsOfTheSameKeyAreKeptApart() throws {
    // Pixels a reader added under a key that encoding would give other pixels.
    let store = RGBImage.PixelStore()
    let key = try #require(
      try object(try encoder(RGBImage.PixelStore()).encode(picture))["pixels"] as? String)
    store.add(RGBImage.PixelStore.Blob(key: key, bytes: [9, 9, 9, 9, 9, 9]))
    let line = try encoder(store).encode(picture)
    #expect(try object(line)["pixels"] as? String == key + "-1")
    #expect(try decoder(store).decode(RGBImage.self, from: line) == picture)
  }
}

/// A picture's identity: what caches of work done on it key on.
struct RGBImageIdentityTests {
  @Test func copiesShareAnIdentityAndAPictureMadeAnewHasItsOwn() throws {
    let picture = RGBImage(width: 1, height: 1, pixels: [1, 2, 3])
    var copy = picture
    copy.isReduced = true
    #expect(copy.identity === picture.identity)
    let again = try JSONDecoder().decode(RGBImage.self, from: JSONEncoder().encode(picture))
    #expect(again == picture && again.identity !== picture.identity)
  }
}
