import Foundation
import ImageDecoding
import Synchronization
import TestSupport

@testable import TextRendering

/// Real photographs (`Fixtures/photos`, whose README names their sources and licences),
/// drawn in cells as the app draws them: decoded by the app's decoder, at most 60 × 20
/// cells of 10 × 20 pixels.
enum Photograph: String, CaseIterable, Sendable, CustomStringConvertible {
  case chelsea = "chelsea-360x240.jpg"
  case coffee = "coffee-360x240.jpg"
  case astronaut = "astronaut-240x240.jpg"

  static let folder = FixtureFolder.textRendering("photos")
  static let (columns, rows) = (60, 20)
  static let cell = TerminalPicture.CellSize(width: 10, height: 20)

  var description: String { String(rawValue.prefix { $0 != "-" }) }

  /// The photograph, decoded for the pixels its cells cover (once: the goldens and the
  /// quality tests draw the same pictures).
  func image() throws -> RGBImage {
    if let image = Self.decoded.withLock({ $0[self] }) { return image }
    let image = try ImageDecoder.decode(
      Self.folder.bytes(rawValue), fitting: (Self.columns * Self.cell.width, Self.rows * Self.cell.height))
    Self.decoded.withLock { $0[self] = image }
    return image
  }

  /// The photograph in cells (drawn once for each way of drawing it).
  func cells(mode: PictureMode = .blocks, symbols: SymbolSet, colorMode: ColorMode) throws -> PictureCells {
    let key = Drawing(photo: self, mode: mode, symbols: symbols, colorMode: colorMode)
    if let cells = Self.drawn.withLock({ $0[key] }) { return cells }
    let cells = PictureRenderer.render(
      try image(), mode: mode, columns: Self.columns, rows: Self.rows, cell: Self.cell, colorMode: colorMode,
      symbols: symbols)
    Self.drawn.withLock { $0[key] = cells }
    return cells
  }

  /// The photograph at `width` × `height` pixels, an area average as the renderers take it:
  /// what the cells painted back are measured against.
  func source(width: Int, height: Int) throws -> [UInt8] {
    let key = "\(self) \(width) × \(height)"
    if let pixels = Self.sources.withLock({ $0[key] }) { return pixels }
    let pixels = try image().downscaled(width: width, height: height).pixels
    Self.sources.withLock { $0[key] = pixels }
    return pixels
  }

  private struct Drawing: Hashable {
    var photo: Photograph
    var mode: PictureMode
    var symbols: SymbolSet
    var colorMode: ColorMode
  }
  private static let decoded = Mutex<[Photograph: RGBImage]>([:])
  private static let drawn = Mutex<[Drawing: PictureCells]>([:])
  private static let sources = Mutex<[String: [UInt8]]>([:])
}
