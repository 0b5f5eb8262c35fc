import AppFeature
import Core
import DogAPIClient
import FavouritesClient
import Foundation
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// What `replay` was asked to do.
enum ReplayRequest: Equatable {
  /// Step through the session full screen.
  case view
  /// Replay it headless and compare every state with the recording's.
  case check
  /// Print one step's frame: its number (0 is before the first action), or `nil` for the last.
  case frame(Int?)
  /// Write the session as an asciicast to this path.
  case cast(String)
}

/// A recorded session, replayed: offline, nothing written, effects not run. Its states are
/// the app's reducer folded over the recorded actions from the initial state.
@MainActor
struct Replayed {
  let log: SessionReplay
  /// The state before the first step, then after each.
  let states: [AppFeature.State]

  init(_ log: SessionReplay) {
    self.log = log
    // The reducer as the recording app had it: pictures and favourites decide what some
    // actions do (thumbnails load, changes wait to be saved). No client is ever called:
    // effects do not run.
    let onePixel: @Sendable () -> (width: Int, height: Int) = { (width: 1, height: 1) }
    let feature = AppFeature(
      client: DogAPIClient.failing, pictureSize: log.header.pictures ? onePixel : nil,
      favourites: log.header.favourites ? FavouritesClient.failing : nil)
    let actions = log.steps.map(\.entry.action)
    states = [AppFeature.State()] + Array(feature.states(replaying: actions, from: AppFeature.State()))
  }

  /// The number of steps.
  var count: Int { log.steps.count }

  /// The frame of step `step` (0: before the first action), as the app drew it (its
  /// spinner, if one shows, at its first frame).
  func frame(_ step: Int) -> Frame {
    SessionLog.frame(of: states[step], display: display(step))
  }

  /// How step `step`'s frame was drawn: as its state says, or, in a log of the format's
  /// first version, as the log says.
  func display(_ step: Int) -> Display {
    log.displays?[step] ?? states[step].screen.display
  }

  /// What differs at a step from the recording.
  enum Difference: Equatable {
    /// The state the step arrives at.
    case state
    /// The frame of that state (the state is the one recorded).
    case frame
  }

  /// The first step whose state, or whose frame where the log keeps its fingerprint,
  /// differs from the recording's, if any, and which of them.
  var firstDifference: (step: Int, difference: Difference)? {
    for (index, recorded) in log.steps.enumerated() {
      let step = index + 1
      if Fingerprint(of: states[step]) != recorded.state { return (step, .state) }
      if let drawn = recorded.frame, SessionLog.fingerprint(of: frame(step)) != drawn {
        return (step, .frame)
      }
    }
    return nil
  }

  /// Whether the log keeps its frames' fingerprints (and `--check` checks them).
  var checksFrames: Bool { log.steps.contains { $0.frame != nil } }

  /// What step `step` (from 1) changed on the replay's screen: each row that differs, as
  /// it was and as it is drawn; a sentence where no row's text changed.
  func screenChange(_ step: Int) -> String {
    let before = frame(step - 1)
    let after = frame(step)
    guard before != after else {
      return "(nothing: the replay's screen is the same as at the step before, the recording's is not)"
    }
    let rows = max(before.height, after.height)
    let changed = (0..<rows).compactMap { row -> String? in
      let old = row < before.height ? before.line(row) : ""
      let new = row < after.height ? after.line(row) : ""
      return old == new ? nil : "row \(row + 1):\n- \(old)\n+ \(new)"
    }
    guard !changed.isEmpty else {
      return "(no row's text: its colours, its cursor or its picture changed)"
    }
    return changed.joined(separator: "\n")
  }

  /// What step `step` (from 1) did to the state, as a diff; "(no change)" if nothing.
  func change(_ step: Int) -> String {
    diffValues(states[step - 1], states[step]) ?? "(no change)"
  }

  /// Step `step`'s action on one line, and who sent it.
  func describe(_ step: Int) -> String {
    guard step > 0 else { return "the start" }
    let entry = log.steps[step - 1].entry
    let action = Self.oneLine(dumpValue(entry.action))
    let origin =
      switch entry.origin {
      case .external: "sent"
      case .immediate: "at once"
      case .effect: "from an effect"
      }
    return Sanitizer.sanitize("\(action) (\(origin))")
  }

