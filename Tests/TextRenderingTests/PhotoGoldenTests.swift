import Foundation
import TestSupport
import Testing

@testable import TextRendering

extension PictureSuites {
  /// Real photographs drawn in cells, each compared with its golden rendering in
  /// `Fixtures/goldens`: any change to what the renderers draw shows here, to be looked at
  /// and, where meant, taken by regenerating the goldens (`DOGBREEDS_UPDATE_GOLDENS=1`).
  struct PhotoGoldenTests {
    /// A way of drawing a photograph whose output has a golden.
    enum Rendering: String, CaseIterable, Sendable, CustomStringConvertible {
      case symbols24Bit = "symbols-24bit"
      case symbols256 = "symbols-256"
      case ascii24Bit = "ascii-24bit"

      var description: String { rawValue }

      var mode: PictureMode { self == .ascii24Bit ? .ascii : .blocks }
      var colorMode: ColorMode { self == .symbols256 ? .ansi256 : .truecolor }
    }

    static let goldens = FixtureFolder.textRendering("goldens")

    /// A colour as the golden's hash takes it: `r,g,b` for 24-bit, `#n` for a palette entry,
    /// `an` for a system colour, `-` for the terminal's own.
    static func code(_ colour: Color?) -> String {
      switch colour {
      case .rgb(let r, let g, let b)?: "\(r),\(g),\(b)"
      case .indexed(let entry)?: "#\(entry)"
      case .ansi(let code)?: "a\(code)"
      case nil: "-"
      }
    }

    /// `cells` as a golden: a line saying what they are, then one line a row, its glyphs
    /// between bars and an FNV-1a hash of its cells' colours (each cell's foreground and
    /// background, ``code(_:)``, as `fg/bg;`), so a change in a glyph shows where it is and
    /// a change in a colour shows its row.
    static func golden(_ cells: PictureCells, title: String) -> String {
      var lines = ["\(title): \(cells.columns) × \(cells.rows) cells"]
      for row in 0..<cells.rows {
        let line = cells.cells[row * cells.columns..<(row + 1) * cells.columns]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for cell in line {
          for byte in "\(code(cell.style.foreground))/\(code(cell.style.background));".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
          }
        }
        let hex = String(hash, radix: 16)
        lines.append(
          "|\(String(line.map(\.character)))| \(String(repeating: "0", count: 16 - hex.count) + hex)")
      }
      return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: Photograph.allCases, Rendering.allCases)
    func photographsAreDrawnAsTheirGoldens(photo: Photograph, rendering: Rendering) throws {
      let cells = try photo.cells(mode: rendering.mode, symbols: .auto, colorMode: rendering.colorMode)
      let text = Self.golden(
        cells,
        title:
          "\(photo.rawValue), \(rendering), \(Photograph.cell.width) × \(Photograph.cell.height)-pixel cells")
      let name = "\(photo)-\(rendering).txt"
      let url = Self.goldens.directory.appendingPathComponent(name)
      if ProcessInfo.processInfo.environment["DOGBREEDS_UPDATE_GOLDENS"] == "1" {
        try FileManager.default.createDirectory(at: Self.goldens.directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        Issue.record("Wrote the golden \(name); run again without DOGBREEDS_UPDATE_GOLDENS to check it.")
        return
      }
      let golden = String(decoding: Self.goldens.bytes(name), as: UTF8.self)
      guard !golden.isEmpty else {
        Issue.record("No golden \(name): DOGBREEDS_UPDATE_GOLDENS=1 writes it.")
        return
      }
      let (drawn, expected) = (text.split(separator: "\n"), golden.split(separator: "\n"))
      let common = min(drawn.count, expected.count)
      if let line = (0..<common).first(where: { drawn[$0] != expected[$0] })
        ?? (drawn.count == expected.count ? nil : common)
      {
        Issue.record(
          """
          \(name) differs at line \(line + 1):
            drawn:  \(line < drawn.count ? drawn[line] : "(nothing)")
            golden: \(line < expected.count ? expected[line] : "(nothing)")
          (DOGBREEDS_UPDATE_GOLDENS=1 rewrites the goldens where the change is meant.)
          """)
      }
    }
  }
}
