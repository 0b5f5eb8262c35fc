import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Exit codes, as documented in `--help`.
enum ExitCode {
  static let success: Int32 = 0
  static let failure: Int32 = 1
  static let usage: Int32 = 2
  static let notFound: Int32 = 3
}

/// Unbuffered writes to stdout/stderr that survive a closed pipe: on EPIPE the process
/// ends quietly with success (`DogBreedsCLI list | head -1`).
enum Output {
  static func write(_ text: String, to fd: Int32 = 1) {
    writeAll(Array(text.utf8), to: fd)
  }

  static func writeAll(_ bytes: [UInt8], to fd: Int32) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        if errno == EPIPE { exit(ExitCode.success) }
        return
      }
      offset += written
    }
  }

  /// One line on stdout.
  static func line(_ text: String) { write(text + "\n") }

  /// `error: …` on stderr.
  static func error(_ message: String) { write("error: \(message)\n", to: 2) }

  /// `warning: …` on stderr.
  static func warning(_ message: String) { write("warning: \(message)\n", to: 2) }
}
