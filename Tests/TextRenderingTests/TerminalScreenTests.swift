import ImageDecoding
import Testing

@testable import TextRendering

/// The one writer of frames: only what changed, and pictures in the terminal's own
/// protocols kept right as the frame changes around them.
struct TerminalScreenTests {
  /// What a screen writes, write by write.
  final class Writes: @unchecked Sendable {
    var all: [String] = []
    func take() -> [String] {
      defer { all = [] }
      return all
    }
  }

  static func screen() -> (TerminalScreen, Writes) {
    let writes = Writes()
    return (TerminalScreen { writes.all.append(String(decoding: $0, as: UTF8.self)) }, writes)
  }

  static func frame(_ text: String, picture: Bool = false) -> Frame {
    var frame = Frame(width: 20, height: 6)
    frame.write(text, x: 0, y: 0, style: .plain)
    if picture {
      let image = RGBImage(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 48))
      frame.picture = PlacedPicture(image: image, x: 2, y: 2, columns: 4, rows: 2)
    }
    return frame
  }

  @Test func aFrameIsWrittenOnceAndThenOnlyWhatChanged() {
    var (screen, writes) = Self.screen()
    let display = Display(columns: 20, rows: 6, colorMode: .truecolor)
    screen.draw(Self.frame("hello"), display: display)
    let first = writes.take()
    #expect(first.count == 1 && first[0].contains(ControlSequence.clearScreen) && first[0].contains("hello"))
    screen.draw(Self.frame("hello"), display: display)
    #expect(writes.take().isEmpty)
    screen.draw(Self.frame("help"), display: display)
    let change = writes.take()
    #expect(change.count == 1 && !change[0].contains(ControlSequence.clearScreen))
    // Invalidated (a resize, Ctrl-L), or drawn another way, the screen is painted whole.
    screen.invalidate()
    screen.draw(Self.frame("help"), display: display)
    #expect(writes.take().first?.contains(ControlSequence.clearScreen) == true)
    screen.draw(Self.frame("help"), display: Display(columns: 20, rows: 6, colorMode: .ansi256))
    #expect(writes.take().first?.contains(ControlSequence.clearScreen) == true)
  }

  @Test func kittysPictureIsPlacedOnceAndTakenAwayByItsId() {
    var (screen, writes) = Self.screen()
    let display = Display(
      columns: 20, rows: 6, colorMode: .truecolor, pictureMode: .terminal, pictureProtocol: .kitty)
    let delete = TerminalPicture.kittyDelete(id: TerminalScreen.pictureID)
    screen.draw(Self.frame("a", picture: true), display: display)
    let placed = writes.take().joined()
    #expect(placed.contains("\u{1B}_G") && placed.contains(delete))
    // Text changing beside the picture does not send it again.
    screen.draw(Self.frame("b", picture: true), display: display)
    #expect(!writes.take().joined().contains("\u{1B}_G"))
    // Gone from the frame, it is taken away.
    screen.draw(Self.frame("b"), display: display)
    #expect(writes.take().joined().contains(delete))
    screen.draw(Self.frame("b", picture: true), display: display)
    _ = writes.take()
    screen.leave()
    #expect(writes.take() == [delete])
  }

  @Test func sixelIsDrawnAgainWithTheWholeScreenWhenACellOverItChanges() {
    var (screen, writes) = Self.screen()
    let display = Display(
      columns: 20, rows: 6, colorMode: .truecolor, pictureMode: .terminal, pictureProtocol: .sixel)
    screen.draw(Self.frame("a", picture: true), display: display)
    #expect(writes.take().joined().contains("\u{1B}P"))
    // A change away from the picture leaves it.
    screen.draw(Self.frame("b", picture: true), display: display)
    let beside = writes.take().joined()
    #expect(!beside.contains("\u{1B}P") && !beside.contains(ControlSequence.clearScreen))
    // A cell over the picture changes: the whole screen, the picture with it.
    var covered = Self.frame("b", picture: true)
    covered.write("x", x: 3, y: 2, style: .plain)
    screen.draw(covered, display: display)
    let over = writes.take().joined()
    #expect(over.contains(ControlSequence.clearScreen) && over.contains("\u{1B}P"))
    // Sixel pixels stay after the program: nothing to take away.
    screen.leave()
    #expect(writes.take().isEmpty)
  }
}
