import AppFeature
import Core
import DogAPIClient
import Foundation
import TestSupport
import Testing
import TextRendering

@testable import CommandLineInterface
@testable import DogBreedsCLIKit
@testable import SessionRecording

/// Session logs: written as the app's store reduces, read back, replayed and checked, and
/// bad logs refused with a reason.
@MainActor
struct SessionLogTests {
  static let display = Display(columns: 40, rows: 12, colorMode: .truecolor, pictureMode: .blocks)

  /// The frame of `state` as the app draws it on ``display``.
  static func frame(of state: AppFeature.State) -> Frame {
    AppView.render(AppFeature.ViewState(state), display: display)
  }

  /// Records a short session with the fake API: the list arrives, a filter is typed, a breed
  /// opens with its picture; returns the log's path and the states the store went through.
  func record(
    name: String = "session.jsonl", display: Display = Self.display,
    resizeTo size: (columns: Int, rows: Int)? = nil
  ) async throws -> (path: String, last: AppFeature.State) {
    let folder = ScratchFolder.path("session-log")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    let recorder = try SessionRecorder(
      path: path,
      header: SessionLog.Header(
        app: Arguments.version, arguments: ["--api", "fake"], pictures: true, favourites: false))
    let store = Store(initialState: AppFeature.State()) {
      AppFeature(client: .fake(), pictureSize: { (width: 8, height: 8) })
    }
    store.startRecording { entry, state in recorder.step(entry, state: state) }
    // How the app draws is the first thing it tells its store.
    store.send(.terminal(.opened(display, ifAmbiguousWide: nil)))
    await store.send(.appeared).finish()
    store.send(.dogs(.filterChanged("hou")))
    if let size { store.send(.terminal(.resized(columns: size.columns, rows: size.rows, cell: nil))) }
    // Opening the breed loads its picture by itself.
    await store.send(.dogs(.rowSelected("hound"))).finish()
    #expect(recorder.finish() == nil)
    return (path, store.state)
  }

  @Test func aRecordedSessionReplaysToTheSameStatesAndFrames() async throws {
    let (path, last) = try await record()
    let log = try SessionReplay.read(path: path)
    #expect(log.header.arguments == ["--api", "fake"])
    #expect(log.steps.count > 4)
    #expect(log.steps.first?.entry.action == .terminal(.opened(Self.display, ifAmbiguousWide: nil)))
    #expect(log.steps.dropFirst().first?.entry.action == .appeared)
    #expect(log.displays == nil)
    let replayed = Replayed(log)
    #expect(replayed.firstDifference == nil)
    #expect(Fingerprint(of: replayed.states.last!) == Fingerprint(of: last))
    #expect(replayed.frame(replayed.count) == Self.frame(of: last))
    #expect(replayed.frame(replayed.count).text.contains("Hound"))
    // The picture is kept as the file it was decoded from, not its pixels (a 500×375
    // picture's pixels alone would take 750 KB of base64).
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""decodedFrom":"#))
    #expect(text.utf8.count < 100_000)
    // The picture the breed screen shows is in the log once, and comes back whole.
    #expect(replayed.states.last?.breed?.picture != nil)
    #expect(replayed.states.last?.breed?.picture == last.breed?.picture)
  }

  @Test func aLogWithOneActionEditedFailsTheCheckAtThatStep() async throws {
    let (path, _) = try await record()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let edited = text.replacingOccurrences(
      of: #""filterChanged":{"_0":"hou"}"#, with: #""filterChanged":{"_0":"pug"}"#)
    #expect(edited != text)
    try edited.write(toFile: path, atomically: true, encoding: .utf8)
    let log = try SessionReplay.read(path: path)
    let step = log.steps.firstIndex { $0.entry.action == .dogs(.filterChanged("pug")) }.map { $0 + 1 }
    #expect(step != nil)
    #expect(Replayed(log).firstDifference?.step == step)
    #expect(Replayed(log).firstDifference?.difference == .state)

    let run = try await runInProcess(["replay", "--check", path])
    #expect(run.status == 1)
    #expect(
      run.error.contains("Step \(step ?? 0) of \(log.steps.count) does not replay to the state recorded"))
    #expect(run.error.contains(#"filterChanged("pug")"#))
  }

