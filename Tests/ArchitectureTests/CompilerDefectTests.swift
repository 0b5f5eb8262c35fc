import Foundation
import XCTest

/// The lines of `files` that return a tuple literal with an `await` after its first
/// element, as "path:line": the form Swift 6.3's optimiser miscompiles in a task's closure
/// (Docs/CompilerDefects.md). The check is by line and errs on the side of flagging: such a
/// value is awaited into a local first, then returned.
func tuplesReturnedAroundAnAwait(in files: [(path: String, contents: String)]) -> [String] {
  flaggedLines(in: files) { line in
    guard let open = line.range(of: "return ("), let comma = line[open.upperBound...].firstIndex(of: ",")
    else {
      return false
    }
    return line[comma...].range(of: #"\bawait\b"#, options: .regularExpression) != nil
  }
}

final class CompilerDefectTests: XCTestCase {
  /// No shipped module returns a tuple built around an `await`.
  func testNoModuleReturnsATupleBuiltAroundAnAwait() throws {
    let files = try allowedImports.keys.sorted().flatMap { try sources(of: $0) }
    XCTAssertFalse(files.isEmpty)
    XCTAssertEqual(tuplesReturnedAroundAnAwait(in: files), [])
  }

  func testTheCheckerFindsTheMiscompiledForm() {
    let source = """
      let ahead = Task {
        do throws(DogAPIError) {
          return (.success(address), .success(try await base.imageData(address)))
        } catch {
          return (.success(address), .failure(error))
        }
      }
      // return (1, try await seven()) in a comment
      let bytes = try await base.imageData(address)
      return (.success(address), bytes)
      return (await first(), 2)
      """
    XCTAssertEqual(
      tuplesReturnedAroundAnAwait(in: [(path: "AskingAhead.swift", contents: source)]),
      ["AskingAhead.swift:3"])
  }
}
