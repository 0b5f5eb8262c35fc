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

  @Test func asciiSplitsTheGreysIntoEqualBands() {
    let greys = image(256, 1, (0..<256).map { [UInt8($0), UInt8($0), UInt8($0)] })
    let cells = PictureRenderer.render(greys, mode: .ascii, columns: 256, rows: 1)
    #expect(cells.columns == 256)
    let characters = cells.cells.map(\.character)
    #expect(characters.first == " " && characters.last == "@")
    for character in PictureRenderer.ramp {
      let band = characters.filter { $0 == character }.count
      #expect((25...26).contains(band), "\(character): \(band)")
    }
  }

  /// Brightness as the eye sees it: full green brighter than full red, and red than blue.
  @Test func asciiWeighsTheColoursAsTheEyeDoes() {
    let primaries = image(3, 1, [[0, 0, 255], [255, 0, 0], [0, 255, 0]])
    let characters = PictureRenderer.render(primaries, mode: .ascii, columns: 3, rows: 1).cells.map(
      \.character)
    let levels = characters.map { PictureRenderer.ramp.firstIndex(of: $0)! }
    #expect(levels[0] < levels[1] && levels[1] < levels[2], "\(characters)")
  }

  /// Where there is colour, ASCII colours each cell's background too: a bright picture
  /// stays bright (the ramp's dense characters on the terminal's black were dark).
  @Test(arguments: [ColorMode.truecolor, .ansi256, .ansi16])
  func asciiInColourPaintsTheBackground(colorMode: ColorMode) {
    let white = image(8, 4, Array(repeating: [250, 250, 250], count: 32))
    let cells = PictureRenderer.render(white, mode: .ascii, columns: 8, rows: 2, colorMode: colorMode)
    #expect(cells.columns == 8 && cells.rows == 2)
    // (In fewer colours, from palette entries dithered: near white.)
    #expect(
      cells.cells.allSatisfy {
        guard case .rgb(let r, let g, let b)? = $0.style.background else { return false }
        return colorMode == .truecolor ? (r, g, b) == (250, 250, 250) : min(r, g, b) >= 220
      }, "\(cells.cells)")
    // Without colour, or not knowing it: the ramp, in the pixels' colour.
    for none: ColorMode? in [ColorMode.none, nil] {
      let ramp = PictureRenderer.render(white, mode: .ascii, columns: 8, rows: 2, colorMode: none)
      #expect(ramp.cells.allSatisfy { $0.character == "@" && $0.style.background == nil })
    }
  }

  /// A cell whose top is light and the rest dark is drawn with ink at the top (`'`, `"`,
  /// `^`, `T`, `7`), light ink on the dark background; a flat cell is a space on its colour.
  @Test func asciiInColourDrawsACellsShapeWithItsCharacter() throws {
    let light: [UInt8] = [240, 230, 200]
    let dark: [UInt8] = [20, 30, 40]
    // One cell of 2 × 4 parts: the top row light.
    let cell = image(2, 4, [light, light, dark, dark, dark, dark, dark, dark])
    let drawn = PictureRenderer.render(cell, mode: .ascii, columns: 1, rows: 1, colorMode: .truecolor)
    let only = try #require(drawn.cells.first)
    #expect("'\"^T7".contains(only.character), "\(only)")
    func luma(_ colour: Color?) -> Int {
      guard case .rgb(let r, let g, let b)? = colour else { return -1 }
      return Int(r) * 3 + Int(g) * 6 + Int(b)
    }
    #expect(luma(only.style.foreground) > luma(only.style.background) + 500, "\(only)")
    let flat = image(2, 4, Array(repeating: dark, count: 8))
    let space = PictureRenderer.render(flat, mode: .ascii, columns: 1, rows: 1, colorMode: .truecolor).cells
    #expect(space == [Cell(" ", style: Style(background: .rgb(20, 30, 40)))])
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
