import AppFeature
import BreedFeature
import Core
import DogAPIClient
import DogsFeature
import FavouritesClient
import FavouritesFeature
import Foundation
import ImageDecoding
import Synchronization

/// A recorded session, read back for a test made from it (`replay FILE --test DIR`): the
/// log's actions and their payloads by step, the app's feature with clients that answer as
/// the log recorded, and what the recording says each step's state was.
///
/// The clients answer from the actions effects delivered in the recording: the breed list
/// (or the failure) of each `breedsResponse`, the address and the picture of each
/// `imageURLResponse` and `pictureResponse` (the picture's file, kept in the log, decoded
/// again to the size it was decoded to), the favourites of each load and save. Each answer
/// comes when the test's clock reaches the time the recording received it, and `now` is
/// the time the recorded action carries, so the actions the effects deliver are the
/// recorded ones.
@MainActor
package final class RecordedSession {
  /// The log.
  package let log: SessionReplay
  private let answers: RecordedAnswers
  /// The states the reducer reaches from the recorded actions (index 0: the initial one).
  private let states: [AppFeature.State]

  /// Something a test asked of the recording that it does not hold.
  package struct Missing: Error, CustomStringConvertible {
    package var description: String
  }

  /// Reads the log `name`, kept in a `Recordings` folder beside `file` (the test's
  /// `#filePath`), or beside it.
  package convenience init(_ name: String, beside file: String = #filePath) throws {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    let kept = folder.appendingPathComponent(SessionTest.folder).appendingPathComponent(name)
    let path =
      FileManager.default.fileExists(atPath: kept.path) ? kept.path : folder.appendingPathComponent(name).path
    do {
      self.init(try SessionReplay.read(path: path))
    } catch {
      throw Missing(description: error.message)
    }
  }

  /// The session `log`.
  package init(_ log: SessionReplay) {
    self.log = log
    answers = RecordedAnswers(log.steps)
    states = Replayed(log).states
  }

  /// The feature as the recording app had it (pictures, favourites), its clients answering
  /// from the log on `clock`, whose start is the recording's.
  package func feature(clock: any Clock<Duration>) -> AppFeature {
    let answers = answers
    answers.run(on: Self.reading(clock))
    var pictureSize: (@Sendable () -> (width: Int, height: Int))?
    if log.header.pictures { pictureSize = { answers.pictureSize() } }
    let favourites: FavouritesClient? = log.header.favourites ? answers.favourites : nil
    let now: @Sendable () -> Date = { answers.now() }
    return AppFeature(
      client: answers.client, pictureSize: pictureSize, favourites: favourites, clock: clock, now: now)
  }

  private static func reading<C: Clock<Duration>>(_ clock: C) -> RecordedAnswers.Clock {
    let start = clock.now
    return RecordedAnswers.Clock(
      now: { start.duration(to: clock.now) },
      sleep: { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) })
  }

  /// The action of step `step` (from 1).
  package func action(_ step: Int) throws -> AppFeature.Action {
    guard log.steps.indices.contains(step - 1) else {
      throw Missing(description: "The recording has \(log.steps.count) steps, not \(step).")
    }
    return log.steps[step - 1].entry.action
  }

  /// The value of type `T` in step `step`'s action (the first, outermost first): a large
  /// payload, such as a breed list or a picture, read from the log.
  package func payload<T>(of step: Int, as type: T.Type = T.self) throws -> T {
    let action = try action(step)
    guard let found = SwiftSource.parts(of: action).lazy.compactMap({ $0 as? T }).first else {
      throw Missing(
        description: "Step \(step)'s action holds no \(T.self): \(Replayed.oneLine(dumpValue(action)))")
    }
    return found
  }

  /// The state after step `step`, as the recording reached it: the reducer's, from the
  /// recorded actions, where it has the fingerprint the log recorded for the step.
  ///
  /// - Throws: ``Missing`` where the reducer reaches another state than the recorded one:
  ///   a test asserting it fails at that step.
  package func state(after step: Int) throws -> AppFeature.State {
    guard states.indices.contains(step) else {
      throw Missing(description: "The recording has \(log.steps.count) steps, not \(step).")
    }
    if step > 0, Fingerprint(of: states[step]) != log.steps[step - 1].state {
      throw Missing(
        description:
          "The reducer does not reach the state recorded at step \(step) (its fingerprint differs): what it changed there is not what the recording did."
      )
    }
    return states[step]
  }
}

/// The answers the log holds: each endpoint answers with the first answer of its kind
/// recorded at or after the clock's time when it is called (those before were answers to
/// calls made earlier, or were not answers to a call: an address picked from a list), when
/// the clock reaches the time it was recorded.
final class RecordedAnswers: Sendable {
  enum Kind: CaseIterable {
    case breeds, savedBreeds, imageURL, imageURLs, picture, thumbnail, favouritesLoad, favouritesSave, dated
  }

