import ImageDecoding
import Testing

@testable import TextRendering

/// Pictures keep their shape on screen in the cells the terminal reports: half blocks,
/// ASCII and a terminal's own graphics, in windows of 60 × 18, 80 × 24 and 120 × 40.
struct PictureFitTests {
  /// Cells in pixels: xterm's default font (6 × 13), DejaVu Sans Mono 10 (8 × 17), 9 × 20,
  /// the stated default (10 × 20) and mlterm's (10 × 22).
  static let cells = [(6, 13), (8, 17), (9, 20), (10, 20), (10, 22)].map {
    TerminalPicture.CellSize(width: $0.0, height: $0.1)
  }
  /// Photographs' shapes: 4:3, 3:4, 16:9 and a square.
  static let pictures = [(500, 375), (375, 500), (640, 360), (300, 300)]
  /// Windows, each less the rows `show` keeps for a breed with two sub-breeds and the prompt.
  static let boxes = [(60, 18 - 5), (80, 24 - 5), (120, 40 - 5)]

  func image(_ width: Int, _ height: Int) -> RGBImage {
    RGBImage(width: width, height: height, pixels: [UInt8](repeating: 128, count: width * height * 3))
  }

  /// Each mode's shape on screen against the picture's: within 2 %, and as large as a tenth
  /// less than the box allows at least.
  @Test(arguments: cells)
  func everyModeKeepsThePicturesShapeInTheReportedCells(cell: TerminalPicture.CellSize) {
    for (width, height) in Self.pictures {
      let picture = image(width, height)
      for (columns, rows) in Self.boxes {
        let about = "\(width)×\(height) in \(columns)×\(rows) cells of \(cell.width)×\(cell.height)"
        // Half blocks: two dots a cell, each half a cell tall.
        let blocks = PictureRenderer.render(picture, mode: .blocks, columns: columns, rows: rows, cell: cell)
        let halves = PictureRenderer.fittedDots(
          picture, mode: .blocks, columns: columns, rows: rows, cell: cell)
        #expect(blocks.columns == halves.across && blocks.rows == (halves.down + 1) / 2, "\(about)")
        let blocksError = PictureFit.aspectError(
          across: halves.across, down: halves.down, dotWidth: Double(cell.width),
          dotHeight: Double(cell.height) / 2, width: width, height: height)
        #expect(blocksError <= 0.02, "blocks \(about): \(halves)")
        // ASCII: a dot a cell.
        let ascii = PictureRenderer.render(picture, mode: .ascii, columns: columns, rows: rows, cell: cell)
        let asciiError = PictureFit.aspectError(
          across: ascii.columns, down: ascii.rows, dotWidth: Double(cell.width),
          dotHeight: Double(cell.height),
          width: width, height: height)
        #expect(asciiError <= 0.02, "ascii \(about): \(ascii.columns)×\(ascii.rows)")
        // kitty: the cells it is told to fill.
        let kitty = TerminalPicture.cellsKeepingShape(picture, columns: columns, rows: rows, cell: cell)
        let kittyError = PictureFit.aspectError(
          across: kitty.columns, down: kitty.rows, dotWidth: Double(cell.width),
          dotHeight: Double(cell.height),
          width: width, height: height)
        #expect(kittyError <= 0.02, "kitty \(about): \(kitty)")
        for (across, down) in [(blocks.columns, blocks.rows), (ascii.columns, ascii.rows), kitty] {
          #expect(across <= columns && down <= rows, "\(about)")
          #expect(
            across * 10 >= columns * 9 - 10 || down * 10 >= rows * 9 - 10, "\(about): \(across)×\(down)")
        }
      }
    }
  }

  /// Half blocks in an 8 × 17 cell are not 1:2: a square picture 34 half-blocks tall is 34 ×
  /// 8.5 = 289 pixels tall, so 36 columns (288 pixels) wide, not 34.
  @Test func aHalfBlockIsHalfTheReportedCellNotASquare() {
    let square = image(300, 300)
    let cell = TerminalPicture.CellSize(width: 8, height: 17)
    #expect(PictureRenderer.fittedDots(square, mode: .blocks, columns: 80, rows: 17, cell: cell) == (36, 34))
    #expect(PictureRenderer.fittedDots(square, mode: .blocks, columns: 80, rows: 17) == (34, 34))
  }

  /// An odd number of half-block rows ends on top halves over the terminal's background.
  @Test func anOddRowOfHalvesLeavesTheBottomHalvesToTheTerminal() {
    let cells = PictureRenderer.render(image(4, 3), mode: .blocks, columns: 4, rows: 5)
    #expect(cells.columns == 4 && cells.rows == 2)
    #expect(cells.cells[4...].allSatisfy { $0.style.background == nil && $0.style.foreground != nil })
    #expect(cells.cells[..<4].allSatisfy { $0.style.background != nil })
  }

  /// Without a limit down, the picture is as wide as it may be (`show` to a pipe); a box
  /// with no room, or a picture with no pixels, is nothing.
  @Test func theLimitsOfTheFit() {
    #expect(
      PictureFit.dots(width: 23, height: 10, maxAcross: 20, maxDown: .max, dotWidth: 1, dotHeight: 2) == (
        20, 4
      ))
    #expect(
      PictureFit.dots(width: 0, height: 10, maxAcross: 20, maxDown: 5, dotWidth: 1, dotHeight: 2) == (0, 0))
    #expect(
      PictureFit.dots(width: 10, height: 10, maxAcross: 0, maxDown: 5, dotWidth: 1, dotHeight: 2) == (0, 0))
    // A sliver keeps a dot across its thin side.
    #expect(
      PictureFit.dots(width: 10_000, height: 1, maxAcross: 80, maxDown: 24, dotWidth: 1, dotHeight: 2) == (
        80, 1
      ))
  }

  /// The layout draws pictures in the cells its options give (the full-screen app's are
  /// the terminal's): a square in 8 × 17 cells is 36 cells wide for 17 rows, where in the
  /// stated default's it is 34; in half blocks, as wide.
  @Test func theLayoutDrawsPicturesInTheCellsItIsGiven() {
    let node = Node.picture(PictureNode(image: image(300, 300), mode: .blocks, caption: []))
    func width(_ options: Display) -> Int {
      let frame = Layout.render(node, width: 80, height: 17, display: options)
      return (0..<80).filter { frame[$0, 0].style.background != nil }.count
    }
    let cell = TerminalPicture.CellSize(width: 8, height: 17)
    #expect(width(Display(cell: cell)) == 36)
    #expect(width(Display()) == 34)
    #expect(width(Display(cell: cell, symbols: .half)) == 36)
  }

  /// The full-screen app's pictures are drawn with the symbols `show` draws with, each cell
  /// fitted on its pixels: a picture split down each cell's middle takes `▌`.
  @Test func theLayoutDrawsPicturesInSymbols() {
    let split = RGBImage(
      width: 20, height: 40,
      pixels: (0..<800).flatMap { $0 % 10 < 5 ? [250, 250, 250] : [10, 10, 10] as [UInt8] })
    let node = Node.picture(PictureNode(image: split, mode: .blocks, caption: []))
    let frame = Layout.render(node, width: 2, height: 2, display: Display())
    #expect((0..<4).allSatisfy { frame[$0 % 2, $0 / 2].character == "▌" })
  }
}
