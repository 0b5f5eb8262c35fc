#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
///
/// Its raw value is how a session log writes it.
public enum ColorMode: String, Hashable, Sendable, Codable {
  /// No colour at all; attributes (bold, reverse…) are still used.
  case none
  /// The 16 system colours.
  case ansi16 = "16"
  /// The xterm 256-colour palette.
  case ansi256 = "256"
  /// 24-bit colour.
  case truecolor = "24bit"

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

/// The xterm palette and nearest-colour search.
///
/// Nearest means nearest to the eye: distances are measured in Oklab, a space made so that
/// equal distances look equally different. Plain RGB distance weighs the three channels
/// alike, though the eye does not, and so picks by the wrong channel: a blue sky turned
/// violet, a tan dog yellow, a dark outline grey.
public enum Palette {
  /// The levels of the 6×6×6 cube.
  public static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The palette index (16–255) closest to an RGB colour, to the eye.
  public static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
    let colour = oklab(r, g, b)
    var best = 0
    var bestDistance = Float.infinity
    for (offset, entry) in paletteOklab.enumerated() {
      let dl = entry.l - colour.l
      let da = entry.a - colour.a
      let db = entry.b - colour.b
      let distance = dl * dl + da * da + db * db
      if distance < bestDistance {
        best = offset
        bestDistance = distance
      }
    }
    return UInt8(16 + best)
  }

  /// An sRGB colour in Oklab: lightness, then green–red and blue–yellow.
  public static func oklab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (l: Float, a: Float, b: Float) {
    let (lr, lg, lb) = (linear[Int(r)], linear[Int(g)], linear[Int(b)])
    let l = cbrtf(0.412_221_47 * lr + 0.536_332_54 * lg + 0.051_445_993 * lb)
    let m = cbrtf(0.211_903_5 * lr + 0.680_699_5 * lg + 0.107_396_96 * lb)
    let s = cbrtf(0.088_302_46 * lr + 0.281_718_85 * lg + 0.629_978_7 * lb)
    return (
      0.210_454_26 * l + 0.793_617_8 * m - 0.004_072_047 * s,
      1.977_998_5 * l - 2.428_592_2 * m + 0.450_593_7 * s,
      0.025_904_037 * l + 0.782_771_77 * m - 0.808_675_77 * s
    )
  }

  /// Each sRGB level as linear light.
  private static let linear: [Float] = (0...255).map { level in
    let value = Float(level) / 255
    return value <= 0.040_45 ? value / 12.92 : powf((value + 0.055) / 1.055, 2.4)
  }

  /// The palette's 240 colours (16–255) in Oklab, worked out once.
  private static let paletteOklab: [(l: Float, a: Float, b: Float)] = (16...255).map { index in
    let (r, g, b) = rgb(of: UInt8(index))
    return oklab(r, g, b)
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
