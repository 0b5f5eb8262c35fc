import ImageDecoding

/// Pictures written straight to a terminal stream (for `show`, outside the full-screen UI).
public enum TerminalPicture {
  /// Half-block (or ASCII) cells as lines of text with SGR colour codes, each line ending
  /// in the plain style and a newline.
  ///
  /// Colours change as on the full-screen app's screen (``ScreenDiffer``): only what
  /// differs from the cell before, so a foreground or a background that stays is not sent
  /// again.
  public static func text(_ cells: PictureCells, colorMode: ColorMode) -> String {
    var writer = ScreenDiffer.Writer(colorMode: colorMode)
    for row in 0..<cells.rows {
      for cell in cells.cells[row * cells.columns..<(row + 1) * cells.columns] {
        writer.setStyle(cell.style)
        writer.bytes += Array(String(cell.character).utf8)
      }
      // A newline that scrolls fills the new line with the current background.
      writer.setStyle(.plain)
      writer.bytes.append(UInt8(ascii: "\n"))
    }
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// The kitty graphics protocol: RGB pixels, base64 in chunks of 4096, displayed over the
  /// most cells, at most `columns` × `rows`, that keep the picture's shape in cells of
  /// `cell` pixels (``PictureFit``; both counts given, as kitty before 0.34 stretches a
  /// picture given columns alone), quiet (`q=2`) so no reply lands in the input. The
  /// pixels sent are at most those the cells show; `compressed`, they are sent as a zlib
  /// stream (`o=z`, ``Deflate``), which kitty inflates.
  public static func kitty(
    _ image: RGBImage, columns: Int, rows: Int = .max, cell: CellSize = .default, compressed: Bool = false
  ) -> String {
    let size = cellsKeepingShape(image, columns: columns, rows: rows, cell: cell)
    guard size.columns > 0 else { return "" }
    let image = shrunk(image, maxWidth: size.columns * cell.width, maxHeight: size.rows * cell.height)
    return kittyCommand(
      "a=T,f=24,s=\(image.width),v=\(image.height),c=\(size.columns),r=\(size.rows),q=2", image,
      compressed: compressed) + "\n"
  }

  /// The most whole cells, at most `columns` × `rows` of `cell` pixels, that keep
  /// `image`'s shape: what a terminal that scales a picture to the cells it is given
  /// (kitty) is given.
  public static func cellsKeepingShape(
    _ image: RGBImage, columns: Int, rows: Int, cell: CellSize = .default
  ) -> (columns: Int, rows: Int) {
    // Always bounded: kitty stretches a picture to its cells, so their shape comes first.
    let dots = PictureFit.dots(
      width: image.width, height: image.height, maxAcross: columns,
      maxDown: min(rows, PictureFit.unlimited - 1),
      dotWidth: Double(cell.width), dotHeight: Double(cell.height))
    return (dots.across, dots.down)
  }

  /// A terminal cell's size in pixels: what the terminal reports (`TIOCGWINSZ`'s pixel
  /// fields over its columns and rows, else its answer to `CSI 16 t`), else ``default``.
  public struct CellSize: Hashable, Sendable, Codable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// Creates a cell size.
    public init(width: Int, height: Int) {
      self.width = width
      self.height = height
    }
    /// What is taken where the terminal does not say: 10 × 20, common.
    public static let `default` = CellSize(width: pixelsPerColumn, height: pixelsPerColumn * 2)

    /// The cell size of a window `pixels` large with `columns` × `rows` cells, or `nil`
    /// where it does not say (zero pixels, as many terminals report).
    public static func of(pixels: (width: Int, height: Int), columns: Int, rows: Int) -> CellSize? {
      guard pixels.width > 0, pixels.height > 0, columns > 0, rows > 0,
        pixels.width / columns > 0, pixels.height / rows > 0
      else { return nil }
      return CellSize(width: pixels.width / columns, height: pixels.height / rows)
    }
  }

  /// A kitty picture placed over `columns` × `rows` cells at the cursor, which stays where
  /// it is (`C=1`), under the id `id`, so that ``kittyDelete(id:)`` can take it away: how a
  /// full-screen program shows a picture among its own cells. `compressed` as for
  /// ``kitty(_:columns:rows:cell:compressed:)``.
  public static func kittyPlacement(
    _ image: RGBImage, columns: Int, rows: Int, id: Int, compressed: Bool = false
  ) -> String {
    let image = shrunk(image, maxWidth: columns * pixelsPerColumn, maxHeight: rows * pixelsPerColumn * 2)
    return kittyCommand(
      "a=T,f=24,s=\(image.width),v=\(image.height),c=\(columns),r=\(rows),i=\(id),C=1,q=2", image,
      compressed: compressed)
  }

  /// Whether a background of this colour (channels from 0 to 1, as a terminal answers
  /// `OSC 11`) is light: its luma is over half.
  public static func isLight(red: Double, green: Double, blue: Double) -> Bool {
    0.299 * red + 0.587 * green + 0.114 * blue > 0.5
  }

