import Foundation

/// Makes text safe to put on a terminal.
///
/// Every string from the network passes through here before it reaches the screen: C0
/// controls (including ESC and newlines) become their visible Control Pictures (`␛`, `␊`),
/// DEL becomes `␡`, C1 controls (0x80–0x9F, which some terminals treat like ESC
/// sequences) become `�`, Unicode's line and paragraph separators (a line break to some
/// terminals, nothing at all to others) become `␤` and `¶`, and bidirectional overrides
/// and isolates (which can make text display in a misleading order) are removed. Nothing
/// that can move the cursor, change colours or start an escape sequence survives.
public enum Sanitizer {
  /// The terminal-safe form of `text`.
  public static func sanitize(_ text: String) -> String {
    // Fast path: printable ASCII needs no work.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x00..<0x20: result.append(Unicode.Scalar(0x2400 + value)!)
      case 0x7F: result.append("\u{2421}")
      case 0x80...0x9F: result.append("\u{FFFD}")
      case 0x2028: result.append("\u{2424}")
      case 0x2029: result.append("\u{B6}")
      case 0x200D: result.append(scalar)
      default:
        if scalar.properties.generalCategory == .format { continue }
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// `text` for a terminal that shows only ASCII (a locale that is not UTF-8).
  ///
  /// Each character becomes ASCII: typographic punctuation its plain counterpart (`“”` →
  /// `"`, `’` → `'`, `…` → `...`, `–` → `-`, the separator dot `·` → `|`, the path's `›` → `>`, arrows `->`, stars `*`),
  /// box drawing `-`, `|` or `+`, a Latin letter with accents or other marks its letter
  /// (`é` → `e`), a no-break space a space, and anything else (an emoji, a CJK character)
  /// one `?`. It only transliterates: ASCII controls pass through, so sanitise text from
  /// the network first.
  public static func ascii(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
    var result = ""
    for character in text {
      if character.isASCII {
        result.append(character)
      } else if let first = character.unicodeScalars.first {
        // A character's marks (`e` + U+0301) follow its first scalar: only that one counts.
        result += first.isASCII ? String(first) : ascii(first)
      }
    }
    return result
  }

  private static func ascii(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x00A0, 0x2000...0x200A, 0x202F: return " "
    case 0x201C...0x201F, 0x00AB, 0x00BB, 0x2033: return "\""
    case 0x2039: return "<"
    case 0x203A: return ">"
    case 0x2018...0x201B, 0x2032: return "'"
    case 0x2026: return "..."
    case 0x2010...0x2015, 0x2212: return "-"
    case 0x00B7, 0x2022, 0x2219: return "|"
    case 0x00D7: return "x"
    case 0x2605, 0x2606: return "*"
    case 0x2190: return "<-"
    case 0x2192: return "->"
    case 0x2191: return "^"
    case 0x2193: return "v"
    case 0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x254C, 0x254D, 0x2550: return "-"
    case 0x2502, 0x2503, 0x2506, 0x2507, 0x250A, 0x250B, 0x254E, 0x254F, 0x2551: return "|"
    case 0x2500...0x257F: return "+"
    default: return latinLetter(scalar).map(String.init) ?? "?"
    }
  }

  /// The letter a Latin letter with marks is built on, from its Unicode name: `é` is
  /// LATIN SMALL LETTER E WITH ACUTE, so `e` (and `ø`, O WITH STROKE, `o`). A letter of
  /// its own (`ß`, SHARP S) has none.
  private static func latinLetter(_ scalar: Unicode.Scalar) -> Character? {
    guard let name = scalar.properties.name else { return nil }
    for (prefix, upper) in [("LATIN SMALL LETTER ", false), ("LATIN CAPITAL LETTER ", true)] {
      guard name.hasPrefix(prefix) else { continue }
      let rest = name.dropFirst(prefix.count)
      guard let letter = rest.first, letter.isASCII, letter.isLetter,
        rest.count == 1 || rest.dropFirst().hasPrefix(" WITH ")
      else { return nil }
      return upper ? letter : Character(letter.lowercased())
    }
    return nil
  }

