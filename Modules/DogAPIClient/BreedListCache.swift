import Foundation

#if canImport(Glibc)
  import Glibc
  private let posixWrite = Glibc.write
#elseif canImport(Darwin)
  import Darwin
  private let posixWrite = Darwin.write
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

  /// The folder the app uses: `$DOGBREEDS_CACHE_DIR`, else `$XDG_CACHE_HOME/dogbreeds`,
  /// else `~/.cache/dogbreeds` if the home folder exists, else `dogbreeds-cache-UID` under
  /// the temporary directory (shared by every user, so one folder each).
  ///
  /// A home that does not exist is not made: accounts without one name a path that must
  /// stay absent (Debian's `/nonexistent`), and writing the cache would create it.
  ///
  /// - Parameter environment: The process environment.
  public static func defaultDirectory(environment: [String: String]) -> URL {
    if let explicit = environment["DOGBREEDS_CACHE_DIR"], !explicit.isEmpty {
      return URL(fileURLWithPath: explicit, isDirectory: true)
    }
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("dogbreeds")
    }
    var isDirectory: ObjCBool = false
    if let home = environment["HOME"], home.hasPrefix("/"),
      FileManager.default.fileExists(atPath: home, isDirectory: &isDirectory), isDirectory.boolValue
    {
      return URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".cache/dogbreeds")
    }
    return URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
      .appendingPathComponent("dogbreeds-cache-\(getuid())")  // /tmp is shared: one per user
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
    guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      let handle = try? FileHandle(forReadingFrom: url)
    else { return nil }
    defer { try? handle.close() }
    // One byte past the limit tells a file over it, without reading the rest.
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

/// Writes a file so that readers see either the old contents or the new, never a mix.
public enum AtomicFile {
  /// Writes `data` to a temporary file beside `url`, flushes it to disk, renames it over
  /// `url`, and flushes the directory.
  ///
  /// The temporary file is `.NAME.PID.RANDOM.tmp`. One that a process killed mid-write
  /// left behind is removed by the next successful write: one whose process is gone and
  /// that has not changed for a minute (a writer in another PID namespace sharing the
  /// folder, whose process cannot be seen, is done long before).
  ///
  /// - Parameters:
  ///   - data: The new contents.
  ///   - url: The destination file.
  /// - Throws: A POSIX error as `CocoaError`; `url` is untouched on failure.
  public static func write(_ data: Data, to url: URL) throws {
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(
        "\(temporaryPrefix(of: url))\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path]) }
    var ok = true
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = posixWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 {
          ok = false
          return
        }
        offset += written
      }
    }
    ok = ok && fsync(fd) == 0
    close(fd)
    guard ok, rename(temporary.path, url.path) == 0 else {
      unlink(temporary.path)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    // The rename is a change to the directory: flushed too, so that after a power cut the
    // name holds the new contents rather than the old (or, for a first save, nothing).
    let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
    removeLeftovers(of: url)
  }

  /// How the names of `url`'s temporary files start: `.NAME.`.
  private static func temporaryPrefix(of url: URL) -> String { ".\(url.lastPathComponent)." }

  /// Removes the temporary files of earlier writes to `url` whose process has ended and
  /// that are older than a minute; every failure is ignored (a leftover stays).
  private static func removeLeftovers(of url: URL) {
    let folder = url.deletingLastPathComponent()
    let prefix = temporaryPrefix(of: url)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      // PID.RANDOM between the prefix and the suffix, both decimal.
      let middle = name.dropFirst(prefix.count).dropLast(".tmp".count).split(separator: ".")
      guard middle.count == 2, let pid = pid_t(middle[0]), pid > 0, UInt32(middle[1]) != nil,
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      let path = folder.appendingPathComponent(name).path
      // (Of the name itself: a symbolic link is not followed.)
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        attributes[.type] as? FileAttributeType == .typeRegular,
        let modified = attributes[.modificationDate] as? Date, -modified.timeIntervalSinceNow > 60
      else { continue }
      unlink(path)
    }
  }
}
