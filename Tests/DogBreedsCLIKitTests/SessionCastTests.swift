import AppFeature
import Foundation
import TestSupport
import Testing
import TextRendering
import VirtualTerminal

@testable import CommandLineInterface
@testable import DogBreedsCLIKit
@testable import SessionRecording

/// `replay FILE --cast OUT`: a recorded session as an asciicast, read back as a player
/// would read it.
@MainActor
struct SessionCastTests {
  /// A cast's header and its events, as JSON.
  struct Cast {
    var header: [String: Any]
    var events: [(time: Double, kind: String, data: String)]

    init(path: String) throws {
      let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      header = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
      events = try lines.dropFirst().map { line in
        let event = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
        #expect(event.count == 3)
        return (
          try #require(event[0] as? Double), try #require(event[1] as? String),
          try #require(event[2] as? String)
        )
      }
    }

    /// What a terminal of the header's size shows once every event has been played.
    func played() -> VirtualTerminal {
      var terminal = VirtualTerminal(
        width: header["width"] as? Int ?? 0, height: header["height"] as? Int ?? 0)
      for event in events {
        switch event.kind {
        case "o": terminal.apply(Array(event.data.utf8))
        case "r":
          let size = event.data.split(separator: "x").compactMap { Int($0) }
          terminal.resize(width: size[0], height: size[1])
        default: Issue.record("an event of kind \(event.kind)")
        }
      }
      return terminal
    }
  }

  /// A path for a cast, in a folder of its own.
  func castPath(_ name: String) throws -> String {
    let folder = ScratchFolder.path("session-cast")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent(name).path
  }

  @Test func aSessionBecomesACastOfItsFramesAtTheirTimesAndSize() async throws {
    let (path, last) = try await SessionLogTests().record(name: "cast.jsonl")
    let out = try castPath("session.cast")
    let run = try await runInProcess(["replay", "--cast", out, path])
    #expect(run.status == 0)
    #expect(run.error == "")
    let cast = try Cast(path: out)
    #expect(cast.header["version"] as? Int == 2)
    #expect(cast.header["width"] as? Int == SessionLogTests.display.columns)
    #expect(cast.header["height"] as? Int == SessionLogTests.display.rows)
    #expect((cast.header["env"] as? [String: String])?["TERM"] == SessionCast.term)
    #expect(cast.header["timestamp"] is Int)

    let replayed = Replayed(try SessionReplay.read(path: path))
    let offsets = (1...replayed.count).map { Double(SessionCast.seconds(replayed.offset($0)))! }
    let times = cast.events.map(\.time)
    #expect(times.count > 2)
    #expect(times == times.sorted())
    #expect(times.allSatisfy(offsets.contains))
    #expect(times.first == offsets.first)
    // A frame is written only where it differs from the one before.
    let frames = (1...replayed.count).map { replayed.frame($0) }
    let changes = zip(frames, frames.dropFirst()).filter { $0 != $1 }.count + 1
    #expect(cast.events.count == changes)

    let screen = cast.played()
    #expect(screen.lines == SessionLogTests.frame(of: last).lines)
    #expect(screen.text.contains("Hound"))
  }

  @Test func picturesTheTerminalDrewAreCastInCells() async throws {
    var display = SessionLogTests.display
    display.pictureMode = .terminal
    display.pictureProtocol = .kitty
    let (path, last) = try await SessionLogTests().record(name: "kitty.jsonl", display: display)
    #expect(last.screen.display.pictureMode == .terminal)
    let out = try castPath("kitty.cast")
    #expect(try await runInProcess(["replay", "--cast", out, path]).status == 0)
    let cast = try Cast(path: out)
    let text = cast.events.map(\.data).joined()
    #expect(!text.contains("\u{1B}_G"))
    #expect(text.contains("▀"))
    var cells = display
    cells.pictureMode = .blocks
    cells.pictureProtocol = nil
    #expect(cast.played().lines == AppView.render(AppFeature.ViewState(last), display: cells).lines)
  }

  @Test func aResizeIsAnEventAndTheFrameIsPaintedWholeAtItsNewSize() async throws {
    let (path, last) = try await SessionLogTests().record(name: "resize.jsonl", resizeTo: (30, 10))
    let out = try castPath("resize.cast")
    #expect(try await runInProcess(["replay", "--cast", out, path]).status == 0)
    let cast = try Cast(path: out)
    #expect(cast.header["width"] as? Int == SessionLogTests.display.columns)
    let resize = try #require(cast.events.firstIndex { $0.kind == "r" })
    #expect(cast.events[resize].data == "30x10")
    // The frame after it starts from a cleared screen.
    #expect(cast.events[resize + 1].data.contains(ControlSequence.clearScreen))
    let screen = cast.played()
    #expect(screen.width == 30 && screen.height == 10)
    #expect(screen.lines == AppView.render(AppFeature.ViewState(last), display: last.screen.display).lines)
  }

  @Test func aCastThatCannotBeWrittenIsRefused() async throws {
    let (path, _) = try await SessionLogTests().record(name: "refused.jsonl")
    let missing = ScratchFolder.path("session-cast").appendingPathComponent("no/such/folder/x.cast").path
    let run = try await runInProcess(["replay", "--cast", missing, path])
    #expect(run.status == 1)
    #expect(run.error.hasPrefix("error: Cannot write the cast"))
    #expect(run.error.contains("No such file or directory"))
    // The log itself is never written over, by any name.
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let itself = try await runInProcess(["replay", "--cast", path, path])
    #expect(itself.status == 1)
    #expect(itself.error.contains("is the session log itself"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }
}
