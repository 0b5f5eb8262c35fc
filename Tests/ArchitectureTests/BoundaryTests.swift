import Foundation
import XCTest

/// The module table: what each shipped target imports besides the toolchain, exactly.
/// Feature modules never import each other. Docs/Architecture.md shows it and
/// Package.swift declares it; the tests below hold all three, and the imports, equal.
let allowedImports: [String: Set<String>] = [
  "Core": [],
  "CoreTesting": ["Core", "XCTest", "Testing"],
  "LocalFiles": [],
  "DogAPIClient": ["Core", "LocalFiles"],
  "FavouritesClient": ["Core", "LocalFiles"],
  "ImageDecoding": [],
  "TextRendering": ["ImageDecoding"],
  "DogsFeature": ["Core", "DogAPIClient", "TextRendering"],
  "BreedFeature": ["Core", "DogAPIClient", "ImageDecoding", "TextRendering"],
  "FavouritesFeature": ["Core", "DogAPIClient", "ImageDecoding", "TextRendering"],
  "AppFeature": [
    "Core", "DogAPIClient", "FavouritesClient", "TextRendering", "DogsFeature", "BreedFeature",
    "FavouritesFeature",
  ],
  "CommandLineInterface": ["DogAPIClient", "LocalFiles", "TextRendering", "DogsFeature", "AppFeature"],
  "SessionRecording": [
    "Core", "DogAPIClient", "FavouritesClient", "ImageDecoding", "TextRendering", "DogsFeature",
    "BreedFeature", "FavouritesFeature", "AppFeature", "CommandLineInterface",
  ],
  "DogBreedsCLIKit": [
    "Core", "DogAPIClient", "FavouritesClient", "ImageDecoding", "LocalFiles", "TextRendering", "DogsFeature",
    "BreedFeature", "FavouritesFeature", "AppFeature", "CommandLineInterface", "SessionRecording",
  ],
  "DogBreedsCLI": ["DogBreedsCLIKit"],
  "DogBreedsBench": ["AppFeature", "Core", "DogAPIClient", "DogsFeature", "ImageDecoding", "TextRendering"],
]

/// Modules that ship with every Swift toolchain; any target may import them.
let toolchainModules: Set<String> = [
  "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl",
  "Darwin", "Synchronization", "Observation", "_Concurrency",
]

/// Module names that are test frameworks: only CoreTesting and test targets may use them.
let testFrameworks: Set<String> = ["XCTest", "Testing"]

/// One rule broken: which target, what it imports or depends on, and where.
struct Violation: Equatable, CustomStringConvertible {
  var target: String
  var module: String
  var place: String
  var description: String { "\(target) must not import \(module) (\(place))" }
}

/// Checks import lines of a target's sources against the table.
func importViolations(target: String, files: [(path: String, contents: String)]) -> [Violation] {
  guard let allowed = allowedImports[target] else {
    return [Violation(target: target, module: "(unknown target)", place: "module table")]
  }
  var violations: [Violation] = []
  for file in files {
    for (number, line) in file.contents.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      guard let module = importedModule(in: String(line)) else { continue }
      if module == target || toolchainModules.contains(module) || allowed.contains(module) {
        continue
      }
      violations.append(Violation(target: target, module: module, place: "\(file.path):\(number + 1)"))
    }
  }
  return violations
}

/// The module an `import` line names, if the line is one (attributes and kinds allowed).
func importedModule(in line: String) -> String? {
  var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
  while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
  guard words.first == "import", words.count >= 2 else { return nil }
  let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
  let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
  return path.split(separator: ".").first.map(String.init)
}

/// Checks the manifest's declared dependencies for each target against the table.
func manifestViolations(manifest: String) -> [Violation] {
  var violations: [Violation] = []
  for (target, dependencies) in declaredDependencies(manifest: manifest) {
    guard let allowed = allowedImports[target] else { continue }
    for dependency in dependencies where !allowed.contains(dependency) {
      violations.append(Violation(target: target, module: dependency, place: "Package.swift"))
    }
  }
  return violations
}

/// `target name → dependencies` for every target in a manifest.
func declaredDependencies(manifest: String) -> [String: [String]] {
  declaredTargets(manifest: manifest).mapValues(\.dependencies)
}