  /// Whether `text` is already terminal-safe: it holds no control character, no line or
  /// paragraph separator and no invisible format character (bidirectional controls
  /// included) but the zero-width joiner, which emoji sequences need.
  public static func isSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      let value = scalar.value
      if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 { return false }
      return value == 0x200D || scalar.properties.generalCategory != .format
    }
  }
}

extension Array where Element == String {
  /// The names as choices in a sentence: `"a"`, `"a or b"`, `"a, b or c"` (`""` for none).
  public var joinedAsAlternatives: String {
    guard let last else { return "" }
    return count == 1 ? last : dropLast().joined(separator: ", ") + " or " + last
  }
}

extension String {
  /// The text with its first letter upper-cased: `"hound"` → `"Hound"`.
  ///
  /// The rest is left as it is. This is how both screens show breed names.
  public var uppercasingFirstLetter: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }

  /// How a breed, or one of its sub-breeds, is named on screen: `"hound"` → `"Hound"`.
  ///
  /// A sub-breed's name qualifies its breed's, so it comes first: `"afghan"` of `"hound"`
  /// → `"Afghan Hound"`, `"golden"` of `"retriever"` → `"Golden Retriever"`. Where the
  /// breed's own name is the qualifier, a nationality (ending in -an or -ish) or a coat
  /// (`rough`, `smooth`, `wire`), the breed comes first: `"shepherd"` of `"german"` →
  /// `"German Shepherd"`, `"collie"` of `"rough"` → `"Rough Collie"`.
  ///
  /// - Parameters:
  ///   - breed: The breed's API name.
  ///   - subBreed: A sub-breed's API name, if one is meant.
  public static func breedTitle(_ breed: String, subBreed: String? = nil) -> String {
    let title = breedName(breed)
    guard let subBreed else { return title }
    let breedQualifies =
      breed.hasSuffix("an") || breed.hasSuffix("ish") || ["rough", "smooth", "wire"].contains(breed)
    return breedQualifies ? "\(title) \(breedName(subBreed))" : "\(breedName(subBreed)) \(title)"
  }

  /// What a failure's message adds once it has failed again: ` (tried 3 times, last at
  /// 14:05:09)` from the second failure in a row, else nothing. A retry that fails again
  /// at once must not look as if nothing happened.
  ///
  /// - Parameters:
  ///   - failures: How many times in a row it has failed.
  ///   - last: When it last failed.
  public static func tries(_ failures: Int, last: Date?) -> String {
    guard failures > 1 else { return "" }
    return " (tried \(failures) times" + (last.map { ", last at \(clockTime($0))" } ?? "") + ")"
  }

  /// A moment as a wall clock in this machine's time zone shows it: `14:05:09`.
  ///
  /// - Parameter date: The moment.
  public static func clockTime(_ date: Date) -> String {
    let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
    return [parts.hour, parts.minute, parts.second].map { String(format: "%02d", $0 ?? 0) }.joined(
      separator: ":")
  }

  /// One API name as people write it: the API runs words together and drops accents and
  /// dots (`shihtzu`, `stbernard`, `cotondetulear`), which are given back here (`Shih Tzu`,
  /// `St. Bernard`, `Coton de Tuléar`); any other name has its first letter upper-cased
  /// (`hound` → `Hound`). The API name stays the breed's identity; this is only how it is
  /// shown.
  ///
  /// - Parameter name: A breed's or sub-breed's API name.
  public static func breedName(_ name: String) -> String {
    writtenNames[name] ?? name.uppercasingFirstLetter
  }

  /// The names of the Dog CEO list that the API writes otherwise than people do.
  static let writtenNames: [String: String] = [
    "brabancon": "Brabançon", "bullterrier": "Bull Terrier", "cattledog": "Cattle Dog",
    "cotondetulear": "Coton de Tuléar", "flatcoated": "Flat-coated", "germanlonghair": "German Longhair",
    "germanshepherd": "German Shepherd", "kerryblue": "Kerry Blue", "mexicanhairless": "Mexican Hairless",
    "pitbull": "Pit Bull", "sharpei": "Shar Pei", "shihtzu": "Shih Tzu", "stbernard": "St. Bernard",
    "westhighland": "West Highland",
  ]
}