  /// Removes the kitty picture `id` from the screen and frees its data.
  public static func kittyDelete(id: Int) -> String {
    ControlSequence.kittyGraphics + "a=d,d=I,i=\(id),q=2" + ControlSequence.stringTerminator
  }

  /// Pixels a cell is taken to be wide (10 is common; twice that tall). Terminals do not
  /// reliably say, and more pixels than the cells can show are only more to send.
  public static let pixelsPerColumn = 10

  /// `image` shrunk, never enlarged, to at most `maxWidth` × `maxHeight` pixels, keeping
  /// its aspect ratio (an area average: `RGBImage.downscaled(width:height:)`).
  static func shrunk(_ image: RGBImage, maxWidth: Int, maxHeight: Int = .max) -> RGBImage {
    guard image.width > 0, image.height > 0 else { return image }
    var width = min(image.width, maxWidth)
    var height = max(1, image.height * width / image.width)
    if height > maxHeight {
      height = maxHeight
      width = max(1, image.width * height / image.height)
    }
    guard width != image.width || height != image.height else { return image }
    return image.downscaled(width: width, height: height)
  }

  /// `keys` and the pixels as one kitty command, base64 in chunks of 4096 (`m=1` on every
  /// chunk but the last), compressed first (`o=z`) where asked. Written as bytes: the
  /// payload is hundreds of kilobytes, and a string indexed by characters walks them.
  static func kittyCommand(_ keys: String, _ image: RGBImage, compressed: Bool) -> String {
    let payload = compressed ? Deflate.zlib(image.pixels) : image.pixels
    let chunkBytes = 3_072  // 4,096 characters of base64
    let chunks = max(1, (payload.count + chunkBytes - 1) / chunkBytes)
    let first = Array((ControlSequence.kittyGraphics + keys + (compressed ? ",o=z" : "") + ",m=").utf8)
    let next = Array((ControlSequence.kittyGraphics + "m=").utf8)
    let end = Array(ControlSequence.stringTerminator.utf8)
    let capacity = first.count + chunks * (next.count + 2 + end.count) + (payload.count + 2) / 3 * 4
    var output = [UInt8]()
    output.reserveCapacity(capacity)
    payload.withUnsafeBufferPointer { payload in
      var start = 0
      repeat {
        let stop = min(start + chunkBytes, payload.count)
        output += start == 0 ? first : next
        output += [stop < payload.count ? UInt8(ascii: "1") : UInt8(ascii: "0"), UInt8(ascii: ";")]
        appendBase64(UnsafeBufferPointer(rebasing: payload[start..<stop]), to: &output)
        output += end
        start = stop
      } while start < payload.count
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// DEC sixel graphics (foot, mlterm, WezTerm, Konsole, xterm as a VT340, Windows
  /// Terminal): the picture in up to 256 colours chosen for it by median cut.
  ///
  /// Sixel has no scaling: the picture is drawn pixel for pixel, so it is first shrunk to
  /// fit `columns` × `rows` cells of `cell` pixels (never enlarged), which keeps its shape
  /// to the pixel. Each band of six rows is drawn once per colour present in it (`#n` then
  /// one character per column, runs as `!n`), `$` returning to the band's start and `-`
  /// moving down to the next.
  ///
  /// - Parameters:
  ///   - image: The picture.
  ///   - columns: The cells it may span.
  ///   - rows: The rows of cells it may take.
  ///   - cell: A cell's size in pixels, as the terminal reports it (never wider or taller
  ///     than the cells it is given, then).
  /// - Returns: `ESC P 0;1;0 q … ESC \`, then a newline.
  public static func sixel(
    _ image: RGBImage, columns: Int, rows: Int = .max, cell: CellSize = .default
  ) -> String {
    guard image.width > 0, image.height > 0 else { return "" }
    let picture = shrunk(
      image, maxWidth: max(1, columns * cell.width),
      maxHeight: rows >= Int.max / max(1, cell.height) ? .max : max(1, rows * cell.height))
    let (width, height, pixels) = (picture.width, picture.height, picture.pixels)
    let palette = AdaptivePalette(pixels: pixels)
    var output = Array((ControlSequence.sixel + "0;1;0q\"1;1;\(width);\(height)").utf8)
    output.reserveCapacity(width * height / 2)
    func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }
    for (register, color) in palette.colors.enumerated() {
      output += Array("#\(register);2;\(percent(color.r));\(percent(color.g));\(percent(color.b))".utf8)
    }
    palette.indices.withUnsafeBufferPointer { colors in
      appendSixelBands(colors, width: width, height: height, to: &output)
    }
    output += Array((ControlSequence.stringTerminator + "\n").utf8)
    return String(decoding: output, as: UTF8.self)
  }

  /// The sixel bands of a picture of `width` × `height` palette indices, after its
  /// palette: each band of six rows once per colour present in it, `#n` then one character
  /// per column (runs of four or more as `!count`), from the band's start (`$` between
  /// colours, `-` between bands); the columns after a colour's last are left out.
  ///
  /// Each colour's columns in the band are tracked as it is read, so a colour costs the
  /// span it covers, not the picture's width.
  static func appendSixelBands(
    _ colors: UnsafeBufferPointer<UInt8>, width: Int, height: Int, to output: inout [UInt8]
  ) {
    // bits[color * width + x]: which of the band's six rows have `color` at column x;
    // first and last: the columns each colour spans in the band (first > last: absent).
    var bits = [UInt8](repeating: 0, count: 256 * width)
    var first = [Int](repeating: Int.max, count: 256)
    var last = [Int](repeating: -1, count: 256)
    bits.withUnsafeMutableBufferPointer { bits in
      first.withUnsafeMutableBufferPointer { first in
        last.withUnsafeMutableBufferPointer { last in
          for top in stride(from: 0, to: height, by: 6) {
            if top > 0 { output.append(UInt8(ascii: "-")) }
            for row in top..<min(top + 6, height) {
              let bit = UInt8(1) << (row - top)
              var at = row * width
              for x in 0..<width {
                let color = Int(colors[at])
                at += 1
                bits[color &* width &+ x] |= bit
                if x < first[color] { first[color] = x }
                if x > last[color] { last[color] = x }
              }
            }
            var firstColor = true
            for color in 0..<256 where last[color] >= 0 {
              if !firstColor { output.append(UInt8(ascii: "$")) }
              firstColor = false
              output.append(UInt8(ascii: "#"))
              appendDecimal(color, to: &output)
              let line = color * width
              let (start, end) = (first[color], last[color] + 1)
              // The blank columns before the colour's first, as one run.
              appendSixelRun(0x3F, count: start, to: &output)
              var x = start
              while x < end {
                let value = bits[line + x]
                var run = 1
                while x + run < end && bits[line + x + run] == value { run += 1 }
                appendSixelRun(0x3F + value, count: run, to: &output)
                x += run
              }
              for column in start..<end { bits[line + column] = 0 }
              first[color] = Int.max
              last[color] = -1
            }
          }
        }
      }
    }
  }

  /// `count` sixels of `character`: `!count` then the character from four on, else the
  /// character repeated.
  @inline(__always)
  private static func appendSixelRun(_ character: UInt8, count: Int, to output: inout [UInt8]) {
    if count >= 4 {
      output.append(UInt8(ascii: "!"))
      appendDecimal(count, to: &output)
      output.append(character)
    } else {
      for _ in 0..<count { output.append(character) }
    }
  }

  /// The digits of `value` (0 or more) in ASCII.
  private static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
    var divisor = 1
    while divisor <= value / 10 { divisor *= 10 }
    repeat {
      output.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      divisor /= 10
    } while divisor > 0
  }

