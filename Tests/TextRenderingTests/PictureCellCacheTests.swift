import ImageDecoding
import Testing

@testable import TextRendering

/// Pictures' cells kept while their pictures live: fitted once per picture and size.
struct PictureCellCacheTests {
  /// A 32 × 16 gradient, its own picture each time (an identity of its own).
  static func picture(_ seed: UInt8 = 0) -> RGBImage {
    var pixels: [UInt8] = []
    for y in 0..<16 {
      for x in 0..<32 { pixels += [UInt8(x * 8), UInt8(y * 16), seed] }
    }
    return RGBImage(width: 32, height: 16, pixels: pixels)
  }

  @Test func thePictureAtTheSameSizeIsFittedOnceAndDrawnAsTheRendererDrawsIt() {
    let cache = PictureCellCache(capacity: 10_000)
    let image = Self.picture()
    let first = cache.cells(image, mode: .blocks, columns: 8, rows: 4, symbols: .block)
    #expect(first == PictureRenderer.render(image, mode: .blocks, columns: 8, rows: 4, symbols: .block))
    #expect(cache.hits == 0 && cache.count == first.cells.count)
    let copy = image
    #expect(cache.cells(copy, mode: .blocks, columns: 8, rows: 4, symbols: .block) == first)
    #expect(cache.hits == 1)
    // Another size, another mode, other symbols: fitted again, and kept beside it.
    _ = cache.cells(image, mode: .blocks, columns: 6, rows: 3, symbols: .block)
    _ = cache.cells(image, mode: .ascii, columns: 8, rows: 4, colorMode: .truecolor)
    _ = cache.cells(image, mode: .blocks, columns: 8, rows: 4, symbols: .half)
    #expect(cache.hits == 1)
    #expect(cache.kept(image, mode: .blocks, columns: 6, rows: 3, symbols: .block) != nil)
    // The same pixels in a picture made anew: its own cells.
    #expect(cache.kept(Self.picture(), mode: .blocks, columns: 8, rows: 4, symbols: .block) == nil)
  }

  /// A picture no longer held anywhere else is not kept alive by its cells: they go at the
  /// next insertion.
  @Test func theCellsOfAPictureGoneGoAtTheNextInsertion() {
    let cache = PictureCellCache(capacity: 10_000)
    var image: RGBImage? = Self.picture(1)
    _ = cache.cells(image!, mode: .blocks, columns: 8, rows: 4)
    let kept = cache.count
    #expect(kept > 0)
    weak let identity = image?.identity
    image = nil
    #expect(identity == nil)
    let other = Self.picture(2)
    let cells = cache.cells(other, mode: .blocks, columns: 4, rows: 2)
    #expect(cache.count == cells.cells.count)
  }

  /// Past its capacity, the cache lets go of the cells used least recently.
  @Test func pastItsCapacityTheLeastRecentlyUsedGo() {
    let size = PictureRenderer.render(Self.picture(), mode: .blocks, columns: 8, rows: 4).cells.count
    let cache = PictureCellCache(capacity: size * 2)
    let (a, b, c) = (Self.picture(1), Self.picture(2), Self.picture(3))
    _ = cache.cells(a, mode: .blocks, columns: 8, rows: 4)
    _ = cache.cells(b, mode: .blocks, columns: 8, rows: 4)
    _ = cache.cells(a, mode: .blocks, columns: 8, rows: 4)
    _ = cache.cells(c, mode: .blocks, columns: 8, rows: 4)
    #expect(cache.kept(a, mode: .blocks, columns: 8, rows: 4) != nil)
    #expect(cache.kept(b, mode: .blocks, columns: 8, rows: 4) == nil)
    #expect(cache.kept(c, mode: .blocks, columns: 8, rows: 4) != nil)
    #expect(cache.count == size * 2)
    // Cells that could never fit are drawn, not kept.
    let tiny = PictureCellCache(capacity: 3)
    #expect(tiny.cells(a, mode: .blocks, columns: 8, rows: 4).cells.count == size && tiny.count == 0)
  }

  /// Layout draws pictures through the shared cache.
  @Test func layoutKeepsThePicturesItDraws() {
    let image = Self.picture(4)
    let options = Display(colorMode: .truecolor)
    let frame = Layout.render(
      .picture(PictureNode(image: image, caption: [])), width: 8, height: 4, display: options)
    let kept = PictureCellCache.shared.kept(
      image, mode: .blocks, columns: 8, rows: 4, colorMode: .truecolor, symbols: options.symbols)
    #expect(kept != nil && kept?.cells.first == frame[0, 0])
  }
}
