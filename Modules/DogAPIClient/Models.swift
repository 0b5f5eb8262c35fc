import Foundation

/// A breed as the Dog CEO API names it, with its sub-breeds.
///
/// Names are kept exactly as the API sends them (lowercase, e.g. `"hound"`, `"afghan"`);
/// formatting for display is the features' job.
public struct Breed: Equatable, Hashable, Sendable, Identifiable, Codable {
  /// The API name, e.g. `"hound"`.
  public var name: String
  /// The sub-breed names, sorted, e.g. `["afghan", "basset"]`.
  public var subBreeds: [String]

  /// The API name.
  public var id: String { name }

  /// Creates a breed.
  ///
  /// - Parameters:
  ///   - name: The API name.
  ///   - subBreeds: The sub-breed names.
  public init(name: String, subBreeds: [String] = []) {
    self.name = name
    self.subBreeds = subBreeds
  }
}

/// Where a breed list came from.
public enum BreedListSource: String, Equatable, Hashable, Sendable, Codable {
  /// Fetched from the API just now.
  case network
  /// Read from the on-disk cache because the network failed.
  case cache
  /// The snapshot compiled into the app, because the network failed and there was no cache.
  case bundled
}

/// The breed list plus its provenance, so a UI can always tell fresh from stale.
public struct BreedList: Equatable, Sendable {
  /// The breeds, sorted by name.
  public private(set) var breeds: [Breed]
  /// Each breed's name lowercased, as UTF-8, in the same order: computed once here so
  /// that filtering thousands of names on every keystroke does no string work.
  public private(set) var searchKeys: [[UInt8]]
  /// Every sub-breed's name lowercased, as UTF-8, with where it is, in the order of
  /// ``breeds`` and of each breed's `subBreeds`: computed once here, like ``searchKeys``,
  /// and in one array, so that a list of thousands of breeds without sub-breeds costs
  /// nothing to search for them.
  public private(set) var subBreedSearchKeys: [SubBreedKey]

  /// A sub-breed's search key and where it is in the list.
  public struct SubBreedKey: Sendable {
    /// The breed's position in ``BreedList/breeds``.
    public var breed: Int
    /// The sub-breed's position in that breed's `subBreeds`.
    public var subBreed: Int
    /// The sub-breed's name lowercased, as UTF-8.
    public var key: [UInt8]
  }
  /// Where the list came from.
  public var source: BreedListSource
  /// When the list was fetched from the network (for `cache`, the original fetch time;
  /// `nil` for the bundled snapshot).
  public var fetchedAt: Date?
  /// Why the network was not used, when `source` is not `network`; for a `network` list,
  /// why loading it again failed (it is the list from before).
  public var fallbackReason: DogAPIError?
  /// How many names in the answer were not breed names (``BreedName/isValid(_:)``: a path,
  /// control characters) and were left out of ``breeds``, breeds and sub-breeds alike.
  public var leftOutNames: Int

  /// Creates a list; `breeds` is sorted by name here.
  ///
  /// - Parameters:
  ///   - breeds: The breeds, in any order.
  ///   - source: Where they came from.
  ///   - fetchedAt: When they were fetched from the network.
  ///   - fallbackReason: Why the network was not used.
  ///   - leftOutNames: How many names the answer had that were not breed names.
  public init(
    breeds: [Breed], source: BreedListSource, fetchedAt: Date? = nil,
    fallbackReason: DogAPIError? = nil, leftOutNames: Int = 0
  ) {
    let sorted = breeds.sorted { $0.name < $1.name }
    self.breeds = sorted
    self.searchKeys = sorted.map { Array($0.name.lowercased().utf8) }
    self.subBreedSearchKeys = sorted.enumerated().flatMap { breed, entry in
      entry.subBreeds.enumerated().map {
        SubBreedKey(breed: breed, subBreed: $0, key: Array($1.lowercased().utf8))
      }
    }
    self.source = source
    self.fetchedAt = fetchedAt
    self.fallbackReason = fallbackReason
    self.leftOutNames = leftOutNames
  }

  /// Whether the list is not fresh from the network.
  public var isStale: Bool { source != .network }

  /// The breed named `name`, if listed.
  public func breed(named name: String) -> Breed? {
    index(named: name).map { breeds[$0] }
  }

  /// The position in ``breeds`` of the breed named `name`, if listed (a binary search:
  /// the breeds are sorted by name).
  public func index(named name: String) -> Int? {
    var low = 0
    var high = breeds.count
    while low < high {
      let middle = (low + high) / 2
      if breeds[middle].name < name { low = middle + 1 } else { high = middle }
    }
    return low < breeds.count && breeds[low].name == name ? low : nil
  }

  /// Lists are equal when their breeds and provenance are (the search keys derive from the breeds).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.source == rhs.source && lhs.fetchedAt == rhs.fetchedAt && lhs.fallbackReason == rhs.fallbackReason
      && lhs.breeds == rhs.breeds
  }
}

