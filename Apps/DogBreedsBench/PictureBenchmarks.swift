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
