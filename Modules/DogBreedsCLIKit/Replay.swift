import AppFeature
import CommandLineInterface
import Core
import DogAPIClient
import FavouritesClient
import Foundation
import SessionRecording
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

extension Replayed {
  /// Runs `replay` for `path`.
  static func run(_ request: ReplayRequest, path: String, options: Options, environment: [String: String])
    -> Int32
  {
    let log: SessionReplay
    do {
      log = try SessionReplay.read(path: path)
    } catch {
      Output.error(error.message)
      return ExitCode.usage
    }
    if let warning = log.warning { Output.warning(warning) }
    let replayed = Replayed(log)
    switch request {
    case .check:
      return replayed.check()
    case .cast(let out):
      return SessionCast.write(replayed, log: path, to: out)
    case .test(let folder):
      return SessionTest.write(replayed, log: path, into: folder)
    case .frame(let choice):
      let step: Int
      switch choice {
      case .last: step = replayed.count
      case .step(let number):
        guard (0...replayed.count).contains(number) else {
          Output.error("--frame must be from 0 to \(replayed.count) (or last) for this log, not \(number).")
          return ExitCode.usage
        }
        step = number
      case .marker(let name):
        guard let marker = log.markers.first(where: { $0.name == name }) else {
          let names = log.markers.map(\.name)
          Output.error(
            "This log has no marker \(name): "
              + (names.isEmpty
                ? "none was dropped (Ctrl-T while recording drops one)."
                : "its markers are \(names.joined(separator: ", "))."))
          return ExitCode.usage
        }
        step = marker.step
      }
      let isTerminal = isatty(Output.streams.output) == 1
      let colorMode = ColorPolicy.mode(
        choice: options.color, isTerminal: isTerminal, environment: environment)
      let frame = replayed.frame(step)
      if colorMode == .none {
        Output.line(frame.text)
      } else {
        Output.writeAll(ScreenDiffer.lines(of: frame, colorMode: colorMode), to: Output.streams.output)
      }
      return ExitCode.success
    case .view:
      guard isatty(Output.streams.output) == 1, isatty(STDIN_FILENO) == 1 else {
        Output.error(
          "replay steps through the session on a terminal; here, use replay --check FILE or replay --frame N FILE."
        )
        return ExitCode.usage
      }
      let terminal = Terminal(inputFD: STDIN_FILENO, outputFD: Output.streams.output, mouse: false)
      let colorMode = ColorPolicy.mode(choice: options.color, isTerminal: true, environment: environment)
      return ReplayViewer(replayed, terminal: terminal, colorMode: colorMode).run()
    }
  }
}

/// The full-screen replay: the frame of one step, a status line, and keys to move.
@MainActor
final class ReplayViewer {
  private let replayed: Replayed
  private let terminal: Terminal
  private(set) var step = 0
  private var showsChange = false
  /// Whether the status line shows (`s` hides it, and the frame has every row).
  private var showsStatus = true
  /// While playing: the wall-clock time step 0 would have had, so each step comes at its
  /// recorded time.
  private var playingSince: ContinuousClock.Instant?
  /// The screen, as last drawn, and the one writer to it.
  private var screen: TerminalScreen
  /// The colours this terminal takes.
  private let colorMode: ColorMode

  init(_ replayed: Replayed, terminal: Terminal, colorMode: ColorMode) {
    self.replayed = replayed
    self.terminal = terminal
    self.colorMode = colorMode
    self.screen = TerminalScreen(write: terminal.write)
  }

  /// The keys, as the status line names them.
  static let keys = "←→ step  PgUp PgDn ten  Home End  Space play  d change  s status  q quit"
  /// The keys, where the log has markers.
  static let keysWithMarkers =
    "←→ step  PgUp PgDn ten  Home End  [ ] marker  Space play  d change  s status  q quit"

  /// Runs until `q`, Ctrl-C or a signal; returns the exit status.
  func run() -> Int32 {
    do {
      try terminal.enter()
    } catch {
      Output.error("This terminal cannot be put in raw mode; use replay --frame N FILE.")
      return ExitCode.failure
    }
    defer { terminal.restore() }
    let signals = SignalPipe.install([SIGINT, SIGTERM, SIGHUP, SIGWINCH])
    var reader = InputReader(fd: terminal.inputFD)
    draw()
    while true {
      var keys: [InputEvent] = []
      switch reader.read(until: nextStepDue, also: signals.map { [$0] } ?? []) {
      case .ended(let failed): return failed ? ExitCode.failure : ExitCode.success
      case .events(let events): keys = events
      case .timedOut: break
      case .ready:
        let caught = signals.map(SignalPipe.drain) ?? []
        if caught.contains(where: { $0 != SIGWINCH }) { return ExitCode.success }
        screen.invalidate()
      }
      for key in keys where !handle(key) { return ExitCode.success }
      advancePlayback()
      draw()
    }
  }

