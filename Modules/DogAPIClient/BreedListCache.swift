import Foundation
import LocalFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The last breed list fetched from the network, kept on disk for offline use.
///
/// One JSON file, `breeds.json`, holding the list and its fetch time. Writes are atomic
/// (a temporary file in the same folder, flushed, then renamed over the old one), so a
/// crash or a full disk never leaves a half-written cache. A file that cannot be read or
/// parsed is ignored, and replaced by the next successful fetch.
///
/// It gives back the names exactly as the network gave them, whatever they are: the
/// screens sanitise every name they show, and a request refuses a name that is not
/// lowercase a–z (``BreedName/isValid(_:)``), wherever the list came from.
public struct BreedListCache: Sendable, Equatable {
  /// The cache file.
  public let fileURL: URL

  /// A cache in `directory` (created on first write).
  ///
  /// - Parameter directory: The folder that holds `breeds.json`.
  public init(directory: URL) {
    self.fileURL = directory.appendingPathComponent("breeds.json")
  }

  private struct File: Codable {
    var version: Int
    var fetchedAt: Date
    var breeds: [Breed]
  }

  /// The most bytes of a cache file that are read: many times any list written (the
  /// network's answers are capped at 1 MB), so that a file that is not a cache (a huge one,
  /// say) is ignored at once rather than read into memory.
  public static let maximumFileBytes = 8 << 20

  /// The cached list marked `.cache`, or `nil` if there is none or it is unreadable: not a
  /// regular file (a folder, a device, a pipe, which could block), larger than
  /// ``maximumFileBytes``, or not a cache this version wrote.
  public func load() -> BreedList? {
    guard let data = Self.contents(of: fileURL, limit: Self.maximumFileBytes),
      let file = try? JSONDecoder().decode(File.self, from: data), file.version == 1,
      !file.breeds.isEmpty
    else { return nil }
    return BreedList(breeds: file.breeds, source: .cache, fetchedAt: file.fetchedAt)
  }

  /// The bytes of the regular file at `url` (through symbolic links), if there are at most
  /// `limit` of them.
  private static func contents(of url: URL, limit: Int) -> Data? {
    var status = stat()
    // Its size says a file is over the limit: a read may return fewer bytes than asked
    // for, so a short read of a larger file must not pass for the whole of it.
    guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= limit,
      let handle = try? FileHandle(forReadingFrom: url)
    else { return nil }
    defer { try? handle.close() }
    // One byte past the limit tells a file that grew over it since, without reading the rest.
    guard let data = try? handle.read(upToCount: limit + 1), data.count <= limit else { return nil }
    return data
  }

  /// Replaces the cache atomically.
  ///
  /// - Parameters:
  ///   - breeds: The list fetched from the network.
  ///   - fetchedAt: When it was fetched.
  /// - Throws: A file-system error; the previous cache is then left as it was.
  public func save(_ breeds: [Breed], fetchedAt: Date) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(File(version: 1, fetchedAt: fetchedAt, breeds: breeds))
    let directory = fileURL.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try AtomicFile.write(data, to: fileURL)
  }
}
