import ImageDecoding
import Testing

@testable import TextRendering

/// kitty's pictures through tmux: the passthrough's wrapping and the placeholders' text,
/// byte for byte.
struct KittyPlaceholderTests {
  @Test func passthroughDoublesEveryEscape() {
    #expect(
      TerminalPicture.tmuxPassthrough("\u{1B}_Ga=T;AAAA\u{1B}\\")
        == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T;AAAA\u{1B}\u{1B}\\\u{1B}\\")
    #expect(TerminalPicture.tmuxPassthrough("plain") == "\u{1B}Ptmux;plain\u{1B}\\")
  }

  /// kitty's list: 297 marks, from U+0305 to U+1D244, each once, in rising order.
  @Test func theDiacriticsAreKittysList() {
    let marks = TerminalPicture.placeholderDiacritics.map(\.value)
    #expect(marks.count == 297)
    #expect(Array(marks.prefix(5)) == [0x305, 0x30D, 0x30E, 0x310, 0x312])
    #expect(marks.last == 0x1D244)
    #expect(zip(marks, marks.dropFirst()).allSatisfy { $0 < $1 })
    #expect(!marks.contains(0x300) && !marks.contains(0x306) && !marks.contains(0x342))
  }

  /// A 2 × 2 picture in 2 × 2 one-pixel cells: its pixels sent with a virtual placement,
  /// passed through tmux, then two rows of placeholders in the colour of its id, each cell
  /// with the marks of its row and its column.
  @Test func aSmallPictureIsSentAndPlacedByPlaceholders() {
    let picture = RGBImage(width: 2, height: 2, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
    let text = TerminalPicture.kittyPlaceholders(
      picture, columns: 2, rows: 2, cell: .init(width: 1, height: 1), id: 7)
    let esc = "\u{1B}"
    let expected =
      "\(esc)Ptmux;\(esc)\(esc)_Ga=T,U=1,f=24,s=2,v=2,c=2,r=2,i=7,q=2,m=0;/wAAAP8AAAD/////\(esc)\(esc)\\\(esc)\\"
      + "\(esc)[38;5;7m\u{10EEEE}\u{305}\u{305}\u{10EEEE}\u{305}\u{30D}\(esc)[39m\n"
      + "\(esc)[38;5;7m\u{10EEEE}\u{30D}\u{305}\u{10EEEE}\u{30D}\u{30D}\(esc)[39m\n"
    #expect(Array(text.unicodeScalars) == Array(expected.unicodeScalars))
    // Outside tmux, the same command as it is.
    let direct = TerminalPicture.kittyPlaceholders(
      picture, columns: 2, rows: 2, cell: .init(width: 1, height: 1), id: 7, throughTmux: false)
    #expect(
      direct.hasPrefix(
        "\(esc)_Ga=T,U=1,f=24,s=2,v=2,c=2,r=2,i=7,q=2,m=0;/wAAAP8AAAD/////\(esc)\\\(esc)[38;5;7m"))
  }

  /// A picture of several chunks: each chunk passed through on its own, and nothing but
  /// doubled escapes inside any.
  @Test func eachChunkIsPassedThroughOnItsOwn() throws {
    let picture = RGBImage(width: 40, height: 40, pixels: (0..<4800).map { UInt8($0 % 251) })
    let text = TerminalPicture.kittyPlaceholders(
      picture, columns: 40, rows: 40, cell: .init(width: 1, height: 1), id: 200)
    let start = "\u{1B}Ptmux;"
    let pieces = text.components(separatedBy: start).dropFirst()
    #expect(pieces.count == 2)  // 4,800 bytes: two chunks of at most 3,072
    for piece in pieces {
      let end = try #require(piece.range(of: "\u{1B}\u{1B}\\\u{1B}\\"))
      let inner = piece[..<end.lowerBound]
      // Every escape inside comes in pairs.
      #expect(!inner.replacingOccurrences(of: "\u{1B}\u{1B}", with: "").contains("\u{1B}"))
    }
    #expect(text.unicodeScalars.filter { $0 == "\u{10EEEE}" }.count == 40 * 40)
  }

  /// Never more rows or columns than there are marks to number them.
  @Test func placeholdersStopAtTheMarksThereAre() {
    let wide = RGBImage(width: 400, height: 1, pixels: [UInt8](repeating: 9, count: 1200))
    let text = TerminalPicture.kittyPlaceholders(
      wide, columns: 400, rows: 400, cell: .init(width: 1, height: 1), id: 1, throughTmux: false)
    let lines = text.split(separator: "\n")
    let cells = lines.last.map { $0.unicodeScalars.filter { $0 == "\u{10EEEE}" }.count }
    #expect(cells == 297)
  }
}
