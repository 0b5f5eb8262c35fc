import Core
import DogAPIClient
import Foundation
import TextRendering

/// Search and ranking: which breeds and sub-breeds a filter finds, in what order, and
/// what it may have misspelt. Pure functions of the list and the filter, shared by the
/// screen and the command line.
extension DogsFeature {
  /// Indices into `list.breeds` of the breeds whose displayed name contains `filter`,
  /// ignoring case; a filter of several words matches names that contain each of them
  /// ("bull terr" finds Bullterrier). An empty filter matches everything.
  ///
  /// Uses the list's precomputed lowercase keys: no string is built per breed, so 10,000
  /// names filter in well under a millisecond.
  public static func matches(in list: BreedList, filter: String) -> [Int] {
    matches(in: list, query: SearchQuery(filter))
  }

  static func matches(in list: BreedList, query: SearchQuery) -> [Int] {
    if query.isEmpty { return Array(list.breeds.indices) }
    var result: [Int] = []
    for (index, key) in list.searchKeys.enumerated() where query.matches(key) {
      result.append(index)
    }
    return result
  }

  /// Sub-breeds that `filter` finds by their names ("golden") or by the titles the app
  /// gives them ("afghan hound", "great dane"), ranked like breeds (see
  /// ``rankedMatches(in:filter:)``), each rank in list order; three at most. What the
  /// screen offers when no breed matches, and what the CLI suggests.
  public static func subBreedMatches(in list: BreedList, filter: String) -> [SubBreedMatch] {
    let query = SearchQuery(filter)
    guard !query.isEmpty else { return [] }
    var ranked: [[SubBreedMatch]] = [[], [], []]
    // By index: an element taken whole from the arrays would be retained and released.
    let (keys, subBreedKeys) = (list.searchKeys, list.subBreedSearchKeys)
    for index in subBreedKeys.indices
    where query.matches(either: subBreedKeys[index].key, or: keys[subBreedKeys[index].breed]) {
      // The title is the key for ranking, so that its first word ranks as it reads (built
      // only for a match: a list of thousands of sub-breeds builds no strings to filter).
      let breed = list.breeds[subBreedKeys[index].breed]
      let subBreed = breed.subBreeds[subBreedKeys[index].subBreed]
      let title = String.breedTitle(breed.name, subBreed: subBreed)
      ranked[query.rank(Array(title.lowercased().utf8))].append(
        SubBreedMatch(breed: breed.name, subBreed: subBreed, title: title))
    }
    return Array(ranked.joined().prefix(3))
  }

  /// The breeds whose names `filter` misspells, and the sub-breeds whose names or titles
  /// it does (either way round, as the filter reads them), as far as a slip of typing goes
  /// ("retreiver": Retriever; "golden retreiver": Golden Retriever): the closest first,
  /// breeds before sub-breeds, each in list order; three at most. For a filter that matches
  /// no breed and no sub-breed: what the screen and the CLI offer instead. A filter's words
  /// are read together, as a title's are; one or two letters find nothing. Where nothing is
  /// a slip away, what the filter's words name, for a longer name than the list has (a
  /// name being a word or up to three words run together, as the API writes "West
  /// Highland" and "Shar Pei"): the sub-breeds whose own and breed's names are both named,
  /// in list order ("jack russell terrier": Russell Terrier; "west highland white
  /// terrier": Westhighland Terrier), then the breeds named, in the filter's order
  /// ("labrador retriever": Labrador, Retriever; "chinese shar pei": Sharpei).
  public static func spellingMatches(in list: BreedList, filter: String) -> [SpellingMatch] {
    let query = SearchQuery(filter)
    let slips = slipMatches(in: list, query: query)
    guard slips.isEmpty else { return slips }
    let names = namesOfWords(query.words).map { String(decoding: $0, as: UTF8.self) }
    let breeds = names.compactMap(list.index(named:))  // in the filter's order
    var named: [SpellingMatch] = []
    // Only the named breeds' sub-breeds are looked at: a list of thousands costs nothing.
    for index in Set(breeds).sorted() {
      let breed = list.breeds[index]
      for subBreed in breed.subBreeds where names.contains(subBreed) {
        named.append(SpellingMatch(breed: breed.name, subBreed: subBreed))
      }
    }
    for name in breeds.map({ list.breeds[$0].name }) where !named.contains(where: { $0.path == name }) {
      named.append(SpellingMatch(breed: name))
    }
    return Array(named.prefix(3))
  }

