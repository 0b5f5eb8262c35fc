import DogAPIClient
import Foundation
import LocalFiles
import TestHTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.serialized)
struct OfflineFallbackTests {
  @Test func aNetworkFailureFallsBackToTheCacheMarkedStale() async throws {
    let cache = temporaryCache()
    let fetchedAt = Date(timeIntervalSince1970: 1_700_000_000)
    try cache.save([Breed(name: "hound", subBreeds: ["afghan"])], fetchedAt: fetchedAt)
    let server = try TestHTTPServer { _ in .text("down", status: 503) }
    defer { server.stop() }
    let list = try await liveClient(server, cache: cache, usesBundledFallback: true).breeds()
    #expect(list.source == .cache)
    #expect(list.isStale)
    #expect(list.fetchedAt == fetchedAt)
    #expect(list.breeds == [Breed(name: "hound", subBreeds: ["afghan"])])
    #expect(list.fallbackReason == .server(status: 503, message: nil))
  }

  /// Cancelling is not a failure to fall back from: whoever cancelled hears `.cancelled`,
  /// not the saved or built-in list in place of the answer it gave up on.
  @Test(arguments: Transport.allCases) func aCancelledFetchFallsBackToNothing(_ transport: Transport)
    async throws
  {
    let cache = temporaryCache()
    try cache.save([Breed(name: "hound", subBreeds: [])], fetchedAt: Date())
    let server = try TestHTTPServer { _ in .stall }
    defer { server.stop() }
    let client = liveClient(server, transport, cache: cache, usesBundledFallback: true)
    let task = Task { await error { try await client.breeds() } }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    #expect(await task.value == .cancelled)
  }

