import ImageDecoding
import Testing

@testable import TextRendering

struct PictureRendererTests {
  func image(_ width: Int, _ height: Int, _ pixels: [[UInt8]]) -> RGBImage {
    RGBImage(width: width, height: height, pixels: pixels.flatMap { $0 })
  }

  @Test func aHalfBlockShowsTheTopPixelAboveTheBottomOne() {
    let cells = PictureRenderer.render(
      image(1, 2, [[255, 0, 0], [0, 0, 255]]), mode: .blocks, columns: 1, rows: 1)
    #expect(cells.columns == 1 && cells.rows == 1)
    #expect(
      cells.cells == [Cell("▀", style: Style(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255)))])
  }

  @Test func noCellsWithoutRoomOrForAModeThatDrawsNone() {
    let grey = image(4, 4, Array(repeating: [128, 128, 128], count: 16))
    for (mode, columns, rows) in [
      (PictureMode.blocks, 0, 5), (.blocks, 5, 0), (.ascii, -1, 5), (.none, 5, 5), (.terminal, 5, 5),
    ] {
      let cells = PictureRenderer.render(grey, mode: mode, columns: columns, rows: rows)
      #expect(cells.columns == 0 && cells.rows == 0 && cells.cells.isEmpty, "\(mode) \(columns)×\(rows)")
    }
    #expect(PictureRenderer.render(grey, mode: .ascii, columns: 2, rows: 1).cells.count == 2)
  }

  @Test func thePictureKeepsItsShapeInCellsTwiceAsTallAsWide() {
    let wide = image(10, 3, Array(repeating: [1, 2, 3], count: 30))
    // 10 columns of a 10 × 3 picture are 1.5 rows: rounded to 2.
    #expect(PictureRenderer.fittedSize(wide, columns: 10, rows: 10, symbols: .half) == (10, 2))
    let square = image(4, 4, Array(repeating: [1, 2, 3], count: 16))
    #expect(PictureRenderer.fittedSize(square, columns: 10, rows: 2) == (4, 2))  // the height decides
    #expect(PictureRenderer.fittedSize(square, columns: 4, rows: 10) == (4, 2))  // the width decides
    // Where the height decides, the width is rounded too: one row of a 23 × 10 picture is 4.6
    // columns, so 5.
    let frieze = image(23, 10, Array(repeating: [1, 2, 3], count: 230))
    #expect(PictureRenderer.fittedSize(frieze, columns: 100, rows: 1) == (5, 1))
    #expect(PictureRenderer.fittedSize(square, columns: 0, rows: 10) == (0, 0))
  }

  /// ASCII without colour: a lighter grey takes a glyph with more ink (on a dark
  /// background), from a space for the darkest to a dense glyph for the lightest; on a light
  /// background the other way round.
  @Test(arguments: [false, true])
  func asciiWithoutColourPutsMoreInkOnTheLight(lightBackground: Bool) {
    let row: [[UInt8]] = (0..<64).map { (x: Int) -> [UInt8] in
      let level = UInt8(x * 4)
      return [level, level, level]
    }
    let greys = image(64, 8, Array(repeating: row, count: 8).flatMap { $0 })
    let cells = PictureRenderer.render(
      greys, mode: .ascii, columns: 16, rows: 1, lightBackground: lightBackground,
      cell: .init(width: 4, height: 8))
    #expect(cells.columns == 16 && cells.rows == 1)
    let ink = cells.cells.map { Self.ink($0.character) }
    let (dark, light) = lightBackground ? (ink.last!, ink.first!) : (ink.first!, ink.last!)
    #expect(dark < 1 && light > 6, "\(cells.cells.map { $0.character })")
    // Rising (or falling) overall: no quarter has less ink than the one before (the
    // lightest are the densest glyphs alike).
    let quarters = stride(from: 0, to: 16, by: 4).map { ink[$0..<$0 + 4].reduce(0, +) }
    let ordered = lightBackground ? Array(quarters.reversed()) : quarters
    #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0 <= $1 }, "\(quarters)")
    #expect(ordered[0] < ordered[1] && ordered[1] < ordered[2], "\(quarters)")
    #expect(cells.cells.allSatisfy { $0.style == Style.plain })
  }

  /// A glyph's ink: the sum of its coverage.
  static func ink(_ character: Character) -> Float {
    GlyphSet.ascii.coverage[GlyphSet.ascii.characters.firstIndex(of: character) ?? 0].reduce(0, +)
  }

  /// Four parts of blue, of red and of green.
  static let primaryRow: [[UInt8]] =
    Array(repeating: [0, 0, 255], count: 4) + Array(repeating: [255, 0, 0], count: 4)
    + Array(repeating: [0, 255, 0], count: 4)

  /// Brightness as the eye sees it: full green brighter than full red, and red than blue.
  @Test func asciiWeighsTheColoursAsTheEyeDoes() {
    let primaries = image(
      12, 8,
      Array(repeating: Self.primaryRow, count: 8).flatMap { $0 })
    let characters = PictureRenderer.render(
      primaries, mode: .ascii, columns: 3, rows: 1, cell: .init(width: 4, height: 8)
    ).cells.map(\.character)
    let ink = characters.map(Self.ink)
    #expect(ink[0] < ink[1] && ink[1] < ink[2], "\(characters)")
  }

  /// Where there is colour, ASCII colours each cell's background too: a bright picture
  /// stays bright (dense characters on the terminal's black would be dark).
  @Test(arguments: [ColorMode.truecolor, .ansi256, .ansi16])
  func asciiInColourPaintsTheBackground(colorMode: ColorMode) {
    let white = image(32, 16, Array(repeating: [250, 250, 250], count: 32 * 16))
    let cells = PictureRenderer.render(white, mode: .ascii, columns: 8, rows: 2, colorMode: colorMode)
    #expect(cells.columns == 8 && cells.rows == 2)
    // (In fewer colours, from palette entries dithered: near white.)
    #expect(
      cells.cells.allSatisfy {
        guard case .rgb(let r, let g, let b)? = $0.style.background else { return false }
        return colorMode == .truecolor ? (r, g, b) == (250, 250, 250) : min(r, g, b) >= 220
      }, "\(cells.cells)")
    // Without colour, or not knowing it: glyphs alone, the densest for white.
    for none: ColorMode? in [ColorMode.none, nil] {
      let plain = PictureRenderer.render(white, mode: .ascii, columns: 8, rows: 2, colorMode: none)
      #expect(plain.cells.allSatisfy { $0.character != " " && $0.style == Style.plain }, "\(plain.cells)")
    }
  }

  /// One cell of 4 × 8 parts, `ink` where `isInk(x, y)` and `paper` elsewhere.
  func cell(ink: [UInt8], paper: [UInt8], _ isInk: (Int, Int) -> Bool) -> RGBImage {
    image(4, 8, (0..<32).map { isInk($0 % 4, $0 / 4) ? ink : paper })
  }

  /// A cell whose top is light and the rest dark is drawn with light ink at the top, or
  /// dark ink below it; a flat cell is a space on its colour.
  @Test func asciiInColourDrawsACellsShapeWithItsCharacter() throws {
    let light: [UInt8] = [240, 230, 200]
    let dark: [UInt8] = [20, 30, 40]
    let top = cell(ink: light, paper: dark) { _, y in y < 3 }
    let drawn = PictureRenderer.render(
      top, mode: .ascii, columns: 1, rows: 1, cell: .init(width: 4, height: 8), colorMode: .truecolor)
    let only = try #require(drawn.cells.first)
    func luma(_ colour: Color?) -> Int {
      guard case .rgb(let r, let g, let b)? = colour else { return -1 }
      return Int(r) * 3 + Int(g) * 6 + Int(b)
    }
    // The ink's share in the top three rows of eight: most of it where the ink's colour is
    // the light's, little of it where the ink is the dark.
    let index = try #require(GlyphSet.ascii.characters.firstIndex(of: only.character))
    let cover = GlyphSet.ascii.coverage[index]
    let share = cover[0..<12].reduce(0, +) / cover.reduce(0, +)
    let inkIsLight = luma(only.style.foreground) > luma(only.style.background)
    #expect(inkIsLight ? share > 0.7 : share < 0.1, "\(only)")
    #expect(abs(luma(only.style.foreground) - luma(only.style.background)) > 500, "\(only)")
    let flat = cell(ink: dark, paper: dark) { _, _ in true }
    let space = PictureRenderer.render(
      flat, mode: .ascii, columns: 1, rows: 1, cell: .init(width: 4, height: 8), colorMode: .truecolor
    ).cells
    #expect(space == [Cell(" ", style: Style(background: .rgb(20, 30, 40)))])
  }

  /// The glyph follows the shape: a cell dark on the left and light on the right has its
  /// ink on the right where the ink is light (on the left where it is dark); a thin light
  /// vertical stroke down the middle is `|`; a light bar across the bottom is `_`; in
  /// colour and without.
  @Test(arguments: [ColorMode.truecolor, .none])
  func asciiPicksTheGlyphOfTheCellsShape(colorMode: ColorMode) throws {
    let (light, dark): ([UInt8], [UInt8]) = ([250, 250, 250], [0, 0, 0])
    func glyph(_ picture: RGBImage) throws -> Cell {
      try #require(
        PictureRenderer.render(
          picture, mode: .ascii, columns: 1, rows: 1, cell: .init(width: 4, height: 8), colorMode: colorMode
        ).cells.first)
    }
    let coverage = Dictionary(uniqueKeysWithValues: zip(GlyphSet.ascii.characters, GlyphSet.ascii.coverage))
    /// The share of a glyph's ink in columns 2 and 3.
    func rightShare(_ character: Character) -> Float {
      let cover = coverage[character]!
      let right = (0..<32).filter { $0 % 4 >= 2 }.reduce(Float(0)) { $0 + cover[$1] }
      return right / max(cover.reduce(0, +), 0.001)
    }
    let split = try glyph(cell(ink: light, paper: dark) { x, _ in x >= 2 })
    // Without colour the ink is the light; in colour it may be either side, in its colour.
    var inkIsLight = true
    if case .rgb(let r, _, _)? = split.style.foreground, case .rgb(let b, _, _)? = split.style.background {
      inkIsLight = r > b
    }
    let share = rightShare(split.character)
    #expect(inkIsLight ? share > 0.6 : share < 0.4, "\(split)")
    // A thin stroke, as bright as a glyph's stroke can make it over two parts.
    let stroke = try glyph(cell(ink: [60, 60, 60], paper: dark) { x, _ in x == 1 || x == 2 })
    #expect(stroke.character == "|", "\(stroke)")
    let floor = try glyph(cell(ink: light, paper: dark) { _, y in y == 7 })
    #expect(floor.character == "_", "\(floor)")
  }

  @Test func thePaletteSplitsTheBoxWithTheMostPixelsTimesWidth() {
    // Two near-black shades, many pixels but one level apart, and red and white, few
    // pixels but far apart. With three colours, red and white must stay apart: the dark
    // box has more pixels (2,000 against 100) but less spread (2,000 × 1 < 100 × 31).
    let pixels: [[UInt8]] =
      Array(repeating: [0, 0, 0], count: 1000) + Array(repeating: [8, 0, 0], count: 1000)
      + Array(repeating: [255, 0, 0], count: 50) + Array(repeating: [255, 255, 255], count: 50)
    let palette = AdaptivePalette(pixels: pixels.flatMap { $0 }, count: 3)
    #expect(palette.colors.count == 3)
    let red = palette.colors[Int(palette.indices[2000])]
    let white = palette.colors[Int(palette.indices[2099])]
    #expect(red == (255, 0, 0) && white == (255, 255, 255))
    let dark = palette.colors[Int(palette.indices[0])]
    #expect(dark == (4, 0, 0))
  }
}
