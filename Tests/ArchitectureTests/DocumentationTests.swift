import Foundation
import XCTest

/// Public declarations, and the cases of public enums, that have no `///` comment right
/// above them (attribute lines may stand between), as "line: declaration".
///
/// A line-based reading of this repository's formatting (`swift format`): one declaration
/// per line, attributes on lines of their own or before the modifier, a type's members
/// indented below it. Extensions and imports are not symbols of their own.
func undocumentedPublicSymbols(in source: String) -> [String] {
  let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }
  func trimmed(_ line: String) -> String { line.trimmingCharacters(in: .whitespaces) }
  /// The declaration with its leading attributes (`@inlinable`, `@MainActor`, …) removed.
  func withoutAttributes(_ line: String) -> String {
    var text = Substring(trimmed(line))
    while text.hasPrefix("@"), let space = text.firstIndex(of: " ") {
      text = text[space...].drop { $0 == " " }
    }
    return String(text)
  }
  func isDocumented(_ index: Int) -> Bool {
    var above = index - 1
    while above >= 0, trimmed(lines[above]).hasPrefix("@") { above -= 1 }
    return above >= 0 && trimmed(lines[above]).hasPrefix("///")
  }
  /// Whether the nearest less indented line above declares a public enum.
  func isInPublicEnum(_ index: Int) -> Bool {
    let depth = indentation(lines[index])
    var above = index - 1
    while above >= 0, trimmed(lines[above]).isEmpty || indentation(lines[above]) >= depth { above -= 1 }
    guard above >= 0 else { return false }
    let owner = withoutAttributes(lines[above])
    return owner.hasPrefix("public enum ") || owner.hasPrefix("public indirect enum ")
  }
  func hasColonOutsideParentheses(_ text: String) -> Bool {
    var depth = 0
    for character in text {
      switch character {
      case "(": depth += 1
      case ")": depth -= 1
      case ":" where depth == 0: return true
      default: break
      }
    }
    return false
  }
  var missing: [String] = []
  for (index, line) in lines.enumerated() {
    let declaration = withoutAttributes(line)
    let isPublic =
      (declaration.hasPrefix("public ") || declaration.hasPrefix("open "))
      && !declaration.hasPrefix("public import ") && !declaration.contains("extension ")
    // An enum case declaration, as opposed to a `case` label of a switch (whose colon
    // stands outside any parentheses; a case's colons are its associated values' labels).
    let isCase =
      declaration.hasPrefix("case ") && !hasColonOutsideParentheses(declaration) && isInPublicEnum(index)
    if (isPublic || isCase) && !isDocumented(index) {
      missing.append("\(index + 1): \(declaration)")
    }
  }
  return missing
}

final class DocumentationTests: XCTestCase {
  /// Every shipped library (the module table but the app): people read their interfaces.
  let libraries = allowedImports.keys.filter { $0 != "DogBreedsCLI" }.sorted()

  func testEveryPublicSymbolOfTheLibrariesIsDocumented() throws {
    var missing: [String] = []
    for target in libraries {
      let files = try sources(of: target)
      XCTAssertFalse(files.isEmpty, "no sources found for \(target)")
      for file in files {
        missing += undocumentedPublicSymbols(in: file.contents).map { "\(file.path):\($0)" }
      }
    }
    XCTAssertEqual(missing, [], "public symbols without ///:\n" + missing.joined(separator: "\n"))
  }

  // The checker itself must be able to fail.

  func testTheCheckerFlagsUndocumentedDeclarationsAndCases() {
    let source = """
      /// Documented.
      public struct Fine {
        /// Documented, below an attribute.
        @inlinable
        public var value: Int { 1 }
        public func bare() {}
        @MainActor public init() {}
      }

      public enum Choice {
        /// Documented.
        case one
        case two, three
        case four(Int)
        /// Documented, with labels.
        case five(label: Int)
        case six(label: Int)
      }

      enum Internal {
        case hidden
      }

      extension Fine {
        public static let alsoBare = 1
      }

      /// Switch labels are not declarations.
      public func pick(_ choice: Choice) -> Int {
        switch choice {
        case .one: 1
        case let .four(n): n
        case .six(label: let n): n
        default: 0
        }
      }
      """
    XCTAssertEqual(
      undocumentedPublicSymbols(in: source),
      [
        "6: public func bare() {}", "7: public init() {}", "10: public enum Choice {", "13: case two, three",
        "14: case four(Int)",
        "17: case six(label: Int)", "25: public static let alsoBare = 1",
      ])
  }
}
