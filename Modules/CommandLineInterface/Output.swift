import Foundation
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Exit codes, as documented in `--help`.
package enum ExitCode {
  package static let success: Int32 = 0
  package static let failure: Int32 = 1
  package static let usage: Int32 = 2
  package static let notFound: Int32 = 3
  /// The codes a run ends with when a signal stops it, by the signal: 128 and its number,
  /// as a shell reports a process the signal ended.
  package static let interrupted: [Int32: Int32] = [SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGQUIT: 131]

  /// An exit code carried as an error, by a step that ends the command.
  package struct Failure: Error {
    /// The code the process ends with.
    package let code: Int32

    package init(code: Int32) { self.code = code }
  }
}

/// Unbuffered writes to stdout/stderr that survive a closed pipe: on EPIPE the process
/// ends quietly with success (`DogBreedsCLI list | head -1`). Any other failure to write
/// the output (a full disk, an I/O error) ends it with a one-line error and status 1,
/// so that a script never mistakes a truncated output for a complete one.
package enum Output {
  /// Where a run writes, and whether its text for people may be Unicode.
  package struct Streams: Sendable {
    /// Standard output.
    package var output: Int32 = 1
    /// Standard error.
    package var error: Int32 = 2
    /// Whether the locale is UTF-8 (or unset) and the terminal is not the Linux console;
    /// otherwise (`LANG=C`, `TERM=linux`) text for people is written in ASCII and the
    /// full-screen app draws in ASCII.
    package var unicode = true
  }

  /// The run's streams: the process's own, unless a caller (a test running a command in
  /// process) gives files of its own for the run.
  @TaskLocal package static var streams = Streams()

  /// Whether text for people may be Unicode in this run (see ``Streams/unicode``).
  package static var unicode: Bool { streams.unicode }

  package static func write(_ text: String, to fd: Int32 = Output.streams.output) {
    writeAll(Array(text.utf8), to: fd)
  }

  package static func writeAll(_ bytes: [UInt8], to fd: Int32) {
    guard let code = writeFully(bytes, to: fd) else { return }
    if code == EPIPE { exit(ExitCode.success) }
    // Nothing can be reported about standard error itself.
    guard fd != streams.error else { return }
    error("Can't write the output: \(String(cString: strerror(code))).")
    exit(ExitCode.failure)
  }

  /// Writes all of `bytes`: short writes and EINTR are retried, and a non-blocking
  /// descriptor that is full is waited on until it drains (not spun on).
  ///
  /// - Returns: `errno` of the write that failed, or `nil` when everything was written.
  package static func writeFully(_ bytes: [UInt8], to fd: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        guard code == EAGAIN else { return code }
        var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&waiting, 1, -1)
        continue
      }
      offset += written
    }
    return nil
  }

  /// One line of data on stdout (JSON, the version), written as it is.
  package static func line(_ text: String) { write(text + "\n") }

  /// Text for people (messages, help, the plain output of `list` and `show`): in ASCII
  /// where the locale is not UTF-8 (`“”` → `"`, see `Sanitizer.ascii`). Data (JSON,
  /// pictures) goes through ``write(_:to:)`` as it is.
  package static func text(_ string: String, to fd: Int32 = Output.streams.output) {
    write(unicode ? string : Sanitizer.ascii(string), to: fd)
  }

  /// `text` in quotation marks for a message, cut to its first 80 characters and `…`
  /// where it is longer: a message names what was typed, and a pasted page of it would
  /// bury the message (`No breeds match “terrier terrier terrier…”.`). A character can
  /// hold any number of marks (a run of pasted accents is one), so the cut also keeps at
  /// most 320 Unicode scalars.
  package static func quoted(_ text: String) -> String {
    let limit = 80
    let scalarLimit = 4 * limit
    guard text.count > limit || text.unicodeScalars.count > scalarLimit else { return "“\(text)”" }
    let kept = String(text.prefix(limit - 1)).unicodeScalars.prefix(scalarLimit)
    return "“\(String(String.UnicodeScalarView(kept)))…”"
  }

  /// `error: …` on stderr. The message is sanitised: it may quote names from the network.
  package static func error(_ message: String) {
    text("error: \(Sanitizer.sanitize(message))\n", to: streams.error)
  }

  /// `warning: …` on stderr, sanitised likewise.
  package static func warning(_ message: String) {
    text("warning: \(Sanitizer.sanitize(message))\n", to: streams.error)
  }
}
