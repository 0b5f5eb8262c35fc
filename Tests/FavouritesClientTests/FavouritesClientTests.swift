import FavouritesClient
import Foundation
import LocalFiles
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The favourites client: in memory, and in a real folder.
struct FavouritesClientTests {
  @Test func inMemoryFavouritesMergeWhatEachSaveAddsAndRemoves() async throws {
    let client = FavouritesClient.inMemory(["pug"])
    #expect(try await client.load() == FavouritesLoad(favourites: ["pug"]))
    #expect(try await client.save(["hound", "akita"], ["pug"]) == ["hound", "akita"])
    #expect(try await client.load().favourites == ["hound", "akita"])
  }

  @Test func aFolderWithoutAFileHasNoFavouritesAndTheFirstSaveMakesBoth() async throws {
    let folder = ScratchFolder.path("favourites").appendingPathComponent("nested")
    let client = FavouritesClient.live(folder: folder)
    #expect(try await client.load() == FavouritesLoad(favourites: []))
    #expect(try await client.save(["hound/afghan", "pug"], []) == ["hound/afghan", "pug"])
    let text = try String(contentsOf: folder.appendingPathComponent("favourites.json"), encoding: .utf8)
    #expect(text.contains("\"hound/afghan\"") && text.contains("\"version\" : 1"))
    #expect(try await FavouritesClient.live(folder: folder).load().favourites == ["hound/afghan", "pug"])
  }

  /// A save merges into what another process saved meanwhile: neither loses the other's.
  @Test func aSaveMergesIntoWhatAnotherProcessSaved() async throws {
    let folder = ScratchFolder.path("favourites")
    let first = FavouritesClient.live(folder: folder)
    let second = FavouritesClient.live(folder: folder)
    _ = try await first.save(["pug", "akita"], [])
    #expect(try await second.save(["hound"], ["akita"]) == ["pug", "hound"])
    #expect(try await first.save(["boxer"], []) == ["pug", "hound", "boxer"])
  }

  /// A file that is not favourites is never overwritten: it is kept aside, and the user is
  /// told in one sentence.
  @Test(arguments: ["{not json", #"{"version":2,"favourites":[]}"#, "\u{0}\u{1}binary"])
  func aDamagedFileIsKeptAsideAndSaid(damaged: String) async throws {
    let folder = ScratchFolder.path("favourites")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("favourites.json")
    try Data(damaged.utf8).write(to: file)
    let loaded = try await FavouritesClient.live(folder: folder).load()
    #expect(loaded.favourites == [])
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    let aside = try #require(names.first { $0.hasPrefix("favourites.json.damaged-") })
    #expect(try String(contentsOf: folder.appendingPathComponent(aside), encoding: .utf8) == damaged)
    #expect(loaded.notice == "Your favourites file could not be read; it was kept as \(aside).")
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test(.enabled(if: getuid() != 0, "root may write to a read-only folder"))
  func aReadOnlyFolderIsAClearErrorAndChangesNothing() async throws {
    let folder = ScratchFolder.path("favourites")
    let client = FavouritesClient.live(folder: folder)
    _ = try await client.save(["pug"], [])
    chmod(folder.path, 0o555)
    defer { chmod(folder.path, 0o755) }
    await #expect(throws: FavouritesError("Favourites could not be saved in \(folder.path).")) {
      try await client.save(["hound"], [])
    }
    #expect(try await client.load().favourites == ["pug"])
  }

  /// A folder that cannot be made (a file is in the way) is a clear error, as a read-only
  /// one is, whoever runs the test.
  @Test func aFolderThatCannotBeMadeIsAClearError() async throws {
    let blocker = ScratchFolder.path("favourites-file")
    try Data("x".utf8).write(to: blocker)
    let folder = blocker.appendingPathComponent("inside")
    await #expect(throws: FavouritesError("Favourites could not be saved in \(folder.path).")) {
      try await FavouritesClient.live(folder: folder).save(["pug"], [])
    }
  }

  /// Many savers at once, each adding its own and removing its own: nothing is lost.
  @Test func concurrentSaversLoseNothing() async throws {
    let folder = ScratchFolder.path("favourites")
    try await withThrowingTaskGroup(of: Void.self) { group in
      for saver in 0..<4 {
        group.addTask {
          let client = FavouritesClient.live(folder: folder)
          for round in 0..<25 {
            _ = try await client.save(["s\(saver)-\(round)", "gone-\(saver)"], [])
            _ = try await client.save([], ["gone-\(saver)"])
          }
        }
      }
      try await group.waitForAll()
    }
    let expected = Set((0..<4).flatMap { saver in (0..<25).map { "s\(saver)-\($0)" } })
    #expect(try await FavouritesClient.live(folder: folder).load().favourites == expected)
  }

  @Test func theDataFolderFollowsTheUsualRules() {
    let home = ScratchFolder.root.path
    #expect(UserFolder.data.url(environment: ["DOGBREEDS_DATA_DIR": "/d", "HOME": home]).path == "/d")
    #expect(UserFolder.data.url(environment: ["XDG_DATA_HOME": "/x", "HOME": home]).path == "/x/dogbreeds")
    #expect(
      UserFolder.data.url(environment: ["XDG_DATA_HOME": "rel", "HOME": home]).path
        == "\(home)/.local/share/dogbreeds")
    #expect(
      UserFolder.data.url(environment: ["HOME": "/nonexistent-home"]).lastPathComponent
        == "dogbreeds-data-\(getuid())")
  }
}
