import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Places for a test's files: all inside one folder for this test process, under the
/// system's temporary directory, which is removed when the process exits, so a test run
/// leaves nothing behind. (A run that crashes leaves its folder, named
/// `dogbreeds-tests-<pid>-…`.)
public enum ScratchFolder {
  /// A new path inside this process's folder (nothing is created there): `name`, then a
  /// unique suffix.
  public static func path(_ name: String) -> URL {
    root.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
  }

  /// This process's folder (it exists).
  public static var root: URL {
    _ = removalAtExit
    return scratchRoot
  }
}

private let scratchRoot: URL = {
  let root = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
    .appendingPathComponent("dogbreeds-tests-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
  try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  return root
}()

private let removalAtExit: Void = {
  atexit { try? FileManager.default.removeItem(at: scratchRoot) }
}()
