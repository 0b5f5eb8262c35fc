/// A picture's pixels in the colours of a palette, the error each leaves spread over its
/// neighbours (Floyd–Steinberg, row by row in alternate directions), so that areas keep
/// their colour on average where no entry has it: the 256-colour palette does not turn a
/// brown coat orange, or red and black.
///
/// The error is spread damped, a quarter of the lightness's and half the hue's, and what a
/// pixel carries in is bounded: at a cell's size, full diffusion mixes a brown from red and
/// olive dots, and speckles flat backgrounds and fine detail. Damped, areas keep their hue,
/// and their colour on average comes about half again as close as with the nearest
/// entries alone.
///
/// Colours are matched, and errors carried, in Oklab, where equal distances look equally
/// different (as ``Palette/nearest256(_:_:_:)`` matches them). The 256-colour palette is
/// its entries 16–255, whose colours are fixed; the 16 system colours are the user's
/// theme's, taken here as xterm's defaults.
enum Dither {
  /// The palette entry, and its RGB colour, chosen for each pixel of `pixels` (RGB,
  /// `width` × `height`) in `colorMode` (256 or 16 colours; any other mode gives the
  /// pixels as they are and no entries).
  static func toPalette(_ pixels: [UInt8], width: Int, height: Int, colorMode: ColorMode) -> (
    pixels: [UInt8], entries: [UInt8]
  ) {
    let palette: Entries
    switch colorMode {
    case .ansi256: palette = .xterm256
    case .ansi16: palette = .system16
    case .none, .truecolor: return (pixels, [])
    }
    let count = width * height
    guard count > 0, pixels.count == count * 3 else { return (pixels, []) }
    var entries = [UInt8](repeating: 0, count: count)
    var output = [UInt8](repeating: 0, count: count * 3)
    // The error carried to this row and the next, per pixel and channel (L, a, b).
    var current = [Float](repeating: 0, count: width * 3)
    var next = [Float](repeating: 0, count: width * 3)
    for y in 0..<height {
      let forward = y % 2 == 0
      for step in 0..<width {
        let x = forward ? step : width - 1 - step
        let index = y * width + x
        let colour = Palette.oklab(pixels[index * 3], pixels[index * 3 + 1], pixels[index * 3 + 2])
        // The error carried in is bounded, so a run of colours out of the palette's reach
        // cannot pile it up into streaks.
        let wanted = (
          colour.l + max(-0.1, min(0.1, current[x * 3])),
          colour.a + max(-0.04, min(0.04, current[x * 3 + 1])),
          colour.b + max(-0.04, min(0.04, current[x * 3 + 2]))
        )
        let chosen = palette.nearest(wanted)
        entries[index] = palette.codes[chosen]
        let rgb = palette.rgb[chosen]
        output[index * 3] = rgb.0
        output[index * 3 + 1] = rgb.1
        output[index * 3 + 2] = rgb.2
        let lab = palette.oklab[chosen]
        let error = ((wanted.0 - lab.l) * 0.25, (wanted.1 - lab.a) * 0.5, (wanted.2 - lab.b) * 0.5)
        // 7/16 ahead; 3/16 behind, 5/16 below and 1/16 ahead on the next row.
        let ahead = forward ? x + 1 : x - 1
        let behind = forward ? x - 1 : x + 1
        func add(_ row: inout [Float], _ at: Int, _ weight: Float) {
          guard at >= 0, at < width else { return }
          row[at * 3] += error.0 * weight
          row[at * 3 + 1] += error.1 * weight
          row[at * 3 + 2] += error.2 * weight
        }
        add(&current, ahead, 7 / 16)
        add(&next, behind, 3 / 16)
        add(&next, x, 5 / 16)
        add(&next, ahead, 1 / 16)
      }
      swap(&current, &next)
      for i in next.indices { next[i] = 0 }
    }
    return (output, entries)
  }

  /// `cells` (`columns` a row, in RGB colours) in `colorMode`'s palette: each colour the
  /// entry nearest it. Any mode but 256 or 16 colours gives the cells as they are.
  static func cellsToPalette(_ cells: [Cell], columns: Int, colorMode: ColorMode) -> [Cell] {
    let palette: Entries
    switch colorMode {
    case .ansi256: palette = .xterm256
    case .ansi16: palette = .system16
    case .none, .truecolor: return cells
    }
    func entry(_ colour: Color?) -> Color? {
      guard case .rgb(let r, let g, let b)? = colour else { return colour }
      let code = palette.codes[palette.nearest(Palette.oklab(r, g, b))]
      return colorMode == .ansi16 ? .ansi(code) : .indexed(code)
    }
    return cells.map { cell in
      var cell = cell
      cell.style.foreground = entry(cell.style.foreground)
      cell.style.background = entry(cell.style.background)
      return cell
    }
  }

  /// A palette's entries: their codes, colours and Oklab values.
  struct Entries: Sendable {
    let codes: [UInt8]
    let rgb: [(UInt8, UInt8, UInt8)]
    let oklab: [(l: Float, a: Float, b: Float)]

    init(_ entries: [(code: UInt8, rgb: (UInt8, UInt8, UInt8))]) {
      codes = entries.map(\.code)
      rgb = entries.map(\.rgb)
      oklab = rgb.map { Palette.oklab($0.0, $0.1, $0.2) }
    }

    /// The entry nearest an Oklab colour.
    func nearest(_ colour: (Float, Float, Float)) -> Int {
      var best = 0
      var bestDistance = Float.infinity
      for (offset, entry) in oklab.enumerated() {
        let dl = entry.l - colour.0
        let da = entry.a - colour.1
        let db = entry.b - colour.2
        let distance = dl * dl + da * da + db * db
        if distance < bestDistance {
          best = offset
          bestDistance = distance
        }
      }
      return best
    }

    /// The xterm palette's fixed entries, 16–255.
    static let xterm256 = Entries((16...255).map { (UInt8($0), Palette.rgb(of: UInt8($0))) })

    /// The 16 system colours, as xterm draws them by default.
    static let system16 = Entries(
      [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255),
      ].enumerated().map { (UInt8($0.offset), $0.element) })
  }
}
