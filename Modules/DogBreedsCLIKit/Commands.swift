import AppFeature
import BreedFeature
import Core
import DogAPIClient
import DogsFeature
import FavouritesClient
import FavouritesFeature
import Foundation
import ImageDecoding
import TextRendering

/// `list` and `show`: the same AppFeature store the interactive app uses, driven by a
/// script of actions instead of keys, printed as plain text or JSON.
@MainActor
struct Commands {
  let store: Store<AppFeature.State, AppFeature.Action>
  let options: Options
  let client: DogAPIClient
  let pictures: PictureSettings
  /// How wide `show`'s picture may be where the output is not a terminal.
  let pictureColumns: Int
  /// The terminal's window in cells, where the output is one: `show` fits its picture and
  /// its text in it.
  var window: (columns: Int, rows: Int)?
  /// A cell's size in pixels, for the pictures' shape.
  var cell: TerminalPicture.CellSize = .default
  /// Whether the terminal's background is light, as it answered.
  var lightBackground = false

  /// Loads the list through the Dogs feature, as the list screen would on appearing.
  private func loadBreeds() async -> Int32? {
    await store.send(.dogs(.appeared)).finish()
    let view = DogsFeature.ViewState(store.state.dogs)
    if case .failed(let message, _) = view.content {
      Output.error(message)
      return ExitCode.failure
    }
    // A fresh list's only note: the names in the answer that are not breed names.
    if let note = view.note, let list = store.state.breeds, list.source == .network,
      list.fallbackReason == nil
    {
      Output.warning(note)
    }
    if let note = view.note, store.state.breeds?.fallbackReason != nil {
      // Scripts that must not work on a stand-in ask for --fresh.
      guard !options.fresh else {
        Output.error(note + " (--fresh: only the network's list will do.)")
        return ExitCode.failure
      }
      Output.warning(note)
    }
    return nil
  }

  func list() async -> Int32 {
    if let failure = await loadBreeds() { return failure }
    let view = DogsFeature.ViewState(store.state.dogs)
    var shown: [DogsFeature.Row] = []
    switch view.content {
    case .loaded(let rows): shown = Array(rows)
    case .noMatch(let query):
      let paths = view.subBreedMatches.map(\.path)
      let found =
        (paths.isEmpty
          ? ""
          : " Found as \(paths.count == 1 ? "a sub-breed" : "sub-breeds"): try show \(paths.joinedAsAlternatives).")
        + Arguments.didYouMean(view.spellingMatches.map(\.path))
      // The query and the sub-breed names (from the network) alike.
      Output.text(
        Sanitizer.sanitize("No breeds match \(Output.quoted(query)).\(found)") + "\n",
        to: Output.streams.error)
    case .empty: Output.text("No breeds.\n", to: Output.streams.error)
    case .loading, .failed: break
    }
    if options.json {
      let list = store.state.breeds
      let byName = Dictionary(
        (list?.breeds ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
      Output.line(
        JSON.object(
          provenance(list) + [
            (
              "breeds",
              .array(
                shown.map { row in
                  .object([
                    ("name", .string(row.name)), ("displayName", .string(row.title)),
                    ("subBreeds", .array((byName[row.name]?.subBreeds ?? []).map(JSON.string))),
                  ])
                })
            ),
            // Where no breed matched, the sub-breeds the filter found (what the app offers).
            (
              "subBreedMatches",
              .array(
                view.subBreedMatches.map { match in
                  .object([
                    ("breed", .string(match.breed)), ("subBreed", .string(match.subBreed)),
                    ("displayName", .string(match.title)),
                  ])
                })
            ),
            // Where neither matched, what the filter may misspell ("retreiver").
            (
              "spellingMatches",
              .array(
                view.spellingMatches.map { match in
                  .object([
                    ("breed", .string(match.breed)), ("subBreed", match.subBreed.map(JSON.string) ?? .null),
                    ("displayName", .string(match.title)),
                  ])
                })
            ),
          ]
        ).text)
    } else {
      var text = ""
      for row in shown { text += Sanitizer.sanitize(row.title) + "\n" }
      Output.text(text)
    }
    if case .noMatch = view.content { return ExitCode.notFound }
    return ExitCode.success
  }

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

  /// The breed, and sub-breed, `argument` names, as `show` and `favourites` take names:
  /// with the list loaded and that breed's screen open; or the exit status, the error said.
  private func resolve(_ argument: String) async -> Result<(breed: String, subBreed: String?), ExitStatus> {
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
      return .failure(ExitStatus(ExitCode.usage))
    }
    // Once per run: `favourites add` resolves several names against one list.
    if store.state.breeds == nil, let failure = await loadBreeds() { return .failure(ExitStatus(failure)) }
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
      return .failure(ExitStatus(ExitCode.notFound))
    }
    store.send(.dogs(.rowSelected(path.breed)))
    if let notice = store.state.notice {
      Output.error(
        typed.contains(" ")
          ? "\(Output.quoted(typed)) is not in the breed list." + suggestion(forWordsOf: argument)
          : notice + suggestion(for: path.breed, subBreed: path.subBreed))
      return .failure(ExitStatus(ExitCode.notFound))
    }
    guard let breed = store.state.breed else { return .failure(ExitStatus(ExitCode.failure)) }
    if let subBreed = path.subBreed {
      guard breed.breed.subBreeds.contains(subBreed) else {
        // Sub-breeds whose names hold what was typed ("hound/bass"), else those it misspells,
        // else what the list's filter offers for it (for words that name breeds, those:
        // "siberian husky": husky).
        let named = store.state.breeds.map { DogsFeature.spellingMatches(in: $0, filter: argument) } ?? []
        let offered =
          [
            suggestion(forWordsOf: argument, spelling: false), misspelled(subBreed, of: breed.breed),
            Arguments.didYouMean(named.map(\.path)),
          ].first { !$0.isEmpty } ?? ""
        Output.error(
          "\(String.breedName(breed.breed.name)) has no sub-breed \(Output.quoted(subBreed))"
            + (breed.breed.subBreeds.isEmpty
              ? "."
              : " (it has \(breed.breed.subBreeds.map(String.breedName).joined(separator: ", "))).")
            + offered
        )
        return .failure(ExitStatus(ExitCode.notFound))
      }
    }
    return .success(path)
  }

