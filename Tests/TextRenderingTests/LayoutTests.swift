import ImageDecoding
import Testing
import TextRendering

struct LayoutTests {
  func render(_ node: Node, _ width: Int, _ height: Int, unicode: Bool = true) -> Frame {
    Layout.render(node, width: width, height: height, display: .init(unicode: unicode))
  }

  /// Two nodes side by side: the left in its columns, a blank column, the right in the
  /// rest; as tall as the taller, flexible if either is.
  @Test func besideSharesTheRowsAndSplitsTheColumns() {
    let node = Node.beside(
      .stack([.text("left one"), .text("two")]), .stack([.text("right"), .text("b"), .text("c")]),
      leftColumns: 6)
    #expect(Layout.fixedHeight(of: node, width: 20) == 3)
    #expect(Layout.render(node, width: 14, height: 3).lines == ["left … right", "two    b", "       c"])
    #expect(Layout.fixedHeight(of: .beside(.spacer, .text("x"), leftColumns: 3), width: 10) == nil)
  }

  /// A modal box's message wraps at spaces, and a word longer than a line (a file's path)
  /// is broken across lines, never cut: the user needs all of it.
  @Test func aModalBoxShowsAPathLongerThanALineWhole() {
    let path = "/home/someone/.local/share/dogbreeds/favourites.json.damaged-20261127-063200-2"
    var frame = Frame(width: 40, height: 12)
    ModalBox(
      title: "Favourites file damaged", message: "It was kept as \(path), and saved.", buttons: ["OK"],
      focused: 0
    )
    .draw(on: &frame, unicode: true)
    let text = frame.lines.joined().filter { !"│ ".contains($0) }
    #expect(text.contains(path), "\(frame)")
    #expect(frame.lines.allSatisfy { DisplayWidth.of($0) <= 40 })
  }

  /// A table taller than the box scrolls, its title saying which lines show: with an en
  /// dash, or in ASCII on a screen that draws nothing else (a locale that is not UTF-8).
  @Test(arguments: [true, false]) func aScrolledTableSaysWhichLinesShowInTheScreensCharacters(unicode: Bool) {
    var frame = Frame(width: 40, height: 10)
    let rows = (1...20).map { ModalBox.Row("k\($0)", "key \($0)") }
    let box = ModalBox(title: "Keys", message: nil, buttons: [], focused: 0, rows: rows)
    (unicode ? box : box.inASCII).draw(on: &frame, unicode: unicode)
    let text = frame.lines.joined(separator: "\n")
    #expect(text.contains(unicode ? "Keys (1–" : "Keys (1-"), "\(frame)")
    #expect(text.contains(" of 20)"), "\(frame)")
    if !unicode { #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "\(frame)") }
  }

  /// A long path breaks after a `/` or a `-` in the second half of a line, not mid-name.
  @Test func aLongPathBreaksAtItsSeparators() {
    let lines = ModalBox.wrap("/tmp/trial/d5/favourites.json.damaged-20261127-082247", width: 24)
    #expect(lines == ["/tmp/trial/d5/", "favourites.json.damaged-", "20261127-082247"])
    // Without a separator in the second half, it breaks at the width.
    #expect(
      ModalBox.wrap("abcdefghij/klmnopqrstuvwxyz", width: 8) == ["abcdefgh", "ij/klmno", "pqrstuvw", "xyz"])
  }

  @Test func aLineIsCutWithAnEllipsisByDisplayWidth() {
    let frame = render(.line([Span("Title: ", style: .bold), Span("a very long breed name")]), 16, 1)
    #expect(frame.lines == ["Title: a very l…"])
    #expect(frame[0, 0].style == .bold)
    #expect(render(.text("a very long name"), 8, 1, unicode: false).lines == ["a ver..."])
  }

  @Test func aFramePrintsAsItsRowsNotItsCells() {
    var frame = Frame(width: 6, height: 3)
    frame.write("ab", x: 1, y: 1, style: .bold)
    #expect(String(describing: frame) == "Frame 6×3\n\n ab\n")
    #expect(String(describing: Frame(width: 0, height: 0)) == "Frame 0×0")
  }