  /// How the test's clock is read and slept on: its time since the recording's start.
  struct Clock: Sendable {
    var now: @Sendable () -> Duration
    var sleep: @Sendable (Duration) async throws -> Void
  }

  private let steps: [SessionLog.Step]
  /// The steps of each kind, in order.
  private let byKind: [Kind: [Int]]
  private let clock = Mutex<Clock?>(nil)

  init(_ steps: [SessionLog.Step]) {
    self.steps = steps
    var byKind: [Kind: [Int]] = [:]
    for (index, step) in steps.enumerated() where step.entry.origin != .external {
      if let kind = Self.kind(of: step.entry.action) { byKind[kind, default: []].append(index) }
      if Self.date(in: step.entry.action) != nil { byKind[.dated, default: []].append(index) }
    }
    self.byKind = byKind
  }

  /// Answers on `clock` from now on.
  func run(on clock: Clock) { self.clock.withLock { $0 = clock } }

  /// The Breed screen's action in `action`, for the screen on top or one in the stack.
  static func breedAction(_ action: AppFeature.Action) -> BreedFeature.Action? {
    switch action {
    case .breed(let action), .path(.element(_, let action)): action
    default: nil
    }
  }

  static func kind(of action: AppFeature.Action) -> Kind? {
    switch breedAction(action) {
    case .imageURLResponse: return .imageURL
    case .imageURLsResponse: return .imageURLs
    case .pictureResponse: return .picture
    default: break
    }
    return switch action {
    case .dogs(.breedsResponse): .breeds
    case .dogs(.savedBreedsLoaded): .savedBreeds
    case .favourites(.rows(_, .thumbnailResponse)): .thumbnail
    case .favouritesLoaded: .favouritesLoad
    case .favouritesSaved: .favouritesSave
    default: nil
    }
  }

  /// The time an action carries (`at:`): the last date in it.
  static func date(in action: AppFeature.Action) -> Date? {
    SwiftSource.parts(of: action).compactMap { $0 as? Date }.last
  }

  /// The clock's time now.
  private var time: Duration { clock.withLock { $0 }?.now() ?? .zero }

  /// The first step of `kind` recorded at or after the clock's time.
  private func upcoming(_ kind: Kind) -> Int? {
    let now = time
    return byKind[kind]?.first { SessionTest.clockTime(steps[$0].entry.offset) >= now }
  }

  /// The Favourites row `id`'s thumbnail, recorded at or after the clock's time, if it
  /// comes before the Breed screen's next address (both ask for a random picture).
  private func upcomingThumbnail(of id: String) -> Int? {
    let now = time
    guard
      let index = byKind[.thumbnail]?.first(where: { index in
        guard case .favourites(.rows(let row, _)) = steps[index].entry.action else { return false }
        return row == id && SessionTest.clockTime(steps[index].entry.offset) >= now
      })
    else { return nil }
    return index < upcoming(.imageURL) ?? .max ? index : nil
  }

  /// Waits until the clock reaches step `index`'s time.
  private func wait(for index: Int) async throws(DogAPIError) {
    do {
      try await clock.withLock { $0 }?.sleep(SessionTest.clockTime(steps[index].entry.offset))
    } catch {
      throw .cancelled
    }
  }

  /// The address a thumbnail's picture is asked for by: the step that holds it.
  static let thumbnailScheme = "recorded-thumbnail"

  /// A random picture of `breed`: a thumbnail's, or the Breed screen's.
  private func randomImage(_ breed: String, _ subBreed: String?) async throws(DogAPIError) -> URL {
    if let index = upcomingThumbnail(of: subBreed.map { "\(breed)/\($0)" } ?? breed) {
      guard case .favourites(.rows(_, .thumbnailResponse(.failure(let error)))) = steps[index].entry.action
      else {
        return URL(string: "\(Self.thumbnailScheme):\(index)")!
      }
      try await wait(for: index)
      throw Self.error(saying: String(error.message.dropFirst("No picture: ".count)))
    }
    guard case .imageURLResponse(let result, _) = Self.breedAction(try await answer(.imageURL)) else {
      throw .cancelled
    }
    return try result.get()
  }

  /// The bytes at `url`: a thumbnail's file, or the Breed screen's picture's.
  private func imageData(_ url: URL) async throws(DogAPIError) -> Data {
    if url.scheme == Self.thumbnailScheme,
      let index = Int(url.absoluteString.dropFirst(Self.thumbnailScheme.count + 1))
    {
      try await wait(for: index)
      guard case .favourites(.rows(_, .thumbnailResponse(.success(let picture)))) = steps[index].entry.action
      else {
        throw .cancelled
      }
      return Data(picture.source?.bytes ?? [])
    }
    guard case .pictureResponse(let result, _) = Self.breedAction(try await answer(.picture)) else {
      throw .cancelled
    }
    switch result {
    case .success(let picture): return Data(picture.source?.bytes ?? [])
    case .failure(.download(let error)): throw error
    case .failure(.decode): return Data()
    }
  }