  func show(_ argument: String) async -> Int32 {
    let path: (breed: String, subBreed: String?)
    switch await resolve(argument) {
    case .success(let found): path = found
    case .failure(let status): return status.code
    }
    if let subBreed = path.subBreed {
      await store.send(.breed(.subBreedSelected(subBreed))).finish()
    } else {
      await store.send(.breed(.appeared)).finish()
    }
    guard let state = store.state.breed else { return ExitCode.failure }
    let view = BreedFeature.ViewState(state)
    var imageURL: String?
    var failure: DogAPIError?
    switch state.imageURL {
    case .loaded(let url): imageURL = url.absoluteString
    case .failed(let error): failure = error
    case .notRequested, .loading: break
    }
    if options.json {
      Output.line(
        JSON.object(
          [
            // What was shown, as the text output's first line names it: "Afghan Hound".
            ("name", .string(state.breed.name)), ("displayName", .string(view.subject)),
            ("subBreed", state.subBreed.map(JSON.string) ?? .null),
            ("subBreeds", .array(state.breed.subBreeds.map(JSON.string))),
            ("image", imageURL.map(JSON.string) ?? .null),
          ] + provenance(store.state.breeds)
        ).text)
    } else {
      var text = Sanitizer.sanitize(view.subject) + "\n"
      if let imageURL { text += "Picture: \(Sanitizer.sanitize(imageURL))\n" }
      if view.subtitle != nil {
        // Under a sub-breed's name the list is its breed's: "Afghan Hound" has none.
        text += state.subBreed == nil ? "Sub-breeds:\n" : "Sub-breeds of \(Sanitizer.sanitize(view.title)):\n"
        for row in view.subBreeds { text += "  \(Sanitizer.sanitize(row.title))\n" }
      }
      let box = PictureSettings.showBox(
        asked: options.pictureSize, window: window, pipedColumns: pictureColumns, text: text)
      let pictureFailure = await printPicture(state, url: imageURL, in: box)
      Output.text(text)
      if let pictureFailure, failure == nil {
        if pictures.explicit {
          Output.error(pictureFailure)
          return ExitCode.failure
        }
        Output.warning(pictureFailure)
      }
    }
    if let failure {
      // With --offline the picture was never fetched: the rest is what was asked for.
      if failure == .offline, !pictures.explicit {
        Output.warning("No picture. \(failure.message)")
        return ExitCode.success
      }
      if case .failed(let message, _) = view.imageURL { Output.error(message) }
      if case .notFound = failure { return ExitCode.notFound }
      return ExitCode.failure
    }
    return ExitCode.success
  }

