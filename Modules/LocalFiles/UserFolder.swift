import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folders the app keeps its files in, one for what it can fetch again (the cache)
/// and one for what the user made (data), each found by the usual rules.
public enum UserFolder: Sendable {
  /// What can be fetched again: `$DOGBREEDS_CACHE_DIR`, else `$XDG_CACHE_HOME/dogbreeds`,
  /// else `~/.cache/dogbreeds`.
  case cache
  /// What the user made and would lose: `$DOGBREEDS_DATA_DIR`, else
  /// `$XDG_DATA_HOME/dogbreeds`, else `~/.local/share/dogbreeds`.
  case data

  /// The folder, for this environment.
  ///
  /// An `XDG_…` variable counts only as an absolute path. A home that does not exist is
  /// not made: accounts without one name a path that must stay absent (Debian's
  /// `/nonexistent`), and writing there would create it. Without either, the folder is
  /// `dogbreeds-cache-UID` (or `-data-UID`) under the temporary directory, which every
  /// user shares, so one each.
  ///
  /// - Parameter environment: The process environment.
  /// - Returns: The folder (which may not exist yet).
  public func url(environment: [String: String]) -> URL {
    let (variable, xdg, underHome, kind) =
      switch self {
      case .cache: ("DOGBREEDS_CACHE_DIR", "XDG_CACHE_HOME", ".cache/dogbreeds", "cache")
      case .data: ("DOGBREEDS_DATA_DIR", "XDG_DATA_HOME", ".local/share/dogbreeds", "data")
      }
    if let explicit = environment[variable], !explicit.isEmpty {
      return URL(fileURLWithPath: explicit, isDirectory: true)
    }
    if let base = environment[xdg], base.hasPrefix("/") {
      return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("dogbreeds")
    }
    var isDirectory: ObjCBool = false
    if let home = environment["HOME"], home.hasPrefix("/"),
      FileManager.default.fileExists(atPath: home, isDirectory: &isDirectory), isDirectory.boolValue
    {
      return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(underHome)
    }
    return URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
      .appendingPathComponent("dogbreeds-\(kind)-\(getuid())")
  }
}