  /// An error whose message is `message`: one of each kind of failure, with the text or
  /// the numbers the message holds (the server's status and reason, a host, a timeout).
  static func error(saying message: String) -> DogAPIError {
    let marker = "\u{1}"
    // Each kind of failure that carries text: its message around the text is a template.
    let texts: [(String) -> DogAPIError] = [
      { .notFound(message: $0) }, { .server(status: 500, message: $0) }, { .unreachable(host: $0) },
      { .connectionRefused(server: $0) }, { .secureConnectionFailed(host: $0) },
      { .proxyUnreachable(proxy: $0) },
      { .proxySecureConnectionFailed(proxy: $0) }, { .connectionLost(host: $0) }, { .invalidBreedName($0) },
      { .invalidURL($0) }, { .unimplemented(endpoint: $0) }, { .proxyRefused(host: $0, status: nil) },
    ]
    var candidates: [DogAPIError] = [
      .offline, .cancelled, .malformedResponse(detail: ""), .notFound(message: nil),
    ]
    for make in texts {
      let template = make(marker).message.components(separatedBy: marker)
      guard template.count == 2, message.hasPrefix(template[0]), message.hasSuffix(template[1]),
        message.count >= template[0].count + template[1].count
      else { continue }
      candidates.append(make(String(message.dropFirst(template[0].count).dropLast(template[1].count))))
    }
    let numbers = message.split { !$0.isNumber }.compactMap { Int($0) }
    for number in numbers {
      let reason = message.split(separator: ": ", maxSplits: 1).dropFirst().first.map {
        String($0.dropLast())
      }
      candidates += [
        .server(status: number, message: reason), .server(status: number, message: nil),
        .timedOut(seconds: Double(number)), .responseTooLarge(limit: number),
      ]
    }
    return candidates.first { $0.message == message } ?? .malformedResponse(detail: message)
  }

  /// The next answer of `kind`, when the clock reaches the time it was recorded (never,
  /// where the recording holds none: the session ended before it came).
  private func next(_ kind: Kind) async throws(CancellationError) -> AppFeature.Action {
    let sleep = clock.withLock { $0 }?.sleep
    guard let index = upcoming(kind) else {
      do {
        try await sleep?(.seconds(1_000_000_000))
      } catch {}
      throw CancellationError()
    }
    do {
      try await sleep?(SessionTest.clockTime(steps[index].entry.offset))
    } catch {
      throw CancellationError()
    }
    return steps[index].entry.action
  }

  /// The time the next action an effect delivers carries, as recorded.
  func now() -> Date {
    upcoming(.dated).flatMap { Self.date(in: steps[$0].entry.action) }
      ?? Date(timeIntervalSinceReferenceDate: 0)
  }

  /// The size the next picture was decoded to; 1×1 where no picture comes.
  func pictureSize() -> (width: Int, height: Int) {
    guard let index = upcoming(.picture),
      case .pictureResponse(.success(let picture), _) = Self.breedAction(steps[index].entry.action),
      let fitting = picture.source?.fitting
    else { return (1, 1) }
    return fitting
  }

  var client: DogAPIClient {
    DogAPIClient(
      breeds: { () async throws(DogAPIError) -> BreedList in
        guard case .dogs(.breedsResponse(let result, _)) = try await self.answer(.breeds) else {
          throw .cancelled
        }
        return try result.get()
      },
      randomImage: { (breed, subBreed) async throws(DogAPIError) -> URL in
        try await self.randomImage(breed, subBreed)
      },
      images: { (_, _) async throws(DogAPIError) -> [URL] in
        guard case .imageURLsResponse(let urls, _) = Self.breedAction(try await self.answer(.imageURLs))
        else {
          throw .cancelled
        }
        return urls
      },
      imageData: { (url) async throws(DogAPIError) -> Data in try await self.imageData(url) },
      savedBreeds: {
        // Only a list shown before the answer of the same load.
        guard let index = self.upcoming(.savedBreeds), index < self.upcoming(.breeds) ?? .max,
          case .dogs(.savedBreedsLoaded(let list)) = self.steps[index].entry.action
        else { return nil }
        return list
      })
  }

  var favourites: FavouritesClient {
    FavouritesClient(
      load: { () async throws(FavouritesError) -> FavouritesLoad in
        guard case .favouritesLoaded(let result) = try? await self.next(.favouritesLoad) else {
          throw FavouritesError("cancelled")
        }
        return try result.get()
      },
      save: { (_) async throws(FavouritesError) -> FavouritesLoad in
        guard case .favouritesSaved(let result) = try? await self.next(.favouritesSave) else {
          throw FavouritesError("cancelled")
        }
        return try result.get()
      },
      changes: { AsyncStream { $0.finish() } })
  }

  private func answer(_ kind: Kind) async throws(DogAPIError) -> AppFeature.Action {
    do {
      return try await next(kind)
    } catch {
      throw .cancelled
    }
  }
}