  /// A write or a fill that starts outside the frame touches only the cells inside it (a
  /// negative column must not reach back into the row above).
  @Test func writesAndFillsAreClippedToTheFrame() {
    var frame = Frame(width: 4, height: 3)
    #expect(frame.write("ab", x: -1, y: 1, style: .bold) == 0)
    #expect(frame.write("ab", x: 1, y: -1, style: .bold) == 0)
    #expect(frame.write("abcdef", x: 2, y: 2, style: .plain) == 2)
    #expect(frame.lines == ["", "", "  ab"])
    frame.fill(x: -2, y: 1, width: 3, height: 5, style: .selected)
    #expect(
      frame.cells.map { $0.style == .selected } == [false, false, false, false] + [true, false, false, false]
        + [true, false, false, false])
    frame.fill(x: 3, y: -4, width: 9, height: 5, style: .bold)
    #expect(
      frame.cells.map { $0.style == .bold } == [false, false, false, true] + Array(repeating: false, count: 8)
    )
    // Its text leaves out the blank rows at the end, not those before.
    var top = Frame(width: 3, height: 4)
    top.write("x", x: 0, y: 1, style: .plain)
    #expect(top.text == "\nx")
  }

  /// The window of a long list keeps the selection in view, centred once past the first
  /// half-screen and never past the end; without room it is empty (not a reversed range).
  @Test func aListsWindowFollowsTheSelection() {
    #expect(ListNode.window(count: 3, selected: 1, height: 10) == 0..<3)
    #expect(ListNode.window(count: 100, selected: nil, height: 10) == 0..<10)
    #expect(ListNode.window(count: 100, selected: 4, height: 10) == 0..<10)
    #expect(ListNode.window(count: 100, selected: 50, height: 10) == 45..<55)
    #expect(ListNode.window(count: 100, selected: 99, height: 10) == 90..<100)
    #expect(ListNode.window(count: 5, selected: 2, height: 0) == 0..<0)
    #expect(ListNode.window(count: 5, selected: 2, height: -3) == 0..<0)
  }

  @Test func aCharacterOfNoWidthTakesNoCell() {
    // A lone zero-width joiner (kept by the sanitiser for emoji) is a character of its
    // own here; stored, it would pass for the right half of a wide character.
    var frame = Frame(width: 3, height: 1)
    #expect(frame.write("\u{200D}", x: 0, y: 0, style: .plain) == 0)
    #expect(frame[0, 0] == .blank)
  }

  /// A cluster a terminal gives several columns (one per spacing scalar) has them all here,
  /// so what follows it stands where the terminal will put it.
  @Test func aClusterOfSeveralColumnsTakesThemAll() {
    var frame = Frame(width: 8, height: 1)
    #expect(frame.write("कि|क्षि|", x: 0, y: 0, style: .plain) == 7)
    #expect(frame.cells.map(\.width) == [2, 0, 1, 3, 0, 0, 1, 1])
    #expect(frame.line(0) == "कि|क्षि|")
    // One that does not fit is not cut.
    var narrow = Frame(width: 3, height: 1)
    #expect(narrow.write("aक्षि", x: 0, y: 0, style: .plain) == 1)
    #expect(narrow.line(0) == "a")
    // Hundreds of marks on one letter (wider than a cell can say) end the text, whole.
    var wide = Frame(width: 400, height: 1)
    #expect(wide.write("ab" + "क" + String(repeating: "ि", count: 300), x: 0, y: 0, style: .plain) == 2)
    #expect(wide.line(0) == "ab")
  }

  @Test func networkTextIsSanitisedWhenLaidOut() {
    let frame = render(.text("evil\u{1B}[2Jname\u{7}"), 20, 1)
    #expect(frame.lines == ["evil␛[2Jname␇"])
    #expect(frame.cells.allSatisfy { Sanitizer.isSafe(String($0.character)) })
  }

  @Test func aStackGivesFixedRowsThenSharesTheRest() {
    let node = Node.stack([
      .text("top"), .list(ListNode(rows: (1...10).map { [Span("row \($0)")] })), .text("bottom"),
    ])
    #expect(render(node, 10, 5).lines == ["top", "  row 1  ┃", "  row 2", "  row 3", "bottom"])
    // The frame says how many rows its list was given: a page, for PgUp and PgDn.
    #expect(render(node, 10, 5).listRows == 3)
    #expect(render(node, 10, 9).listRows == 7)
    #expect(render(.text("no list"), 10, 5).listRows == nil)
    // Rows shared unevenly go to the first flexible children: every row is given out, and
    // what follows the last one ends on the last row.
    let shared = Node.stack([.spacer, .text("a"), .spacer, .text("b")])
    #expect(render(shared, 5, 5).lines == ["", "", "a", "", "b"])
  }

  /// The frame names the item drawn on each row by its id, not its place: a click names
  /// it so, whatever place it has in the list by the time the click is read.
  @Test func theFrameNamesTheItemOnEachRowByItsID() {
    let names = (1...20).map { "breed\($0)" }
    // A window of rows 10 to 19 of the whole list, two screen rows each, under a title:
    // three of them fit, the selected one in the middle.
    let window = 10..<20
    let list = ListNode(
      rows: window.map { [Span(names[$0])] }, selected: 15, firstRow: 10, totalRows: 20, rowHeight: 2,
      ids: window.map { names[$0] })
    let frame = render(.stack([.text("Dogs"), .list(list)]), 20, 7)
    #expect(frame.lines[1].hasPrefix("  breed15") && frame.lines[3].hasPrefix("▶ breed16"), "\(frame)")
    #expect(
      frame.listItems == [1: "breed15", 2: "breed15", 3: "breed16", 4: "breed16", 5: "breed17", 6: "breed17"])
    #expect(frame.listHighlight == "breed16")
    // A list that gives no ids takes no clicks.
    let plain = render(.list(ListNode(rows: [[Span("a")], [Span("b")]], selected: 0)), 10, 3)
    #expect(plain.listItems.isEmpty && plain.listHighlight == nil)
  }

  @Test func anIndentedNodeStartsAndWrapsInsideItsMargin() {
    let node = Node.stack([
      .text("Sub-breeds"),
      .indented(.paragraph([Span("afghan basset blood english")]), left: 2),
      .indented(.stack([.text("a"), .indented(.text("b"), left: 1)]), left: 3),
      .spacer,
    ])
    // The paragraph wraps to 10 − 2 columns, and its rows count as fixed ones, as do a
    // nested stack's: the spacer gets the one row left, at the bottom.
    #expect(
      render(node, 10, 8).lines == [
        "Sub-breeds", "  afghan", "  basset", "  blood", "  english", "   a", "    b", "",
      ])
    #expect(render(.indented(.text("hound"), left: 4), 6, 1).lines == ["    h…"])
    // Its height is that of its content in the width inside the margin.
    #expect(Layout.fixedHeight(of: .indented(.paragraph([Span("aaa bbb")]), left: 4), width: 8) == 2)
    // A margin as wide as the screen leaves nothing to draw.
    #expect(render(.indented(.text("hound"), left: 6), 6, 1).lines == [""])
  }

  @Test func theSelectedRowIsReversedAndKeptVisible() {
    let rows = (1...20).map { [Span("row \($0)")] }
    let frame = render(.list(ListNode(rows: rows, selected: 15)), 12, 5)
    // The scroll thumb sits at offset 13 of 15 possible: row 3 of 5.
    #expect(frame.lines == ["  row 14", "  row 15", "▶ row 16", "  row 17   ┃", "  row 18"])
    #expect(frame[5, 2].style.reverse)
    #expect(frame[11, 2].style.reverse)  // the whole row, not just the text
    #expect(!frame[3, 1].style.reverse)
  }

  @Test func theScrollThumbIsAsLongAsTheShareOfRowsShown() {
    // Ten rows of twenty: a thumb of five, at the top, the bottom, and between.
    let rows = (1...20).map { [Span("r\($0)")] }
    func thumb(selected: Int) -> [Int] {
      let frame = render(.list(ListNode(rows: rows, selected: selected)), 8, 10)
      return (0..<10).filter { frame.lines[$0].hasSuffix("┃") }
    }
    #expect(thumb(selected: 0) == [0, 1, 2, 3, 4])
    #expect(thumb(selected: 19) == [5, 6, 7, 8, 9])
    #expect(thumb(selected: 12) == [3, 4, 5, 6, 7])  // rows 8–17 shown: offset 7 of 10 possible
    // Never shorter than a row: three of a hundred.
    let many = render(.list(ListNode(rows: (1...100).map { [Span("r\($0)")] }, selected: 0)), 8, 3)
    #expect(many.lines.filter { $0.hasSuffix("┃") }.count == 1)
    // Rounded to the nearest row: ten rows of fifteen is 6.7, a thumb of seven.
    let fifteen = render(.list(ListNode(rows: (1...15).map { [Span("r\($0)")] }, selected: 0)), 8, 10)
    #expect(fifteen.lines.filter { $0.hasSuffix("┃") }.count == 7)
  }

  @Test func aListAtTheStartAndAtTheEnd() {
    let rows = (1...20).map { [Span("r\($0)")] }
    #expect(render(.list(ListNode(rows: rows, selected: 0)), 8, 3).lines == ["▶ r1   ┃", "  r2", "  r3"])
    #expect(render(.list(ListNode(rows: rows, selected: 19)), 8, 3).lines == ["  r18", "  r19", "▶ r20  ┃"])
    // In one column the rows keep it: no scroll indicator over them.
    let narrow = render(.list(ListNode(rows: rows, selected: 0)), 1, 3).lines
    #expect(narrow.count == 3 && narrow.allSatisfy { $0 == "…" }, "\(narrow)")
  }

  @Test func aTextFieldPutsTheCursorAtTheCaret() {
    let field = TextFieldNode(prompt: "> ", text: "hou", placeholder: "Filter breeds")
    let frame = render(.textField(field), 20, 1)
    #expect(frame.lines == ["> hou"])
    #expect(frame.cursor == Position(x: 5, y: 0))
    let empty = render(.textField(TextFieldNode(prompt: "> ", text: "", placeholder: "Filter breeds")), 20, 1)
    #expect(empty.lines == ["> Filter breeds"])
    #expect(empty[2, 0].style == .dim)
    #expect(empty.cursor == Position(x: 2, y: 0))
  }

  @Test func aLongTextFieldScrollsToKeepTheCaretVisible() {
    let field = TextFieldNode(prompt: "> ", text: "abcdefghijklmnop", placeholder: "")
    let frame = render(.textField(field), 10, 1)
    #expect(frame.lines == ["> jklmnop"])
    #expect(frame.cursor == Position(x: 9, y: 0))
    let atStart = render(
      .textField(TextFieldNode(prompt: "> ", text: "abcdefghijklmnop", placeholder: "", caret: 0)), 10, 1)
    #expect(atStart.lines == ["> abcdefgh"])
    #expect(atStart.cursor == Position(x: 2, y: 0))
  }

  @Test func theCaretCountsTheFieldsOwnCharactersWhereCleaningChangesTheirNumber() {
    // A zero-width space is removed and `\r\n` (one character) shows as two: the caret
    // after them still stands after them.
    let removed = render(
      .textField(TextFieldNode(prompt: "> ", text: "a\u{200B}\u{200B}bc", placeholder: "", caret: 3)), 20, 1)
    #expect(removed.lines == ["> abc"])
    #expect(removed.cursor == Position(x: 3, y: 0))
    let doubled = render(
      .textField(TextFieldNode(prompt: "> ", text: "a\r\nb", placeholder: "", caret: 2)), 20, 1)
    #expect(doubled.lines == ["> a␍␊b"])
    #expect(doubled.cursor == Position(x: 5, y: 0))
  }

  @Test func withoutUnicodeEveryTextIsWrittenInASCIIAndMeasuredSo() {
    // Measured after transliteration: `…` takes three columns, so the line is cut earlier.
    let line = render(.line([Span("“Bichon Frisé”…")]), 12, 1, unicode: false)
    #expect(line.lines == ["\"Bichon F..."])
    #expect(render(.line([Span("“Bichon Frisé”…")]), 20, 1, unicode: false).lines == ["\"Bichon Frise\"..."])
    #expect(render(.paragraph([Span("a · b — 日本")]), 6, 2, unicode: false).lines == ["a | b", "- ??"])
    // The field's prompt, placeholder and text, the caret counted in characters.
    let field = render(
      .textField(TextFieldNode(prompt: "🔍 ", text: "é…x", placeholder: "", caret: 2)), 20, 1, unicode: false)
    #expect(field.lines == ["? e...x"])
    #expect(field.cursor == Position(x: 6, y: 0))
    let empty = render(
      .textField(TextFieldNode(prompt: "> ", text: "", placeholder: "Filtre “race”")), 20, 1, unicode: false)
    #expect(empty.lines == ["> Filtre \"race\""])
    // Network text is still sanitised first: its controls are not passed on.
    #expect(render(.text("a\u{1B}[2Jb"), 10, 1, unicode: false).lines == ["a?[2Jb"])
  }

  @Test func aParagraphWrapsAtSpaces() {
    let frame = render(.paragraph([Span("Can't reach dog.ceo: you may be offline.")]), 16, 4)
    #expect(frame.lines == ["Can't reach", "dog.ceo: you may", "be offline.", ""])
  }

  @Test func aWordWiderThanTheLineBreaksBetweenCharactersAndLosesNone() {
    // 日本語 is six columns: three lines of three columns hold one wide character each.
    #expect(render(.paragraph([Span("日本語")]), 3, 4).lines == ["日", "本", "語", ""])
    #expect(render(.paragraph([Span("abcdefg")]), 3, 4).lines == ["abc", "def", "g", ""])
    #expect(render(.paragraph([Span("ab 日本")]), 3, 4).lines == ["ab", "日", "本", ""])
  }

  @Test func aParagraphGivenTooFewRowsShowsWhereItWasCut() {
    let paragraph = Node.paragraph([Span("Can't reach dog.ceo: you may be offline.")])
    #expect(render(paragraph, 16, 2).lines == ["Can't reach", "dog.ceo: you ma…"])
    #expect(render(.sized(paragraph, rows: 1), 16, 4).lines == ["Can't reach dog…", "", "", ""])
    // The cut row's words end one column short of the edge: the ellipsis takes that column.
    // (It was a dot: one column was thought too narrow for "…".)
    #expect(render(paragraph, 13, 2).lines == ["Can't reach", "dog.ceo: you…"])
    #expect(render(paragraph, 16, 2, unicode: false).lines == ["Can't reach", "dog.ceo: you ..."])
  }

  @Test func tinyAndEmptyScreensDoNotCrash() {
    let node = Node.stack([
      .text("Dogs", style: .bold), .textField(TextFieldNode(prompt: "⌕ ", text: "日本", placeholder: "x")),
      .list(ListNode(rows: [[Span("Hound")]], selected: 0)), .paragraph([Span("a b c")]), .divider,
    ])
    for (width, height) in [(0, 0), (1, 1), (2, 1), (1, 5), (20, 5), (3, 2)] {
      let frame = render(node, width, height)
      #expect(frame.width == width && frame.height == height)
      #expect(frame.lines.allSatisfy { DisplayWidth.of($0) <= width })
    }
  }

  @Test func aPictureKeepsItsAspectRatioAndCentres() {
    // 4×2 pixels, left half red, right half blue.
    var pixels: [UInt8] = []
    for _ in 0..<2 { pixels += [255, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255] }
    let image = RGBImage(width: 4, height: 2, pixels: pixels)
    let frame = render(.picture(PictureNode(image: image, mode: .blocks, caption: [Span("cap")])), 8, 3)
    // 8 columns × 2 rows of 1:2 cells for a 2:1 image; each cell flat, a space on its colour.
    #expect(frame.lines == ["", "", "cap"])
    #expect(
      frame[0, 0].style.background == .rgb(255, 0, 0) && frame[0, 1].style.background == .rgb(255, 0, 0))
    #expect(
      frame[7, 0].style.background == .rgb(0, 0, 255) && frame[8 - 1, 1].style.background == .rgb(0, 0, 255))
    let ascii = render(.picture(PictureNode(image: image, mode: .ascii, caption: [])), 4, 2)
    #expect(ascii.lines.allSatisfy { !$0.contains("▀") })
    // Two rows high, it is 8 wide: centred in 12 columns.
    let centred = render(.picture(PictureNode(image: image, mode: .blocks, caption: [Span("cap")])), 12, 3)
    #expect(centred[1, 0].style.background == nil && centred[2, 0].style.background == .rgb(255, 0, 0))
    #expect(centred[9, 1].style.background == .rgb(0, 0, 255) && centred[10, 1].style.background == nil)
  }

  @Test func aPictureNeedsTwoRowsOrOnlyItsCaptionShows() {
    let image = RGBImage(width: 4, height: 2, pixels: [UInt8](repeating: 200, count: 24))
    for mode in [PictureMode.blocks, .ascii, .terminal] {
      let frame = render(.picture(PictureNode(image: image, mode: mode, caption: [Span("cap")])), 20, 2)
      #expect(frame.lines == ["cap", ""], "\(mode)")
      #expect(frame.picture == nil, "\(mode)")
    }
  }

  @Test func aSpaceAtTheEndOfAFullLineAddsNoLine() {
    #expect(Layout.fixedHeight(of: .paragraph([Span("abc ")]), width: 3) == 1)
    #expect(Layout.fixedHeight(of: .paragraph([Span("abc d")]), width: 3) == 2)
  }

  @Test func aPictureForTheTerminalLeavesItsBoxBlankAndSaysWhereItIs() {
    let image = RGBImage(width: 4, height: 2, pixels: [UInt8](repeating: 200, count: 24))
    let frame = render(
      .stack([.text("T"), .picture(PictureNode(image: image, mode: .terminal, caption: [Span("cap")]))]), 20,
      5)
    // The box half blocks would fill: a 2:1 picture in 20 × 3 cells (two pixels a cell
    // down) is 12 × 3, centred.
    #expect(frame.picture == PlacedPicture(image: image, x: 4, y: 1, columns: 12, rows: 3))
    #expect(frame.lines == ["T", "", "", "", "cap"])
    let none = render(.picture(PictureNode(image: image, mode: .blocks, caption: [])), 12, 4)
    #expect(none.picture == nil)
    // Squeezed to no rows, a picture writes not even its caption (into the next node's row).
    let squeezed = render(
      .stack([
        .text("T"), .picture(PictureNode(image: image, mode: .blocks, caption: [Span("cap")])), .text("B"),
      ]),
      20, 2)
    #expect(squeezed.lines == ["T", "B"])
  }

  @Test func theSpinnerCyclesThroughItsFramesForAnyIndex() {
    for unicode in [true, false] {
      let cycle = (0..<10).map { Spinner.frame($0, unicode: unicode) }
      let period = unicode ? 10 : 4
      #expect(Set(cycle).count == period)
      for index in -25...25 {
        #expect(Spinner.frame(index, unicode: unicode) == Spinner.frame(index + period, unicode: unicode))
      }
      #expect(Spinner.frame(-1, unicode: unicode) == Spinner.frame(period - 1, unicode: unicode))
    }
  }
}
