import AppFeature
import CommandLineInterface
import Core
import Foundation
import TestSupport
import Testing
import TextRendering

@testable import DogBreedsCLIKit
@testable import SessionRecording

/// Markers: dropped while recording, kept in the log as lines of their own, jumped to by
/// the viewer and printed by `--frame mN`; logs of the format's earlier versions still read.
@MainActor
struct MarkerTests {
  /// A log with a marker before the first step, one after the filter is typed, and one
  /// at the end; returns its path and the steps the markers follow.
  func recordWithMarkers() async throws -> (path: String, steps: [Int]) {
    let folder = ScratchFolder.path("markers")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("marked.jsonl").path
    let recorder = try SessionRecorder(
      path: path,
      header: SessionLog.Header(app: Arguments.version, arguments: [], pictures: false, favourites: false))
    let store = Store(initialState: AppFeature.State()) { AppFeature(client: .fake()) }
    store.startRecording { entry, state in recorder.step(entry, state: state) }
    recorder.mark()
    store.send(.terminal(.opened(SessionLogTests.display, ifAmbiguousWide: nil)))
    store.send(.terminal(.recording))
    await store.send(.appeared).finish()
    store.send(.dogs(.filterChanged("pu")))
    let filtered = recorder.steps
    recorder.mark()
    store.send(.dogs(.filterChanged("")))
    recorder.mark()
    let last = recorder.steps
    #expect(recorder.finish() == nil)
    return (path, [0, filtered, last])
  }

  @Test func markersAreLinesOfTheirOwnAfterTheStepsBeforeThem() async throws {
    let (path, steps) = try await recordWithMarkers()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#"{"marker":{"name":"m2"}}"#))
    #expect(text.hasPrefix(#"{"header":{"#) && text.contains(#""version":3"#))
    let log = try SessionReplay.read(path: path)
    #expect(log.markers.map(\.name) == ["m1", "m2", "m3"])
    #expect(log.markers.map(\.step) == steps)
    #expect(Replayed(log).firstDifference == nil)
  }

  @Test func frameTakesAMarker() async throws {
    let (path, steps) = try await recordWithMarkers()
    let replayed = Replayed(try SessionReplay.read(path: path))
    let marked = try await runInProcess(["replay", "--frame", "m2", path])
    #expect(marked.status == 0)
    #expect(marked.output == replayed.frame(steps[1]).text + "\n")
    #expect(marked.output.contains("pu"))
    let unknown = try await runInProcess(["replay", "--frame", "m9", path])
    #expect(unknown.status == 2)
    #expect(unknown.error.contains("This log has no marker m9: its markers are m1, m2, m3."))
  }

  @Test func theViewerJumpsBetweenMarkersAndSaysWhereOneIs() async throws {
    let (path, steps) = try await recordWithMarkers()
    let viewer = ReplayViewer(
      Replayed(try SessionReplay.read(path: path)), terminal: Terminal(inputFD: -1, outputFD: -1),
      colorMode: .none)
    #expect(viewer.step == 0)
    #expect(viewer.compose(columns: 250, rows: 30).line(29).contains("step 0 of \(steps[2]) · marker m1"))
    #expect(viewer.compose(columns: 250, rows: 30).line(29).contains("[ ] marker"))
    _ = viewer.handle(.key(.character("]")))
    #expect(viewer.step == steps[1])
    #expect(viewer.compose(columns: 250, rows: 30).line(29).contains("marker m2"))
    _ = viewer.handle(.key(.character("]")))
    #expect(viewer.step == steps[2])
    // None after the last: it stays.
    _ = viewer.handle(.key(.character("]")))
    #expect(viewer.step == steps[2])
    _ = viewer.handle(.key(.character("[")))
    #expect(viewer.step == steps[1])
    _ = viewer.handle(.key(.character("[")))
    #expect(viewer.step == 0)
  }

  @Test func aLogOfTheSecondVersionStillReads() async throws {
    let (path, _) = try await SessionLogTests().record(name: "second.jsonl")
    let text = try String(contentsOfFile: path, encoding: .utf8)
      .replacingOccurrences(of: #""version":3"#, with: #""version":2"#)
    let log = try SessionReplay.parse(Data(text.utf8), name: "second.jsonl")
    #expect(log.header.version == 2)
    #expect(log.markers.isEmpty)
    #expect(Replayed(log).firstDifference == nil)
    // A later version is refused, naming the versions this one reads.
    let later = text.replacingOccurrences(of: #""version":2"#, with: #""version":4"#)
    #expect {
      try SessionReplay.parse(Data(later.utf8), name: "later.jsonl")
    } throws: { error in
      (error as? SessionReplay.Unreadable)?.message.contains("this one reads versions 1 to 3") == true
    }
  }
}
