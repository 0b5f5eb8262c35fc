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

  /// A frame printed as lines: on a terminal, each line lands where the frame has it, in
  /// its styles; every line ends in the plain style; trailing blanks are left out.
  @Test func aFramePrintedAsLinesShowsItsRowsInTheirStyles() {
    var frame = Frame(width: 10, height: 4)
    frame.write("Dogs", x: 0, y: 0, style: .bold)
    frame.write("日本", x: 2, y: 1, style: Style(foreground: .rgb(200, 10, 10)))
    let bytes = ScreenDiffer.lines(of: frame, colorMode: .truecolor)
    // Printed to a terminal, each newline comes out as a carriage return and a line feed.
    var terminal = VirtualTerminal(width: 10, height: 4)
    terminal.apply(bytes.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] })
    assertShows(terminal, frame)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 3)  // two rows, then ""
  }

  /// A frame placed inside another: clipped to the box given, a wide character the clip
  /// would cut left out.
  @Test func aFramePlacedInAnotherIsClippedWithoutCuttingAWideCharacter() {
    var inner = Frame(width: 6, height: 2)
    inner.write("ab日本", x: 0, y: 0, style: .plain)
    inner.write("xyz", x: 0, y: 1, style: .bold)
    var outer = Frame(width: 8, height: 3)
    outer.place(inner, x: 1, y: 1, width: 3, height: 5)
    #expect(outer.lines == ["", " ab", " xyz"])
    #expect(outer[3, 1] == Cell(" "))  // 日 would need columns 3 and 4: left out
    #expect(outer[1, 2].style == .bold)
    var beside = Frame(width: 4, height: 1)
    beside.place(inner, x: 2, y: 0, width: 10, height: 10)
    #expect(beside.lines == ["  ab"])
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
    // (Clusters of two and three columns, which the compiler does not take as literals.)
    let alphabet: [Character] = ["a", "b", " ", "漢", "é", "🐶", "x", "─", Character("कि"), Character("क्षि")]
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

  /// Found by `make fuzz-text` (Fuzz/Findings/text/differ-leading-mark.bin): a frame
  /// showing "��" at the left, then one with U+0F3E, a spacing combining mark, at column 2.
  /// The differ blanked columns 0 and 1 and wrote the mark next, and a terminal joined it to
  /// the blank before it. A mark with nothing before it is drawn as U+FFFD instead.
  @Test func textThatStartsWithACombiningMarkStaysInItsCells() {
    var first = Frame(width: 12, height: 4)
    first.write("\u{FFFD}\u{FFFD}", x: 0, y: 0, style: .plain)
    var second = Frame(width: 12, height: 4)
    #expect(second.write("\u{0F3E}", x: 2, y: 0, style: .plain) == 1)
    #expect(second[2, 0].character == "\u{FFFD}")
    assertShows(screen([first, second]), second)
  }

  /// Which characters a terminal would join to a neighbouring cell, and so are drawn as
  /// U+FFFD: marks that lead, and characters that join what follows them.
  @Test(
    arguments: [
      ("a", true), ("é", true), ("e\u{0301}", true), ("▀", true), ("─", true), ("가", true), ("🐶", true),
      ("🇫🇷", true), ("\u{0F3E}", false), ("\u{0903}", false), ("\u{1100}", false),
      ("\u{1F1E6}", false), ("\u{0D4E}", false),
    ] as [(String, Bool)])
  func aCharacterKeepsItsCellUnlessATerminalWouldJoinIt(text: String, keeps: Bool) throws {
    var frame = Frame(width: 4, height: 1)
    frame.write(text, x: 1, y: 0, style: .plain)
    let drawn = try #require((0..<4).map { frame[$0, 0] }.first { $0.width > 0 && $0.character != " " })
    #expect((drawn.character != "\u{FFFD}") == keeps, "\(text.unicodeScalars.map { $0.value })")
  }

  /// Terminals differ on some clusters' widths (tmux 3.3 draws `❤️` one column wide, a
  /// terminal that sizes a cluster by its first scalar draws `कि` one): on one that draws
  /// them narrower than the frame counts, everything else still stands where the frame
  /// has it, and the column such a cluster left unused shows nothing stale.
  @Test func aTerminalThatDrawsAClusterNarrowerStillShowsTheRestInPlace() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [Character] = ["a", "b", " ", "漢", "é", "x", "❤️", Character("कि"), "🇫🇷", "1️⃣"]
    func randomFrame() -> Frame {
      var frame = Frame(width: 12, height: 3)
      for y in 0..<3 {
        let text = String(
          (0..<Int.random(in: 0...12, using: &generator)).map { _ in
            alphabet.randomElement(using: &generator)!
          })
        frame.write(text, x: Int.random(in: 0...2, using: &generator), y: y, style: .plain)
      }
      return frame
    }
    for _ in 0..<300 {
      let frames = [randomFrame(), randomFrame()]
      var terminal = VirtualTerminal(width: 12, height: 3)
      terminal.columns = { DisplayWidth.of(Character($0.unicodeScalars.first!)) }
      var previous: Frame?
      for frame in frames {
        terminal.apply(ScreenDiffer.update(from: previous, to: frame, colorMode: .none))
        previous = frame
      }
      let shown = frames[1]
      for y in 0..<3 {
        for x in 0..<12 {
          let expected = shown[x, y].width > 0 ? shown[x, y].character : " "
          #expect(terminal[x, y].character == expected, "\(shown.lines) at \(x),\(y): \(terminal.lines)")
        }
      }
    }
    // On the terminal the frame's widths come from, the extra bytes change nothing.
    var frame = Frame(width: 8, height: 1)
    frame.write("a❤️bकिc", x: 0, y: 0, style: .plain)
    let terminal = screen([Frame(width: 8, height: 1), frame])
    assertShows(terminal, frame)
  }

  @Test func anUnchangedFrameWritesAlmostNothing() {
    let frame = Layout.render(.text("Dogs"), width: 80, height: 24)
    let bytes = ScreenDiffer.update(from: frame, to: frame, colorMode: .truecolor)
    #expect(bytes.count < 40)
  }

  /// A picture drawn over the frame is part of the same synchronized update: the terminal
  /// shows the text and the picture together.
  @Test func anOverlayIsInsideTheSynchronizedUpdate() {
    let frame = Layout.render(.text("Dogs"), width: 20, height: 4)
    let overlay = Array("<picture>".utf8)
    let text = String(
      decoding: ScreenDiffer.update(from: nil, to: frame, colorMode: .none, overlay: overlay), as: UTF8.self)
    let begin = text.range(of: ControlSequence.beginSynchronizedUpdate)
    let picture = text.range(of: "<picture>")
    let end = text.range(of: ControlSequence.endSynchronizedUpdate)
    #expect(begin != nil && picture != nil && end != nil)
    if let begin, let picture, let end {
      #expect(begin.upperBound <= picture.lowerBound && picture.upperBound <= end.lowerBound)
    }
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

  /// What an update writes between its fixed opening (synchronized output, cursor hidden)
  /// and closing, as text.
  func body(_ previous: [String], _ next: [Frame]) -> [String] {
    var before = Frame(width: 12, height: previous.count)
    for (y, row) in previous.enumerated() { before.write(row, x: 0, y: y, style: .plain) }
    return next.map { frame in
      var text = String(
        decoding: ScreenDiffer.update(from: before, to: frame, colorMode: .ansi256), as: UTF8.self)
      #expect(text.hasPrefix("\u{1B}[?2026h\u{1B}[?25l") && text.hasSuffix("\u{1B}[?2026l"))
      text.removeFirst("\u{1B}[?2026h\u{1B}[?25l".count)
      text.removeLast("\u{1B}[?2026l".count)
      return text
    }
  }

  func frame(_ rows: String..., style: Style = .plain) -> Frame {
    var frame = Frame(width: 12, height: rows.count)
    for (y, row) in rows.enumerated() { frame.write(row, x: 0, y: y, style: style) }
    return frame
  }

  @Test func shortGapsAreRewrittenAndLongerOnesSkippedForward() {
    let written = body(["abcdefghijk"], [frame("XbcdXfghijk"), frame("XbcdeXghijk"), frame("abcdefghijX")])
    #expect(written[0] == "\u{1B}[1HXbcdX")  // three unchanged cells: cheaper to write
    #expect(written[1] == "\u{1B}[1HX\u{1B}[4CX")  // four: a forward move
    #expect(written[2] == "\u{1B}[1;11HX")  // the first move of an update is absolute
    let far = body(["abcdefghijk"], [frame("XbcdefghijX")])
    #expect(far[0] == "\u{1B}[1HX\u{1B}[9CX")  // forward on a row: never longer than absolute
  }

  @Test func theNextRowNearTheLeftEdgeStartsWithANewLine() {
    let written = body(["abcdefgh", "abcdefgh", "abcdefgh"], [frame("abXdefgh", "abXdefgh", "abcdefgh")])
    #expect(written[0] == "\u{1B}[1;3HX\r\nabX")
    let further = body(["abcdefgh", "abcdefgh"], [frame("abXdefgh", "abcdXfgh")])
    #expect(further[0] == "\u{1B}[1;3HX\u{1B}[2;5HX")
  }

  @Test func eraseToTheEndOfARowDropsReverseAndBackgroundFirst() {
    let selected = frame("X", style: Style(background: .ansi(4), reverse: true))
    #expect(body(["abc"], [selected])[0] == "\u{1B}[1H\u{1B}[7;44mX\u{1B}[27;49m\u{1B}[K")
  }

  @Test func sixteenColoursUseTheirOwnCodes() {
    func codes(_ style: Style) -> String { body([""], [frame("x", style: style)])[0] }
    #expect(codes(Style(foreground: .ansi(7))) == "\u{1B}[1H\u{1B}[37mx\u{1B}[39m")
    #expect(codes(Style(foreground: .ansi(8))) == "\u{1B}[1H\u{1B}[90mx\u{1B}[39m")
    #expect(codes(Style(background: .ansi(7))) == "\u{1B}[1H\u{1B}[47mx\u{1B}[49m")
    #expect(codes(Style(background: .ansi(15))) == "\u{1B}[1H\u{1B}[107mx\u{1B}[49m")
  }

  @Test func aWideCharacterWhoseSecondHalfWasOverwrittenIsWrittenWhole() {
    // A previous frame in which something was written over the second half of 日: the
    // terminal then shows " a" (a terminal blanks the first half too).
    var broken = frame("日")
    broken[1, 0] = Cell("a")
    var terminal = screen([broken])
    #expect(terminal.lines[0] == " a")
    let whole = frame("日")
    terminal.apply(ScreenDiffer.update(from: broken, to: whole, colorMode: .truecolor))
    assertShows(terminal, whole)
  }

  @Test func noColorModeEmitsNoColourCodes() {
    let frame = Layout.render(.text("x", style: Style(foreground: .red, reverse: true)), width: 4, height: 1)
    let text = String(decoding: ScreenDiffer.update(from: nil, to: frame, colorMode: .none), as: UTF8.self)
    #expect(!text.contains("[31"))
    #expect(!text.contains("38;"))
    #expect(text.contains("\u{1B}[7m"))
  }
}
