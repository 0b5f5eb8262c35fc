import AppFeature
import CommandLineInterface
import Core
import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a session as it happens (`--record FILE`): every line with one `write`, so a
/// crash leaves a log whole up to its last line; synced to the disk when the app ends.
@MainActor
package final class SessionRecorder {
  private let fd: Int32
  package let path: String
  private let encoder = JSONEncoder()
  private let pictures = RGBImage.PixelStore()
  /// Why writing stopped, if it did (a full disk, say): said when the app ends.
  private(set) var failure: String?
  /// How many steps were written.
  private(set) var steps = 0

  /// Creates (or replaces) the log at `path`, readable by its owner only (it holds what
  /// was typed), and writes the header.
  ///
  /// - Throws: ``ExitCode/Failure`` after saying why, where the file cannot be made.
  package init(path: String, header: SessionLog.Header) throws(ExitCode.Failure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      Output.error(
        "Cannot write the session log \(Output.quoted(path)): \(String(cString: strerror(errno))).")
      throw ExitCode.Failure(code: ExitCode.failure)
    }
    self.fd = fd
    self.path = path
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.userInfo[RGBImage.pixelStoreKey] = pictures
    write(.header(header))
  }

  /// Records one step: a picture it carries first, if it is new; the fingerprints of the
  /// state and of its frame.
  package func step(_ entry: RecordedAction<AppFeature.Action>, state: AppFeature.State) {
    steps += 1
    let frame = SessionLog.frame(of: state, display: state.screen.display)
    write(
      .step(
        SessionLog.Step(
          entry: entry, state: Fingerprint(of: state), frame: SessionLog.fingerprint(of: frame))))
  }

  /// How many markers were dropped.
  private(set) var markers = 0

  /// Drops a marker after the steps written so far (`m1`, `m2`…).
  package func mark() {
    markers += 1
    write(.marker(SessionLog.Marker(name: "m\(markers)")))
  }

  /// Syncs the log to the disk and closes it; returns a warning if writing failed.
  package func finish() -> String? {
    fsync(fd)
    close(fd)
    return failure.map { "The session log \(Output.quoted(path)) stopped after \(steps) steps: \($0)" }
  }

  private func write(_ line: SessionLog.Line) {
    guard failure == nil else { return }
    do {
      let encoded = try encoder.encode(line)
      var bytes: [UInt8] = []
      for blob in pictures.takeNew() {
        bytes += try encoder.encode(SessionLog.Line.blob(blob)) + [UInt8(ascii: "\n")]
      }
      bytes += encoded + [UInt8(ascii: "\n")]
      if let error = Output.writeFully(bytes, to: fd) {
        failure = String(cString: strerror(error))
      }
    } catch {
      failure = "\(error)"
    }
  }
}
