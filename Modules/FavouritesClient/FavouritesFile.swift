import Foundation
import LocalFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `favourites.json`: its format, reading it, and saving it under its lock.
struct FavouritesFile: Sendable {
  let url: URL
  /// How long a save waits for another process's save at most.
  let lockWait: Duration

  /// What the file holds: a version, and the favourites in order.
  private struct Contents: Codable {
    var version: Int
    var favourites: [String]
  }

  /// The most bytes read: far more than any list of favourites.
  static let maximumBytes = 4 << 20

  /// Reads the favourites, without the lock: saves replace the file atomically, so a read
  /// sees a whole file. A file that is not favourites is left as it is (the next save keeps
  /// it aside), and the notice says so.
  func load() throws(FavouritesError) -> FavouritesLoad {
    switch try read() {
    case .missing: FavouritesLoad(favourites: [])
    case .favourites(let favourites): FavouritesLoad(favourites: favourites)
    case .damaged:
      FavouritesLoad(
        favourites: [],
        notice: "Your favourites file \(url.path) could not be read. It is kept, not overwritten: "
          + "the next save sets it aside and saves the favourites shown in a new one.",
        isDamaged: true)
    }
  }

  /// Merges `change` into the saved favourites under the lock, and writes them atomically.
  /// A file that is not favourites is first renamed aside, under a name never used before,
  /// and `change.known` is written in its place: nothing the app showed is lost.
  func save(_ change: FavouritesChange) async throws(FavouritesError) -> FavouritesLoad {
    let folder = url.deletingLastPathComponent()
    do throws(FileError) {
      try Folder.make(folder)
    } catch {
      throw FavouritesError("Favourites could not be saved in \(folder.path): \(error.reason).")
    }
    do {
      return try await FileLock.withLock(on: url, waitingAtMost: lockWait) {
        () throws -> FavouritesLoad in
        var favourites: Set<String>
        var notice: String?
        switch try read() {
        case .missing: favourites = []
        case .favourites(let saved): favourites = saved
        case .damaged:
          let aside = try setAside()
          favourites = change.known
          notice =
            "Your favourites file could not be read. It was kept as \(aside.path), and a new one was "
            + "saved in its place."
        }
        favourites.formUnion(change.added)
        favourites.subtract(change.removed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Contents(version: 1, favourites: favourites.sorted()))
        try AtomicFile.write(data + Data("\n".utf8), to: url)
        return FavouritesLoad(favourites: favourites, notice: notice)
      }
    } catch let error as FavouritesError {
      throw error
    } catch is FileLock.Busy {
      // Most likely another DogBreeds; but any process may take the lock (`flock`).
      throw FavouritesError(
        "Favourites could not be saved: another process holds \(url.path).lock (another DogBreeds "
          + "saving, or one stopped with Ctrl-Z).", isBusy: true)
    } catch is CancellationError {
      throw FavouritesError("Favourites were not saved: the save was stopped.")
    } catch let error as FileError where error.path != folder.path {
      // The lock file, say, made by another user: the folder is not the trouble.
      throw FavouritesError("Favourites could not be saved: \(error.path): \(error.reason).")
    } catch {
      throw FavouritesError("Favourites could not be saved in \(folder.path): \(Self.reason(error)).")
    }
  }

  /// What tells one version of the file from another: its device and inode (a save
  /// replaces the file), size and modification time; `nil` while there is none.
  struct Identity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int
  }

  func identity() -> Identity? {
    var status = stat()
    guard stat(url.path, &status) == 0 else { return nil }
    #if canImport(Darwin)
      let modified = status.st_mtimespec
    #else
      let modified = status.st_mtim
    #endif
    return Identity(
      device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
      seconds: Int(modified.tv_sec), nanoseconds: Int(modified.tv_nsec))
  }

  private enum Read {
    case missing
    case favourites(Set<String>)
    case damaged
  }

  /// What the file holds now.
  private func read() throws(FavouritesError) -> Read {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    // No file, or no folder for it (a file stands where the folder would be): nothing saved
    // yet, and saving says why it cannot.
    if fd < 0, errno == ENOENT || errno == ENOTDIR { return .missing }
    guard fd >= 0 else {
      throw FavouritesError("Favourites could not be read from \(url.path): \(Self.reason(errno)).")
    }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    let data: Data
    do {
      data = try handle.read(upToCount: Self.maximumBytes + 1) ?? Data()
    } catch {
      throw FavouritesError("Favourites could not be read from \(url.path): \(Self.reason(error)).")
    }
    guard data.count <= Self.maximumBytes,
      let contents = try? JSONDecoder().decode(Contents.self, from: data),
      contents.version == 1
    else { return .damaged }
    return .favourites(Set(contents.favourites))
  }

  /// Renames the file to `favourites.json.damaged-TIME` (with `-2`, `-3`… where one of that
  /// name exists), never replacing another, and returns the new name. Called under the lock
  /// (only a save under it makes such names).
  private func setAside() throws(FavouritesError) -> URL {
    let stamp = Self.stamp(Date())
    for attempt in 1...1000 {
      let aside = url.deletingLastPathComponent()
        .appendingPathComponent(
          "\(url.lastPathComponent).damaged-\(stamp)\(attempt == 1 ? "" : "-\(attempt)")")
      var status = stat()
      guard lstat(aside.path, &status) != 0 else { continue }
      guard rename(url.path, aside.path) == 0 else { break }
      return aside
    }
    throw FavouritesError(
      "\(url.path) is not a list of favourites, and could not be kept aside: \(Self.reason(errno)).")
  }

  /// A moment as `20261126-153000`, for a file name.
  private static func stamp(_ date: Date) -> String {
    let parts = Calendar(identifier: .gregorian).dateComponents(
      in: TimeZone(identifier: "UTC")!, from: date)
    return String(
      format: "%04d%02d%02d-%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
  }

  /// The system's reason for `code`.
  private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// The system's reason in `error`, where it carries one.
  private static func reason(_ error: any Error) -> String {
    (error as? FileError)?.reason ?? (error as NSError).localizedDescription
  }
}
