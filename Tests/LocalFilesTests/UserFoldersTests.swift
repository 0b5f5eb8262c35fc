import Foundation
import TestSupport
import Testing

@testable import LocalFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Where the app keeps its files: the usual rules where there is a home, and, without one,
/// a folder under the temporary directory that is this user's alone, and a notice saying so.
struct UserFoldersTests {
  /// A temporary directory of the test's own, as `TMPDIR` (made, and open to everyone with
  /// the sticky bit, as `/tmp` is).
  func temporaryDirectory() throws -> String {
    let folder = ScratchFolder.path("tmp")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    #expect(chmod(folder.path, 0o1777) == 0)
    return folder.path
  }

  func mode(_ path: String) -> mode_t {
    var status = stat()
    #expect(lstat(path, &status) == 0, "\(path)")
    return status.st_mode & 0o7777
  }

  @Test func theFoldersFollowTheOverridesThenXDGThenTheHome() throws {
    let home = ScratchFolder.root.path  // a home that exists
    let tmp = try temporaryDirectory()
    func folders(_ environment: [String: String]) -> UserFolders {
      UserFolders(environment: environment.merging(["TMPDIR": tmp]) { $1 })
    }
    let explicit = folders(["DOGBREEDS_DATA_DIR": "/d", "DOGBREEDS_CACHE_DIR": "/c", "HOME": home])
    #expect(explicit.data.path == "/d" && explicit.cache.path == "/c" && explicit.temporary == nil)
    let xdg = folders(["XDG_DATA_HOME": "/x", "XDG_CACHE_HOME": "/y", "HOME": home])
    #expect(xdg.data.path == "/x/dogbreeds" && xdg.cache.path == "/y/dogbreeds")
    let underHome = folders(["HOME": home])
    #expect(underHome.data.path == "\(home)/.local/share/dogbreeds")
    #expect(underHome.cache.path == "\(home)/.cache/dogbreeds")
    #expect(underHome.temporary == nil && underHome.notice == nil)
    // An empty override and a relative XDG folder (invalid by the XDG spec) are ignored.
    let ignored = folders([
      "DOGBREEDS_DATA_DIR": "", "XDG_DATA_HOME": "rel", "XDG_CACHE_HOME": "c", "HOME": home,
    ])
    #expect(ignored.data.path == "\(home)/.local/share/dogbreeds")
    #expect(ignored.cache.path == "\(home)/.cache/dogbreeds")
    // Nothing was made for them.
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
  }

  /// Without a usable home (unset, relative, missing, a file), the temporary directory's
  /// `dogbreeds-UID`, made for this user alone; a home that does not exist is not made.
  @Test(arguments: [nil, "relative", ".", "/dev/null", "missing"])
  func withoutAHomeBothGoToAPrivateTemporaryFolder(home: String?) throws {
    let tmp = try temporaryDirectory()
    let missing = ScratchFolder.path("no-home").path
    var environment = ["TMPDIR": tmp]
    environment["HOME"] = home == "missing" ? missing : home
    let folders = UserFolders(environment: environment)
    let expected = "\(tmp)/dogbreeds-\(geteuid())"
    #expect(folders.temporary?.path == expected)
    #expect(folders.data.path == "\(expected)/data" && folders.cache.path == "\(expected)/cache")
    #expect(mode(expected) == 0o700)
    #expect(!FileManager.default.fileExists(atPath: missing))
    // Found again by the next run.
    #expect(UserFolders(environment: environment) == folders)
  }

  @Test func theNoticeSaysWhereFilesGoWhyAndThatTheyWillNotLast() throws {
    let tmp = try temporaryDirectory()
    let folder = "\(tmp)/dogbreeds-\(geteuid())"
    #expect(
      UserFolders(environment: ["TMPDIR": tmp]).notice
        == "There is no home folder to keep files in (HOME is not set), so favourites go to \(folder)/data "
        + "and the saved breed list to \(folder)/cache, in the temporary folder: they will not last. "
        + "Set HOME, or DOGBREEDS_DATA_DIR and DOGBREEDS_CACHE_DIR, to keep them.")
    // Only what has no lasting place is named.
    let dataKept = UserFolders(environment: ["TMPDIR": tmp, "XDG_DATA_HOME": "/x", "HOME": "/nonexistent"])
    #expect(dataKept.data.path == "/x/dogbreeds")
    let notice = try #require(dataKept.notice)
    #expect(
      notice.hasPrefix("There is no home folder to keep files in (HOME, /nonexistent, is not a folder), so "))
    #expect(
      notice.contains("so the saved breed list goes to \(folder)/cache, in the temporary folder"), "\(notice)"
    )
    #expect(!notice.contains("favourites go"))
  }

  /// A `dogbreeds-UID` that others may write to, that another user owns, or that is a
  /// link, is never used: a new folder of the user's own is made instead.
  @Test(arguments: ["open to all", "another user's", "a link"])
  func anUnsafeTemporaryFolderIsNeverUsed(kind: String) throws {
    let tmp = try temporaryDirectory()
    let planted = "\(tmp)/dogbreeds-\(geteuid())"
    switch kind {
    case "open to all":
      #expect(mkdir(planted, 0o777) == 0 && chmod(planted, 0o777) == 0)
    case "another user's":
      // Only root can give a folder away.
      guard geteuid() == 0 else { return }
      #expect(mkdir(planted, 0o700) == 0 && chown(planted, 4242, 4242) == 0)
    default:
      let target = ScratchFolder.path("elsewhere").path
      #expect(mkdir(target, 0o700) == 0 && symlink(target, planted) == 0)
    }
    let folders = UserFolders(environment: ["TMPDIR": tmp])
    let temporary = try #require(folders.temporary?.path)
    #expect(temporary != planted)
    #expect(temporary.hasPrefix("\(planted)-"), "\(temporary)")
    #expect(UserFolders.isPrivate(temporary))
    #expect(mode(temporary) == 0o700)
    #expect(folders.data.path == "\(temporary)/data")
    #expect(folders.notice?.contains("favourites go to \(temporary)/data") == true)
    #expect(!UserFolders.isPrivate(planted))
  }

  /// What the app writes there is the user's alone: the folder, a saved file, a lock.
  @Test func whatIsWrittenInTheTemporaryFolderIsTheUsersAlone() async throws {
    let tmp = try temporaryDirectory()
    let folders = UserFolders(environment: ["TMPDIR": tmp])
    try Folder.make(folders.data)
    let file = folders.data.appendingPathComponent("favourites.json")
    try await FileLock.withLock(on: file, waitingAtMost: .seconds(1)) {
      try AtomicFile.write(Data("[]\n".utf8), to: file)
    }
    #expect(mode(file.path) == 0o600)
    #expect(mode(file.path + ".lock") == 0o600)
    #expect(mode(try #require(folders.temporary).path) == 0o700)
  }
}