  /// When the next step is due, while playing.
  private var nextStepDue: ContinuousClock.Instant? {
    guard let playingSince, step < replayed.count else { return nil }
    return playingSince + replayed.offset(step + 1)
  }

  /// Moves on to the step whose time has come, while playing.
  private func advancePlayback() {
    guard let playingSince else { return }
    let elapsed = playingSince.duration(to: .now)
    while step < replayed.count, replayed.offset(step + 1) <= elapsed { step += 1 }
    if step == replayed.count { self.playingSince = nil }
  }

  /// Acts on a key; `false` to quit.
  func handle(_ event: InputEvent) -> Bool {
    guard case .key(let key) = event else { return true }
    let last = replayed.count
    switch key {
    case .character("q"), .ctrl("c"), .ctrl("d"), .escape: return false
    case .left, .character("h"): move(to: step - 1)
    case .right, .character("l"): move(to: step + 1)
    case .shiftLeft, .pageUp: move(to: step - 10)
    case .shiftRight, .pageDown: move(to: step + 10)
    case .home: move(to: 0)
    case .end: move(to: last)
    case .character("["):
      move(to: replayed.log.markers.last { $0.step < step }?.step ?? step)
    case .character("]"):
      move(to: replayed.log.markers.first { $0.step > step }?.step ?? step)
    case .character("d"): showsChange.toggle()
    case .character("s"): showsStatus.toggle()
    case .character(" "):
      if playingSince != nil {
        playingSince = nil
      } else {
        if step == last { step = 0 }
        playingSince = ContinuousClock.now - replayed.offset(step)
      }
    case .ctrl("l"): screen.invalidate()
    default: break
    }
    return true
  }

  /// The recorded frame of the step shown.
  var replayedFrame: Frame { replayed.frame(step) }

  private func move(to target: Int) {
    playingSince = nil
    step = min(max(0, target), replayed.count)
  }

  private func draw() {
    let size = terminal.size()
    self.screen.draw(
      compose(columns: size.columns, rows: size.rows),
      display: Display(columns: size.columns, rows: size.rows, colorMode: colorMode))
  }

  /// The screen for a window of `columns` × `rows`: the recorded frame, centred, the change
  /// beside it when asked, and the status line on the last row (unless hidden). A frame
  /// larger than the room left for it is cut, and the status line says so, and how large a
  /// window shows it whole.
  func compose(columns: Int, rows: Int) -> Frame {
    let size = (columns: columns, rows: rows)
    var screen = Frame(width: size.columns, height: size.rows)
    let area = max(0, size.rows - (showsStatus ? 1 : 0))
    let recorded = replayed.frame(step)
    // The change takes a third of a wide window, half of a narrow one.
    let pane = showsChange ? (size.columns >= 90 ? size.columns / 3 : size.columns / 2) : 0
    let frameColumns = max(0, size.columns - (showsChange ? pane + 1 : 0))
    let left = max(0, (frameColumns - recorded.width) / 2)
    let top = max(0, (area - recorded.height) / 2)
    screen.place(recorded, x: left, y: top, width: frameColumns - left, height: area - top)
    if showsChange {
      let x = frameColumns + 1
      let text = step == 0 ? "(the initial state)" : "Step \(step) changed:\n" + replayed.change(step)
      for (row, line) in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(area)
        .enumerated()
      {
        let colour: Color? = line.hasPrefix("+") ? .green : line.hasPrefix("-") ? .red : nil
        screen.write(String(line), x: x, y: row, style: Style(foreground: colour), limit: pane)
      }
    }
    if showsStatus, size.rows > 0 {
      let (whole, fraction) = replayed.offset(step).components
      let seconds = Double(whole) + Double(fraction) / 1e18
      // A frame that does not fit is cut: said first, with the window that shows it whole.
      let cut =
        recorded.width > frameColumns || recorded.height > area
        ? " frame \(recorded.width)×\(recorded.height) cut to \(min(recorded.width, frameColumns))×\(min(recorded.height, area)):"
          + " a window of \(recorded.width + (frameColumns < size.columns ? size.columns - frameColumns : 0))×\(recorded.height + 1) shows it whole (s hides this line) ·"
        : ""
      let markers = replayed.log.markers.filter { $0.step == step }.map(\.name)
      let marked = markers.isEmpty ? "" : " · marker \(markers.joined(separator: ", "))"
      let status =
        "\(cut) step \(step) of \(replayed.count)\(marked) · \(String(format: "%.3f", seconds)) s · \(replayed.describe(step))"
      screen.fill(x: 0, y: size.rows - 1, width: size.columns, height: 1, style: Style(reverse: true))
      let written = screen.write(status, x: 0, y: size.rows - 1, style: Style(reverse: true))
      let keys = "  " + (replayed.log.markers.isEmpty ? Self.keys : Self.keysWithMarkers) + " "
      if written + DisplayWidth.of(keys) <= size.columns {
        screen.write(
          keys, x: size.columns - DisplayWidth.of(keys), y: size.rows - 1, style: Style(reverse: true))
      }
    }
    return screen
  }
}
