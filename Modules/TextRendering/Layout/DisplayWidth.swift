/// How many terminal columns text occupies, measured per grapheme cluster (`Character`).
///
/// glibc's `wcwidth` is not usable from Swift (not exported, locale-dependent, and wrong
/// for emoji sequences), so this ships its own table. A cluster is:
/// - 2 when it is an emoji: emoji presentation, the emoji variation selector U+FE0F, a
///   regional-indicator flag, and sequences of these joined by zero-width joiners;
/// - otherwise what terminals give its scalars one by one, added up: 0 for control
///   characters, combining marks, format characters and Hangul's medial vowels and final
///   consonants (they join the syllable), 2 for East Asian Wide/Fullwidth characters, 1
///   for the rest (East Asian Ambiguous included), and none for what a zero-width joiner
///   joins. So a Devanagari syllable with a spacing vowel sign (`कि`) takes 2 columns and
///   Thai's `กำ` 2, as in xterm, VTE and tmux, and a half form joined by U+200D (`क्‍ष`) 1.
public enum DisplayWidth {
  /// The columns one grapheme cluster occupies.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.count == 1 {
      let value = first.value
      if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
      if value < 0x300 { return 1 }  // Latin fast path
    }
    var total = 0
    var joined = false
    for scalar in scalars {
      // Emoji presentation covers the regional indicators that make up flags.
      if scalar.value == 0xFE0F || scalar.properties.isEmojiPresentation { return 2 }
      // What a zero-width joiner joins draws in the column before it (a Devanagari half
      // form, an emoji sequence written without its variation selectors).
      if !joined { total += of(scalar) }
      joined = scalar.value == 0x200D
    }
    return total
  }

  /// Whether terminals agree on how wide `character` is: one scalar, or one followed only
  /// by combining marks. On the rest (an emoji with U+FE0F, joined emoji, skin tones,
  /// flags, spacing vowel signs) they differ: tmux 3.3 draws `❤️` one column wide and `👍🏽`
  /// four, where most terminals draw two. So a screen writer must not count on where the
  /// cursor stands after one.
  static func isAgreed(_ character: Character) -> Bool {
    var scalars = character.unicodeScalars.makeIterator()
    guard let first = scalars.next() else { return true }
    if first.isASCII, character.utf8.count == 1 { return true }
    while let scalar = scalars.next() {
      guard scalar.value != 0xFE0F else { return false }
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark: continue
      default: return false
      }
    }
    return true
  }

  /// The columns one scalar takes in a terminal that counts them one by one.
  private static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
    switch scalar.properties.generalCategory {
    // Marks take no column of their own, even those in wide blocks (kana's voicing marks).
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    // Hangul's medial vowels and final consonants join the syllable an initial starts.
    if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
    return isWide(value) ? 2 : 1
  }

  /// The columns a string occupies.
  public static func of(_ text: some StringProtocol) -> Int {
    var total = 0
    for character in text {
      if let ascii = character.asciiValue {
        total += ascii >= 0x20 && ascii != 0x7F ? 1 : 0
      } else {
        total += of(character)
      }
    }
    return total
  }

  /// `text` cut to at most `width` columns, ending in `…` if anything was cut.
  ///
  /// Whole grapheme clusters only; a wide character that would straddle the limit is
  /// dropped and the line padded with a space instead.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - width: The columns available.
  ///   - ellipsis: What marks the cut (`"..."` where Unicode is unavailable).
  public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
    guard width > 0 else { return "" }
    if of(text) <= width { return text }
    return cut(text, to: width, ellipsis: ellipsis)
  }

  /// `text` cut to end with `ellipsis` within `width` columns, even if it would fit:
  /// for text that more text follows.
  static func cut(_ text: String, to width: Int, ellipsis: String) -> String {
    guard width > 0 else { return "" }
    let ellipsisWidth = of(ellipsis)
    // Only where even the ellipsis does not fit (`...` in two columns) do dots stand in.
    guard width >= ellipsisWidth else { return String(repeating: ".", count: width) }
    var result = ""
    var used = 0
    for character in text {
      let columns = of(character)
      if used + columns > width - ellipsisWidth { break }
      result.append(character)
      used += columns
    }
    let padding = width - ellipsisWidth - used
    return result + String(repeating: " ", count: padding) + ellipsis
  }

  static func isWide(_ value: UInt32) -> Bool {
    guard value >= 0x1100 else { return false }
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// East Asian Wide (W) and Fullwidth (F) ranges, from Unicode 17's EastAsianWidth.txt
  /// (the version of Swift 6.3's own character properties), a range running on over
  /// unassigned code points up to the next; and U+3248–U+324F (circled numbers on black
  /// squares), Ambiguous to Unicode but two columns to glibc and xterm, as their block is.
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
    0x25FD...0x25FE, 0x2614...0x2615, 0x2630...0x2637, 0x2648...0x2653, 0x267F...0x267F, 0x268A...0x268F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE,
    0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD,
    0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755,
    0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50,
    0x2B55...0x2B55, 0x2E80...0x303E, 0x3041...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF,
    0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB,
    0x1D300...0x1D376, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
    0x1F200...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
    0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
    0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
    0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
    0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0,
    0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAF8, 0x20000...0x3FFFD,
  ]
}