  /// Each word and each run of two or three words written together, in the order they
  /// start (longest first): the names a filter's words may be.
  private static func namesOfWords(_ words: [[UInt8]]) -> [[UInt8]] {
    words.indices.flatMap { start in
      stride(from: min(3, words.count - start), through: 1, by: -1).map {
        Array(words[start..<start + $0].joined())
      }
    }
  }

  /// The slips of ``spellingMatches(in:filter:)``.
  private static func slipMatches(in list: BreedList, query: SearchQuery) -> [SpellingMatch] {
    var nearest = Spelling.Nearest(query.joined)
    guard nearest.isPossible else { return [] }
    let keys = list.searchKeys
    for index in keys.indices where nearest.canReach(length: keys[index].count) {
      nearest.consider(keys[index], as: index)
    }
    // Sub-breeds are numbered after the breeds, in list order. Their titles are put
    // together only where their length is within reach. (By index, and lengths first: an
    // element taken whole from the arrays would be retained and released.)
    let subBreedKeys = list.subBreedSearchKeys
    for index in subBreedKeys.indices {
      let candidate = keys.count + index
      let subKeyCount = subBreedKeys[index].key.count
      let breedKeyCount = keys[subBreedKeys[index].breed].count
      if nearest.canReach(length: subKeyCount) { nearest.consider(subBreedKeys[index].key, as: candidate) }
      guard nearest.canReach(length: subKeyCount + breedKeyCount) else { continue }
      let (subKey, breedKey) = (subBreedKeys[index].key, keys[subBreedKeys[index].breed])
      // The title's letters are its two names' letters: checked before it is put together.
      let letters = Spelling.letters(subKey) | Spelling.letters(breedKey)
      guard nearest.canReach(letters: letters) else { continue }
      nearest.consider(subKey + breedKey, letters: letters, as: candidate)
      nearest.consider(breedKey + subKey, letters: letters, as: candidate)
    }
    return nearest.closest.map { candidate in
      guard candidate >= list.breeds.count else { return SpellingMatch(breed: list.breeds[candidate].name) }
      let entry = list.subBreedSearchKeys[candidate - list.breeds.count]
      let breed = list.breeds[entry.breed]
      return SpellingMatch(breed: breed.name, subBreed: breed.subBreeds[entry.subBreed])
    }
  }

  /// The names among `names` that `typed` misspells, by the rule of
  /// ``spellingMatches(in:filter:)`` (case aside): what to offer for a sub-breed of a
  /// breed that has none of that name ("afgan": afghan).
  public static func spellingMatches(of typed: String, among names: [String]) -> [String] {
    var nearest = Spelling.Nearest(SearchQuery(typed).joined)
    for (index, name) in names.enumerated() { nearest.consider(Array(name.lowercased().utf8), as: index) }
    return nearest.closest.map { names[$0] }
  }

  /// ``matches(in:filter:)`` ordered by how well they match: the breed named by the filter,
  /// then those whose names start with its first word, then the rest, each group in list
  /// order.
  public static func rankedMatches(in list: BreedList, filter: String) -> [Int] {
    let query = SearchQuery(filter)
    var groups: [[Int]] = [[], [], []]
    for index in matches(in: list, query: query) {
      groups[query.rank(list.searchKeys[index])].append(index)
    }
    return groups.flatMap { $0 }
  }
}
