import Foundation
import LocalFiles

/// `favourites.json`: its format, and reading and saving it under its lock.
struct FavouritesFile: Sendable {
  let url: URL

  /// What the file holds: a version, and the favourites in order.
  private struct Contents: Codable {
    var version: Int
    var favourites: [String]
  }

  /// The most bytes read: far more than any list of favourites.
  static let maximumBytes = 4 << 20

  func load() throws -> FavouritesLoad {
    guard FileManager.default.fileExists(atPath: url.path) else { return FavouritesLoad(favourites: []) }
    do {
      // A folder where no lock can be made (read-only) is read without one: a reader
      // that cannot lock cannot save either.
      return try FileLock.withLock(on: url, orWithout: true) { try read() }
    } catch let error as FavouritesError {
      throw error
    } catch {
      throw FavouritesError("Favourites could not be read from \(url.path).")
    }
  }

  func save(added: Set<String>, removed: Set<String>) throws -> Set<String> {
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      return try FileLock.withLock(on: url) {
        var favourites = try read().favourites
        favourites.formUnion(added)
        favourites.subtract(removed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Contents(version: 1, favourites: favourites.sorted()))
        try AtomicFile.write(data + Data("\n".utf8), to: url)
        return favourites
      }
    } catch let error as FavouritesError {
      throw error
    } catch {
      throw FavouritesError("Favourites could not be saved in \(url.deletingLastPathComponent().path).")
    }
  }

  /// The favourites on disk (none if there is no file); a file that is not favourites is
  /// moved aside first, and the notice says where. Called under the lock.
  private func read() throws -> FavouritesLoad {
    guard FileManager.default.fileExists(atPath: url.path) else { return FavouritesLoad(favourites: []) }
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      data = try handle.read(upToCount: Self.maximumBytes + 1) ?? Data()
    } catch {
      throw FavouritesError("Favourites could not be read from \(url.path).")
    }
    if data.count <= Self.maximumBytes, let contents = try? JSONDecoder().decode(Contents.self, from: data),
      contents.version == 1
    {
      return FavouritesLoad(favourites: Set(contents.favourites))
    }
    let aside = url.deletingLastPathComponent()
      .appendingPathComponent("\(url.lastPathComponent).damaged-\(Self.stamp(Date()))")
    guard rename(url.path, aside.path) == 0 else {
      throw FavouritesError("\(url.path) is not a list of favourites, and could not be moved aside.")
    }
    return FavouritesLoad(
      favourites: [],
      notice: "Your favourites file could not be read; it was kept as \(aside.lastPathComponent).")
  }

  /// A moment as `20261126-153000`, for a file name.
  private static func stamp(_ date: Date) -> String {
    let parts = Calendar(identifier: .gregorian).dateComponents(
      in: TimeZone(identifier: "UTC")!, from: date)
    return String(
      format: "%04d%02d%02d-%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
  }
}
