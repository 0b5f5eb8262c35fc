import Foundation
import FuzzChecks
import TestSupport
import Testing

/// Every input a fuzzer found, kept under `Fuzz/Findings/HARNESS/`, replayed through that
/// harness's rules on every `make test`: a fixed bug stays fixed.
struct FuzzFindingsTests {
  /// The harnesses, by the name of their folder of findings (and of their `make fuzz-NAME`).
  static let harnesses = FuzzHarnesses.all

  static let folder = FixtureFolder.fuzzFindings("").directory

  /// Every kept finding, as "harness/file".
  static let findings: [String] = {
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return folders.sorted().flatMap { harness in
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(harness).path))
        ?? [])
        .sorted().map { "\(harness)/\($0)" }
    }
  }()

  @Test(arguments: findings)
  func aFindingKeepsEveryRuleOfItsHarness(_ finding: String) throws {
    let harnessName = String(finding.prefix { $0 != "/" })
    let harness = try #require(Self.harnesses[harnessName], "\(finding) is not in a harness's folder")
    let bytes = FixtureFolder.fuzzFindings(harnessName).bytes(
      String(finding.dropFirst(harnessName.count + 1)))
    #expect(!bytes.isEmpty, "\(finding) could not be read")
    do {
      try harness(bytes)
    } catch {
      Issue.record("\(finding): \(error)")
    }
  }

  /// The findings are where this suite looks: none is lost to a misspelt folder, or to a
  /// folder moved away.
  @Test func findingsAreKeptInTheFoldersOfTheHarnesses() {
    #expect(Self.findings.count >= 6, "\(Self.findings)")
    let folders = Set(Self.findings.map { String($0.prefix { $0 != "/" }) })
    #expect(folders.isSubset(of: Self.harnesses.keys), "\(folders)")
    // Each is named for what it found (`differ-leading-mark.bin`), not by libFuzzer's
    // hash: a corpus written into the folder by mistake shows here.
    let unnamed = Self.findings.filter { !$0.hasSuffix(".bin") }
    #expect(unnamed.isEmpty, "\(unnamed)")
  }
}