/// Every target in a manifest (`.target`, `.executableTarget`, `.testTarget`): its
/// dependencies, and its folder.
func declaredTargets(manifest: String) -> [String: (dependencies: [String], path: String?)] {
  var result: [String: (dependencies: [String], path: String?)] = [:]
  var declarations: [String] = []
  for kind in [".target(", ".executableTarget(", ".testTarget("] {
    declarations += manifest.components(separatedBy: kind).dropFirst()
  }
  for declaration in declarations {
    guard let name = firstQuoted(after: "name:", in: declaration) else { continue }
    // The declaration ends at the parenthesis that closes `.target(`.
    var depth = 1
    var end = declaration.endIndex
    for index in declaration.indices {
      if declaration[index] == "(" { depth += 1 }
      if declaration[index] == ")" { depth -= 1 }
      if depth == 0 {
        end = index
        break
      }
    }
    let body = declaration[..<end]
    var dependencies: [String] = []
    if let start = body.range(of: "dependencies: [") {
      let list = body[start.upperBound...].prefix { $0 != "]" }
      dependencies = list.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
    result[name] = (dependencies, firstQuoted(after: "path:", in: String(body)))
  }
  return result
}

/// Every place a target imports a module of the package that it does not declare as a
/// dependency (it would build only through another target's), and, for shipped targets,
/// every declared dependency it never imports.
func undeclaredImports(manifest: String, imports: [String: [(module: String, place: String)]]) -> [Violation]
{
  let targets = declaredTargets(manifest: manifest)
  var violations: [Violation] = []
  for (target, found) in imports.sorted(by: { $0.key < $1.key }) {
    let declared = Set(targets[target]?.dependencies ?? [])
    for (module, place) in found
    where module != target && targets[module] != nil && !declared.contains(module) {
      violations.append(Violation(target: target, module: module, place: "\(place), not in Package.swift"))
    }
    // A test target may depend on an executable only to have it built.
    guard allowedImports[target] != nil else { continue }
    for module in declared.subtracting(found.map(\.module)).sorted() {
      violations.append(Violation(target: target, module: module, place: "Package.swift, never imported"))
    }
  }
  return violations
}

/// The package modules each of `files`' import lines names, with its place.
func imports(in files: [(path: String, contents: String)]) -> [(module: String, place: String)] {
  files.flatMap { file in
    file.contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
      number, line in importedModule(in: String(line)).map { ($0, "\(file.path):\(number + 1)") }
    }
  }
}

