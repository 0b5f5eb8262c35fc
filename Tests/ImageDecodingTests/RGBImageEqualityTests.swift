import Testing

@testable import ImageDecoding

/// Two pictures are equal when their size, pixels and reduction are, wherever they came
/// from: a copy at once, another picture by its pixels.
struct RGBImageEqualityTests {
  let pixels: [UInt8] = (0..<(64 * 48 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31) }

  @Test func picturesAreEqualByTheirPixelsNotTheirIdentity() {
    let picture = RGBImage(width: 64, height: 48, pixels: pixels)
    let copy = picture
    let twin = RGBImage(width: 64, height: 48, pixels: Array(pixels))
    #expect(copy == picture && copy.identity === picture.identity)
    #expect(twin == picture && twin.identity !== picture.identity)
    #expect(twin.hashValue == picture.hashValue)
    // One byte anywhere, the last included, makes another picture.
    for index in [0, pixels.count / 2, pixels.count - 1] {
      var changed = pixels
      changed[index] ^= 1
      #expect(RGBImage(width: 64, height: 48, pixels: changed) != picture, "byte \(index)")
    }
    // The same bytes in another shape, or reduced, are another picture; a copy marked
    // reduced is too.
    #expect(RGBImage(width: 48, height: 64, pixels: pixels) != picture)
    #expect(RGBImage(width: 64, height: 48, pixels: pixels, isReduced: true) != picture)
    var reduced = copy
    reduced.isReduced = true
    #expect(reduced != picture)
    #expect(RGBImage(width: 0, height: 0, pixels: []) == RGBImage(width: 0, height: 0, pixels: []))
  }
}
