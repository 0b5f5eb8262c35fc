import Testing
import TextRendering

struct KeyDecoderTests {
  func decode(_ chunks: [String]) -> [InputEvent] {
    var decoder = KeyDecoder()
    var events: [InputEvent] = []
    for chunk in chunks { events += decoder.feed(Array(chunk.utf8)) }
    return events
  }

  func decodeBytes(_ chunks: [[UInt8]], flush: Bool = false) -> [InputEvent] {
    var decoder = KeyDecoder()
    var events = chunks.flatMap { decoder.feed($0) }
    if flush { events += decoder.flush() }
    return events
  }

  /// The events of these keys pressed.
  func keys(_ keys: Key...) -> [InputEvent] { keys.map(InputEvent.key) }

  @Test func arrowsAndNavigationInEveryCommonForm() {
    #expect(decode(["\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D"]) == keys(.up, .down, .right, .left))
    #expect(decode(["\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD"]) == keys(.up, .down, .right, .left))
    #expect(decode(["\u{1B}[1;5A"]) == keys(.up))
    // A terminal's report of a setting (DECRQSS): the setting, or nil for a question it
    // does not know; cut across reads, it waits for the rest; unended, it was Alt-Shift-P.
    #expect(decode(["\u{1B}P1$r0;48:2::1:2:3m\u{1B}\\"]) == [.reply(.settingReport("0;48:2::1:2:3m"))])
    #expect(decode(["\u{1B}P0$r\u{1B}\\x"]) == [.reply(.settingReport(nil)), .key(.character("x"))])
    #expect(decode(["\u{1B}P1$r0m", "\u{1B}", "\\"]) == [.reply(.settingReport("0m"))])
    #expect(decodeBytes([Array("\u{1B}P".utf8)], flush: true) == keys(.escape, .character("P")))
    // Shift with ← and → is a key of its own; other modifiers are not.
    #expect(
      decode(["\u{1B}[1;2D\u{1B}[1;2C\u{1B}[1;5D\u{1B}[1;2A"]) == keys(.shiftLeft, .shiftRight, .left, .up))
    #expect(
      decode(["\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}OH\u{1B}OF"])
        == keys(.home, .end, .home, .end, .home, .end, .home, .end))
    #expect(
      decode(["\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[2~\u{1B}[Z"])
        == keys(.pageUp, .pageDown, .delete, .insert, .backTab))
    #expect(decode(["\u{1B}OP\u{1B}[15~\u{1B}[24~"]) == keys(.function(1), .function(5), .function(12)))
    #expect(
      decode(["\u{1B}OQ\u{1B}OR\u{1B}OS\u{1B}OX"]) == keys(.function(2), .function(3), .function(4), .unknown)
    )
    // F6–F10 skip code 16, F11 and F12 code 22.
    #expect(
      decode(["\u{1B}[17~\u{1B}[21~\u{1B}[23~\u{1B}[16~"])
        == keys(.function(6), .function(10), .function(11), .unknown))
    // The keypad's Enter in application mode.
    #expect(decode(["\u{1B}OM"]) == keys(.enter))
  }

  @Test func aCursorPositionAnswerIsReadWhereverItComes() {
    #expect(decode(["\u{1B}[1;3R"]) == [.reply(.cursorPosition(row: 1, column: 3))])
    #expect(
      decode(["h\u{1B}[12;", "140Ro"]) == [
        .key(.character("h")), .reply(.cursorPosition(row: 12, column: 140)), .key(.character("o")),
      ])
    // Anything else ending in R is no answer.
    #expect(
      decode(["\u{1B}[R\u{1B}[5R\u{1B}[1;2;3R\u{1B}[1;-2R\u{1B}[;3R"])
        == Array(repeating: .key(.unknown), count: 5)
    )
  }

  /// A background colour answer, with BEL or ST, four hex digits a channel or fewer, split
  /// across reads; Alt-] typed is still Escape then `]` once the input pauses.
  @Test func aBackgroundColourAnswerIsRead() {
    #expect(
      decode(["a\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\b"]) == [
        .key(.character("a")), .reply(.backgroundColor(red: 1, green: 1, blue: 1)), .key(.character("b")),
      ])
    let short: InputEvent = .reply(.backgroundColor(red: 0, green: 128.0 / 255, blue: 1))
    #expect(decode(["\u{1B}]11;rgb:00/80/ff\u{7}"]) == [short])
    let grey = Double(0x1E1E) / 65535
    let split = decode(["\u{1B}]11;rgb:1e1e/", "1e1e/1e1e\u{1B}", "\\"])
    #expect(split == [.reply(.backgroundColor(red: grey, green: grey, blue: grey))])
    // Another OSC, or a colour not in this form, is no answer we use.
    #expect(decode(["\u{1B}]10;rgb:0/0/0\u{7}\u{1B}]11;#ffffff\u{7}"]) == keys(.unknown, .unknown))
    #expect(decodeBytes([Array("\u{1B}]".utf8)], flush: true) == keys(.escape, .character("]")))
  }

  /// A cell size answer (`CSI 6 ; height ; width t`), split across reads; other window
  /// reports, and sizes of nothing, are no answer we use.
  @Test func aCellSizeAnswerIsRead() {
    #expect(
      decode(["a\u{1B}[6;17;8tb"]) == [
        .key(.character("a")), .reply(.cellSize(width: 8, height: 17)), .key(.character("b")),
      ])
    #expect(decode(["\u{1B}[6;2", "2;10t"]) == [.reply(.cellSize(width: 10, height: 22))])
    #expect(
      decode(["\u{1B}[4;600;800t\u{1B}[6;0;8t\u{1B}[6;17t\u{1B}[8;24;80t"])
        == Array(repeating: .key(.unknown), count: 4))
  }

  /// SGR mouse reports: a left press, the wheel, everything else as `other`; cells from 0.
  @Test func mouseReportsAreRead() {
    #expect(
      decode(["a\u{1B}[<0;5;3Mb"]) == [
        .key(.character("a")), .mouse(MouseEvent(.press, column: 4, row: 2)), .key(.character("b")),
      ])
    #expect(decode(["\u{1B}[<0;5;3m"]) == [.mouse(MouseEvent(.other, column: 4, row: 2))])
    #expect(decode(["\u{1B}[<64;1;1M"]) == [.mouse(MouseEvent(.wheelUp, column: 0, row: 0))])
    #expect(decode(["\u{1B}[<65;200;60M"]) == [.mouse(MouseEvent(.wheelDown, column: 199, row: 59))])
    // With Ctrl (16) it is still the left button; the right one (2) and moves (32) are not.
    #expect(decode(["\u{1B}[<16;2;2M"]) == [.mouse(MouseEvent(.press, column: 1, row: 1))])
    #expect(
      decode(["\u{1B}[<2;2;2M", "\u{1B}[<32;2;2M"]).allSatisfy {
        $0 == .mouse(MouseEvent(.other, column: 1, row: 1))
      })
    // Split across reads; malformed ones are consumed as unknown.
    #expect(decode(["\u{1B}[<0;1", "0;4M"]) == [.mouse(MouseEvent(.press, column: 9, row: 3))])
    #expect(decode(["\u{1B}[<0;0;4M\u{1B}[<;1;1M\u{1B}[<0;1M"]) == keys(.unknown, .unknown, .unknown))
  }

  /// Feature 4, after the terminal's class, is sixel: xterm as a VT340, tmux built with
  /// sixel, foot. The class itself is not a feature (a VT420's class is 64; a class of 4
  /// is none), nor is a number that merely contains a 4. (Stock xterm answers as a VT420.)
  @Test func aTerminalAttributesAnswerSaysWhetherItDrawsSixel() {
    for (answer, sixel) in [
      ("?63;1;2;3;4;6;9;15;16;22;28c", true), ("?1;2;4c", true), ("?62;4c", true), ("?65;1;9;4c", true),
      ("?1;2c", false), ("?62c", false), ("?64;1;2;6;9;15;16;17;18;21;22;28c", false), ("?4c", false),
      ("?62;14;44;40c", false), ("?c", false), ("?;4c", true),
      ("?1;" + String(repeating: "9", count: 40) + ";4c", true),
    ] {
      #expect(decode(["\u{1B}[" + answer]) == [.reply(.terminalAttributes(drawsSixel: sixel))], "\(answer)")
    }
  }

  @Test func aTerminalAttributesAnswerIsReadWhereverItComes() {
    #expect(decode(["\u{1B}[?62;22c"]) == [.reply(.terminalAttributes(drawsSixel: false))])
    #expect(
      decode(["x\u{1B}[?", "1;2cy"]) == [
        .key(.character("x")), .reply(.terminalAttributes(drawsSixel: false)), .key(.character("y")),
      ])
    // Without the question mark it is the request itself (or nothing we know), not an answer.
    #expect(decode(["\u{1B}[c\u{1B}[0c"]) == keys(.unknown, .unknown))
  }

  @Test func controlKeys() {
    #expect(
      decode(["\r\n\t\u{7F}\u{8}\u{3}\u{15}\u{0}"])
        == keys(.enter, .enter, .tab, .backspace, .backspace, .ctrl("c"), .ctrl("u"), .ctrl(" ")))
    // Ctrl-\ ] ^ _ mean nothing here (and are not Escape).
    #expect(decode(["\u{1C}\u{1D}\u{1E}\u{1F}"]) == keys(.unknown, .unknown, .unknown, .unknown))
  }

  @Test func aRunawaySequenceIsCutShortAndWhatFollowsIsRead() {
    // A CSI that never ends (garbage, or a paste without bracketing) is dropped once it
    // passes 128 bytes (ESC [ and 127 more) instead of swallowing, or waiting for, the rest.
    let events = decode(["\u{1B}[" + String(repeating: "1", count: 136) + "x"])
    #expect(events.first == .key(.unknown))
    #expect(
      Array(events.dropFirst()) == Array(repeating: .key(.character("1")), count: 9) + keys(.character("x")))
    // The longest attributes a terminal gives (Windows Terminal's) are read whole.
    #expect(
      decode(["\u{1B}[?61;4;6;7;14;21;22;23;24;28;32;42c"]) == [.reply(.terminalAttributes(drawsSixel: true))]
    )
  }

  @Test func severalKeysInOneRead() {
    // tmux delivers `send-keys Up Down Escape` as one read.
    #expect(decodeBytes([Array("\u{1B}[A\u{1B}[B\u{1B}".utf8)], flush: true) == keys(.up, .down, .escape))
  }

  @Test func aLoneEscapeWaitsForTheTimeout() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]) == [])
    #expect(decoder.hasPendingInput)
    #expect(decoder.flush() == keys(.escape))
    #expect(!decoder.hasPendingInput)
  }

  @Test func aSequenceSplitAcrossReadsIsReassembled() {
    let bytes = Array("\u{1B}[5~x".utf8)
    for split in 1..<bytes.count {
      #expect(
        decodeBytes([Array(bytes[..<split]), Array(bytes[split...])]) == keys(.pageUp, .character("x")),
        "split at \(split)")
    }
    #expect(decodeBytes(bytes.map { [$0] }) == keys(.pageUp, .character("x")))
    // The application-mode form too (`ESC O A`, the arrows of some terminals).
    let ss3 = Array("\u{1B}OAx".utf8)
    for split in 1..<ss3.count {
      #expect(
        decodeBytes([Array(ss3[..<split]), Array(ss3[split...])]) == keys(.up, .character("x")),
        "split at \(split)")
    }
  }

  @Test func utf8SplitAcrossReadsIsReassembled() {
    let bytes = Array("é漢🐶".utf8)
    for split in 1..<bytes.count {
      #expect(
        decodeBytes([Array(bytes[..<split]), Array(bytes[split...])])
          == keys(.character("é"), .character("漢"), .character("🐶")))
    }
  }

  @Test func invalidUTF8BecomesReplacementCharacters() {
    #expect(decodeBytes([[0xFF, 0x41]]) == keys(.character("\u{FFFD}"), .character("A")))
    #expect(decodeBytes([[0xC3, 0x41]]) == keys(.character("\u{FFFD}"), .character("A")))
    #expect(decodeBytes([[0xE6, 0xBC]], flush: true) == keys(.character("\u{FFFD}")))
    // F5–F7 start no UTF-8 sequence (nothing above U+10FFFF): no waiting for more bytes.
    #expect(decodeBytes([[0xF5, 0x41]]) == keys(.character("\u{FFFD}"), .character("A")))
  }

  @Test func bracketedPasteIsLiteralTextWithoutControls() {
    #expect(
      decode(["\u{1B}[200~hello\u{1B}[Aworld\r\nx\u{1B}[201~q"]) == [
        .paste("hello[Aworld  x"), .key(.character("q")),
      ])
    // C1 controls (CSI as one byte, U+009B) and DEL go too.
    #expect(decode(["\u{1B}[200~a\u{9B}31mb\u{7F}c\u{1B}[201~"]) == [.paste("a31mbc")])
    // A copied line's own line break, in any convention, is not pasted as a space.
    for ending in ["\n", "\r", "\r\n"] {
      #expect(
        decode(["\u{1B}[200~hound\(ending)\u{1B}[201~"]) == [.paste("hound")], "\(ending.debugDescription)")
    }
    let bytes = Array("\u{1B}[200~ab\u{1B}[201~".utf8)
    for split in 1..<bytes.count {
      #expect(
        decodeBytes([Array(bytes[..<split]), Array(bytes[split...])]) == [.paste("ab")], "split at \(split)")
    }
  }

  @Test func aPasteWhoseEndNeverComesEndsAtTheTimeoutWithWhatArrived() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array("\u{1B}[200~hou".utf8)) == [])
    #expect(decoder.isInPaste && !decoder.hasPendingInput)
    #expect(decoder.feed(Array("nd\u{3}".utf8)) == [])  // Ctrl-C inside a paste is text
    #expect(decoder.flush() == [.paste("hound")])
    #expect(!decoder.isInPaste)
    #expect(decoder.feed(Array("x\u{3}".utf8)) == keys(.character("x"), .ctrl("c")))
    // A terminator cut short at the timeout is text that arrived, not a key.
    #expect(decoder.feed(Array("\u{1B}[200~ab\u{1B}[20".utf8)) == [])
    #expect(decoder.isInPaste && decoder.hasPendingInput)
    #expect(decoder.flush() == [.paste("ab[20")])
    #expect(!decoder.isInPaste && !decoder.hasPendingInput)
    // A paste that ends is not in progress.
    #expect(decoder.feed(Array("\u{1B}[200~ab\u{1B}[201~".utf8)) == [.paste("ab")])
    #expect(!decoder.isInPaste)
  }

  @Test func altLetterIsEscapeThenTheLetter() {
    #expect(decode(["\u{1B}x"]) == keys(.escape, .character("x")))
    // Alt-Backspace is one key, as shells read it (DEL, or BS where Backspace sends that),
    // whether its two bytes come together or apart; a lone Escape and then Backspace are two.
    #expect(decode(["\u{1B}\u{7F}", "\u{1B}\u{8}"]) == keys(.altBackspace, .altBackspace))
    #expect(decode(["\u{1B}", "\u{7F}"]) == keys(.altBackspace))
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.flush() == keys(.escape))
    #expect(decoder.feed([0x7F]) == keys(.backspace))
  }

  @Test func randomBytesNeverCrashOrHangAndAreAlwaysConsumed() {
    var generator = SystemRandomNumberGenerator()
    let interesting: [UInt8] = [0x1B, 0x5B, 0x4F, 0x7E, 0x32, 0x30, 0x31, 0xC3, 0xE6, 0xF0, 0x80, 0x0D, 0x41]
    for _ in 0..<3_000 {
      var decoder = KeyDecoder()
      let count = Int.random(in: 1...40, using: &generator)
      let bytes = (0..<count).map { _ in
        Bool.random(using: &generator)
          ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
      }
      _ = decoder.feed(bytes)
      _ = decoder.flush()
      // After a flush nothing is held back, and no paste is left open.
      #expect(!decoder.hasPendingInput && !decoder.isInPaste)
    }
  }
}
