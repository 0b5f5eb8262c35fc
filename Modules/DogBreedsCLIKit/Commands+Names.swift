import AppFeature
import CommandLineInterface
import DogAPIClient
import DogsFeature
import Foundation

/// How `show` and `favourites` read the names of breeds they are given, and what they
/// suggest for a name that is not listed.
extension Commands {
  /// What to try instead of a breed that is not listed: the breeds it is a sub-breed of,
  /// else up to three whose names contain it (those starting with it first), else up to
  /// three sub-breeds whose names contain it, else up to three breeds it misspells; or
  /// nothing. With the sub-breed that was asked for where a breed offered has it
  /// ("retreiver/golden": retriever/golden).
  private func suggestion(for name: String, subBreed: String?) -> String {
    guard let list = store.state.breeds else { return "" }
    let parents = list.breeds.filter { $0.subBreeds.contains(name) }.map { BreedName.path($0.name, name) }
    if !parents.isEmpty { return " It is a sub-breed: try \(parents.joinedAsAlternatives)." }
    return Arguments.didYouMean(
      names(foundBy: name).map { offered in
        guard let subBreed, list.breed(named: offered)?.subBreeds.contains(subBreed) == true else {
          return offered
        }
        return "\(offered)/\(subBreed)"
      })
  }

  /// The breeds, else the sub-breeds, that `words` find as the list's filter does, else
  /// what they misspell (up to three, best first), as `show` takes them.
  private func names(foundBy words: String, spelling: Bool = true) -> [String] {
    guard let list = store.state.breeds else { return [] }
    var names = DogsFeature.rankedMatches(in: list, filter: words).prefix(3).map { list.breeds[$0].name }
    if names.isEmpty { names = DogsFeature.subBreedMatches(in: list, filter: words).map(\.path) }
    if names.isEmpty && spelling { names = DogsFeature.spellingMatches(in: list, filter: words).map(\.path) }
    return names
  }

  /// For a name of two words that is not a breed and its sub-breed ("bull terrier",
  /// "german shepherd"), what the list's filter finds with both words; or nothing.
  private func suggestion(forWordsOf argument: String, spelling: Bool = true) -> String {
    let words = argument.replacingOccurrences(of: "/", with: " ")
    return words.split(separator: " ").count > 1
      ? Arguments.didYouMean(names(foundBy: words, spelling: spelling)) : ""
  }

  /// For a sub-breed that `breed` does not have, those of its sub-breeds the name
  /// misspells ("hound/afgan"), offered as " Did you mean …?"; or nothing.
  private func misspelled(_ subBreed: String, of breed: Breed) -> String {
    Arguments.didYouMean(
      DogsFeature.spellingMatches(of: subBreed, among: breed.subBreeds).map { BreedName.path(breed.name, $0) }
    )
  }

  /// What `letters` spell run together: a listed sub-breed's title as the app shows it
  /// ("afghanhound", "germanshepherd": Afghan Hound, German Shepherd, though one names its
  /// sub-breed first and the other its breed), else a breed's name ("shihtzu"), else a
  /// sub-breed's title the other way round ("houndafghan"); `nil` where none does. Titles in
  /// order first: where two titles mirror each other, the one named in order wins.
  private func listed(runTogether letters: String) -> (breed: String, subBreed: String?)? {
    guard let list = store.state.breeds else { return nil }
    let subBreeds = list.breeds.flatMap { breed in breed.subBreeds.map { (breed: breed.name, subBreed: $0) } }
    func inOrder(_ path: (breed: String, subBreed: String)) -> String {
      String.breedTitle(path.breed, subBreed: path.subBreed).lowercased().filter { $0 != " " }
    }
    if let path = subBreeds.first(where: { inOrder($0) == letters }) { return path }
    if list.breed(named: letters) != nil { return (letters, nil) }
    return subBreeds.first { [$0.subBreed + $0.breed, $0.breed + $0.subBreed].contains(letters) }
  }

  /// The breed, and sub-breed, `argument` names, as `show` and `favourites` take names,
  /// with the list loaded; or the exit status, the error said.
  func resolve(_ argument: String) async -> Result<(breed: String, subBreed: String?), ExitCode.Failure> {
    // A name of words is quoted whole (lowercased, as names are), not as the breed it was
    // read as.
    let typed = argument.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    // A breed named in words as people write it ("Shih Tzu", "St. Bernard"), which the API
    // runs together.
    let runTogether = Arguments.runTogether(argument)
    let read: Result<(breed: String, subBreed: String?), UsageError>
    do { read = .success(try Arguments.breedPath(argument)) } catch { read = .failure(error) }
    if case .failure(let error) = read, runTogether == nil {
      Output.error(error.message)
      return .failure(ExitCode.Failure(code: ExitCode.usage))
    }
    // Once per run: `favourites add` resolves several names against one list.
    if store.state.breeds == nil, let failure = await loadBreeds() {
      return .failure(ExitCode.Failure(code: failure))
    }
    var path: (breed: String, subBreed: String?)
    // What the letters spell run together (a title, a breed: "Afghan Hound", "Bull
    // Terrier", "Kerry Blue Terrier"); else the name as read (a path, "hound/afghan"),
    // listed or not (said below).
    if let found = runTogether.flatMap(listed(runTogether:)) {
      path = found
    } else if case .success(let asRead) = read {
      path = asRead
    } else {
      // Words no path reads ("St Bernard's", "Big Fluffy Dog"), whose letters run together
      // name nothing listed: what the letters find, else what the words do ("Jack Russell
      // Terrier": terrier/russell).
      var offered = runTogether.map { names(foundBy: $0) } ?? []
      if offered.isEmpty { offered = names(foundBy: Arguments.words(argument)) }
      Output.error("\(Output.quoted(typed)) is not in the breed list." + Arguments.didYouMean(offered))
      return .failure(ExitCode.Failure(code: ExitCode.notFound))
    }
    guard let breed = store.state.breeds?.breed(named: path.breed) else {
      Output.error(
        typed.contains(" ")
          ? "\(Output.quoted(typed)) is not in the breed list." + suggestion(forWordsOf: argument)
          : AppFeature.notListed(path.breed) + suggestion(for: path.breed, subBreed: path.subBreed))
      return .failure(ExitCode.Failure(code: ExitCode.notFound))
    }
    if let subBreed = path.subBreed, !breed.subBreeds.contains(subBreed) {
      // Sub-breeds whose names hold what was typed ("hound/bass"), else those it misspells,
      // else what the list's filter offers for it (for words that name breeds, those:
      // "siberian husky": husky).
      let named = store.state.breeds.map { DogsFeature.spellingMatches(in: $0, filter: argument) } ?? []
      let offered =
        [
          suggestion(forWordsOf: argument, spelling: false), misspelled(subBreed, of: breed),
          Arguments.didYouMean(named.map(\.path)),
        ].first { !$0.isEmpty } ?? ""
      Output.error(
        "\(String.breedName(breed.name)) has no sub-breed \(Output.quoted(subBreed))"
          + (breed.subBreeds.isEmpty
            ? "."
            : " (it has \(breed.subBreeds.map(String.breedName).joined(separator: ", "))).")
          + offered
      )
      return .failure(ExitCode.Failure(code: ExitCode.notFound))
    }
    return .success(path)
  }
}
