import Foundation
import Testing

@testable import TextRendering

struct DisplayWidthTests {
  @Test(
    arguments: [
      ("a", 1), ("é", 1), ("e\u{301}", 1), ("漢", 2), ("한", 2), ("\u{1100}", 2), ("\u{10FF}", 1), ("ｱ", 1),
      ("Ａ", 2), ("🐶", 2),
      ("👨‍👩‍👧", 2), ("❤️", 2), ("🇫🇷", 2), ("\u{1B}", 0), ("\u{85}", 0), ("\u{200B}", 0), ("…", 1), ("─", 1),
      // Wide since Unicode 13 (Khitan, a Vietnamese reading mark) and 16 (hexagrams, trigrams).
      ("\u{18B00}", 2), ("\u{16FF0}", 2), ("\u{4DC0}", 2), ("\u{2630}", 2), ("\u{1D300}", 2),
      ("\u{3248}", 2),
      // A mark in a wide block is no column alone, and its letter's two with it.
      ("\u{3099}", 0), ("か\u{3099}", 2), ("\u{302A}", 0),
      // Clusters whose scalars terminals give a column each (as tmux places them): a
      // spacing vowel sign, a conjunct with one, Thai's sara am; a Tamil vowel sign that is
      // a mark adds none, nor do a decomposed Hangul syllable's vowel and final.
      ("कि", 2), ("क्षि", 3), ("กำ", 2), ("நீ", 1), ("\u{1112}\u{1161}\u{11AB}", 2), ("\u{1161}", 0),
      // The same from Jamo Extended-B, and an initial with the vowel filler (no vowel).
      ("\u{1100}\u{D7B0}\u{D7CB}", 2), ("\u{1100}\u{1160}", 2),
      // What a zero-width joiner joins draws over the column before it, as in tmux.
      ("क्\u{200D}ष", 1), ("👁\u{200D}🗨", 1),
    ] as [(String, Int)])
  func widthOfOneCharacter(text: String, width: Int) {
    #expect(text.count == 1)
    #expect(
      DisplayWidth.of(Character(text)) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
  }

  @Test func widthOfStrings() {
    #expect(DisplayWidth.of("कि|क्षि") == 6)
    #expect(DisplayWidth.of("Hound") == 5)
    #expect(DisplayWidth.of("日本語 ok") == 9)
    #expect(DisplayWidth.of("🐶 dog") == 6)
    #expect(DisplayWidth.of("") == 0)
    // Controls take no column, in an ASCII string as in one character (CR LF is one).
    #expect(DisplayWidth.of("a\u{7}b\u{7F}c\r\n") == 3)
    #expect(DisplayWidth.of("\u{1B}[0m") == 3)
  }

  /// The search over the wide ranges finds every one of them, from end to end, and nothing
  /// just outside them.
  @Test func everyWideRangeIsFoundToItsEnds() {
    let ranges = DisplayWidth.wideRanges
    for (index, range) in ranges.enumerated() {
      if index > 0 { #expect(ranges[index - 1].upperBound < range.lowerBound, "sorted, apart: \(range)") }
      for value in [range.lowerBound, (range.lowerBound + range.upperBound) / 2, range.upperBound] {
        #expect(DisplayWidth.isWide(value), "\(String(value, radix: 16)) in \(range)")
      }
      if index == 0 || ranges[index - 1].upperBound < range.lowerBound - 1 {
        #expect(!DisplayWidth.isWide(range.lowerBound - 1), "before \(range)")
      }
      if index == ranges.count - 1 || ranges[index + 1].lowerBound > range.upperBound + 1 {
        #expect(!DisplayWidth.isWide(range.upperBound + 1), "after \(range)")
      }
    }
  }

  /// Whole blocks whose width every terminal agrees on, end to end: kana and the fullwidth
  /// forms two columns, the halfwidth forms one.
  @Test func wholeBlocksAreWideOrNarrowToTheirEnds() {
    let wide: [ClosedRange<UInt32>] = [0x3041...0x3096, 0x30A1...0x30FA, 0xFF01...0xFF60, 0xAC00...0xD7A3]
    for range in wide {
      #expect(range.allSatisfy { DisplayWidth.of(Character(Unicode.Scalar($0)!)) == 2 }, "\(range)")
    }
    #expect((0xFF61...0xFFBE).allSatisfy { DisplayWidth.of(Character(Unicode.Scalar($0)!)) == 1 })
  }

  @Test func truncationByDisplayWidth() {
    #expect(DisplayWidth.truncate("Hound", to: 10) == "Hound")
    #expect(DisplayWidth.truncate("Hound", to: 5) == "Hound")
    #expect(DisplayWidth.truncate("Bloodhound", to: 6) == "Blood…")
    #expect(DisplayWidth.truncate("日本語テキスト", to: 6) == "日本 …")  // a wide char never straddles
    #expect(DisplayWidth.of(DisplayWidth.truncate("日本語テキスト", to: 6)) == 6)
    #expect(DisplayWidth.truncate("Bloodhound", to: 6, ellipsis: "...") == "Blo...")
    #expect(DisplayWidth.truncate("Bloodhound", to: 1) == "…")
    #expect(DisplayWidth.truncate("Bloodhound", to: 2, ellipsis: "...") == "..")
    #expect(DisplayWidth.truncate("Bloodhound", to: 0) == "")
    #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
  }
}
