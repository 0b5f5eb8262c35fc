import Foundation
import TestSupport
import Testing

@testable import LocalFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Atomic writes, the file lock and folders, on a real file system.
struct FileTests {
  func made(_ name: String) throws -> URL {
    let folder = ScratchFolder.path(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  func mode(_ path: String) -> mode_t {
    var status = stat()
    #expect(stat(path, &status) == 0, "\(path)")
    return status.st_mode & 0o7777
  }

  /// A write replaces the whole file, leaves no temporary file, and makes a new file the
  /// user's alone while keeping the permissions of one it replaces.
  @Test func aWriteReplacesTheFileAndKeepsItsPermissions() throws {
    let folder = try made("atomic")
    let file = folder.appendingPathComponent("f.json")
    try AtomicFile.write(Data("first, and longer".utf8), to: file)
    #expect(mode(file.path) == 0o600)
    #expect(chmod(file.path, 0o644) == 0)
    try AtomicFile.write(Data("second".utf8), to: file)
    #expect(try Data(contentsOf: file) == Data("second".utf8))
    #expect(mode(file.path) == 0o644)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f.json"])
  }

  /// A write that cannot be made names the folder and the system's reason, and changes
  /// nothing: a missing folder stays missing, a file in place of the folder stays a file.
  @Test func aWriteThatFailsSaysWhyAndChangesNothing() throws {
    let missing = ScratchFolder.path("missing")
    #expect(throws: FileError(path: missing.path, reason: "No such file or directory")) {
      try AtomicFile.write(Data("x".utf8), to: missing.appendingPathComponent("f"))
    }
    #expect(!FileManager.default.fileExists(atPath: missing.path))
    let folder = try made("blocked")
    let notAFolder = folder.appendingPathComponent("file")
    try Data("kept".utf8).write(to: notAFolder)
    #expect(throws: FileError(path: notAFolder.path, reason: "Not a directory")) {
      try AtomicFile.write(Data("x".utf8), to: notAFolder.appendingPathComponent("f"))
    }
    #expect(try Data(contentsOf: notAFolder) == Data("kept".utf8))
  }

  /// The lock is exclusive: while it is held (here through another open file, as another
  /// process would hold it), a second holder waits at most as long as it said, then gives
  /// up with ``FileLock/Busy``; once it is let go, the next takes it. Its file is the
  /// user's alone.
  @Test func aHeldLockMakesOthersWaitThenGiveUp() async throws {
    let file = try made("lock").appendingPathComponent("f.json")
    let held = open(file.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
    let limit = Duration.milliseconds(100)
    await #expect(throws: FileLock.Busy(path: file.path + ".lock", waited: limit)) {
      try await FileLock.withLock(on: file, waitingAtMost: limit) { Issue.record("ran without the lock") }
    }
    flock(held, LOCK_UN)
    close(held)
    #expect(try await FileLock.withLock(on: file, waitingAtMost: limit) { 42 } == 42)
    #expect(mode(file.path + ".lock") == 0o600)
  }

  /// A task cancelled while it waits for the lock stops waiting.
  @Test func waitingForALockEndsWithTheTask() async throws {
    let file = try made("lock-cancel").appendingPathComponent("f.json")
    let held = open(file.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    defer { close(held) }
    #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
    let waiter = Task { try await FileLock.withLock(on: file, waitingAtMost: .seconds(600)) { 1 } }
    try await Task.sleep(for: .milliseconds(50))
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
  }

  /// A lock file that cannot be opened is a ``FileError`` naming it.
  @Test func aLockThatCannotBeOpenedSaysWhy() async throws {
    let file = try made("lock-dir").appendingPathComponent("f.json")
    try FileManager.default.createDirectory(atPath: file.path + ".lock", withIntermediateDirectories: false)
    await #expect(throws: FileError(path: file.path + ".lock", reason: "Is a directory")) {
      try await FileLock.withLock(on: file, waitingAtMost: .zero) {}
    }
  }

  /// Folders are made as `mkdir -p` makes them; one that is there is fine; a file in the
  /// way is "Not a directory", named.
  @Test func foldersAreMadeWithTheirParents() throws {
    let root = try made("folders")
    let deep = root.appendingPathComponent("a/b/c")
    try Folder.make(deep)
    try Folder.make(deep)
    var isDirectory: ObjCBool = false
    #expect(
      FileManager.default.fileExists(atPath: deep.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    let file = root.appendingPathComponent("file")
    try Data().write(to: file)
    #expect(throws: FileError(path: file.path, reason: "Not a directory")) { try Folder.make(file) }
    #expect(throws: FileError(path: file.appendingPathComponent("x").path, reason: "Not a directory")) {
      try Folder.make(file.appendingPathComponent("x"))
    }
  }

  /// A folder that cannot be made for want of permission says so (root may write anywhere).
  @Test(.enabled(if: geteuid() != 0, "root may write to a read-only folder"))
  func aFolderInAReadOnlyParentIsPermissionDenied() throws {
    let parent = try made("read-only")
    #expect(chmod(parent.path, 0o500) == 0)
    defer { chmod(parent.path, 0o700) }
    let child = parent.appendingPathComponent("child")
    #expect(throws: FileError(path: child.path, reason: "Permission denied")) { try Folder.make(child) }
  }
}
