import Testing

@testable import TextRendering

extension PictureSuites {
  /// How close real photographs drawn in cells come to themselves: the cells painted back
  /// into pixels (each glyph's ink in its foreground colour, the rest in its background),
  /// against the photograph at that size, by SSIM on luma and PSNR.
  struct PhotoQualityTests {
    /// The photograph drawn with `symbols` in `colorMode`, painted back: its SSIM and PSNR.
    static func scores(_ photo: Photograph, symbols: SymbolSet, colorMode: ColorMode) throws -> (
      ssim: Double, psnr: Double
    ) {
      let cells = try photo.cells(symbols: symbols, colorMode: colorMode)
      let (width, height) = (cells.columns * Photograph.cell.width, cells.rows * Photograph.cell.height)
      return CellPainting.compare(
        CellPainting.paint(cells, cell: Photograph.cell), try photo.source(width: width, height: height),
        width: width)
    }

    /// The default symbols (`auto`) draw each photograph at least as close to itself as
    /// measured, less 0.01 SSIM and 0.3 dB, so that a regression fails; and closer than
    /// half blocks do (dithered, in 256 colours), by both measures. The figures are as
    /// measured at 60 × 20 cells of 10 × 20 pixels; half blocks measured 0.613 / 26.17 dB,
    /// 0.547 / 20.16 dB (chelsea, 24-bit / 256), 0.569 / 22.31 dB, 0.487 / 18.20 dB
    /// (coffee), 0.518 / 18.66 dB, 0.486 / 17.42 dB (astronaut).
    @Test(arguments: [
      (Photograph.chelsea, ColorMode.truecolor, 0.6961, 27.61),
      (.chelsea, .ansi256, 0.6393, 21.17),
      (.coffee, .truecolor, 0.6489, 23.81),
      (.coffee, .ansi256, 0.5842, 18.94),
      (.astronaut, .truecolor, 0.6694, 20.78),
      (.astronaut, .ansi256, 0.6304, 19.04),
    ])
    func symbolsDrawPhotographsCloseToThemselves(
      photo: Photograph, colorMode: ColorMode, measuredSSIM: Double, measuredPSNR: Double
    ) throws {
      let symbols = try Self.scores(photo, symbols: .auto, colorMode: colorMode)
      let half = try Self.scores(photo, symbols: .half, colorMode: colorMode)
      #expect(symbols.ssim >= measuredSSIM - 0.01, "SSIM \(symbols.ssim)")
      #expect(symbols.psnr >= measuredPSNR - 0.3, "PSNR \(symbols.psnr) dB")
      #expect(symbols.ssim > half.ssim, "SSIM \(symbols.ssim), half blocks \(half.ssim)")
      #expect(symbols.psnr > half.psnr, "PSNR \(symbols.psnr) dB, half blocks \(half.psnr) dB")
    }
  }
}
