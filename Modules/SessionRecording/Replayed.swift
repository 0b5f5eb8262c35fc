import AppFeature
import CommandLineInterface
import Core
import DogAPIClient
import FavouritesClient
import Foundation
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// A recorded session, replayed: offline, nothing written, effects not run. Its states are
/// the app's reducer folded over the recorded actions from the initial state.
@MainActor
package struct Replayed {
  package let log: SessionReplay
  /// The state before the first step, then after each.
  package let states: [AppFeature.State]

  package init(_ log: SessionReplay) {
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
  package var count: Int { log.steps.count }

  /// The frame of step `step` (0: before the first action), as the app drew it (its
  /// spinner, if one shows, at its first frame).
  package func frame(_ step: Int) -> Frame {
    SessionLog.frame(of: states[step], display: display(step))
  }

  /// How step `step`'s frame was drawn: as its state says, or, in a log of the format's
  /// first version, as the log says.
  package func display(_ step: Int) -> Display {
    log.displays?[step] ?? states[step].screen.display
  }

  /// What differs at a step from the recording.
  package enum Difference: Equatable {
    /// The state the step arrives at.
    case state
    /// The frame of that state (the state is the one recorded).
    case frame
  }

  /// The first step whose state, or whose frame where the log keeps its fingerprint,
  /// differs from the recording's, if any, and which of them.
  package var firstDifference: (step: Int, difference: Difference)? {
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
  package var checksFrames: Bool { log.steps.contains { $0.frame != nil } }

  /// What step `step` (from 1) changed on the replay's screen: each row that differs, as
  /// it was and as it is drawn; a sentence where no row's text changed.
  package func screenChange(_ step: Int) -> String {
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
  package func change(_ step: Int) -> String {
    diffValues(states[step - 1], states[step]) ?? "(no change)"
  }

  /// Step `step`'s action on one line, and who sent it.
  package func describe(_ step: Int) -> String {
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
  package static func oneLine(_ dump: String) -> String {
    var text = dump.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
    for (spaced, tight) in [("( ", "("), (" )", ")"), ("[ ", "["), (" ]", "]")] {
      text = text.replacingOccurrences(of: spaced, with: tight)
    }
    return text
  }

  /// When step `step` happened, from the start of the session.
  package func offset(_ step: Int) -> Duration {
    step == 0 ? .zero : log.steps[step - 1].entry.offset
  }

  /// Who wrote the log, where it was another version of the app or of the log's format,
  /// whose reducers may reach other states: a sentence after the step that differs.
  package var provenance: String {
    let header = log.header
    guard header.app != Arguments.version || header.version != SessionLog.version else { return "" }
    return " The log was written by \(Sanitizer.sanitize(header.app)) (session log format \(header.version));"
      + " this is \(Arguments.version) (format \(SessionLog.version))."
  }

  /// `--check`: 0 if every step arrives at the recorded state and draws the recorded frame
  /// (where the log keeps frames' fingerprints), else 1 naming the first that does not,
  /// with what it changed in the replay: the state's diff, or the screen's rows.
  package func check() -> Int32 {
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
