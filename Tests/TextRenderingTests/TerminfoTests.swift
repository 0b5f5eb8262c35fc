import Foundation
import TestSupport
import Testing

@testable import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Terminfo entries: read in both compiled formats, found where ncurses finds them, and
/// anything else (cut short, garbage, a pipe) taken for no entry, never a crash or a hang.
/// The entries are the test's own (``TerminfoFixtures``).
struct TerminfoTests {
  static let fixtures = TerminfoFixtures.folder

  func bytes(_ name: String) throws -> [UInt8] {
    let first = String(name.first!)
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.fixtures)/\(first)/\(name)")))
  }

  @Test(
    arguments: [
      ("vt100", nil), ("xterm-mono", nil), ("xterm-cancelled", nil), ("xterm", 8), ("linux", 8),
      ("xterm-256color", 256), ("extended-256", 256), ("xterm-direct", 1 << 24),
    ] as [(String, Int?)])
  func anEntryGivesItsColoursInEitherFormat(name: String, colors: Int?) throws {
    let entry = try bytes(name)
    // The two formats are both among the fixtures: 0432 (16-bit numbers), 01036 (32-bit).
    let magic = Int(entry[0]) | Int(entry[1]) << 8
    #expect(magic == (["extended-256", "xterm-direct"].contains(name) ? 0o1036 : 0o432))
    #expect(Terminfo(compiled: entry) == Terminfo(colors: colors))
    #expect(Terminfo.entry(for: name, environment: ["TERMINFO": Self.fixtures]) == Terminfo(colors: colors))
  }

  /// `$TERMINFO` alone where it is set; else `~/.terminfo`, `$TERMINFO_DIRS` (an empty one
  /// for the system's), and the system's folders.
  @Test func theFoldersAreSearchedInNcursesOrder() {
    let system = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
    #expect(Terminfo.folders(environment: ["TERMINFO": "/t", "HOME": "/h", "TERMINFO_DIRS": "/d"]) == ["/t"])
    #expect(Terminfo.folders(environment: [:]) == system)
    #expect(
      Terminfo.folders(environment: ["TERMINFO": "", "HOME": "/h", "TERMINFO_DIRS": "/a::/b"])
        == ["/h/.terminfo", "/a", "/usr/share/terminfo", "/b"] + system)
    #expect(Terminfo.folders(environment: ["HOME": "relative"]) == system)
  }

  /// An entry in the home's `.terminfo`, in a folder of `TERMINFO_DIRS`, and under the
  /// hexadecimal layout (`76/vt100`, as macOS has it); the first found counts.
  @Test func anEntryIsFoundInEveryPlaceAndLayout() throws {
    let home = ScratchFolder.path("home")
    let dirs = ScratchFolder.path("dirs")
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent(".terminfo/78"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: dirs.appendingPathComponent("x"), withIntermediateDirectories: true)
    // In the home (hexadecimal layout): xterm-direct's entry under the name xterm.
    try Data(try bytes("xterm-direct")).write(to: home.appendingPathComponent(".terminfo/78/xterm"))
    // In TERMINFO_DIRS: vt100's entry under the name xterm-odd.
    try Data(try bytes("vt100")).write(to: dirs.appendingPathComponent("x/xterm-odd"))
    let environment = ["HOME": home.path, "TERMINFO_DIRS": dirs.path]
    #expect(Terminfo.entry(for: "xterm", environment: environment) == Terminfo(colors: 1 << 24))
    #expect(Terminfo.entry(for: "xterm-odd", environment: environment) == Terminfo(colors: nil))
    #expect(Terminfo.entry(for: "xterm-odd", environment: ["TERMINFO": Self.fixtures]) == nil)
  }

  /// A name that could leave the folder, or none, finds nothing; so does an entry that is a
  /// folder, a pipe (without waiting for a writer), or larger than any entry.
  @Test func whatIsNotAnEntryFindsNothing() throws {
    for name in ["", ".", "..", "../v/vt100", "x/xterm", String(repeating: "x", count: 300)] {
      #expect(Terminfo.entry(for: name, environment: ["TERMINFO": Self.fixtures]) == nil, "\(name)")
    }
    let folder = ScratchFolder.path("odd-entries")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("o/folder"), withIntermediateDirectories: true)
    #expect(mkfifo(folder.appendingPathComponent("o/pipe").path, 0o600) == 0)
    var large = try bytes("xterm-256color")
    large += [UInt8](repeating: 0, count: Terminfo.largestEntry)
    try Data(large).write(to: folder.appendingPathComponent("o/large"))
    for name in ["folder", "pipe", "large"] {
      #expect(Terminfo.entry(for: name, environment: ["TERMINFO": folder.path]) == nil, "\(name)")
    }
  }

  /// Every fixture cut at every length, with its header's counts set to extreme values, and
  /// with random bytes changed, and random bytes alone: read without a crash, and a result,
  /// where there is one, holds a count of colours an entry can hold. (The results are
  /// checked together: an expectation per input would take a sanitized run a minute.)
  @Test func cutAndDamagedEntriesAreReadWithoutACrash() throws {
    var random = SplitMix(seed: 69)
    var impossible: [[UInt8]] = []
    func check(_ bytes: [UInt8]) {
      if let colors = Terminfo(compiled: bytes)?.colors, colors < 0 || colors > Int(Int32.max) {
        impossible.append(bytes)
      }
    }
    var cutShortRead: [String] = []
    for name in ["vt100", "xterm", "xterm-256color", "extended-256", "xterm-direct"] {
      let whole = try bytes(name)
      for length in 0..<whole.count { check(Array(whole[..<length])) }
      // Cut within the header or the numbers: never an entry.
      func short(_ at: Int) -> Int { Int(whole[at]) | Int(whole[at + 1]) << 8 }
      let numbersStart = 12 + short(2) + short(4)
      let numbersEnd = numbersStart + numbersStart % 2 + short(6) * (short(0) == 0o1036 ? 4 : 2)
      for length in Array(0..<14) + [numbersEnd - 1] where Terminfo(compiled: Array(whole[..<length])) != nil
      {
        cutShortRead.append("\(name) cut at \(length)")
      }
      for field in stride(from: 2, to: 12, by: 2) {
        for value: UInt16 in [0, 1, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF] {
          var damaged = whole
          damaged[field] = UInt8(value & 0xFF)
          damaged[field + 1] = UInt8(value >> 8)
          check(damaged)
        }
      }
      for _ in 0..<500 {
        var damaged = whole
        for _ in 0..<Int(random.next() % 8) + 1 {
          damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
        }
        check(damaged)
      }
    }
    for _ in 0..<500 {
      var garbage = (0..<Int(random.next() % 600)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      if garbage.count >= 2, random.next() % 2 == 0 {
        garbage[0...1] = random.next() % 2 == 0 ? [0x1A, 0x01] : [0x1E, 0x02]
      }
      check(garbage)
    }
    #expect(cutShortRead.isEmpty, "\(cutShortRead)")
    #expect(impossible.isEmpty, "\(impossible.prefix(3))")
  }
}

/// A small seeded generator, so that a failure repeats.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
