import Testing
import TextRendering
import VirtualTerminal

struct ScreenDifferTests {
  func screen(_ frames: [Frame], colorMode: ColorMode = .truecolor) -> VirtualTerminal {
    var terminal = VirtualTerminal(width: frames[0].width, height: frames[0].height)
    var previous: Frame?
    for frame in frames {
      terminal.apply(ScreenDiffer.update(from: previous, to: frame, colorMode: colorMode))
      previous = frame
    }
    return terminal
  }

  func assertShows(_ terminal: VirtualTerminal, _ frame: Frame, colorMode: ColorMode = .truecolor) {
    #expect(terminal.lines == frame.lines)
    for y in 0..<frame.height {
      for x in 0..<frame.width where frame[x, y].width > 0 {
        #expect(terminal[x, y].character == frame[x, y].character, "at \(x),\(y)")
        #expect(terminal[x, y].style == frame[x, y].style.adapted(to: colorMode), "style at \(x),\(y)")
      }
    }
    #expect(terminal.unknownSequences == [])
  }

  @Test func aFullPaintShowsTheFrame() {
    let frame = Layout.render(
      .stack([
        .text("Dogs", style: .bold), .list(ListNode(rows: [[Span("Akita")], [Span("日本")]], selected: 1)),
      ]),
      width: 12, height: 4)
    let terminal = screen([frame])
    assertShows(terminal, frame)
    #expect(!terminal.cursorVisible)
    #expect(!terminal.autowrap)
  }

  @Test func applyingTheDiffEqualsTheFullFrameForRandomPairs() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [Character] = ["a", "b", " ", "漢", "é", "🐶", "x", "─"]
    let styles: [Style] = [
      .plain, .bold, .selected, .dim, Style(foreground: .rgb(10, 200, 30)), Style(background: .indexed(21)),
      Style(italic: true), Style(underline: true), Style(bold: true, italic: true, underline: true),
    ]
    func randomFrame() -> Frame {
      var frame = Frame(width: 12, height: 5)
      for y in 0..<5 {
        var text = ""
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
          text.append(alphabet.randomElement(using: &generator)!)
        }
        frame.write(
          text, x: Int.random(in: 0...3, using: &generator), y: y,
          style: styles.randomElement(using: &generator)!)
      }
      if Bool.random(using: &generator) { frame.cursor = Position(x: 3, y: 1) }
      return frame
    }
    for mode in [ColorMode.truecolor, .ansi256, .none] {
      for _ in 0..<300 {
        let a = randomFrame()
        let b = randomFrame()
        let terminal = screen([a, b], colorMode: mode)
        assertShows(terminal, b, colorMode: mode)
        #expect(terminal.cursorVisible == (b.cursor != nil))
        if let cursor = b.cursor { #expect(terminal.cursor == cursor) }
      }
    }
  }

  @Test func anUnchangedFrameWritesAlmostNothing() {
    let frame = Layout.render(.text("Dogs"), width: 80, height: 24)
    let bytes = ScreenDiffer.update(from: frame, to: frame, colorMode: .truecolor)
    #expect(bytes.count < 40)
  }

  @Test func movingTheSelectionWritesFarLessThanARepaint() {
    let rows = (0..<30).map { [Span("Breed number \($0)")] }
    func frame(_ selected: Int) -> Frame {
      Layout.render(
        .stack([.text("Dogs"), .list(ListNode(rows: rows, selected: selected))]), width: 80, height: 24)
    }
    let full = ScreenDiffer.update(from: nil, to: frame(1), colorMode: .ansi256).count
    let step = ScreenDiffer.update(from: frame(1), to: frame(2), colorMode: .ansi256).count
    #expect(step * 4 < full, "step \(step) vs full \(full)")
    assertShows(screen([frame(1), frame(2)], colorMode: .ansi256), frame(2), colorMode: .ansi256)
  }

  @Test func noColorModeEmitsNoColourCodes() {
    let frame = Layout.render(.text("x", style: Style(foreground: .red, reverse: true)), width: 4, height: 1)
    let text = String(decoding: ScreenDiffer.update(from: nil, to: frame, colorMode: .none), as: UTF8.self)
    #expect(!text.contains("[31"))
    #expect(!text.contains("38;"))
    #expect(text.contains("\u{1B}[7m"))
  }
}
