/// Makes text safe to put on a terminal.
///
/// Every string from the network passes through here before it reaches the screen: C0
/// controls (including ESC and newlines) become their visible Control Pictures (`␛`, `␊`),
/// DEL becomes `␡`, C1 controls (0x80–0x9F, which some terminals treat like ESC
/// sequences) become `�`, and bidirectional overrides and isolates (which can make text
/// display in a misleading order) are removed. Nothing that can move the cursor, change
/// colours or start an escape sequence survives.
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
      case 0x200D: result.append(scalar)
      default:
        if scalar.properties.generalCategory == .format { continue }
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// Whether `text` is already terminal-safe: it holds no control character and no
  /// invisible format character (bidirectional controls included) but the zero-width
  /// joiner, which emoji sequences need.
  public static func isSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      let value = scalar.value
      if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
      return value == 0x200D || scalar.properties.generalCategory != .format
    }
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
    let title = breed.uppercasingFirstLetter
    guard let subBreed else { return title }
    let breedQualifies =
      breed.hasSuffix("an") || breed.hasSuffix("ish") || ["rough", "smooth", "wire"].contains(breed)
    return breedQualifies
      ? "\(title) \(subBreed.uppercasingFirstLetter)" : "\(subBreed.uppercasingFirstLetter) \(title)"
  }
}
