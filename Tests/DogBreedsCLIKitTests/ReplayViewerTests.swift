import AppFeature
import Foundation
import TestSupport
import Testing
import TextRendering

@testable import DogBreedsCLIKit
@testable import SessionRecording

/// The replay viewer's screen: the recorded frame whole where the window has room for it
/// and the status line, cut and said so where it has not, and whole again with the status
/// line hidden.
@MainActor
struct ReplayViewerTests {
  /// A viewer of a session recorded at 40×12, at its last step.
  func viewer() async throws -> ReplayViewer {
    let (path, _) = try await SessionLogTests().record(name: "viewer.jsonl")
    let replayed = Replayed(try SessionReplay.read(path: path))
    let viewer = ReplayViewer(replayed, terminal: Terminal(inputFD: -1, outputFD: -1), colorMode: .none)
    _ = viewer.handle(.key(.end))
    return viewer
  }

  /// The rows of `frame` as text.
  func rows(_ frame: Frame) -> [String] { (0..<frame.height).map { frame.line($0) } }

  @Test func aWindowOneRowTallerThanTheFrameShowsItWholeAboveTheStatusLine() async throws {
    let viewer = try await viewer()
    let recorded = viewer.replayedFrame
    #expect(recorded.width == 40 && recorded.height == 12)
    let screen = viewer.compose(columns: 40, rows: 13)
    #expect(Array(rows(screen).prefix(12)) == rows(recorded))
    #expect(screen.line(12).contains("step \(viewer.step) of"))
    #expect(!screen.line(12).contains("cut"))
  }

  @Test func aWindowOfTheFramesSizeSaysTheFrameIsCutAndHowToSeeItWhole() async throws {
    let viewer = try await viewer()
    let recorded = viewer.replayedFrame
    let screen = viewer.compose(columns: 40, rows: 12)
    // Every row but the last, where the status line is.
    #expect(Array(rows(screen).prefix(11)) == Array(rows(recorded).prefix(11)))
    #expect(screen.line(11).hasPrefix(" frame 40×12 cut to 40×11"), "\(screen.line(11))")
    // A wider window: the whole sentence.
    let wide = viewer.compose(columns: 140, rows: 12)
    #expect(
      wide.line(11).contains("frame 40×12 cut to 40×11: a window of 40×13 shows it whole (s hides this line)")
    )
    // `s` hides the status line: the frame has every row.
    _ = viewer.handle(.key(.character("s")))
    #expect(rows(viewer.compose(columns: 40, rows: 12)) == rows(recorded))
  }

  @Test func aSmallerWindowSaysHowMuchOfTheFrameItShows() async throws {
    let viewer = try await viewer()
    // What is cut comes first, where a narrow window has room for it.
    let screen = viewer.compose(columns: 30, rows: 8)
    #expect(screen.line(7).hasPrefix(" frame 40×12 cut to 30×7"), "\(screen.line(7))")
    #expect(
      viewer.compose(columns: 120, rows: 8).line(7).contains("cut to 40×7: a window of 40×13 shows it whole"))
  }
}
