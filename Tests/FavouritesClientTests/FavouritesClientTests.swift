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
    #expect(
      try await client.save(FavouritesChange(added: ["hound", "akita"], removed: ["pug"])).favourites == [
        "hound", "akita",
      ])
    #expect(try await client.load().favourites == ["hound", "akita"])
  }

  @Test func aFolderWithoutAFileHasNoFavouritesAndTheFirstSaveMakesBoth() async throws {
    let folder = ScratchFolder.path("favourites").appendingPathComponent("nested")
    let client = FavouritesClient.live(folder: folder)
    #expect(try await client.load() == FavouritesLoad(favourites: []))
    #expect(
      try await client.save(FavouritesChange(added: ["hound/afghan", "pug"])).favourites == [
        "hound/afghan", "pug",
      ])
    let text = try String(contentsOf: folder.appendingPathComponent("favourites.json"), encoding: .utf8)
    #expect(text.contains("\"hound/afghan\"") && text.contains("\"version\" : 1"))
    #expect(try await FavouritesClient.live(folder: folder).load().favourites == ["hound/afghan", "pug"])
  }

  /// A save merges into what another process saved meanwhile: neither loses the other's.
  @Test func aSaveMergesIntoWhatAnotherProcessSaved() async throws {
    let folder = ScratchFolder.path("favourites")
    let first = FavouritesClient.live(folder: folder)
    let second = FavouritesClient.live(folder: folder)
    _ = try await first.save(FavouritesChange(added: ["pug", "akita"]))
    #expect(
      try await second.save(FavouritesChange(added: ["hound"], removed: ["akita"])).favourites == [
        "pug", "hound",
      ])
    #expect(try await first.save(FavouritesChange(added: ["boxer"])).favourites == ["pug", "hound", "boxer"])
  }

  /// A file that is not favourites is never overwritten by a read: the read says so, and
  /// the file stays as it is.
  @Test(arguments: ["{not json", #"{"version":2,"favourites":[]}"#, "\u{0}\u{1}binary"])
  func aDamagedFileIsSaidAndLeftAsItIsByARead(damaged: String) async throws {
    let folder = ScratchFolder.path("favourites")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("favourites.json")
    try Data(damaged.utf8).write(to: file)
    let loaded = try await FavouritesClient.live(folder: folder).load()
    #expect(loaded.favourites == [] && loaded.isDamaged)
    #expect(loaded.notice?.contains("\(file.path) could not be read") == true, "\(loaded.notice ?? "")")
    #expect(try String(contentsOf: file, encoding: .utf8) == damaged)
  }

  /// A save over a damaged file keeps it aside, under a name no other kept file has (two
  /// in the same second included), and saves everything the app showed, not just its
  /// change; its notice names the kept file's whole path.
  @Test func aSaveOverADamagedFileKeepsItAsideAndSavesTheWholeSet() async throws {
    let folder = ScratchFolder.path("favourites")
    let client = FavouritesClient.live(folder: folder)
    _ = try await client.save(FavouritesChange(added: ["hound", "boxer"]))
    let file = folder.appendingPathComponent("favourites.json")
    var kept: [String] = []
    for (round, damaged) in [#"{"favourites":["hound","boxer""#, "{also damaged"].enumerated() {
      try Data(damaged.utf8).write(to: file)
      let saved = try await client.save(
        FavouritesChange(added: ["pug"], known: ["hound", "boxer", "pug"]))
      #expect(saved.favourites == ["hound", "boxer", "pug"], "round \(round)")
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasPrefix("favourites.json.damaged-") }
      #expect(names.count == round + 1, "\(names)")
      let aside = try #require(Set(names).subtracting(kept).first)
      kept.append(aside)
      #expect(try String(contentsOf: folder.appendingPathComponent(aside), encoding: .utf8) == damaged)
      #expect(
        saved.notice?.contains(folder.appendingPathComponent(aside).path) == true, "\(saved.notice ?? "")")
      #expect(try await client.load() == FavouritesLoad(favourites: ["hound", "boxer", "pug"]))
    }
  }

  @Test(.enabled(if: getuid() != 0, "root may write to a read-only folder"))
  func aReadOnlyFolderIsAnErrorWithTheSystemsReasonAndChangesNothing() async throws {
    let folder = ScratchFolder.path("favourites")
    let client = FavouritesClient.live(folder: folder)
    _ = try await client.save(FavouritesChange(added: ["pug"]))
    chmod(folder.path, 0o555)
    defer { chmod(folder.path, 0o755) }
    await #expect(
      throws: FavouritesError("Favourites could not be saved in \(folder.path): Permission denied.")
    ) {
      try await client.save(FavouritesChange(added: ["hound"]))
    }
    #expect(try await client.load().favourites == ["pug"])
  }

  /// A folder that cannot be made (a file is in the way) is an error with the system's
  /// reason, as a read-only one is, whoever runs the test.
  @Test func aFolderThatCannotBeMadeIsAnErrorWithTheSystemsReason() async throws {
    let blocker = ScratchFolder.path("favourites-file")
    try Data("x".utf8).write(to: blocker)
    let folder = blocker.appendingPathComponent("inside")
    await #expect(
      throws: FavouritesError("Favourites could not be saved in \(folder.path): Not a directory.")
    ) {
      try await FavouritesClient.live(folder: folder).save(FavouritesChange(added: ["pug"]))
    }
  }

  /// While another process holds the lock (stopped, or hung), a read needs no lock and a
  /// save gives up once its wait is over (a few seconds in the app's scripts; a short one
  /// here) with a sentence that says why. The upper bound only catches a save that never
  /// gives up: a loaded machine may run late by seconds.
  @Test func aLockHeldElsewhereNeitherBlocksAReadNorFreezesASave() async throws {
    let folder = ScratchFolder.path("favourites")
    let lockWait = Duration.milliseconds(300)
    let client = FavouritesClient.live(folder: folder, lockWait: lockWait)
    _ = try await client.save(FavouritesChange(added: ["pug"]))
    // flock belongs to the open file: a second descriptor is another holder.
    let lock = open(folder.appendingPathComponent("favourites.json.lock").path, O_RDWR)
    #expect(flock(lock, LOCK_EX) == 0)
    defer { close(lock) }
    // A read takes no lock (one that did would give up, busy, after the wait).
    #expect(try await client.load().favourites == ["pug"])
    let clock = ContinuousClock()
    let saving = clock.now
    await #expect(throws: FavouritesError.self) { try await client.save(FavouritesChange(added: ["hound"])) }
    let waited = clock.now - saving
    #expect(waited >= lockWait && waited < lockWait + .seconds(10 * timeScale), "\(waited)")
    do {
      _ = try await client.save(FavouritesChange(added: ["hound"]))
    } catch {
      #expect(
        error.message.contains("another DogBreeds") && error.message.contains(".lock"), "\(error.message)")
    }
    flock(lock, LOCK_UN)
    #expect(try await client.save(FavouritesChange(added: ["hound"])).favourites == ["pug", "hound"])
  }

  /// A client that waits for no lock says at once that another process is saving, with
  /// ``FavouritesError/isBusy`` set (the app then tries again by itself); other errors
  /// have it clear.
  @Test func withoutWaitingAHeldLockIsABusyErrorAtOnce() async throws {
    let folder = ScratchFolder.path("favourites")
    let client = FavouritesClient.live(folder: folder, lockWait: .zero)
    _ = try await client.save(FavouritesChange(added: ["pug"]))
    let lock = open(folder.appendingPathComponent("favourites.json.lock").path, O_RDWR)
    #expect(flock(lock, LOCK_EX) == 0)
    defer { close(lock) }
    let clock = ContinuousClock()
    let start = clock.now
    let error = await #expect(throws: FavouritesError.self) {
      try await client.save(FavouritesChange(added: ["hound"]))
    }
    #expect(error?.isBusy == true && error?.message.contains("favourites.json.lock") == true)
    #expect(clock.now - start < .seconds(1))
    let blocker = ScratchFolder.path("blocker")
    try Data().write(to: blocker)
    let notAFolder = await #expect(throws: FavouritesError.self) {
      try await FavouritesClient.live(folder: blocker.appendingPathComponent("x"), lockWait: .zero)
        .save(FavouritesChange(added: ["hound"]))
    }
    #expect(notAFolder?.isBusy == false)
  }

  /// A save that fails on another file than the folder (the lock file) names that file.
  @Test func aLockFileThatCannotBeOpenedIsNamed() async throws {
    let folder = ScratchFolder.path("favourites")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("favourites.json.lock"), withIntermediateDirectories: true)
    let error = await #expect(throws: FavouritesError.self) {
      try await FavouritesClient.live(folder: folder).save(FavouritesChange(added: ["pug"]))
    }
    #expect(
      error?.message.contains("favourites.json.lock: Is a directory") == true, "\(error?.message ?? "")")
  }

  /// A new favourites file is the user's alone, and a save keeps the file's permissions:
  /// one the user let their group read stays so.
  @Test func aSaveKeepsTheFilesPermissions() async throws {
    let folder = ScratchFolder.path("favourites")
    let client = FavouritesClient.live(folder: folder)
    _ = try await client.save(FavouritesChange(added: ["pug"]))
    let file = folder.appendingPathComponent("favourites.json").path
    var status = stat()
    #expect(stat(file, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)
    #expect(chmod(file, 0o640) == 0)
    _ = try await client.save(FavouritesChange(added: ["hound"]))
    #expect(stat(file, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o640)
  }

  /// Another process's save shows in `changes` within a second or so.
  @Test func changesReportAnotherProcesssSave() async throws {
    let folder = ScratchFolder.path("favourites")
    let watching = FavouritesClient.live(folder: folder, every: .milliseconds(50))
    let changes = watching.changes()
    _ = try await FavouritesClient.live(folder: folder).save(FavouritesChange(added: ["pug"]))
    // (Bounded: a change never seen fails the test rather than hanging it.)
    let seen = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        var iterator = changes.makeAsyncIterator()
        return await iterator.next() != nil
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(5).scaled)
        return false
      }
      defer { group.cancelAll() }
      return await group.next() ?? false
    }
    #expect(seen)
    #expect(try await watching.load().favourites == ["pug"])
  }

  /// Many savers at once, each adding its own and removing its own: nothing is lost.
  @Test func concurrentSaversLoseNothing() async throws {
    let folder = ScratchFolder.path("favourites")
    try await withThrowingTaskGroup(of: Void.self) { group in
      for saver in 0..<4 {
        group.addTask {
          let client = FavouritesClient.live(folder: folder)
          for round in 0..<25 {
            _ = try await client.save(FavouritesChange(added: ["s\(saver)-\(round)", "gone-\(saver)"]))
            _ = try await client.save(FavouritesChange(removed: ["gone-\(saver)"]))
          }
        }
      }
      try await group.waitForAll()
    }
    let expected = Set((0..<4).flatMap { saver in (0..<25).map { "s\(saver)-\($0)" } })
    #expect(try await FavouritesClient.live(folder: folder).load().favourites == expected)
  }
}
