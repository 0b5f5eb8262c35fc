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
/// let favourites = FavouritesClient.live(folder: UserFolders(environment: environment).data)
/// let saved = try await favourites.load()           // FavouritesLoad
/// let merged = try await favourites.save(FavouritesChange(added: ["pug"], known: saved.favourites.union(["pug"])))
/// ```
public struct FavouritesClient: Sendable {
  /// Reads the saved favourites.
  public var load: @Sendable () async throws(FavouritesError) -> FavouritesLoad
  /// Merges a change into what is saved now, and returns the result.
  public var save: @Sendable (_ change: FavouritesChange) async throws(FavouritesError) -> FavouritesLoad
  /// A stream with an element each time what is saved may have changed (another process,
  /// or this one, saved), for a running app to read them again; it ends when its consumer
  /// stops.
  public var changes: @Sendable () -> AsyncStream<Void>

  /// Creates a client from its endpoints.
  ///
  /// - Parameters:
  ///   - load: Reads the saved favourites.
  ///   - save: Merges a change into what is saved, and returns the result.
  ///   - changes: Reports changes to what is saved; by default, none.
  public init(
    load: @escaping @Sendable () async throws(FavouritesError) -> FavouritesLoad,
    save: @escaping @Sendable (_ change: FavouritesChange) async throws(FavouritesError) -> FavouritesLoad,
    changes: @escaping @Sendable () -> AsyncStream<Void> = { AsyncStream { $0.finish() } }
  ) {
    self.load = load
    self.save = save
    self.changes = changes
  }
}

/// What a process changed in the favourites since it last read or saved them.
public struct FavouritesChange: Equatable, Sendable {
  /// The favourites it added.
  public var added: Set<String>
  /// The favourites it removed.
  public var removed: Set<String>
  /// All the favourites it shows (what it last read, with its changes): what is saved in
  /// place of a file that cannot be read, so that nothing shown is lost.
  public var known: Set<String>

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - added: The favourites added.
  ///   - removed: The favourites removed.
  ///   - known: All the favourites the process shows; by default, those it added.
  public init(added: Set<String> = [], removed: Set<String> = [], known: Set<String>? = nil) {
    self.added = added
    self.removed = removed
    self.known = known ?? added
  }

  /// Whether it changes nothing.
  public var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}

/// What reading the favourites found.
public struct FavouritesLoad: Equatable, Sendable, Codable {
  /// The favourites.
  public var favourites: Set<String>
  /// One sentence for the user when the file could not be read (and, after a save, where
  /// it was kept aside).
  public var notice: String?
  /// Whether the file could not be read: ``favourites`` is then empty and says nothing of
  /// what was saved, so a running app keeps the favourites it shows.
  public var isDamaged: Bool

  /// Creates the result of a read.
  ///
  /// - Parameters:
  ///   - favourites: The favourites read.
  ///   - notice: What the user should know, if anything.
  ///   - isDamaged: Whether the file could not be read.
  public init(favourites: Set<String>, notice: String? = nil, isDamaged: Bool = false) {
    self.favourites = favourites
    self.notice = notice
    self.isDamaged = isDamaged
  }
}

/// Why favourites could not be read or saved, in one sentence.
public struct FavouritesError: Error, Equatable, Sendable, Codable {
  /// The sentence.
  public var message: String
  /// Whether the save could not start because another process was saving (it held the
  /// lock): trying again a moment later may succeed.
  public var isBusy: Bool

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - message: What went wrong, in one sentence.
  ///   - isBusy: Whether another process was saving.
  public init(_ message: String, isBusy: Bool = false) {
    self.message = message
    self.isBusy = isBusy
  }
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
      save: { change in
        saved.withLock {
          $0.formUnion(change.added)
          $0.subtract(change.removed)
          return FavouritesLoad(favourites: $0)
        }
      })
  }

  /// A client whose every endpoint reports an issue (a test failure in tests) and
  /// throws: tests start from it and replace the endpoints they expect to be called.
  public static let failing = Self(
    load: { () throws(FavouritesError) in
      reportIssue("unimplemented: FavouritesClient.load")
      throw FavouritesError("unimplemented")
    },
    save: { _ throws(FavouritesError) in
      reportIssue("unimplemented: FavouritesClient.save")
      throw FavouritesError("unimplemented")
    })

  /// Favourites in `favourites.json` in `folder`.
  ///
  /// A save writes the whole file anew, atomically (`AtomicFile`), under a lock
  /// (`FileLock`) that it waits for `lockWait` at most, so processes take turns and none
  /// freezes another (past the wait it throws an error whose ``FavouritesError/isBusy`` is
  /// set); a read takes no lock. A file that cannot be read as favourites is
  /// never overwritten: reading it says so, and the next save renames it
  /// `favourites.json.damaged-TIME` (a name never used before) and saves the change's
  /// ``FavouritesChange/known`` favourites in its place, its notice naming the kept file.
  /// Every error names the file or folder and the system's reason.
  ///
  /// ``changes`` looks at the file's identity (its inode, size and modification time) once
  /// a second: a `stat` call, nothing a user would see in CPU time, where watching with
  /// inotify would need the folder to exist and a Linux-only path besides.
  ///
  /// - Parameters:
  ///   - folder: The folder (made when first saved): `UserFolders.data` in the app.
  ///   - every: How often ``changes`` looks at the file.
  ///   - lockWait: How long a save waits for another process's save at most: a few
  ///     seconds by default (a script's); zero for a caller that tries again by itself
  ///     and says meanwhile that it waits (the app).
  /// - Returns: The client.
  public static func live(
    folder: URL, every interval: Duration = .seconds(1), lockWait: Duration = .seconds(3)
  ) -> Self {
    let file = FavouritesFile(url: folder.appendingPathComponent("favourites.json"), lockWait: lockWait)
    return Self(
      load: { () throws(FavouritesError) in try file.load() },
      save: { change throws(FavouritesError) in try await file.save(change) },
      changes: {
        AsyncStream { continuation in
          // As the stream is made: a save right after is a change.
          let first = file.identity()
          let watcher = Task {
            var last = first
            while !Task.isCancelled {
              try? await Task.sleep(for: interval)
              let now = file.identity()
              if now != last {
                last = now
                continuation.yield()
              }
            }
          }
          continuation.onTermination = { _ in watcher.cancel() }
        }
      })
  }
}