  @Test func withoutACacheTheBundledSnapshotIsUsed() async throws {
    let server = try TestHTTPServer { _ in .json(#"{"message":"Internal server error"}"#) }
    defer { server.stop() }
    let list = try await liveClient(server, cache: temporaryCache(), usesBundledFallback: true).breeds()
    #expect(list.source == .bundled)
    #expect(list.breeds.count == 108)
    #expect(list.fallbackReason == .server(status: 200, message: "Internal server error"))
  }

  @Test func withNoFallbackAllowedTheErrorIsThrown() async throws {
    let server = try TestHTTPServer { _ in .json("{not json") }
    defer { server.stop() }
    let failure = await error { try await liveClient(server, usesBundledFallback: false).breeds() }
    #expect(failure == .malformedResponse(detail: "the body is not a JSON object"))
  }

  @Test func aCorruptCacheIsIgnoredThenReplaced() async throws {
    let cache = temporaryCache()
    try FileManager.default.createDirectory(
      at: cache.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{\"version\":1,\"breeds\":[{\"na".utf8).write(to: cache.fileURL)
    #expect(cache.load() == nil)

    let down = try TestHTTPServer { _ in .hangUp }
    let offline = try await liveClient(down, cache: cache, usesBundledFallback: true).breeds()
    down.stop()
    #expect(offline.source == .bundled)

    let up = try TestHTTPServer { _ in .json(Fixture.breedsJSON) }
    defer { up.stop() }
    _ = try await liveClient(up, cache: cache).breeds()
    #expect(cache.load()?.breeds.count == 108)
  }

  /// An answer of no breeds is the answer (the screen says "No breeds"), but the list
  /// saved before stays saved: an offline run later still has it.
  @Test func anEmptyListIsShownButNotSavedOverTheSavedOne() async throws {
    let cache = temporaryCache()
    let fetchedAt = Date(timeIntervalSince1970: 1_700_000_000)
    try cache.save([Breed(name: "hound", subBreeds: ["afghan"])], fetchedAt: fetchedAt)
    let server = try TestHTTPServer { _ in .json(#"{"message":{},"status":"success"}"#) }
    defer { server.stop() }
    let list = try await liveClient(server, cache: cache).breeds()
    #expect(list.source == .network)
    #expect(list.breeds == [])
    #expect(cache.load()?.breeds == [Breed(name: "hound", subBreeds: ["afghan"])])
    #expect(cache.load()?.fetchedAt == fetchedAt)
  }

  @Test func aCacheFileThatIsNoCacheIsIgnoredWithoutReadingIt() throws {
    let cache = temporaryCache()
    let folder = cache.fileURL.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try cache.save([Breed(name: "akita")], fetchedAt: Date())
    let written = try Data(contentsOf: cache.fileURL)
    // Through a symbolic link (a dotfile manager's, say) it is still read.
    let elsewhere = ScratchFolder.path("linked-cache.json")
    try FileManager.default.moveItem(at: cache.fileURL, to: elsewhere)
    try FileManager.default.createSymbolicLink(at: cache.fileURL, withDestinationURL: elsewhere)
    #expect(cache.load()?.breeds == [Breed(name: "akita")])
    try FileManager.default.removeItem(at: cache.fileURL)
    // Over the limit (spaces a JSON reader would skip: only the size refuses it): ignored.
    let padded = written + Data(repeating: 0x20, count: BreedListCache.maximumFileBytes + 1 - written.count)
    try padded.write(to: cache.fileURL)
    #expect(cache.load() == nil)
    try padded.prefix(BreedListCache.maximumFileBytes).write(to: cache.fileURL)
    #expect(cache.load()?.breeds == [Breed(name: "akita")])
    try FileManager.default.removeItem(at: cache.fileURL)
    // A named pipe with no writer would block whoever opens it: it is never opened.
    #expect(mkfifo(cache.fileURL.path, 0o600) == 0)
    #expect(cache.load() == nil)
    try FileManager.default.removeItem(at: cache.fileURL)
    // A folder, or a device, is no cache.
    try FileManager.default.createDirectory(at: cache.fileURL, withIntermediateDirectories: false)
    #expect(cache.load() == nil)
    try FileManager.default.removeItem(at: cache.fileURL)
    try FileManager.default.createSymbolicLink(
      at: cache.fileURL, withDestinationURL: URL(fileURLWithPath: "/dev/zero"))
    #expect(cache.load() == nil)
  }

  @Test func cacheWritesAreAtomicAndLeaveNoTemporaryFiles() throws {
    let cache = temporaryCache()
    try cache.save([Breed(name: "akita")], fetchedAt: Date())
    try cache.save([Breed(name: "boxer")], fetchedAt: Date())
    let folder = cache.fileURL.deletingLastPathComponent()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["breeds.json"])
    #expect(cache.load()?.breeds == [Breed(name: "boxer")])
  }

  /// What a process killed between the temporary file and the rename left goes with the
  /// next write: only a file of this name's, whose process has ended, over a minute old.
  @Test func theNextWriteRemovesWhatAKilledWriteLeft() throws {
    let cache = temporaryCache()
    let folder = cache.fileURL.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/sh")
    ended.arguments = ["-c", "exit 0"]
    try ended.run()
    ended.waitUntilExit()
    let gone = ended.processIdentifier
    let old = Date(timeIntervalSinceNow: -120)
    let left: [(name: String, modified: Date, stays: Bool)] = [
      (".breeds.json.\(gone).12345.tmp", old, false),
      (".breeds.json.\(gone).678.tmp", Date(), true),  // may still be being written
      (".breeds.json.\(getpid()).9.tmp", old, true),  // its process lives
      (".other.json.\(gone).1.tmp", old, true),  // another file's
      (".breeds.json.\(gone).x.tmp", old, true),  // no name a write gives
    ]
    for file in left {
      let url = folder.appendingPathComponent(file.name)
      try Data("half".utf8).write(to: url)
      try FileManager.default.setAttributes([.modificationDate: file.modified], ofItemAtPath: url.path)
    }
    try cache.save([Breed(name: "akita")], fetchedAt: Date())
    let expected = Set(left.filter(\.stays).map(\.name) + ["breeds.json"])
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == expected)
    #expect(cache.load()?.breeds == [Breed(name: "akita")])
  }

  @Test func theCacheGivesBackEveryNameTheNetworkGave() throws {
    // Names the API might add that cannot be requested (not lowercase a–z) or shown as
    // they are: requests refuse them and screens sanitise them, wherever the list came
    // from; a cache that dropped such a list would leave an offline user the old bundle.
    let cache = temporaryCache()
    let odd = [Breed(name: "hound", subBreeds: ["Afghan", "x\u{1B}[2J"]), Breed(name: "st-bernard")]
    try cache.save(odd, fetchedAt: Date())
    #expect(cache.load()?.breeds == odd)
  }

  @Test func aCacheOfAnotherVersionOrWithoutBreedsIsIgnored() throws {
    let cache = temporaryCache()
    try FileManager.default.createDirectory(
      at: cache.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    func write(version: Int, breeds: [String]) throws {
      let file: [String: Any] = [
        "version": version, "fetchedAt": 0,
        "breeds": breeds.map { ["name": $0, "subBreeds": [String]()] },
      ]
      try JSONSerialization.data(withJSONObject: file).write(to: cache.fileURL)
    }
    try write(version: 1, breeds: ["akita"])
    #expect(cache.load()?.breeds == [Breed(name: "akita")])  // the shape written is right
    try write(version: 2, breeds: ["akita"])
    #expect(cache.load() == nil)
    try write(version: 1, breeds: [])
    #expect(cache.load() == nil)
  }

  @Test func aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws {
    // The destination is a folder, so the final rename fails.
    let folder = ScratchFolder.path("cache")
    let target = folder.appendingPathComponent("breeds.json")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    try Data("kept".utf8).write(to: target.appendingPathComponent("inside"))
    // The error names the file and the system's reason.
    #expect(throws: FileError(path: target.path, reason: "Is a directory")) {
      try AtomicFile.write(Data("new".utf8), to: target)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["breeds.json"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["inside"])
  }

  @Test func offlineModeNeverTouchesTheNetwork() async throws {
    let server = try TestHTTPServer { _ in .json(Fixture.breedsJSON) }
    defer { server.stop() }
    let client = DogAPIClient.live(
      .init(baseURL: server.baseURL.appendingPathComponent("api"), cache: temporaryCache(), offline: true))
    let list = try await client.breeds()
    #expect(list.source == .bundled)
    #expect(await error { try await client.randomImage("hound", nil) } == .offline)
    #expect(await error { try await client.imageData(server.baseURL) } == .offline)
    #expect(server.requests.isEmpty)
  }

  @Test func aWriteIntoAMissingFolderFailsAndCreatesNothing() throws {
    let folder = ScratchFolder.path("cache")
    #expect(throws: FileError(path: folder.path, reason: "No such file or directory")) {
      try AtomicFile.write(Data("new".utf8), to: folder.appendingPathComponent("breeds.json"))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }

  @Test func theBundledSnapshotIsTheRealList() throws {
    let bundled = DogAPIClient.bundledBreedList
    #expect(bundled.source == .bundled)
    #expect(bundled.breeds.count == 108)
    #expect(bundled.breeds.reduce(0) { $0 + $1.subBreeds.count } == 99)
  }
}
