import Foundation

#if canImport(Glibc)
  import Glibc
  private let posixRead = Glibc.read
#elseif canImport(Darwin)
  import Darwin
  private let posixRead = Darwin.read
#endif

/// What a terminal's own description, its compiled terminfo entry, says about colour: the
/// one thing the app asks of it.
///
/// An entry is found as ncurses finds it: in `$TERMINFO` alone where that is set;
/// otherwise in `~/.terminfo`, then each folder of `$TERMINFO_DIRS` (an empty one meaning
/// `/usr/share/terminfo`), then `/etc/terminfo`, `/lib/terminfo` and `/usr/share/terminfo`;
/// in each, as `x/xterm` or `78/xterm` (the first letter, or its code in hexadecimal). The
/// file is read defensively: anything that is not a whole compiled entry (cut short, too
/// large, a folder, a pipe) counts as no entry.
public struct Terminfo: Equatable, Sendable {
  /// The `colors` capability: how many colours the terminal shows; `nil` where the entry
  /// has none, a terminal without colour (`vt100`).
  public var colors: Int?

  /// An entry with these capabilities.
  ///
  /// - Parameter colors: The `colors` capability, if the entry has it.
  public init(colors: Int?) {
    self.colors = colors
  }

  /// The index of `colors` among an entry's numbers.
  static let colorsIndex = 13
  /// The largest file read as an entry (ncurses writes none beyond 32 KiB).
  static let largestEntry = 1 << 16

  /// Reads a compiled entry: the legacy format (magic 0432, 16-bit numbers) or the
  /// extended one (magic 01036, 32-bit numbers); `nil` for bytes that are not one.
  ///
  /// - Parameter bytes: The file's contents.
  public init?(compiled bytes: [UInt8]) {
    func short(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= bytes.count else { return nil }
      return Int(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8))
    }
    guard let magic = short(0) else { return nil }
    let numberSize: Int
    switch magic {
    case 0o432: numberSize = 2
    case 0o1036: numberSize = 4
    default: return nil
    }
    // The header: magic, then the sizes of the names, the booleans, the numbers, the
    // strings' offsets and the strings' table, each a count of at least 0.
    guard let namesSize = short(2), let booleans = short(4), let numbers = short(6), let offsets = short(8),
      let table = short(10), namesSize > 0, booleans >= 0, numbers >= 0, offsets >= 0, table >= 0
    else { return nil }
    // The numbers start at an even offset: a byte pads the names and booleans to one.
    var start = 12 + namesSize + booleans
    if start % 2 == 1 { start += 1 }
    let end = start + numbers * numberSize
    guard end + offsets * 2 + table <= bytes.count else { return nil }
    guard Self.colorsIndex < numbers else {
      self.init(colors: nil)
      return
    }
    let at = start + Self.colorsIndex * numberSize
    let value: Int
    if numberSize == 2 {
      value = short(at) ?? -1
    } else {
      value = Int(
        Int32(
          bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
            | UInt32(bytes[at + 3]) << 24))
    }
    // -1: absent; -2: cancelled (by a `colors@` in the source). Either way, none.
    self.init(colors: value >= 0 ? value : nil)
  }

  /// The entry for `term`, where the system (or the user) has one.
  ///
  /// - Parameters:
  ///   - term: The terminal's name, as `TERM` gives it.
  ///   - environment: The process environment (`TERMINFO`, `TERMINFO_DIRS`, `HOME`).
  /// - Returns: The first readable entry of that name in ``folders(environment:)``; `nil`
  ///   where there is none, or the name cannot be one (empty, or with a `/`).
  public static func entry(for term: String, environment: [String: String]) -> Terminfo? {
    guard let first = term.utf8.first, !term.contains("/"), term != ".", term != "..", term.utf8.count <= 255
    else { return nil }
    let subfolders = [String(UnicodeScalar(first)), String(first, radix: 16)]
    for folder in folders(environment: environment) {
      for subfolder in subfolders {
        if let bytes = read("\(folder)/\(subfolder)/\(term)"), let entry = Terminfo(compiled: bytes) {
          return entry
        }
      }
    }
    return nil
  }

  /// The folders searched for entries, in order.
  ///
  /// - Parameter environment: The process environment.
  public static func folders(environment: [String: String]) -> [String] {
    let system = "/usr/share/terminfo"
    if let only = environment["TERMINFO"], !only.isEmpty { return [only] }
    var folders: [String] = []
    if let home = environment["HOME"], home.hasPrefix("/") { folders.append(home + "/.terminfo") }
    if let dirs = environment["TERMINFO_DIRS"], !dirs.isEmpty {
      folders += dirs.split(separator: ":", omittingEmptySubsequences: false).map {
        $0.isEmpty ? system : String($0)
      }
    }
    return folders + ["/etc/terminfo", "/lib/terminfo", system]
  }

  /// The bytes of the regular file at `path`, unless it is larger than an entry can be;
  /// `nil` where it cannot be read. (Opened without waiting: a pipe in its place does not
  /// block.)
  static func read(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= largestEntry
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: largestEntry + 1)
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        posixRead(fd, buffer.baseAddress! + count, buffer.count - count)
      }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { break }
      count += got
    }
    guard count <= largestEntry else { return nil }
    return Array(bytes[0..<count])
  }
}
