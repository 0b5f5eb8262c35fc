import Foundation
import ImageDecoding
import TextRendering

/// Drawing a decoded picture in cells, as `show` does on an 80 × 24 terminal (a box of 80 ×
/// 21 cells, 10 × 20 pixels each, from the picture decoded to fit its pixels, which symbols
/// are fitted on), and writing the cells as text: half blocks, the reference, and the
/// finer symbols (`line` is the default), in 24-bit colour and in 256. The goal: under
/// 10 ms a picture.
func pictureBenchmarks() -> [Row3] {
  let path = "Tests/ImageDecodingTests/Fixtures/jpeg/g-detailed-500x375.jpg"
  guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }),
    let image = try? JPEGDecoder.decode(bytes, fitting: (800, 420))
  else {
    print("(skipping picture benchmarks: run from the repository root)")
    return []
  }
  func draw(_ symbols: SymbolSet, _ colorMode: ColorMode) -> (Int) -> Void {
    { n in
      for _ in 0..<n {
        let cells = PictureRenderer.render(
          image, mode: .blocks, columns: 80, rows: 21, colorMode: colorMode, symbols: symbols)
        blackHole(TerminalPicture.text(cells, colorMode: colorMode))
      }
    }
  }
  var rows: [Row3] = []
  for colorMode in [ColorMode.truecolor, .ansi256] {
    let depth = colorMode == .truecolor ? "24-bit" : "256 colours"
    let half = measure(iterations: 20, draw(.half, colorMode))
    rows.append(Row3(name: "half blocks, 80 × 21 cells, \(depth)", ns: half, baseline: 0, goal: "-"))
    for symbols in [SymbolSet.quadrant, .block, .line, .sextant] {
      let ns = measure(iterations: 20, draw(symbols, colorMode))
      rows.append(
        Row3(
          name: "\(symbols.rawValue)s, 80 × 21 cells, \(depth)", ns: ns, baseline: half,
          goal: "≤ 10,000,000 ns", limit: 10_000_000))
    }
  }
  return rows
}

/// What `show` does in the process once a picture has downloaded, for each way it draws:
/// decode the JPEG for the box (80 × 21 cells of 10 × 20 pixels, the window of 80 × 24
/// less the text under the picture and the prompt), fit it in the box, and write it as
/// text (symbols, 24-bit), as kitty's graphics protocol, or as sixel. Beside each, the
/// decode alone, alternating with it. The picture: the largest in the repository, the
/// 1080 × 810 progressive JPEG (which this box takes at full size; a larger photograph
/// is decoded at a half, a quarter or an eighth of its size).
func showPictureBenchmarks() -> [Row3] {
  let path = "Tests/ImageDecodingTests/Fixtures/jpeg/synthetic-1080x810-progressive.jpg"
  guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
    print("(skipping show's picture benchmarks: run from the repository root)")
    return []
  }
  let (columns, rows, cell) = (80, 21, TerminalPicture.CellSize.default)
  let samples = SymbolSet.samplesPerCell(cell)
  let draws: [(String, (width: Int, height: Int), (RGBImage) -> String)] = [
    (
      "symbols, 24-bit", (columns * samples.across, rows * samples.down),
      { image in
        TerminalPicture.text(
          PictureRenderer.render(
            image, mode: .blocks, columns: columns, rows: rows, cell: cell, colorMode: .truecolor),
          colorMode: .truecolor)
      }
    ),
    (
      "kitty", (columns * cell.width, rows * cell.height),
      { TerminalPicture.kitty($0, columns: columns, rows: rows, cell: cell) }
    ),
    (
      "sixel", (columns * cell.width, rows * cell.height),
      { TerminalPicture.sixel($0, columns: columns, rows: rows, cell: cell) }
    ),
  ]
  return draws.map { name, target, draw in
    let (shown, decoded) = measureAlternately(
      iterations: 5,
      { n in for _ in 0..<n { blackHole((try? ImageDecoder.decode(bytes, fitting: target)).map(draw)) } },
      { n in for _ in 0..<n { blackHole(try? ImageDecoder.decode(bytes, fitting: target)) } })
    return Row3(name: "1080×810 JPEG → \(name), 80 × 21 cells", ns: shown, baseline: decoded, goal: "-")
  }
}
