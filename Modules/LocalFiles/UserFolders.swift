import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folders the app keeps its files in, one for what it can fetch again (the cache)
/// and one for what the user made (data), each found by the usual rules; found once for a
/// run, so that both, and what the user is told about them, agree.
///
/// - cache: `$DOGBREEDS_CACHE_DIR`, else `$XDG_CACHE_HOME/dogbreeds`, else
///   `~/.cache/dogbreeds`.
/// - data: `$DOGBREEDS_DATA_DIR`, else `$XDG_DATA_HOME/dogbreeds`, else
///   `~/.local/share/dogbreeds`.
///
/// An `XDG_…` variable counts only as an absolute path. A home that does not exist is not
/// made: accounts without one name a path that must stay absent (Debian's `/nonexistent`),
/// and writing there would create it. A folder with neither goes under the temporary
/// directory, which every user shares and the system clears: into `dogbreeds-UID` (its
/// `cache` and `data`), used only where it is a folder of this user's that no one else may
/// write to, made so if it is missing; where it is not, a new folder of its own,
/// `dogbreeds-UID-XXXXXX`. ``notice`` says so, for the user.
public struct UserFolders: Equatable, Sendable {
  /// What can be fetched again.
  public var cache: URL
  /// What the user made and would lose.
  public var data: URL
  /// The folder under the temporary directory that holds the folders with no lasting
  /// place, if any does: this user's alone, and cleared by the system in its time.
  public var temporary: URL?
  /// Why there is no lasting place (the home's fault), where there is a temporary folder.
  var homeProblem: String?

  /// The folders for this environment, with the temporary folder made (or checked) where
  /// one is needed (in `$TMPDIR` where it is an absolute path, else `/tmp`); the others may
  /// not exist yet.
  ///
  /// - Parameter environment: The process environment.
  public init(environment: [String: String]) {
    let home = Self.home(environment)
    func lasting(_ variable: String, _ xdg: String, _ underHome: String) -> URL? {
      if let explicit = environment[variable], !explicit.isEmpty {
        return URL(fileURLWithPath: explicit, isDirectory: true)
      }
      if let base = environment[xdg], base.hasPrefix("/") {
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("dogbreeds")
      }
      return home.url?.appendingPathComponent(underHome)
    }
    let cache = lasting("DOGBREEDS_CACHE_DIR", "XDG_CACHE_HOME", ".cache/dogbreeds")
    let data = lasting("DOGBREEDS_DATA_DIR", "XDG_DATA_HOME", ".local/share/dogbreeds")
    if let cache, let data {
      self.cache = cache
      self.data = data
      return
    }
    let temporaryDirectory = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    let temporary = Self.temporaryFolder(in: URL(fileURLWithPath: temporaryDirectory, isDirectory: true))
    self.cache = cache ?? temporary.appendingPathComponent("cache", isDirectory: true)
    self.data = data ?? temporary.appendingPathComponent("data", isDirectory: true)
    self.temporary = temporary
    homeProblem = home.problem
  }

  /// What to tell the user, once, where some of the folders are temporary: where
  /// favourites and the saved breed list go, that they will not last, and how to keep
  /// them; `nil` where both folders last.
  public var notice: String? {
    guard let temporary else { return nil }
    let favourites = data.path.hasPrefix(temporary.path + "/") ? "favourites go to \(data.path)" : nil
    let list = cache.path.hasPrefix(temporary.path + "/") ? "the saved breed list" : nil
    let places: String
    switch (favourites, list) {
    case (let favourites?, let list?): places = "\(favourites) and \(list) to \(cache.path)"
    case (let favourites?, nil): places = favourites
    case (nil, let list?): places = "\(list) goes to \(cache.path)"
    case (nil, nil): return nil
    }
    let why = homeProblem.map { " (\($0))" } ?? ""
    return "There is no home folder to keep files in\(why), so \(places), "
      + "in the temporary folder: they will not last. Set HOME, or DOGBREEDS_DATA_DIR and "
      + "DOGBREEDS_CACHE_DIR, to keep them."
  }

  /// The home folder, where `HOME` is an absolute path to a folder that exists; else why
  /// it is not one.
  static func home(_ environment: [String: String]) -> (url: URL?, problem: String?) {
    guard let home = environment["HOME"], !home.isEmpty else { return (nil, "HOME is not set") }
    guard home.hasPrefix("/") else { return (nil, "HOME, \(home), is not an absolute path") }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: home, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      return (nil, "HOME, \(home), is not a folder")
    }
    return (URL(fileURLWithPath: home, isDirectory: true), nil)
  }

  /// `dogbreeds-UID` in `directory`, made for this user alone if it is missing, where it is
  /// safe: a folder (not a link to one) that this user owns and no one else may write to.
  /// Elsewhere (another user made it first, or opened it to everyone), a new folder.
  static func temporaryFolder(in directory: URL) -> URL {
    let user = geteuid()
    let shared = directory.appendingPathComponent("dogbreeds-\(user)", isDirectory: true)
    _ = mkdir(shared.path, 0o700)
    if isPrivate(shared.path) { return shared }
    var template = Array(directory.appendingPathComponent("dogbreeds-\(user)-XXXXXX").path.utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) != nil }
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    // Where even that fails (a temporary directory no one may write to), a folder that is
    // not there: saving into it fails, with the system's reason.
    return URL(fileURLWithPath: made ? path : shared.path + "-unusable", isDirectory: true)
  }

  /// Whether `path` is a folder (not a symbolic link) owned by this user, that neither
  /// its group nor others may write to.
  static func isPrivate(_ path: String) -> Bool {
    var status = stat()
    guard lstat(path, &status) == 0 else { return false }
    return status.st_mode & S_IFMT == S_IFDIR && status.st_uid == geteuid() && status.st_mode & 0o022 == 0
  }
}
