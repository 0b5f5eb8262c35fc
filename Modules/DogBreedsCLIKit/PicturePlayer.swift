import CommandLineInterface
import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Plays an animated picture on the terminal, over its first frame, which `show` has just
/// drawn there: each frame's lines drawn over the last's (the cursor taken back up over
/// them), at the times a ``PlaybackSchedule`` says, leaving the last drawn on screen with
/// the cursor under it.
///
/// While it plays the cursor is hidden and typing is not echoed (what is typed waits for
/// the shell), and both come back however it ends: played through, at the time limit, on
/// SIGINT, SIGTERM, SIGHUP or SIGQUIT (then with their exit codes, as the full-screen app
/// ends), or on a crash. Ctrl-Z gives the terminal back before the process stops; once
/// continued in the foreground, the picture is drawn again under what the shell wrote, and
/// plays on. A window made too small for the picture, or being continued in the
/// background, ends the playing.
struct PicturePlayer {
  /// The frames; the first is on screen.
  let frames: [AnimationFrame]
  /// When to draw the others.
  let schedule: PlaybackSchedule
  /// The lines each frame takes, and the columns.
  let rows: Int
  let columns: Int
  /// A frame's lines, each ending in a newline (nil stops the playing: a frame that takes
  /// other rows than the first could not be drawn over it).
  let draw: (RGBImage) -> (text: String, rows: Int)?
  /// The terminal.
  let output: Int32

  /// How late a frame may be drawn before the frames after it are put off by as much.
  static let lateness: Duration = .milliseconds(50)

  /// The signals playing catches.
  static let signals = Array(ExitCode.interrupted.keys) + [SIGTSTP, SIGWINCH]

  /// Whether a picture `rows` high may be played on the terminal on `fd`: it is this
  /// process's foreground terminal (a background job's frames would be drawn over the
  /// shell's prompt) and the picture is shorter than its window (the cursor can go back
  /// up over every row).
  static func canPlay(rows: Int, columns: Int, on fd: Int32) -> Bool {
    guard isatty(fd) == 1, tcgetpgrp(fd) == getpgrp(), let window = Terminal.window(fd)?.cells else {
      return false
    }
    return rows > 0 && rows < window.rows && columns <= window.columns
  }

  /// Plays the frames, the first drawn at `start`.
  ///
  /// - Returns: The exit code of the signal that stopped it, if one did.
  func play(from start: ContinuousClock.Instant) -> Int32? {
    guard frames.count > 1, Self.canPlay(rows: rows, columns: columns, on: output),
      let pipe = SignalPipe.install(Self.signals)
    else { return nil }
    var modes = PlayingModes(fd: output)
    modes.take()
    defer {
      modes.giveBack()
      for signal in Self.signals { Glibc.signal(signal, SIG_DFL) }
    }
    // The schedule's clock, and the time limit's: the time stopped (Ctrl-Z) counts for
    // neither, and the schedule's also leaves out the time a frame was drawn late.
    var start = start
    var limitStart = start
    var texts: [Int: String] = [:]
    var shown = 0
    /// Draws `frame` over the one on screen, or (`inPlace` false) under the cursor.
    func show(_ frame: Int, inPlace: Bool = true) -> Bool {
      guard let text = texts[frame] ?? draw(frames[frame].image).flatMap({ $0.rows == rows ? $0.text : nil })
      else { return false }
      texts[frame] = text
      Output.write(
        ControlSequence.beginSynchronizedUpdate + (inPlace ? ControlSequence.cursorUp(rows) : "") + text
          + ControlSequence.endSynchronizedUpdate, to: output)
      shown = frame
      return true
    }
    for (frame, due) in schedule {
      while true {
        let left = start + due - .now
        guard left > .zero else { break }
        var waiting = pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, Int32(min(left, .seconds(60)) / .milliseconds(1)) + 1) > 0 else { continue }
        for signal in SignalPipe.drain(pipe) {
          if let code = ExitCode.interrupted[signal] { return code }
          if signal == SIGWINCH, !Self.canPlay(rows: rows, columns: columns, on: output) { return nil }
          if signal == SIGTSTP {
            let stopped = ContinuousClock.now
            switch modes.suspend() {
            case .notStopped: break
            case .inBackground: return nil
            case .continued:
              // The shell wrote under the picture: it is drawn again under that.
              start += .now - stopped
              limitStart += .now - stopped
              guard show(shown, inPlace: false) else { return nil }
            }
          }
        }
      }
      if let limit = schedule.limit, ContinuousClock.now - limitStart > limit { return nil }
      // A frame drawn late (the other frames were decoded after the first was drawn, a
      // slow machine) delays the ones after it, rather than have them drawn at once to
      // catch up.
      let late = ContinuousClock.now - (start + due)
      if late > Self.lateness { start += late }
      guard show(frame) else { return nil }
    }
    // Ctrl-C while the last frame was drawn.
    return SignalPipe.drain(pipe).lazy.compactMap { ExitCode.interrupted[$0] }.first
  }
}

/// The terminal's modes while a picture plays: the cursor hidden and echo off, put back
/// however the playing ends (a crash too).
private struct PlayingModes {
  let fd: Int32
  private var saved: termios?

  init(fd: Int32) { self.fd = fd }

  /// Hides the cursor and turns echo off (signals stay on: Ctrl-C and Ctrl-Z work).
  mutating func take() {
    var modes = termios()
    if tcgetattr(fd, &modes) == 0 {
      saved = modes
      CrashRestore.install(fd: fd, inputFD: fd, saved: modes, bytes: Array(ControlSequence.showCursor.utf8))
      var quiet = modes
      quiet.c_lflag &= ~tcflag_t(ECHO)
      tcsetattr(fd, TCSANOW, &quiet)
    }
    _ = Output.writeFully(Array(ControlSequence.hideCursor.utf8), to: fd)
  }

  /// Shows the cursor and puts the modes back as they were.
  mutating func giveBack() {
    _ = Output.writeFully(Array(ControlSequence.showCursor.utf8), to: fd)
    if var modes = saved {
      tcsetattr(fd, TCSANOW, &modes)
      CrashRestore.disarm()
    }
    saved = nil
  }

  /// What came of Ctrl-Z.
  enum Suspension {
    /// The process cannot be stopped (it leads its session, as when a terminal runs it
    /// directly): nothing was done.
    case notStopped
    /// It was stopped, and continued in the foreground: the terminal is taken again.
    case continued
    /// It was continued in the background: the terminal is left to the shell.
    case inBackground
  }

  /// Gives the terminal back and stops the process for the shell (Ctrl-Z), as the
  /// full-screen app does (see `Terminal.suspend()`); takes it again once continued in the
  /// foreground.
  mutating func suspend() -> Suspension {
    guard getsid(0) != getpid() else { return .notStopped }
    giveBack()
    Continuation.stopForTheShell()
    SignalPipe.catchAgain(SIGTSTP)
    guard tcgetpgrp(fd) == getpgrp() else { return .inBackground }
    take()
    return .continued
  }
}
