import ImageDecoding
import Testing
import TextRendering

@testable import CommandLineInterface
@testable import DogBreedsCLIKit

#if canImport(Glibc)
  import Glibc
#endif

/// When `show` draws each frame of an animation, how many times it plays, and in which
/// picture settings it plays at all.
struct PicturePlayerTests {
  static func schedule(_ delays: [Int], plays: Int, limit: Int? = nil) -> [(frame: Int, due: Int)] {
    PlaybackSchedule(
      delays: delays.map { .milliseconds($0) }, plays: plays, limit: limit.map { .milliseconds($0) }
    ).map { ($0.frame, Int($0.due / .milliseconds(1))) }
  }

  /// After the first frame (drawn at the start), each when the one before has stayed its
  /// delay, round the frames as many times as they play; the last frame drawn stays, with
  /// nothing to wait for after it.
  @Test func framesAreDueOneAfterAnotherRoundAndRound() {
    let once = Self.schedule([100, 20, 50], plays: 1)
    #expect(once.map(\.frame) == [1, 2] && once.map(\.due) == [100, 120])
    let twice = Self.schedule([100, 20, 50], plays: 2)
    #expect(twice.map(\.frame) == [1, 2, 0, 1, 2] && twice.map(\.due) == [100, 120, 170, 270, 290])
    #expect(Self.schedule([100, 20], plays: 0).isEmpty)
    #expect(Self.schedule([], plays: 3).isEmpty)
  }

  /// No frame is due after the limit: the one on screen then stays.
  @Test func theLimitEndsThePlaying() {
    let limited = Self.schedule([100, 100, 100], plays: 1_000, limit: 450)
    #expect(limited.map(\.frame) == [1, 2, 0, 1] && limited.last?.due == 400)
    #expect(Self.schedule([100, 100], plays: 2, limit: 100).map(\.due) == [100])
  }

  /// As the file says, but 3 times for one that loops for ever; `--loops` wins. By
  /// default, for 10 seconds at most.
  @Test func howManyTimesAnAnimationPlays() {
    #expect(PlaybackSchedule.plays(.times(1), asked: nil) == 1)
    #expect(PlaybackSchedule.plays(.times(5), asked: nil) == 5)
    #expect(PlaybackSchedule.plays(.forever, asked: nil) == 3)
    #expect(PlaybackSchedule.plays(.forever, asked: 7) == 7)
    #expect(PlaybackSchedule.plays(.times(5), asked: 0) == 0)
    #expect(PlaybackSchedule.defaultLimit == .seconds(10))
  }

  /// Pictures in colour cells play; in ASCII, in pixels (a terminal's own protocol), in
  /// plain text (NO_COLOR, `--color never`) or not at all, the first frame alone: in `show`
  /// and in the full-screen app alike (which draws iTerm2's pictures in cells, so plays
  /// them).
  @Test(arguments: [false, true])
  func animationsPlayInColourCellsOnly(interactive: Bool) {
    func plays(_ choice: PictureChoice, colorMode: ColorMode = .ansi256, refused: Bool = false) -> Bool {
      PictureSettings.resolve(
        choice, colorMode: colorMode, colorRefused: refused, isTerminal: true, interactive: interactive,
        unicode: true, environment: ["TERM": "xterm-256color"]
      ).playsAnimations
    }
    #expect(plays(.auto) && plays(.blocks) && plays(.ansi256))
    // ASCII stays still, in colour too.
    #expect(!plays(.ascii) && !plays(.ascii, colorMode: .truecolor))
    #expect(!plays(.kitty) && !plays(.sixel) && plays(.iterm) == interactive && !plays(.none))
    #expect(!plays(.auto, colorMode: .none, refused: true) && !plays(.ascii, colorMode: .none))
    #expect(!plays(.blocks, colorMode: .none, refused: true))
  }

  /// `show` plays only on its own terminal, in the foreground: never where its output is a
  /// file or a pipe.
  @Test func nothingPlaysWhereTheOutputIsNoTerminal() {
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    #expect(!PicturePlayer.canPlay(rows: 3, columns: 10, on: ends[1]))
    let frame = AnimationFrame(
      image: RGBImage(width: 1, height: 1, pixels: [0, 0, 0]), delay: .milliseconds(10))
    let player = PicturePlayer(
      frames: [frame, frame], schedule: PlaybackSchedule(delays: [.zero, .zero], plays: 1, limit: nil),
      rows: 1, columns: 1, draw: { _ in ("x\n", 1) }, output: ends[1])
    #expect(player.play(from: .now) == nil)
    var byte: UInt8 = 0
    _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
    #expect(read(ends[0], &byte, 1) == -1, "nothing written")
  }
}