extension BreedList: Codable {
  private enum CodingKeys: String, CodingKey {
    case breeds, source, fetchedAt, fallbackReason, leftOutNames
  }

  /// Reads a list ``encode(to:)`` wrote; the search keys are made again from the breeds.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      breeds: try container.decode([Breed].self, forKey: .breeds),
      source: try container.decode(BreedListSource.self, forKey: .source),
      fetchedAt: try container.decodeIfPresent(Date.self, forKey: .fetchedAt),
      fallbackReason: try container.decodeIfPresent(DogAPIError.self, forKey: .fallbackReason),
      leftOutNames: try container.decodeIfPresent(Int.self, forKey: .leftOutNames) ?? 0)
  }

  /// Writes the breeds and their provenance, not the search keys that derive from them.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(breeds, forKey: .breeds)
    try container.encode(source, forKey: .source)
    try container.encodeIfPresent(fetchedAt, forKey: .fetchedAt)
    try container.encodeIfPresent(fallbackReason, forKey: .fallbackReason)
    try container.encode(leftOutNames, forKey: .leftOutNames)
  }
}

extension BreedList: CustomReflectable {
  // Diffs and traces show the breeds and provenance, not the derived search keys.
  /// Mirrors the breeds and provenance, so diffs and traces leave out the derived search keys.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "breeds": breeds, "source": source, "fetchedAt": fetchedAt as Any,
        "fallbackReason": fallbackReason as Any,
      ], displayStyle: .struct)
  }
}

/// Breed and sub-breed names as they may appear in a URL path.
public enum BreedName {
  /// The most letters a valid name has (the API's longest has 15).
  public static let maximumLength = 64

  /// A breed, or a sub-breed of it, named as one text, as favourites, `show` and JSON name
  /// them: `hound`, `hound/afghan`.
  public static func path(_ breed: String, _ subBreed: String?) -> String {
    subBreed.map { "\(breed)/\($0)" } ?? breed
  }

  /// The breed and sub-breed a ``path(_:_:)`` names: `hound/afghan` → (`hound`, `afghan`).
  public static func parts(ofPath path: String) -> (breed: String, subBreed: String?) {
    let parts = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    return (String(parts.first ?? ""), parts.count == 2 ? String(parts[1]) : nil)
  }

  /// Whether `name` is a valid API name: 1–``maximumLength`` lowercase ASCII letters,
  /// nothing else.
  ///
  /// Only names that pass this check are ever put into a request path.
  ///
  /// - Parameter name: A candidate name.
  public static func isValid(_ name: String) -> Bool {
    let bytes = name.utf8
    return !bytes.isEmpty && bytes.count <= maximumLength && bytes.allSatisfy(isLetter)
  }

  /// `breeds` without the names that are not breed names (a breed whose name is not goes
  /// with its sub-breeds), and how many names were left out.
  ///
  /// - Parameter breeds: Breeds as an answer named them.
  public static func keepingValid(_ breeds: [Breed]) -> (breeds: [Breed], leftOut: Int) {
    var leftOut = 0
    var kept: [Breed] = []
    kept.reserveCapacity(breeds.count)
    for breed in breeds {
      guard isValid(breed.name) else {
        leftOut += 1 + breed.subBreeds.count
        continue
      }
      let subBreeds = breed.subBreeds.filter(isValid)
      leftOut += breed.subBreeds.count - subBreeds.count
      kept.append(Breed(name: breed.name, subBreeds: subBreeds))
    }
    return (kept, leftOut)
  }

  /// Whether `name` is all lowercase ASCII letters but more than ``maximumLength`` of them:
  /// invalid for its length alone, which a message should say rather than "use letters".
  ///
  /// - Parameter name: A candidate name.
  public static func isTooLong(_ name: String) -> Bool {
    name.utf8.count > maximumLength && name.utf8.allSatisfy(isLetter)
  }

  /// Text as a person typed it, made comparable with names: lowercased, with accents,
  /// full-width forms and ligatures reduced to plain letters ("Brabançon" → "brabancon",
  /// "Coton de Tuléar" → "coton de tulear", "Ｈｏｕｎｄ" → "hound"). Names are ASCII, so a
  /// name written as in its own language still finds the breed. Text pasted from a web
  /// page may carry characters no one sees: invisible ones (a zero-width space, a soft
  /// hyphen, a byte-order mark) are removed, and every kind of space (a no-break space, a
  /// thin one) is a plain one. The result is not validated: check it with ``isValid(_:)``
  /// before it goes into a path.
  ///
  /// - Parameter text: What was typed.
  public static func folded(_ text: String) -> String {
    // ASCII has nothing to fold but case (the usual filter: no Foundation on the way).
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var visible = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where scalar.properties.generalCategory != .format {
      visible.append(scalar.properties.isWhitespace ? " " : scalar)
    }
    return String(visible).folding(
      options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }

  private static func isLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
}