/// The table in Docs/Architecture.md: target → what it imports (`—` for nothing).
func documentedTable(_ markdown: String) -> [String: Set<String>] {
  var table: [String: Set<String>] = [:]
  for line in markdown.split(separator: "\n") where line.hasPrefix("| ") {
    let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    guard cells.count == 3, cells[1].hasPrefix("Modules/") || cells[1].hasPrefix("Apps/") else { continue }
    table[cells[0]] =
      cells[2] == "—"
      ? [] : Set(cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
  }
  return table
}

func firstQuoted(after key: String, in text: String) -> String? {
  guard let keyRange = text.range(of: key) else { return nil }
  let rest = text[keyRange.upperBound...]
  guard let open = rest.firstIndex(of: "\"") else { return nil }
  let afterOpen = rest[rest.index(after: open)...]
  guard let close = afterOpen.firstIndex(of: "\"") else { return nil }
  return String(afterOpen[..<close])
}

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The manifest's text.
func manifestText() throws -> String {
  try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
}

/// A target's Swift files (its folder as the manifest says): paths relative to the root,
/// and contents.
func sources(of target: String) throws -> [(path: String, contents: String)] {
  guard let path = declaredTargets(manifest: try manifestText())[target]?.path else { return [] }
  let folder = repositoryRoot.appendingPathComponent(path)
  guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
  let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
  var files: [(String, String)] = []
  while let url = enumerator?.nextObject() as? URL {
    guard url.pathExtension == "swift" else { continue }
    files.append(
      (
        url.path.replacingOccurrences(of: repositoryRoot.path + "/", with: ""),
        try String(contentsOf: url, encoding: .utf8)
      ))
  }
  return files
}

final class BoundaryTests: XCTestCase {
  func testEveryShippedModuleImportsOnlyWhatTheTableAllows() throws {
    var violations: [Violation] = []
    for target in allowedImports.keys.sorted() {
      violations += importViolations(target: target, files: try sources(of: target))
    }
    XCTAssertEqual(violations, [], violations.map(\.description).joined(separator: "\n"))
  }

  func testTheManifestDeclaresOnlyAllowedDependencies() throws {
    let manifest = try manifestText()
    let declared = declaredDependencies(manifest: manifest)
    XCTAssertEqual(declared["Core"], [], "Core must depend on nothing")
    XCTAssertEqual(declared["CoreTesting"], ["Core"])
    let violations = manifestViolations(manifest: manifest)
    XCTAssertEqual(violations, [], violations.map(\.description).joined(separator: "\n"))
  }

  /// Every target, tests and test support included, declares each package module it
  /// imports; a shipped target declares nothing it does not import.
  func testTheManifestDeclaresExactlyWhatEachTargetImports() throws {
    let manifest = try manifestText()
    var found: [String: [(module: String, place: String)]] = [:]
    for target in declaredTargets(manifest: manifest).keys {
      found[target] = imports(in: try sources(of: target))
    }
    XCTAssertGreaterThan(found.count, 30)
    let violations = undeclaredImports(manifest: manifest, imports: found)
    XCTAssertEqual(violations, [], violations.map(\.description).joined(separator: "\n"))
  }

  /// Docs/Architecture.md's table is the one here.
  func testTheDocumentedTableIsTheOneChecked() throws {
    let markdown = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Docs/Architecture.md"), encoding: .utf8)
    XCTAssertEqual(documentedTable(markdown), allowedImports)
  }

  func testNoShippedModuleOtherThanCoreTestingLinksATestFramework() throws {
    for target in allowedImports.keys where target != "CoreTesting" {
      for file in try sources(of: target) {
        for line in file.contents.split(separator: "\n") {
          if let module = importedModule(in: String(line)) {
            XCTAssertFalse(testFrameworks.contains(module), "\(file.path) imports \(module)")
          }
        }
      }
    }
  }

  // The checker itself must be able to fail.

  func testTheCheckerFlagsAFeatureImportingAnotherFeature() {
    let violations = importViolations(
      target: "DogsFeature",
      files: [("Modules/DogsFeature/Bad.swift", "import Core\n@testable import BreedFeature\n")])
    XCTAssertEqual(
      violations,
      [Violation(target: "DogsFeature", module: "BreedFeature", place: "Modules/DogsFeature/Bad.swift:2")])
  }

  func testTheCheckerFlagsAnImportOutsideTheTable() {
    XCTAssertEqual(
      importViolations(target: "Core", files: [("x.swift", "import TextRendering")]).map(\.module),
      ["TextRendering"])
    XCTAssertEqual(
      importViolations(target: "DogAPIClient", files: [("x.swift", "@preconcurrency import XCTest")]).map(
        \.module),
      ["XCTest"])
    XCTAssertEqual(
      importViolations(target: "BreedFeature", files: [("x.swift", "import struct DogsFeature.Row")]).map(
        \.module),
      ["DogsFeature"])
  }

  func testTheCheckerFlagsAnImportTheManifestDoesNotDeclareAndADependencyNeverImported() {
    let manifest = """
      .target(name: "ImageDecoding", path: "Modules/ImageDecoding"),
      .target(name: "Core", path: "Modules/Core"),
      .target(name: "BreedFeature", dependencies: ["Core"], path: "Modules/BreedFeature"),
      .target(name: "DogsFeature", dependencies: ["Core", "ImageDecoding"], path: "Modules/DogsFeature"),
      .testTarget(name: "BreedFeatureTests", dependencies: ["BreedFeature", "Core"], path: "Tests/BreedFeatureTests"),

      """
    XCTAssertEqual(
      undeclaredImports(
        manifest: manifest,
        imports: [
          "BreedFeature": [
            ("Core", "a.swift:1"), ("ImageDecoding", "a.swift:2"), ("Foundation", "a.swift:3"),
          ],
          "DogsFeature": [("Core", "b.swift:1")],
          "BreedFeatureTests": [("BreedFeature", "t.swift:1")],
        ]),
      [
        Violation(target: "BreedFeature", module: "ImageDecoding", place: "a.swift:2, not in Package.swift"),
        Violation(target: "DogsFeature", module: "ImageDecoding", place: "Package.swift, never imported"),
      ])
  }

  func testTheCheckerReadsTheDocumentedTable() {
    let markdown = """
      | target | folder | may import |
      | --- | --- | --- |
      | Core | Modules/Core | — |
      | DogsFeature | Modules/DogsFeature | Core, TextRendering |
      """
    XCTAssertEqual(documentedTable(markdown), ["Core": [], "DogsFeature": ["Core", "TextRendering"]])
  }

  func testTheCheckerFlagsAManifestDependencyOutsideTheTable() {
    let manifest = """
      .target(name: "DogsFeature", dependencies: ["BreedFeature", "Core"], path: "Modules/DogsFeature"),
      .target(name: "Core", path: "Modules/Core"),

      """
    XCTAssertEqual(
      manifestViolations(manifest: manifest),
      [Violation(target: "DogsFeature", module: "BreedFeature", place: "Package.swift")])
  }
}
