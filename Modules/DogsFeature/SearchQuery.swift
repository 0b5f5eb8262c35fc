import DogAPIClient

/// What the filter asks for, compared byte by byte with lowercase search keys (the filter
/// folded: "brabanç" finds Brabancon, see `BreedName.folded(_:)`).
///
/// The filter's words (split at spaces) must each appear in a name: one word is the
/// "contains" of PRODUCT.md, and several find names that have no spaces ("bull terr" finds
/// Bullterrier) and sub-breeds by the title the app gives them ("afghan hound", "great
/// dane", in either order). A filter of spaces alone asks for nothing, like an empty one.
struct SearchQuery {
  /// The filter's words, lowercased.
  let words: [[UInt8]]
  /// The words written together: the name a filter of several words spells.
  let joined: [UInt8]
  /// The first word (empty without words).
  let firstWord: [UInt8]

  init(_ filter: String) {
    words = BreedName.folded(filter).split(whereSeparator: \.isWhitespace).map { Array($0.utf8) }
    joined = Array(words.joined())
    firstWord = words.first ?? []
  }

  /// Whether every name matches (the filter has no words).
  var isEmpty: Bool { words.isEmpty }

  /// Whether `key` holds every word.
  func matches(_ key: [UInt8]) -> Bool {
    // One word (the usual filter) is the whole of `joined`: no walk over `words`, whose
    // elements would be retained and released for every name of the list.
    if words.count == 1 { return Self.contains(key, joined) }
    return words.allSatisfy { Self.contains(key, $0) }
  }

  /// Whether every word is in `first` or in `second`: whether the key `"first second"`
  /// (a sub-breed's title, either way round) ``matches(_:)``, since a word has no spaces
  /// and so lies in one part or the other. No key is built.
  func matches(either first: [UInt8], or second: [UInt8]) -> Bool {
    words.allSatisfy { Self.contains(first, $0) || Self.contains(second, $0) }
  }

  /// How well a key that ``matches(_:)`` does: 0 it is the name the filter spells (spaces
  /// aside), 1 it starts with the first word, 2 the words are elsewhere. The one rule
  /// behind the list's highlight and every ranked suggestion.
  func rank(_ key: [UInt8]) -> Int {
    // This runs for every visible row on every keystroke. Breed names have no spaces: one
    // comparison. A key with spaces (a sub-breed's title) can spell the filter only if the
    // filter has several words (one word cannot match across a space).
    if key == joined { return 0 }
    if words.count > 1, key.lazy.filter({ $0 != UInt8(ascii: " ") }).elementsEqual(joined) { return 0 }
    return key.starts(with: firstWord) ? 1 : 2
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    let first = needle[0]
    var start = 0
    while start <= haystack.count - needle.count {
      if haystack[start] == first {
        var offset = 1
        while offset < needle.count && haystack[start + offset] == needle[offset] { offset += 1 }
        if offset == needle.count { return true }
      }
      start += 1
    }
    return false
  }
}