  /// iTerm2's inline images (OSC 1337): the file's own bytes, shown as large as fits
  /// `columns` × `rows` cells in the picture's shape (the terminal keeps it); without
  /// `rows`, `columns` wide.
  public static func iterm(_ bytes: [UInt8], columns: Int, rows: Int? = nil) -> String {
    ControlSequence.itermFile
      + "inline=1;size=\(bytes.count);width=\(columns);\(rows.map { "height=\($0);" } ?? "")"
      + "preserveAspectRatio=1:\(base64(bytes))" + ControlSequence.bell + "\n"
  }

  /// Standard base64 with padding.
  public static func base64(_ bytes: [UInt8]) -> String {
    var output = [UInt8]()
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    bytes.withUnsafeBufferPointer { appendBase64($0, to: &output) }
    return String(decoding: output, as: UTF8.self)
  }

  private static let base64Alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Appends `bytes` in standard base64 with padding to `output`, written in place.
  static func appendBase64(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    let count = (bytes.count + 2) / 3 * 4
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: count))
    base64Alphabet.withUnsafeBufferPointer { alphabet in
      output.withUnsafeMutableBufferPointer { output in
        var at = start
        var index = 0
        while index + 2 < bytes.count {
          let value = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
          output[at] = alphabet[value >> 18 & 63]
          output[at + 1] = alphabet[value >> 12 & 63]
          output[at + 2] = alphabet[value >> 6 & 63]
          output[at + 3] = alphabet[value & 63]
          at += 4
          index += 3
        }
        let rest = bytes.count - index
        guard rest > 0 else { return }
        let value = Int(bytes[index]) << 16 | (rest == 2 ? Int(bytes[index + 1]) << 8 : 0)
        output[at] = alphabet[value >> 18 & 63]
        output[at + 1] = alphabet[value >> 12 & 63]
        output[at + 2] = rest == 2 ? alphabet[value >> 6 & 63] : UInt8(ascii: "=")
        output[at + 3] = UInt8(ascii: "=")
      }
    }
  }
}
