import Core
import Foundation
import LocalFiles
import Synchronization

/// Where the user's favourite breeds are kept: read them, and save what changed.
///
/// A favourite is a breed or a sub-breed, by its API names: `hound`, `hound/afghan`.
/// Saving takes what this process added and removed since it last read or saved, and
/// merges it into what is saved now, so two running apps (or the app and a script) never
/// lose each other's changes.
///
/// ```swift
/// let favourites = FavouritesClient.live(folder: UserFolder.data.url(environment: environment))
/// let saved = try await favourites.load()           // FavouritesLoad
/// let merged = try await favourites.save(["pug"], [])
/// ```
public struct FavouritesClient: Sendable {
  /// Reads the saved favourites.
  public var load: @Sendable () async throws -> FavouritesLoad
  /// Adds and removes favourites in what is saved now, and returns the result.
  public var save: @Sendable (_ added: Set<String>, _ removed: Set<String>) async throws -> Set<String>

  /// Creates a client from its endpoints.
  ///
  /// - Parameters:
  ///   - load: Reads the saved favourites.
  ///   - save: Merges additions and removals into what is saved, and returns the result.
  public init(
    load: @escaping @Sendable () async throws -> FavouritesLoad,
    save: @escaping @Sendable (_ added: Set<String>, _ removed: Set<String>) async throws -> Set<String>
  ) {
    self.load = load
    self.save = save
  }
}

/// What reading the favourites found.
public struct FavouritesLoad: Equatable, Sendable {
  /// The favourites.
  public var favourites: Set<String>
  /// One sentence for the user when the file could not be read and was kept aside.
  public var notice: String?

  /// Creates the result of a read.
  ///
  /// - Parameters:
  ///   - favourites: The favourites read.
  ///   - notice: What the user should know, if anything.
  public init(favourites: Set<String>, notice: String? = nil) {
    self.favourites = favourites
    self.notice = notice
  }
}

/// Why favourites could not be read or saved, in one sentence.
public struct FavouritesError: Error, Equatable, Sendable {
  /// The sentence.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: What went wrong, in one sentence.
  public init(_ message: String) { self.message = message }
}

extension FavouritesClient {
  /// Favourites in memory, for previews and tests: `save` merges into them.
  ///
  /// - Parameter favourites: What is saved at first.
  /// - Returns: The client.
  public static func inMemory(_ favourites: Set<String> = []) -> Self {
    let saved = Mutex(favourites)
    return Self(
      load: { FavouritesLoad(favourites: saved.withLock { $0 }) },
      save: { added, removed in
        saved.withLock {
          $0.formUnion(added)
          $0.subtract(removed)
          return $0
        }
      })
  }

  /// A client whose every endpoint reports an issue (a test failure in tests) and
  /// throws: tests start from it and replace the endpoints they expect to be called.
  public static let failing = Self(
    load: {
      reportIssue("unimplemented: FavouritesClient.load")
      throw FavouritesError("unimplemented")
    },
    save: { _, _ in
      reportIssue("unimplemented: FavouritesClient.save")
      throw FavouritesError("unimplemented")
    })

  /// Favourites in `favourites.json` in `folder`.
  ///
  /// Reading and saving hold a lock on the file (`FileLock`), so processes take turns; a
  /// save writes the whole file anew, atomically (`AtomicFile`). A file that cannot be
  /// read as favourites is never overwritten: it is renamed `favourites.json.damaged-TIME`
  /// and the load's notice says so; the favourites start empty.
  ///
  /// - Parameter folder: The folder (made when first saved): `UserFolder.data` in the app.
  /// - Returns: The client.
  public static func live(folder: URL) -> Self {
    let file = FavouritesFile(url: folder.appendingPathComponent("favourites.json"))
    return Self(
      load: { try file.load() },
      save: { added, removed in try file.save(added: added, removed: removed) })
  }
}
