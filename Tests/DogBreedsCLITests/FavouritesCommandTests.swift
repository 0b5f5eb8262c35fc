import Foundation
import TestSupport
import Testing

/// `DogBreedsCLI favourites`: listing, adding and removing, as a script would.
struct FavouritesCommandTests {
  @Test func addListAndRemoveByTheNamesShowTakes() async throws {
    let environment = cleanEnvironment()
    let add = try await runCLI(
      ["--api", "fake", "favourites", "add", "Afghan Hound", "pug"], environment: environment)
    #expect(add.status == 0 && add.stdout.isEmpty, "\(add.stderr)")
    let listed = try await runCLI(["favourites"], environment: environment)
    #expect(listed.status == 0)
    #expect(listed.stdout == "Afghan Hound\nPug\n")
    let json = try await runCLI(["favourites", "--json"], environment: environment)
    #expect(
      json.stdout
        == #"{"favourites":[{"name":"hound/afghan","displayName":"Afghan Hound"},{"name":"pug","displayName":"Pug"}]}"#
        + "\n")
    let remove = try await runCLI(
      ["--api", "fake", "favourites", "remove", "hound/afghan"], environment: environment)
    #expect(remove.status == 0)
    #expect(try await runCLI(["favourites"], environment: environment).stdout == "Pug\n")
  }

  /// A name that is no breed is "not found", as for `show`, and nothing is saved.
  @Test func anUnknownBreedIsNotFoundAndChangesNothing() async throws {
    let environment = cleanEnvironment()
    let run = try await runCLI(
      ["--api", "fake", "favourites", "add", "pug", "wolfdog"], environment: environment)
    #expect(run.status == 3)
    #expect(run.stderr.hasPrefix("error: “wolfdog” is not in the breed list."))
    #expect(try await runCLI(["favourites"], environment: environment).stdout.isEmpty)
  }

  @Test(arguments: [
    (["favourites", "add"], "favourites add needs one breed or more"),
    (["favourites", "rmove", "pug"], "favourites takes add or remove, not “rmove”. Did you mean remove?"),
    (["favourites", "add", "pug", "--json"], "--json goes with favourites alone"),
  ])
  func usageErrorsAreSaid(arguments: [String], message: String) async throws {
    let run = try await runCLI(arguments)
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("error: \(message)"), "\(run.stderr)")
  }

  /// Two scripts at once, each adding its own breeds and removing some again: neither
  /// loses the other's changes.
  @Test func twoProcessesAtOnceLoseNothing() async throws {
    let environment = cleanEnvironment()
    let names = try await runCLI(["--api", "fake", "list"], environment: environment).stdout
      .split(separator: "\n").map { $0.lowercased() }.filter { !$0.contains(" ") }
    try #require(names.count >= 16)
    let first = Array(names[0..<8])
    let second = Array(names[8..<16])
    func script(_ breeds: [String]) async throws {
      for breed in breeds {
        let run = try await runCLI(["--api", "fake", "favourites", "add", breed], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
      }
      for breed in breeds.prefix(3) {
        let run = try await runCLI(
          ["--api", "fake", "favourites", "remove", breed], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
      }
    }
    async let a: Void = script(first)
    async let b: Void = script(second)
    _ = try await (a, b)
    let listed = try await runCLI(["favourites", "--json"], environment: environment).stdout
    for kept in first.dropFirst(3) + second.dropFirst(3) {
      #expect(listed.contains("\"name\":\"\(kept)\""), "\(kept)")
    }
    for gone in first.prefix(3) + second.prefix(3) {
      #expect(!listed.contains("\"name\":\"\(gone)\""), "\(gone)")
    }
  }
}
