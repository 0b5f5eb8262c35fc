import AppFeature
import CommandLineInterface
import Core
import Foundation
import TextRendering

/// A recorded session as a test (`replay FILE --test DIR`): a Swift Testing file that
/// drives the app's feature with `TestStore` through the session, step by step, and the
/// log it reads, in a `Recordings` folder beside it.
///
/// Each action the user sent is sent, each action the reducers or effects delivered is
/// received, and each asserts what it changed in the state: the fields that changed, each
/// as a literal where it is a few simple values, or read from the log (a picture, the breed
/// list: the value in the step's action; anything else: ``RecordedSession/state(after:)``,
/// the state the recording reached, checked against its fingerprint). The clients answer
/// from the log at the recorded times, on a `TestClock` the test moves to each step's time.
@MainActor
package struct SessionTest {
  /// The folder beside the test that holds the logs tests read.
  package static let folder = "Recordings"

  /// The test's name, as a type's (`FailingServerSessionTests`).
  package let typeName: String
  /// The test function's name (`failingServer`).
  package let functionName: String
  /// The log's name in ``folder``.
  package let logName: String
  /// The Swift file.
  package let source: String

  /// Why a log cannot become a test.
  package struct Refusal: Error, Equatable {
    package var message: String
  }

  /// The test of `replayed`, whose log is called `logName` (`failing-server.jsonl`).
  ///
  /// - Throws: ``Refusal`` where the log does not replay to the states it recorded: a test
  ///   would assert what this version does, not what the recording did. (Frames drawn
  ///   otherwise than recorded do not matter here.)
  package init(_ replayed: Replayed, logName: String) throws(Refusal) {
    // States only: the test asserts states, and a frame drawn otherwise changes none.
    if let step = (1...max(1, replayed.count)).first(where: {
      $0 <= replayed.count && Fingerprint(of: replayed.states[$0]) != replayed.log.steps[$0 - 1].state
    }) {
      throw Refusal(
        message:
          "Step \(step) of \(replayed.count) does not replay to what was recorded (replay --check says more): a test made from this log would assert what this version does, not what the recording did."
      )
    }
    self.logName = logName
    let words = Self.words(of: logName)
    functionName = words.isEmpty ? "recordedSession" : Self.lowerCamel(words)
    typeName = (words.isEmpty ? "Recorded" : Self.upperCamel(words)) + "SessionTests"
    var lines = Self.header(replayed, logName: logName, typeName: typeName, functionName: functionName)
    var clock = 0
    for step in 1...max(1, replayed.count) where step <= replayed.count {
      let entry = replayed.log.steps[step - 1].entry
      let time = Self.clockTime(entry.offset).milliseconds
      if time > clock {
        lines.append("    await clock.advance(by: .milliseconds(\(time - clock)))")
        clock = time
      }
      lines += Self.step(step, of: replayed).map { "    " + $0 }
    }
    lines += [
      "    // What was still under way when the recording ended.",
      "    await store.skipInFlightEffects(strict: false)",
      "  }",
      "}",
    ]
    source = lines.joined(separator: "\n") + "\n"
  }

  /// The time a step's answer comes on the test's clock: its offset, to the millisecond
  /// above (the test moves its clock by whole milliseconds).
  package nonisolated static func clockTime(_ offset: Duration) -> Duration {
    let nanoseconds = max(0, offset.wholeNanosecondsValue)
    return .milliseconds((nanoseconds + 999_999) / 1_000_000)
  }

  private static func header(_ replayed: Replayed, logName: String, typeName: String, functionName: String)
    -> [String]
  {
    let header = replayed.log.header
    // The command line as recorded, but where the log was written (somewhere else then).
    var shown = header.arguments
    if let record = shown.firstIndex(of: "--record") {
      shown.removeSubrange(record..<min(record + 2, shown.count))
    }
    shown.removeAll { $0.hasPrefix("--record=") }
    let arguments = shown.isEmpty ? "" : " " + shown.joined(separator: " ")
    return [
      "// A recorded session as a test: written by `DogBreedsCLI replay \(logName) --test DIR`",
      "// (Docs/Usage.md, \"Reporting a bug with a recording\"); `make session-tests` writes it again.",
      "import AppFeature",
      "import CoreTesting",
      "import Foundation",
      "import SessionRecording",
      "import Testing",
      "import TextRendering",
      "",
      "/// The session in \(folder)/\(logName), recorded by \(Sanitizer.sanitize(header.app))",
      "/// (`DogBreedsCLI\(Sanitizer.sanitize(arguments))`), \(replayed.count) steps: what the user sent, what",
      "/// the effects delivered, and what each changed. The clients answer as the log recorded.",
      "@MainActor",
      "struct \(typeName) {",
      "  @Test func \(functionName)() async throws {",
      "    let recorded = try RecordedSession(\(SwiftSource.quoted(logName)))",
      "    let clock = TestClock()",
      "    let store = TestStore(initialState: AppFeature.State()) { recorded.feature(clock: clock) }",
      "",
    ]
  }

  /// The lines of step `step`: the send or the receive, and what it changed.
  private static func step(_ step: Int, of replayed: Replayed) -> [String] {
    let entry = replayed.log.steps[step - 1].entry
    let verb = entry.origin == .external ? "send" : "receive"
    let action =
      SwiftSource.literal(entry.action) { large(in: step, of: replayed, $0) } ?? "recorded.action(\(step))"
    let assignments = changes(from: replayed.states[step - 1], to: replayed.states[step]).map {
      change -> String in
      let target = "$0" + change.path.map { $0.written(unwrapping: "?") }.joined()
      let value =
        SwiftSource.literal(change.value) { large(in: step, of: replayed, $0) }
        ?? "recorded.state(after: \(step))" + change.path.map { $0.written(unwrapping: "!") }.joined()
      return "\(target) = \(value.contains("recorded.") ? "try " : "")\(value)"
    }
    let call = "\(action.contains("recorded.") ? "try " : "")await store.\(verb)(\(action))"
    switch assignments.count {
    case 0: return [call]
    case 1 where (call + assignments[0]).count < 90: return ["\(call) { \(assignments[0]) }"]
    default: return ["\(call) {"] + assignments.map { "  " + $0 } + ["}"]
    }
  }

  /// A value too large to write, read from step `step`'s action where it is the first
  /// of its type there.
  private static func large(in step: Int, of replayed: Replayed, _ value: Any) -> String? {
    let action = replayed.log.steps[step - 1].entry.action
    let wanted = ObjectIdentifier(type(of: value))
    guard
      let first = SwiftSource.parts(of: action).first(where: { ObjectIdentifier(type(of: $0)) == wanted }),
      dumpValue(first) == dumpValue(value)
    else { return nil }
    return "recorded.payload(of: \(step))"
  }

  /// One step of a path through a state: a stored property, or a stack's element (its
  /// mirror labels it `#0`), and whether it is optional.
  struct PathStep {
    var label: String
    var optional: Bool

    /// `.label`, or `[id: 0]` for a stack's element (optional), with `unwrap` after it
    /// where it is optional.
    func written(unwrapping unwrap: String) -> String {
      if label.hasPrefix("#"), let id = Int(label.dropFirst()) { return "[id: \(id)]" + unwrap }
      return "." + label + (optional ? unwrap : "")
    }
  }

  /// The fields `new` changed from `old`, as deep as they are structs on both sides.
  static func changes(from old: Any, to new: Any) -> [(path: [PathStep], value: Any)] {
    var found: [(path: [PathStep], value: Any)] = []
    func walk(_ old: Any, _ new: Any, _ path: [PathStep]) {
      guard dumpValue(old) != dumpValue(new) else { return }
      // Both present: through the optional, where a struct is inside.
      var (inner, through) = ((old, new), path)
      if let wrappedOld = unwrapped(old), let wrappedNew = unwrapped(new), !path.isEmpty {
        through[path.count - 1].optional = true
        inner = (wrappedOld, wrappedNew)
      }
      let oldMirror = Mirror(reflecting: inner.0)
      let newMirror = Mirror(reflecting: inner.1)
      let name = String(describing: type(of: inner.1))
      guard oldMirror.displayStyle == .struct, newMirror.displayStyle == .struct,
        !SwiftSource.isAtom(inner.1),
        type(of: inner.0) == type(of: inner.1), !name.hasPrefix("IdentifiedArray"),
        !SwiftSource.constructible.contains(name),
        newMirror.children.allSatisfy({ $0.label.map { !$0.hasPrefix("_") && !$0.hasPrefix("$") } ?? false }),
        // The same fields, or the same elements of a stack (one pushed or popped: the whole stack).
        oldMirror.children.map(\.label) == newMirror.children.map(\.label)
      else {
        found.append((path, new))
        return
      }
      for (before, after) in zip(oldMirror.children, newMirror.children) {
        walk(before.value, after.value, through + [PathStep(label: after.label ?? "", optional: false)])
      }
    }
    walk(old, new, [])
    return found
  }

  private static func unwrapped(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return nil }
    return mirror.children.first?.value
  }

  /// The words of a log's name, without its extension.
  private static func words(of name: String) -> [String] {
    let base = name.split(separator: "/").last.map(String.init) ?? name
    let stem = base.split(separator: ".").first.map(String.init) ?? base
    return stem.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
  }

  private static func upperCamel(_ words: [String]) -> String {
    let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return joined.first?.isNumber == true ? "Session" + joined : joined
  }

  private static func lowerCamel(_ words: [String]) -> String {
    let upper = upperCamel(words)
    return upper.prefix(1).lowercased() + upper.dropFirst()
  }

  /// Writes the test and a copy of the log (read from `path`) into `folder`: 0, or 1 after
  /// saying why not.
  package static func write(_ replayed: Replayed, log path: String, into folder: String) -> Int32 {
    let logName = URL(fileURLWithPath: path).lastPathComponent
    let test: SessionTest
    do throws(Refusal) {
      test = try SessionTest(replayed, logName: logName)
    } catch {
      Output.error(error.message)
      return ExitCode.failure
    }
    let directory = URL(fileURLWithPath: folder)
    let recordings = directory.appendingPathComponent(Self.folder)
    let testFile = directory.appendingPathComponent(test.typeName + ".swift")
    let copy = recordings.appendingPathComponent(logName)
    do {
      try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      if copy.standardizedFileURL.path != URL(fileURLWithPath: path).standardizedFileURL.path {
        try bytes.write(to: copy)
      }
      try Data(test.source.utf8).write(to: testFile)
    } catch {
      Output.error(
        "Cannot write the test into \(Output.quoted(folder)): \((error as NSError).localizedDescription)")
      return ExitCode.failure
    }
    Output.line(
      "Wrote \(Output.quoted(testFile.path)) (\(replayed.count) steps) and the log it reads, \(Output.quoted(copy.path))."
    )
    return ExitCode.success
  }
}

extension Duration {
  /// The duration in whole nanoseconds.
  var wholeNanosecondsValue: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  /// The duration in whole milliseconds.
  var milliseconds: Int { Int(wholeNanosecondsValue / 1_000_000) }
}