  /// Prints the picture as the settings say; returns why it could not be, if so.
  private func printPicture(_ state: BreedFeature.State, url: String?, in box: PictureBox) async -> String? {
    if pictures.terminalProtocol == .iterm, let url, let address = URL(string: url) {
      do throws(DogAPIError) {
        let bytes = [UInt8](try await client.imageData(address))
        guard ImageFormat(sniffing: bytes) != .unknown else {
          return ImageDecodingError.unsupportedFormat(.unknown).message
        }
        Output.write(
          TerminalPicture.iterm(bytes, columns: box.columns, rows: box.rows < Int.max ? box.rows : nil))
      } catch {
        return "Couldn't download the picture. \(error.message)"
      }
      return nil
    }
    switch state.picture {
    case .none, .loading:
      return nil
    case .failed(let error):
      return error.message
    case .loaded(let image):
      if pictures.terminalProtocol == .kitty {
        Output.write(TerminalPicture.kitty(image, columns: box.columns, rows: box.rows, cell: cell))
      } else if pictures.terminalProtocol == .sixel {
        Output.write(TerminalPicture.sixel(image, columns: box.columns, rows: box.rows, cell: cell))
      } else if pictures.mode != .none {
        let cells = PictureRenderer.render(
          image, mode: pictures.mode, columns: box.columns, rows: box.rows, lightBackground: lightBackground,
          cell: cell, colorMode: pictures.colorMode, symbols: options.symbols)
        Output.write(TerminalPicture.text(cells, colorMode: pictures.colorMode))
      }
      return nil
    }
  }

  private func provenance(_ list: BreedList?) -> [(String, JSON)] {
    guard let list else { return [] }
    let formatter = ISO8601DateFormatter()
    return [
      ("source", .string(list.source.rawValue)),
      ("fetchedAt", list.fetchedAt.map { .string(formatter.string(from: $0)) } ?? .null),
      ("fallbackReason", list.fallbackReason.map { .string($0.message) } ?? .null),
    ]
  }
}

/// An exit status carried as an error.
struct ExitStatus: Error {
  let code: Int32
  init(_ code: Int32) { self.code = code }
}

extension Commands {
  /// `favourites`: lists them (as shown, or as JSON with API names), or adds or removes the
  /// breeds named (as `show` takes names; one that is not listed is an error, and nothing
  /// changes), merged into what is saved.
  func favourites(_ command: FavouritesCommand, in client: FavouritesClient) async -> Int32 {
    switch command {
    case .list:
      let loaded: FavouritesLoad
      do throws(FavouritesError) { loaded = try await client.load() } catch {
        Output.error(error.message)
        return ExitCode.failure
      }
      // A file that cannot be read is an error, not an empty list: a script must tell the two apart.
      if loaded.isDamaged {
        Output.error(loaded.notice ?? "The favourites file could not be read.")
        return ExitCode.failure
      }
      if let notice = loaded.notice { Output.warning(notice) }
      let shown = FavouritesFeature.titled(loaded.favourites)
      // An empty list says nothing to a script, but a person at a terminal is told how to start one.
      if shown.isEmpty, !options.json, isatty(Output.streams.output) == 1 {
        Output.text(
          "No favourites yet: star a breed with Ctrl-F in the app, or run DogBreedsCLI favourites add pug\n",
          to: Output.streams.error)
      }
      if options.json {
        Output.line(
          JSON.object([
            (
              "favourites",
              .array(shown.map { .object([("name", .string($0.id)), ("displayName", .string($0.title))]) })
            )
          ]).text)
      } else {
        for favourite in shown { Output.line(Sanitizer.sanitize(favourite.title)) }
      }
      return ExitCode.success
    case .add(let names), .remove(let names):
      var ids: Set<String> = []
      // Removing what is no longer listed works by its saved name.
      let saved =
        if case .remove = command { (try? await client.load())?.favourites ?? [] } else { Set<String>() }
      for name in names {
        if saved.contains(name) {
          ids.insert(name)
          continue
        }
        switch await resolve(name) {
        case .success(let path): ids.insert(BreedName.path(path.breed, path.subBreed))
        case .failure(let status): return status.code
        }
      }
      let change =
        if case .add = command { FavouritesChange(added: ids) } else { FavouritesChange(removed: ids) }
      do throws(FavouritesError) {
        if let notice = try await client.save(change).notice { Output.warning(notice) }
      } catch {
        Output.error(error.message)
        return ExitCode.failure
      }
      return ExitCode.success
    }
  }
}
