import AppFeature
import BreedFeature
import CommandLineInterface
import Core
import DogAPIClient
import DogsFeature
import FavouritesClient
import FavouritesFeature
import Foundation
import ImageDecoding
import Synchronization
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
  /// How the output is drawn: a cell's size in pixels, for the pictures' shape; whether
  /// the terminal's background is light, as it answered; the symbols pictures are drawn
  /// with.
  var display = Display()
  /// What `show` needs to play an animated picture, where it may (on a terminal, in
  /// colour cells).
  var animation: AnimationSettings?

  /// What `show`'s picture is decoded to, where pictures are downloaded: see
  /// ``ShowPictureTarget``.
  var pictureTarget: ShowPictureTarget?

  /// How `show` plays an animated picture.
  struct AnimationSettings {
    /// The bytes of the picture downloaded.
    let bytes: PictureBytes
    /// `--loops`, if given.
    let loops: Int?
  }

  /// Loads the list through the Dogs feature, as the list screen would on appearing.
  func loadBreeds() async -> Int32? {
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
    if let note = view.note, let reason = store.state.breeds?.fallbackReason {
      // Scripts that must not work on a stand-in ask for --fresh: then nothing is shown, so
      // the error gives the reason alone, not which list would have shown.
      guard !options.fresh else {
        Output.error(reason.message + " (--fresh: only the network's list will do.)")
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

  func show(_ argument: String) async -> Int32 {
    let path: (breed: String, subBreed: String?)
    switch await resolve(argument) {
    case .success(let found): path = found
    case .failure(let status): return status.code
    }
    // The breed's screen, as the browser opens it: its picture starts loading.
    let opening = store.send(
      path.subBreed.map { .dogs(.subBreedMatchSelected(breed: path.breed, subBreed: $0)) }
        ?? .dogs(.rowSelected(path.breed)))
    // The breed, and so the text under the picture, is known now; its picture is decoded
    // after this (its address comes to this actor first) for the box it is drawn in. The
    // address, not known yet, is taken to be one row: a longer one only leaves the box a
    // row shorter than the pixels decoded.
    if let pictureTarget, let pixels = pictures.pixelsPerCell, let state = store.state.breed, !options.json {
      let box = PictureSettings.showBox(
        asked: options.pictureSize, window: window, pipedColumns: pictureColumns,
        text: text(state, imageURL: ""))
      if box.rows >= PictureSettings.fewestRows { pictureTarget.set(pixels.pixels(of: box)) }
    }
    await opening.finish()
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
      let text = text(state, imageURL: imageURL)
      let box = PictureSettings.showBox(
        asked: options.pictureSize, window: window, pipedColumns: pictureColumns, text: text)
      let pictureFailure: String?
      if pictures.mode != .none, box.rows < PictureSettings.fewestRows {
        pictureFailure =
          "The window is too small for the picture with the text (\(max(0, box.rows)) rows left): "
          + "make it taller, or choose the size with --size."
      } else {
        var drawn: DrawnInCells?
        pictureFailure = await printPicture(state, url: imageURL, in: box, drawn: &drawn)
        if let drawn, let interrupted = play(drawn, in: box) { return interrupted }
      }
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

  /// The text `show` prints under the picture: the breed's name, the picture's address
  /// (where it has one) and the sub-breeds.
  private func text(_ state: BreedFeature.State, imageURL: String?) -> String {
    let view = BreedFeature.ViewState(state)
    var text = Sanitizer.sanitize(view.subject) + "\n"
    if let imageURL { text += "Picture: \(Sanitizer.sanitize(imageURL))\n" }
    if view.subtitle != nil {
      // Under a sub-breed's name the list is its breed's: "Afghan Hound" has none.
      text += state.subBreed == nil ? "Sub-breeds:\n" : "Sub-breeds of \(Sanitizer.sanitize(view.title)):\n"
      for row in view.subBreeds { text += "  \(Sanitizer.sanitize(row.title))\n" }
    }
    return text
  }

  /// A picture drawn in cells: how many rows and columns, and when.
  private struct DrawnInCells {
    var rows: Int
    var columns: Int
    var at: ContinuousClock.Instant
  }

  /// The picture in cells, as lines of text, and the rows they take.
  private func cellText(_ image: RGBImage, in box: PictureBox) -> (text: String, rows: Int, columns: Int) {
    let cells = PictureRenderer.render(
      image, mode: pictures.mode, columns: box.columns, rows: box.rows,
      lightBackground: display.lightBackground,
      cell: display.cell, colorMode: pictures.colorMode, symbols: display.symbols)
    return (TerminalPicture.text(cells, colorMode: pictures.colorMode), cells.rows, cells.columns)
  }

  /// Plays the picture, if it is an animated GIF, over its first frame, drawn in cells:
  /// see ``PicturePlayer``.
  ///
  /// - Returns: The exit code of the signal that stopped it, if one did.
  private func play(_ drawn: DrawnInCells, in box: PictureBox) -> Int32? {
    guard let animation, let bytes = animation.bytes.value, ImageFormat(sniffing: bytes) == .gif,
      PicturePlayer.canPlay(rows: drawn.rows, columns: drawn.columns, on: Output.streams.output),
      // The frames are decoded to the pixels the first was.
      let target = pictureTarget?.pixels,
      let decoded = try? GIFDecoder.decodeAnimation(bytes, fitting: target),
      decoded.frames.count > 1
    else { return nil }
    let player = PicturePlayer(
      frames: decoded.frames,
      schedule: PlaybackSchedule(
        delays: decoded.frames.map(\.delay),
        plays: PlaybackSchedule.plays(decoded.plays, asked: animation.loops),
        limit: animation.loops == nil ? PlaybackSchedule.defaultLimit : nil),
      rows: drawn.rows, columns: drawn.columns,
      draw: { image in
        let drawn = cellText(image, in: box)
        return (drawn.text, drawn.rows)
      }, output: Output.streams.output)
    return player.play(from: drawn.at)
  }

  /// Prints the picture as the settings say; returns why it could not be, if so. A picture
  /// drawn in cells is described in `drawn`.
  private func printPicture(
    _ state: BreedFeature.State, url: String?, in box: PictureBox, drawn: inout DrawnInCells?
  ) async -> String? {
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
    if case .failed(let error) = state.picture { return error.message }
    guard let image = state.picture.image else { return nil }
    if pictures.terminalProtocol == .kitty, pictures.throughTmux {
      Output.write(
        TerminalPicture.kittyPlaceholders(
          image, columns: box.columns, rows: box.rows, cell: display.cell, id: UInt8.random(in: 1...255),
          compressed: pictures.compressed))
    } else if pictures.terminalProtocol == .kitty {
      Output.write(
        TerminalPicture.kitty(
          image, columns: box.columns, rows: box.rows, cell: display.cell, compressed: pictures.compressed))
    } else if pictures.terminalProtocol == .sixel {
      Output.write(TerminalPicture.sixel(image, columns: box.columns, rows: box.rows, cell: display.cell))
    } else if pictures.mode != .none {
      let text = cellText(image, in: box)
      Output.write(text.text)
      drawn = DrawnInCells(rows: text.rows, columns: text.columns, at: .now)
    }
    return nil
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

/// The pixels `show`'s picture is decoded to: those of its box with no text under the
/// picture until the breed is known, then those of the box less the text. Set on the main actor before the picture's address arrives there; read by the
/// effect that decodes the picture, after it has.
final class ShowPictureTarget: Sendable {
  private let size: Mutex<(width: Int, height: Int)>

  init(_ size: (width: Int, height: Int)) { self.size = Mutex(size) }

  /// The pixels to decode to.
  var pixels: (width: Int, height: Int) { size.withLock { $0 } }

  func set(_ pixels: (width: Int, height: Int)) { size.withLock { $0 = pixels } }
}
