import AppFeature
import CommandLineInterface
import Foundation
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// A replayed session as an asciicast (version 2, which asciinema's player and
/// `asciinema cat` read): `replay FILE --cast OUT`.
///
/// The first line is the header: the size of the first frame the app drew, when the log
/// was written, and the terminal's type. Then one `[seconds, "o", text]` event per frame
/// that differs from the one before, at its step's recorded time, holding what the one
/// frame writer (``TerminalScreen``) writes to bring the screen to it. A picture the app
/// drew with the terminal's own protocol (kitty, sixel) is drawn in colour cells, which
/// every player shows. Where the window's size changes, a `[seconds, "r", "WxH"]` event
/// says so (players that know it resize) and the frame is painted whole at its new size.
@MainActor
package struct SessionCast {
  /// The header's `TERM`: what the frames' bytes are written for.
  package static let term = "xterm-256color"

  /// The cast's lines, each without its newline.
  private(set) var lines: [String] = []

  /// The cast of `replayed`; `timestamp` is when the session began (seconds since 1970).
  package init(_ replayed: Replayed, timestamp: Int) {
    // Step 0 is before the app said how it draws: the cast starts with the first step's
    // frame, where there is one.
    let first = replayed.count > 0 ? 1 : 0
    let start = Self.cells(replayed.display(first))
    lines.append(
      "{\"version\": 2, \"width\": \(start.columns), \"height\": \(start.rows), \"timestamp\": \(timestamp), \"env\": {\"TERM\": \"\(Self.term)\"}}"
    )
    var pending: [UInt8] = []
    var screen = TerminalScreen { pending += $0 }
    var size = (columns: start.columns, rows: start.rows)
    for step in first...replayed.count {
      let display = Self.cells(replayed.display(step))
      let time = Self.seconds(replayed.offset(step))
      let resized = (display.columns, display.rows) != size
      if resized {
        size = (display.columns, display.rows)
        lines.append("[\(time), \"r\", \"\(size.columns)x\(size.rows)\"]")
      }
      let frame = AppView.render(AppFeature.ViewState(replayed.states[step]), display: display)
      screen.draw(frame, display: display, repaint: resized)
      guard !pending.isEmpty else { continue }
      var event = "[\(time), \"o\", "
      JSON.quote(String(decoding: pending, as: UTF8.self), into: &event)
      lines.append(event + "]")
      pending = []
    }
  }

  /// The cast as written: one line each.
  package var text: String { lines.map { $0 + "\n" }.joined() }

  /// `display`, with pictures the terminal would draw itself drawn in colour cells.
  package static func cells(_ display: Display) -> Display {
    var display = display
    if display.pictureMode == .terminal {
      display.pictureMode = .blocks
      display.pictureProtocol = nil
    }
    return display
  }

  /// A time as the cast writes it: seconds, to the microsecond.
  package static func seconds(_ duration: Duration) -> String {
    let (whole, fraction) = duration.components
    return String(format: "%.6f", Double(whole) + Double(fraction) / 1e18)
  }

  /// Writes the cast of `replayed`, read from `log`, to `path`: 0, or 1 after saying why
  /// it cannot (the log itself is never written over).
  package static func write(_ replayed: Replayed, log: String, to path: String) -> Int32 {
    var logStatus = stat()
    var outStatus = stat()
    if stat(log, &logStatus) == 0, stat(path, &outStatus) == 0, logStatus.st_dev == outStatus.st_dev,
      logStatus.st_ino == outStatus.st_ino
    {
      Output.error("The cast \(Output.quoted(path)) is the session log itself: choose another file.")
      return ExitCode.failure
    }
    // When the session began: the log was last written when it ended.
    let ended = (try? FileManager.default.attributesOfItem(atPath: log)[.modificationDate] as? Date) ?? Date()
    let (lasted, _) = replayed.offset(replayed.count).components
    let cast = SessionCast(replayed, timestamp: Int(ended.timeIntervalSince1970) - Int(lasted))
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      Output.error("Cannot write the cast \(Output.quoted(path)): \(String(cString: strerror(errno))).")
      return ExitCode.failure
    }
    let failed = Output.writeFully(Array(cast.text.utf8), to: fd)
    let closed = close(fd)
    if let error = failed ?? (closed != 0 ? errno : nil) {
      Output.error("Cannot write the cast \(Output.quoted(path)): \(String(cString: strerror(error))).")
      return ExitCode.failure
    }
    Output.line("Wrote \(cast.lines.count - 1) events of \(replayed.count) steps to \(Output.quoted(path)).")
    return ExitCode.success
  }
}