  /// A dump on one line: its rows joined, with no space just inside brackets.
  static func oneLine(_ dump: String) -> String {
    var text = dump.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
    for (spaced, tight) in [("( ", "("), (" )", ")"), ("[ ", "["), (" ]", "]")] {
      text = text.replacingOccurrences(of: spaced, with: tight)
    }
    return text
  }

  /// When step `step` happened, from the start of the session.
  func offset(_ step: Int) -> Duration {
    step == 0 ? .zero : log.steps[step - 1].entry.offset
  }

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
    case .frame(let step):
      let step = step ?? replayed.count
      guard (0...replayed.count).contains(step) else {
        Output.error("--frame must be from 0 to \(replayed.count) (or last) for this log, not \(step).")
        return ExitCode.usage
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

  /// Who wrote the log, where it was another version of the app or of the log's format,
  /// whose reducers may reach other states: a sentence after the step that differs.
  var provenance: String {
    let header = log.header
    guard header.app != Arguments.version || header.version != SessionLog.version else { return "" }
    return " The log was written by \(Sanitizer.sanitize(header.app)) (session log format \(header.version));"
      + " this is \(Arguments.version) (format \(SessionLog.version))."
  }

  /// `--check`: 0 if every step arrives at the recorded state and draws the recorded frame
  /// (where the log keeps frames' fingerprints), else 1 naming the first that does not,
  /// with what it changed in the replay: the state's diff, or the screen's rows.
  func check() -> Int32 {
    guard let (step, difference) = firstDifference else {
      Output.line(
        "All \(count) steps replay to the \(checksFrames ? "states and frames" : "states") recorded.")
      return ExitCode.success
    }
    let diff: [String]
    switch difference {
    case .state:
      Output.error(
        "Step \(step) of \(count) does not replay to the state recorded: \(describe(step)).\(provenance)")
      // A log of the format's first version recorded states without the terminal in them:
      // none of this version's can match, whatever the step changed.
      guard log.displays == nil else {
        Output.text(
          "Its states were recorded without the terminal in them, so no state of this version matches them;"
            + " its steps replay and draw.\n", to: Output.streams.error)
        return ExitCode.failure
      }
      diff = ["What it changed in the replay:"] + change(step).split(separator: "\n").map(String.init)
    case .frame:
      Output.error(
        "Step \(step) of \(count) replays to the state recorded but not to the frame recorded: \(describe(step)).\(provenance)"
      )
      diff =
        ["What it changed on the replay's screen:"]
        + screenChange(step).split(separator: "\n").map(String.init)
    }
    // The diff's lines each on a line of their own, each sanitised.
    Output.text(diff.map(Sanitizer.sanitize).joined(separator: "\n") + "\n", to: Output.streams.error)
    return ExitCode.failure
  }
}

/// The full-screen replay: the frame of one step, a status line, and keys to move.
@MainActor
final class ReplayViewer {
  private let replayed: Replayed
  private let terminal: Terminal
  private var step = 0
  private var showsChange = false
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
  static let keys = "←→ step  PgUp PgDn ten  Home End  Space play  d change  q quit"

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
  private func handle(_ event: InputEvent) -> Bool {
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
    case .character("d"): showsChange.toggle()
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

  private func move(to target: Int) {
    playingSince = nil
    step = min(max(0, target), replayed.count)
  }

  /// The recorded frame, clipped or centred in the window, the change beside it when asked,
  /// and the status line.
  private func draw() {
    let size = terminal.size()
    var screen = Frame(width: size.columns, height: size.rows)
    let area = max(0, size.rows - 1)
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
    if size.rows > 0 {
      let (whole, fraction) = replayed.offset(step).components
      let seconds = Double(whole) + Double(fraction) / 1e18
      let status =
        " step \(step) of \(replayed.count) · \(String(format: "%.3f", seconds)) s · \(replayed.describe(step))"
      screen.fill(x: 0, y: size.rows - 1, width: size.columns, height: 1, style: Style(reverse: true))
      let written = screen.write(status, x: 0, y: size.rows - 1, style: Style(reverse: true))
      let keys = "  " + Self.keys + " "
      if written + DisplayWidth.of(keys) <= size.columns {
        screen.write(
          keys, x: size.columns - DisplayWidth.of(keys), y: size.rows - 1, style: Style(reverse: true))
      }
    }
    self.screen.draw(screen, display: Display(columns: size.columns, rows: size.rows, colorMode: colorMode))
  }
}
