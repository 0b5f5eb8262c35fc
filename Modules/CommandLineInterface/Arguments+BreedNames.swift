import AppFeature
import DogAPIClient
import DogsFeature
import Foundation
import TextRendering

/// Breeds named on the command line: as people write them, or as the API names them.
extension Arguments {
  /// The API's name for a breed named in words as people write it, if it can be one: the
  /// words run together, folded as `BreedName.folded(_:)` does ("Shih Tzu", "St. Bernard",
  /// "Coton de Tuléar": shihtzu, stbernard, cotondetulear; "Poodle (Toy)", "Retriever, Golden": poodletoy,
  /// retrievergolden; a single word is itself). `nil` for text that does not start with a
  /// letter, has anything but letters, spaces, hyphens, points, commas, apostrophes and
  /// brackets (a `/` makes it a path), or is too long.
  package static func runTogether(_ text: String) -> String? {
    // A name starts with a letter: `--json` after `--` is no name written with hyphens.
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.first?.isLetter == true else { return nil }
    let name = String(BreedName.folded(trimmed).filter { !nameSeparators.contains($0) })
    return BreedName.isValid(name) ? name : nil
  }

  /// The words of a name written as people write it, as a filter reads them: separated by
  /// spaces ("Terrier, Jack-Russell": "Terrier  Jack Russell").
  package static func words(_ text: String) -> String {
    String(text.map { nameSeparators.contains($0) ? " " : $0 })
  }

  /// What separates the words of a name as people write it.
  private static let nameSeparators: Set<Character> = [" ", "-", ".", ",", "'", "’", "(", ")"]

  /// `hound`, `Hound`, `hound/afghan`, `Hound/Afghan`, and a sub-breed as listed,
  /// `Afghan Hound` → API names, validated. Surrounding spaces and line breaks (a paste)
  /// are ignored; case, accents and full-width forms are folded (`Brabançon`: brabancon).
  package static func breedPath(_ text: String) throws(UsageError) -> (breed: String, subBreed: String?) {
    let trimmed = BreedName.folded(text).trimmingCharacters(in: .whitespacesAndNewlines)
    let words = trimmed.split(separator: " ")
    let path = words.count == 2 && !trimmed.contains("/") ? "\(words[1])/\(words[0])" : trimmed
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    let isBreedPath = (1...2).contains(parts.count)
    guard isBreedPath, parts.allSatisfy(BreedName.isValid) else {
      let message: String
      if isBreedPath
        && parts.allSatisfy({ BreedName.isValid($0) || BreedName.isTooLong($0.filter { $0 != " " }) })
      {
        // Letters only, but more of them than any name has: saying "use letters" would puzzle.
        // (Words, as in a name written as people write it, count their letters together.)
        message = "is too long for a breed name: names have at most \(BreedName.maximumLength) letters."
      } else if parts.count > 2 && parts.allSatisfy(BreedName.isValid) {
        // Names, but more of them than a breed and its sub-breed: say what a path holds.
        message = "has too many parts: a breed, then at most one sub-breed, as in hound/afghan."
      } else {
        message = "is not a breed name: use letters, as in hound or hound/afghan."
      }
      throw UsageError(message: "\(Output.quoted(text)) \(message)")
    }
    return (parts[0], parts.count == 2 ? parts[1] : nil)
  }
}