  /// Every step keeps its frame's fingerprint; one edited fails the check at that step,
  /// which is named with what the replay drew there.
  @Test func aLogWithOneFrameFingerprintEditedFailsTheCheckAtThatStep() async throws {
    let (path, _) = try await record()
    let log = try SessionReplay.read(path: path)
    #expect(log.steps.allSatisfy { $0.frame != nil })
    // The step that typed the filter: its frame shows the list filtered.
    let index = try #require(log.steps.firstIndex { $0.entry.action == .dogs(.filterChanged("hou")) })
    let recorded = try #require(log.steps[index].frame)
    let replayed = Replayed(log)
    #expect(SessionLog.fingerprint(of: replayed.frame(index + 1)) == recorded)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let edited = text.replacingOccurrences(
      of: #""frame":"\#(recorded)""#, with: #""frame":"0123456789abcdef""#)
    #expect(edited != text)
    try edited.write(toFile: path, atomically: true, encoding: .utf8)
    let editedLog = try SessionReplay.read(path: path)
    #expect(Replayed(editedLog).firstDifference?.step == index + 1)
    #expect(Replayed(editedLog).firstDifference?.difference == .frame)

    let run = try await runInProcess(["replay", "--check", path])
    #expect(run.status == 1)
    #expect(
      run.error.contains(
        "Step \(index + 1) of \(log.steps.count) replays to the state recorded but not to the frame recorded")
    )
    #expect(run.error.contains(#"filterChanged("hou")"#))
    // What the step changed on screen: the filter's row, as it was and as it is.
    let before = replayed.frame(index)
    let after = replayed.frame(index + 1)
    let row = try #require((0..<after.height).first { before.line($0) != after.line($0) })
    #expect(run.error.contains("row \(row + 1):\n- \(before.line(row))\n+ \(after.line(row))"))
  }

  /// A log written without frame fingerprints checks its states alone.
  @Test func aLogWithoutFrameFingerprintsChecksItsStates() async throws {
    let (path, _) = try await record()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let stripped = text.replacing(/"frame":"[0-9a-f]{16}",/, with: "")
    #expect(stripped != text && !stripped.contains(#""frame":"#))
    try stripped.write(toFile: path, atomically: true, encoding: .utf8)
    let check = try await runInProcess(["replay", "--check", path])
    #expect(check.status == 0)
    #expect(
      check.output
        == "All \(try SessionReplay.read(path: path).steps.count) steps replay to the states recorded.\n")
  }

  @Test func theCheckAndTheLastFramePassOnAnUntouchedLog() async throws {
    let (path, last) = try await record()
    let check = try await runInProcess(["replay", "--check", path])
    #expect(check.status == 0)
    #expect(
      check.output
        == "All \(try SessionReplay.read(path: path).steps.count) steps replay to the states and frames recorded.\n"
    )
    let frame = try await runInProcess(["replay", "--frame", "last", path])
    #expect(frame.status == 0)
    #expect(frame.output == Self.frame(of: last).text + "\n")
    // Before the first step, the app has not said how it draws: the default display.
    let start = try await runInProcess(["replay", "--frame", "0", path])
    #expect(
      start.output == AppView.render(AppFeature.ViewState(AppFeature.State()), display: Display()).text + "\n"
    )
    let beyond = try await runInProcess(["replay", "--frame", "999", path])
    #expect(beyond.status == 2)
    #expect(beyond.error.contains("--frame must be from 0 to"))
  }

  @Test func aLogCutShortReplaysWhatIsWholeAndSaysSo() async throws {
    let (path, _) = try await record()
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    let whole = try SessionReplay.read(path: path).steps.count
    data.removeLast(10)  // the last line loses its end (and its newline)
    try data.write(to: URL(fileURLWithPath: path))
    let log = try SessionReplay.read(path: path)
    #expect(log.steps.count == whole - 1)
    #expect(log.warning?.contains("ends in the middle of line") == true)
    let check = try await runInProcess(["replay", "--check", path])
    #expect(check.status == 0)
    #expect(check.error.contains("warning: The log ends in the middle of line"))
  }

  @Test(arguments: [
    ("hello\n", "is not a DogBreeds session log: its first line is not JSON."),
    (
      #"{"something":1}"# + "\n",
      "is not a DogBreeds session log: it does not start with a DogBreeds session header."
    ),
    (
      #"{"header":{"format":"DogBreeds session","version":9,"app":"x","arguments":[],"pictures":false,"favourites":false}}"#
        + "\n",
      "is a session log of format version 9, from another version of DogBreeds; this one reads versions 1 to 3."
    ),
    ("", "is empty: a session log starts with its header."),
  ])
  func aBadLogIsRefusedWithItsReason(contents: String, reason: String) async throws {
    let path = ScratchFolder.path("bad-log").path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    let run = try await runInProcess(["replay", "--check", path])
    #expect(run.status == 2)
    #expect(run.error == "error: \(path) \(reason)\n")
  }

  @Test func anActionThisVersionDoesNotKnowIsNamed() async throws {
    let (path, _) = try await record()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let edited = text.replacingOccurrences(of: #""filterChanged":{"_0":"hou"}"#, with: #""frobnicated":{}"#)
    try edited.write(toFile: path, atomically: true, encoding: .utf8)
    let run = try await runInProcess(["replay", "--check", path])
    #expect(run.status == 2)
    #expect(run.error.contains("an action this version of DogBreeds does not know: dogs.frobnicated"))
    // The header names this very version: the log was changed after it was written.
    #expect(!run.error.contains("different version"), "\(run.error)")
    #expect(run.error.contains("Its header says \(Arguments.version) recorded it"), "\(run.error)")
    #expect(run.error.contains("edited or damaged"), "\(run.error)")
    // Where the header names another version, that version is named.
    let older = edited.replacingOccurrences(
      of: #""app":"\#(Arguments.version)""#, with: #""app":"DogBreedsCLI 0.0.9""#)
    #expect(older != edited)
    try older.write(toFile: path, atomically: true, encoding: .utf8)
    let other = try await runInProcess(["replay", "--check", path])
    #expect(other.status == 2)
    #expect(
      other.error.contains("dogs.frobnicated. It was recorded by DogBreedsCLI 0.0.9, a different version."),
      "\(other.error)")
  }

  /// A log that cannot be opened is refused with what is wrong and the path: a folder, a
  /// file that is not there, or one the user may not read.
  @Test func aLogThatCannotBeOpenedSaysWhy() async throws {
    let folder = ScratchFolder.path("unopenable-log")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let missing = folder.appendingPathComponent("missing.jsonl").path
    for (path, reason) in [
      (folder.path, "it is a folder, not a file: replay takes the file --record wrote."),
      (missing, "there is no such file."),
    ] {
      let run = try await runInProcess(["replay", path])
      #expect(run.status == 2)
      #expect(
        run.error == "error: Cannot read the session log \(Output.quoted(path)): \(reason)\n", "\(run.error)")
    }
    // Unreadable to its owner (root reads it whatever its mode: nothing to see there).
    guard geteuid() != 0 else { return }
    let locked = folder.appendingPathComponent("locked.jsonl").path
    try "{}\n".write(toFile: locked, atomically: true, encoding: .utf8)
    chmod(locked, 0)
    defer { chmod(locked, 0o600) }
    let run = try await runInProcess(["replay", locked])
    #expect(
      run.error == "error: Cannot read the session log \(Output.quoted(locked)): Permission denied.\n",
      "\(run.error)")
  }

  /// A log of the format's first version, committed: every later version opens it, plays
  /// its steps and draws them as its `screen` lines say. Its states had no terminal in
  /// them, so the check names the first step and who wrote the log.
  @Test func aLogOfTheFirstVersionKeepsReplaying() async throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/session-v1.jsonl")
    let log = try SessionReplay.read(path: fixture.path)
    #expect(log.header.version == 1)
    #expect(log.steps.count > 10)
    let replayed = Replayed(log)
    #expect(log.displays?.count == log.steps.count + 1)
    let last = replayed.frame(replayed.count)
    #expect(last.width == log.displays?.last?.columns && last.height == log.displays?.last?.rows)
    #expect(last.text.contains("Breeds"))
    let check = try await runInProcess(["replay", "--check", fixture.path])
    #expect(check.status == 1)
    #expect(check.error.contains("Step 1 of \(log.steps.count) does not replay to the state recorded"))
    #expect(check.error.contains("The log was written by \(log.header.app) (session log format 1)"))
    #expect(check.error.contains("recorded without the terminal in them"))
  }

  @Test func theReplayArgumentsAreChecked() throws {
    #expect(throws: UsageError(message: "replay needs one session log, as written by --record FILE.")) {
      try Arguments.parse(["replay"], environment: [:])
    }
    #expect(throws: UsageError(message: "replay takes one of --check, --frame, --cast and --test.")) {
      try Arguments.parse(["replay", "--check", "--frame", "1", "x"], environment: [:])
    }
    #expect(throws: UsageError(message: "replay takes one of --check, --frame, --cast and --test.")) {
      try Arguments.parse(["replay", "--test", "out", "--cast", "c", "x"], environment: [:])
    }
    #expect(throws: UsageError(message: "--check, --frame, --cast and --test go with replay FILE.")) {
      try Arguments.parse(["list", "--check"], environment: [:])
    }
    #expect(throws: UsageError(message: "--check, --frame, --cast and --test go with replay FILE.")) {
      try Arguments.parse(["list", "--test", "out"], environment: [:])
    }
    #expect(
      try Arguments.parse(["replay", "--test", "out", "x"], environment: [:]).command
        == .replay("x", .test("out")))
    #expect(
      throws: UsageError(message: "--record records the full-screen browser: run DogBreedsCLI --record FILE.")
    ) {
      try Arguments.parse(["list", "--record", "x"], environment: [:])
    }
    #expect(
      try Arguments.parse(["replay", "--frame", "last", "x"], environment: [:]).command
        == .replay("x", .frame(.last)))
    #expect(
      try Arguments.parse(["replay", "--frame=3", "x"], environment: [:]).command
        == .replay("x", .frame(.step(3))))
    #expect(
      try Arguments.parse(["replay", "--frame", "m2", "x"], environment: [:]).command
        == .replay("x", .frame(.marker("m2"))))
    for wrong in ["m0", "m", "mark", "-1", "m-1"] {
      #expect(
        throws: UsageError(
          message:
            "--frame takes a step's number (0 is the start), last, or a marker (m1, m2…), not “\(wrong)”.")
      ) {
        try Arguments.parse(["replay", "--frame", wrong, "x"], environment: [:])
      }
    }
    #expect(try Arguments.parse(["replay", "x"], environment: [:]).command == .replay("x", .view))
  }
}
