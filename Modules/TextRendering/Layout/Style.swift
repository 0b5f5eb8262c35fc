/// A terminal colour.
public enum Color: Hashable, Sendable {
  /// One of the 16 system colours (0–7 normal, 8–15 bright); their RGB is the user's theme.
  case ansi(UInt8)
  /// One of the 256 xterm palette entries.
  case indexed(UInt8)
  /// 24-bit colour.
  case rgb(UInt8, UInt8, UInt8)

  /// System colour 0.
  public static let black = Color.ansi(0)
  /// System colour 1.
  public static let red = Color.ansi(1)
  /// System colour 2.
  public static let green = Color.ansi(2)
  /// System colour 3.
  public static let yellow = Color.ansi(3)
  /// System colour 4.
  public static let blue = Color.ansi(4)
  /// System colour 5.
  public static let magenta = Color.ansi(5)
  /// System colour 6.
  public static let cyan = Color.ansi(6)
  /// System colour 7.
  public static let white = Color.ansi(7)
  /// System colour 8 (bright black).
  public static let gray = Color.ansi(8)
}

/// How text looks: colours plus attributes. Attributes survive when colour is off, so the
/// UI stays usable in monochrome (the selection is reverse video).
public struct Style: Hashable, Sendable {
  /// The text colour, or `nil` for the terminal's default.
  public var foreground: Color?
  /// The background colour, or `nil` for the terminal's default.
  public var background: Color?
  /// Bold.
  public var bold = false
  /// Dim (faint).
  public var dim = false
  /// Italic.
  public var italic = false
  /// Underlined.
  public var underline = false
  /// Reverse video: foreground and background swapped (the selection, even without colour).
  public var reverse = false

  /// Creates a style; the default is the terminal's plain text.
  public init(
    foreground: Color? = nil, background: Color? = nil, bold: Bool = false, dim: Bool = false,
    italic: Bool = false, underline: Bool = false, reverse: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.bold = bold
    self.dim = dim
    self.italic = italic
    self.underline = underline
    self.reverse = reverse
  }

  /// The terminal's default look.
  public static let plain = Style()
  /// Bold text (titles, headings).
  public static let bold = Style(bold: true)
  /// De-emphasised text (hints, notes).
  public static let dim = Style(dim: true)
  /// Reverse video: the highlighted row.
  public static let selected = Style(reverse: true)
  /// Errors.
  public static let error = Style(foreground: .red, bold: true)

  /// This style as it can be shown in `mode` (colours dropped or mapped down).
  public func adapted(to mode: ColorMode) -> Style {
    var style = self
    style.foreground = foreground.flatMap { mode.map($0) }
    style.background = background.flatMap { mode.map($0) }
    return style
  }
}

/// What the terminal can show, chosen once at start-up.
public enum ColorMode: Hashable, Sendable {
  /// No colour at all; attributes (bold, reverse…) are still used.
  case none
  /// The 16 system colours.
  case ansi16
  /// The xterm 256-colour palette.
  case ansi256
  /// 24-bit colour.
  case truecolor

  func map(_ color: Color) -> Color? {
    switch (self, color) {
    case (.none, _): return nil
    case (_, .ansi): return color
    case (.ansi16, .indexed(let index)):
      return .ansi(Palette.nearestANSI16(index))
    case (.ansi16, .rgb(let r, let g, let b)):
      return .ansi(Palette.nearestANSI16(Palette.nearest256(r, g, b)))
    case (.ansi256, .rgb(let r, let g, let b)): return .indexed(Palette.nearest256(r, g, b))
    case (.ansi256, .indexed), (.truecolor, _): return color
    }
  }
}

/// The xterm palette and nearest-colour search (6×6×6 cube or grey ramp, by squared RGB
/// distance, with midpoint thresholds per channel).
public enum Palette {
  /// The levels of the 6×6×6 cube.
  public static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The palette index (16–255) closest to an RGB colour.
  public static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
    func cubeIndex(_ value: UInt8) -> Int {
      // Midpoints between levels: 47, 115, 155, 195, 235.
      switch value {
      case ..<48: return 0
      case ..<115: return 1
      case ..<155: return 2
      case ..<195: return 3
      case ..<235: return 4
      default: return 5
      }
    }
    let (ri, gi, bi) = (cubeIndex(r), cubeIndex(g), cubeIndex(b))
    let cube = (cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
    let average = (Int(r) + Int(g) + Int(b)) / 3
    let greyIndex = max(0, min(23, (average - 3) / 10))
    let grey = 8 + 10 * greyIndex
    func distance(_ c: (Int, Int, Int)) -> Int {
      let dr = c.0 - Int(r)
      let dg = c.1 - Int(g)
      let db = c.2 - Int(b)
      return dr * dr + dg * dg + db * db
    }
    if distance((grey, grey, grey)) < distance(cube) { return UInt8(232 + greyIndex) }
    return UInt8(16 + 36 * ri + 6 * gi + bi)
  }

  /// The RGB value of a palette index 16–255.
  public static func rgb(of index: UInt8) -> (UInt8, UInt8, UInt8) {
    if index >= 232 {
      let value = UInt8(8 + 10 * (Int(index) - 232))
      return (value, value, value)
    }
    let cube = max(0, Int(index) - 16)
    return (
      UInt8(cubeLevels[cube / 36 % 6]), UInt8(cubeLevels[cube / 6 % 6]), UInt8(cubeLevels[cube % 6])
    )
  }

  /// A rough system-colour equivalent of a palette index.
  static func nearestANSI16(_ index: UInt8) -> UInt8 {
    guard index >= 16 else { return index }
    let (r, g, b) = rgb(of: index)
    let bright = Int(r) + Int(g) + Int(b) > 3 * 160
    let bits = (r > 95 ? 1 : 0) | (g > 95 ? 2 : 0) | (b > 95 ? 4 : 0)
    return UInt8(bits + (bright ? 8 : 0))
  }
}
