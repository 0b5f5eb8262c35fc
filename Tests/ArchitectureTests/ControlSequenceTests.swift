import Foundation
import XCTest

/// The lines of `files` (trimmed; comment lines left out) that `flagged` picks, as
/// "path:line": what a rule about how code is written forbids.
func flaggedLines(in files: [(path: String, contents: String)], _ flagged: (String) -> Bool) -> [String] {
  files.flatMap { file in
    file.contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
      let line = $0.element.trimmingCharacters(in: .whitespaces)
      guard !line.hasPrefix("//"), flagged(line) else { return nil }
      return "\(file.path):\($0.offset + 1)"
    }
  }
}

/// The lines of `files` that spell out an escape sequence (`\u{1B}` in a string), as
/// "path:line", other than in the one file that names them all.
func escapeSequencesOutsideTheirPlace(in files: [(path: String, contents: String)]) -> [String] {
  flaggedLines(in: files.filter { !$0.path.hasSuffix("/ControlSequence.swift") }) {
    $0.contains("\\u{1B}") || $0.contains("\\u{1b}")
  }
}

final class ControlSequenceTests: XCTestCase {
  /// Escape sequences are written in one place, TextRendering's `ControlSequence`.
  func testEveryEscapeSequenceIsSpelledOutInControlSequence() throws {
    let files = try allowedImports.keys.sorted().flatMap { try sources(of: $0) }
    XCTAssertFalse(files.isEmpty)
    XCTAssertEqual(escapeSequencesOutsideTheirPlace(in: files), [])
  }

  func testTheCheckerFindsASequenceElsewhere() {
    let files = [
      ("Modules/TextRendering/Terminal/ControlSequence.swift", #"static let home = "\u{1B}[H""#),
      ("Modules/DogBreedsCLIKit/Terminal.swift", "// \\u{1B} in a comment\nwrite(\"\\u{1B}[2J\")"),
    ]
    XCTAssertEqual(
      escapeSequencesOutsideTheirPlace(in: files.map { (path: $0.0, contents: $0.1) }),
      ["Modules/DogBreedsCLIKit/Terminal.swift:2"])
  }
}
