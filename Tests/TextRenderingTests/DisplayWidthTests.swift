import Foundation
import ImageDecoding
import TestSupport
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

struct SanitizerTests {
  @Test func controlsBecomeVisibleAndEscapesCannotSurvive() {
    #expect(Sanitizer.sanitize("evil\u{1B}[31mred\u{1B}[0m") == "evil␛[31mred␛[0m")
    #expect(Sanitizer.sanitize("a\nb\tc\rd") == "a␊b␉c␍d")
    #expect(Sanitizer.sanitize("del\u{7F}") == "del␡")
    #expect(Sanitizer.sanitize("c1\u{9B}31m") == "c1\u{FFFD}31m")
    #expect(Sanitizer.sanitize("bidi\u{202E}txt\u{2066}") == "biditxt")
    // Unicode's own line breaks: tmux draws them as nothing, other terminals break the line
    // or show a column; each is one visible column here.
    #expect(Sanitizer.sanitize("line\u{2028}para\u{2029}end") == "line␤para¶end")
    // Found by make fuzz-text: U+06DD joins the *next* character into its grapheme, which
    // terminals draw apart; format characters go (the emoji joiner stays).
    #expect(Sanitizer.sanitize("\u{6DD}Se\u{FEFF}") == "Se")
    #expect(Sanitizer.sanitize("👨\u{200D}👩") == "👨\u{200D}👩")
    #expect(Sanitizer.sanitize("hound") == "hound")
  }

  @Test func asciiGivesEachCharacterItsPlainCounterpartOrOneQuestionMark() {
    #expect(Sanitizer.ascii("No breeds match “hou”…") == "No breeds match \"hou\"...")
    #expect(Sanitizer.ascii("it’s ‘a’ «b» 2′ 3″") == "it's 'a' \"b\" 2' 3\"")
    #expect(Sanitizer.ascii("r retry · ^C quit • a–b—c − d × 2") == "r retry | ^C quit | a-b-c - d x 2")
    #expect(Sanitizer.ascii("← → ↑ ↓") == "<- -> ^ v")
    // Spaces: no-break, the typographic ones from en quad to hair space, narrow no-break.
    #expect(Sanitizer.ascii("a\u{A0}b\u{2000}c\u{2009}d\u{200A}e\u{202F}f") == "a b c d e f")
    #expect(Sanitizer.ascii("──┃│┌┼╋") == "--||+++")
    #expect(Sanitizer.ascii("━═╌┄┈ ║┆┊╎") == "----- ||||")  // heavy, double and dashed lines too
    // Letters keep their letter, whether the marks are built in or follow.
    #expect(
      Sanitizer.ascii("Épagneul Bichon à poil frisé, Løvhund") == "Epagneul Bichon a poil frise, Lovhund")
    #expect(Sanitizer.ascii("e\u{301}\u{323}x") == "ex")
    // Any ASCII character with marks after it keeps itself: a keycap one is `1`.
    #expect(Sanitizer.ascii("1\u{FE0F}\u{20E3} #\u{20E3}") == "1 #")
    // A character is one question mark however many scalars or columns it has.
    #expect(Sanitizer.ascii("ß 日本 👨\u{200D}👩\u{200D}👧 🔍 ⠋ \u{FFFD} ␛") == "? ?? ? ? ? ? ?")
    // Transliteration only: ASCII, controls included, passes through untouched.
    #expect(Sanitizer.ascii("a\u{1B}b\r\nc\t") == "a\u{1B}b\r\nc\t")
    for text in ["“x”", "日本", "é", "…", "👍🏽", "\u{301}"] {
      #expect(Sanitizer.ascii(text).utf8.allSatisfy { $0 < 0x80 }, "\(text)")
    }
  }

  @Test func isSafeRefusesWhatSanitiseWouldChange() {
    for unsafe in [
      "a\u{1B}b", "\u{7F}", "\u{85}", "\u{202E}x", "\u{200B}", "\u{FEFF}", "\u{6DD}S", "\u{2066}",
      "a\u{2028}b", "\u{2029}",
    ] {
      #expect(!Sanitizer.isSafe(unsafe), "\(unsafe.unicodeScalars.map(\.value))")
      #expect(Sanitizer.isSafe(Sanitizer.sanitize(unsafe)))
    }
    for safe in ["hound", "日本語", "👨\u{200D}👩", "é", "e\u{301}", "…"] {
      #expect(Sanitizer.isSafe(safe), "\(safe)")
    }
  }

  @Test func noControlByteEverSurvives() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let scalars = (0..<Int.random(in: 0...20, using: &generator)).map { _ -> Unicode.Scalar in
        let pool: [ClosedRange<UInt32>] = [
          0...0x7F, 0x80...0x9F, 0xA0...0x2FF, 0x2000...0x206F, 0x1F300...0x1F64F,
        ]
        let range = pool.randomElement(using: &generator)!
        return Unicode.Scalar(UInt32.random(in: range, using: &generator)) ?? "x"
      }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars)
      let clean = Sanitizer.sanitize(text)
      #expect(Sanitizer.isSafe(clean))
      #expect(!clean.utf8.contains { $0 < 0x20 || $0 == 0x7F })
    }
  }

  @Test func firstLetterUppercasing() {
    #expect("hound".uppercasingFirstLetter == "Hound")
    #expect("".uppercasingFirstLetter == "")
    #expect("germanshepherd".uppercasingFirstLetter == "Germanshepherd")
    #expect("élan".uppercasingFirstLetter == "Élan")
  }

  @Test func namesJoinedAsChoices() {
    #expect([String]().joinedAsAlternatives == "")
    #expect(["pug"].joinedAsAlternatives == "pug")
    #expect(["pug", "akita"].joinedAsAlternatives == "pug or akita")
    #expect(["pug", "akita", "hound"].joinedAsAlternatives == "pug, akita or hound")
  }

  @Test func aSubBreedLeadsItsBreedUnlessTheBreedIsTheQualifier() {
    #expect(String.breedTitle("hound") == "Hound")
    #expect(String.breedTitle("hound", subBreed: "afghan") == "Afghan Hound")
    #expect(String.breedTitle("retriever", subBreed: "golden") == "Golden Retriever")
    #expect(String.breedTitle("dane", subBreed: "great") == "Great Dane")
    // Nationalities and coats qualify what follows them.
    #expect(String.breedTitle("german", subBreed: "shepherd") == "German Shepherd")
    #expect(String.breedTitle("australian", subBreed: "kelpie") == "Australian Kelpie")
    #expect(String.breedTitle("finnish", subBreed: "lapphund") == "Finnish Lapphund")
    #expect(String.breedTitle("african", subBreed: "wild") == "African Wild")
    #expect(String.breedTitle("rough", subBreed: "collie") == "Rough Collie")
    #expect(String.breedTitle("danish", subBreed: "swedish") == "Danish Swedish")
    #expect(String.breedTitle("smooth", subBreed: "collie") == "Smooth Collie")
    #expect(String.breedTitle("wire", subBreed: "fox") == "Wire Fox")
  }

  /// A time is shown as a wall clock shows it, two digits a field; a retry's failure says
  /// how many tries from the second, with the last one's time.
  @Test func aTimeIsShownAsAClockShowsIt() {
    let date = Date(timeIntervalSince1970: 1_795_000_000)
    let shown = String.clockTime(date)
    let later = String.clockTime(date + 3_661)
    func seconds(_ text: String) -> Int? {
      let fields = text.split(separator: ":").compactMap { Int($0) }
      guard text.count == 8, fields.count == 3 else { return nil }
      return fields[0] * 3_600 + fields[1] * 60 + fields[2]
    }
    #expect(seconds(shown) != nil && seconds(later) != nil, "\(shown) \(later)")
    #expect(((seconds(later) ?? 0) - (seconds(shown) ?? 0) + 86_400) % 86_400 == 3_661)
    #expect(String.tries(1, last: date) == "")
    #expect(String.tries(3, last: date) == " (tried 3 times, last at \(shown))")
    #expect(String.tries(2, last: nil) == " (tried 2 times)")
  }

  /// Names the API runs together or writes without accents are shown as people write
  /// them, alone and in titles; every other name has its first letter upper-cased.
  @Test(
    arguments: [
      ("shihtzu", nil, "Shih Tzu"), ("stbernard", nil, "St. Bernard"),
      ("cotondetulear", nil, "Coton de Tuléar"),
      ("mexicanhairless", nil, "Mexican Hairless"), ("brabancon", nil, "Brabançon"),
      ("bullterrier", nil, "Bull Terrier"),
      ("pointer", "germanlonghair", "German Longhair Pointer"),
      ("terrier", "kerryblue", "Kerry Blue Terrier"),
      ("bullterrier", "staffordshire", "Staffordshire Bull Terrier"), ("pug", nil, "Pug"),
    ] as [(String, String?, String)])
  func namesAreShownAsPeopleWriteThem(breed: String, subBreed: String?, shown: String) {
    #expect(String.breedTitle(breed, subBreed: subBreed) == shown)
  }
}

struct ColorPolicyTests {
  let tty = ["TERM": "xterm-256color"]

  @Test func autoFollowsTheTerminalAndTheEnvironment() {
    #expect(ColorPolicy.mode(choice: .auto, isTerminal: true, environment: tty) == .ansi256)
    #expect(ColorPolicy.mode(choice: .auto, isTerminal: false, environment: tty) == .none)
    #expect(ColorPolicy.mode(choice: .auto, isTerminal: true, environment: ["TERM": "dumb"]) == .none)
    #expect(ColorPolicy.mode(choice: .auto, isTerminal: true, environment: [:]) == .none)
    #expect(
      ColorPolicy.mode(choice: .auto, isTerminal: true, environment: tty.merging(["NO_COLOR": "1"]) { $1 })
        == .none)
    #expect(
      ColorPolicy.mode(choice: .auto, isTerminal: true, environment: tty.merging(["NO_COLOR": ""]) { $1 })
        == .ansi256)
    #expect(
      ColorPolicy.mode(choice: .auto, isTerminal: false, environment: ["CLICOLOR_FORCE": "1"]) == .ansi16)
    #expect(ColorPolicy.mode(choice: .auto, isTerminal: false, environment: ["FORCE_COLOR": "0"]) == .none)
    #expect(
      ColorPolicy.mode(choice: .auto, isTerminal: false, environment: ["FORCE_COLOR": "1", "NO_COLOR": "1"])
        == .none)
    // Terminals name 24-bit colour either way.
    for colorTerm in ["truecolor", "24bit"] {
      #expect(
        ColorPolicy.mode(
          choice: .auto, isTerminal: true, environment: ["TERM": "xterm", "COLORTERM": colorTerm])
          == .truecolor)
    }
  }

  @Test func theFlagOverridesTheEnvironment() {
    #expect(ColorPolicy.mode(choice: .never, isTerminal: true, environment: tty) == .none)
    #expect(ColorPolicy.mode(choice: .always, isTerminal: false, environment: ["NO_COLOR": "1"]) == .ansi16)
    // Forced, colour still has the depth the terminal names (`--color always | less -R`).
    #expect(
      ColorPolicy.mode(choice: .always, isTerminal: false, environment: ["TERM": "xterm-256color"])
        == .ansi256)
    #expect(
      ColorPolicy.mode(choice: .always, isTerminal: false, environment: ["COLORTERM": "truecolor"])
        == .truecolor)
  }

  @Test func stylesDegradeButKeepAttributes() {
    let style = Style(foreground: .rgb(255, 0, 0), background: .indexed(21), bold: true, reverse: true)
    #expect(style.adapted(to: .none) == Style(bold: true, reverse: true))
    #expect(
      style.adapted(to: .ansi256)
        == Style(foreground: .indexed(196), background: .indexed(21), bold: true, reverse: true))
    #expect(style.adapted(to: .truecolor) == style)
  }

  @Test func onSixteenColoursEveryColourBecomesTheNearestSystemColour() {
    func sixteen(_ color: Color) -> Color? { Style(foreground: color).adapted(to: .ansi16).foreground }
    #expect(sixteen(.rgb(255, 0, 0)) == .ansi(1))  // red
    #expect(sixteen(.rgb(0, 200, 0)) == .ansi(2))  // green
    #expect(sixteen(.indexed(21)) == .ansi(4))  // the cube's pure blue
    #expect(sixteen(.rgb(255, 255, 0)) == .ansi(11))  // bright yellow
    #expect(sixteen(.rgb(255, 255, 255)) == .ansi(15))  // bright white
    #expect(sixteen(.indexed(250)) == .ansi(15))  // a light grey of the ramp
    #expect(sixteen(.indexed(236)) == .ansi(0))  // a dark one
    #expect(sixteen(.rgb(135, 135, 135)) == .ansi(7))  // mid grey: white, not bright
    // The rough rule's thresholds: a channel is on from the cube's third level (135, not
    // 95); a colour is bright above an average of 160.
    #expect(sixteen(.indexed(52)) == .ansi(0))  // (95, 0, 0)
    #expect(sixteen(.indexed(88)) == .ansi(1))  // (135, 0, 0)
    #expect(sixteen(.indexed(203)) == .ansi(1))  // (255, 95, 95): average 148
    #expect(sixteen(.indexed(224)) == .ansi(15))  // (255, 175, 175): average 202
    #expect(sixteen(.indexed(3)) == .ansi(3))  // already a system colour
    #expect(sixteen(.yellow) == .yellow)
  }

  @Test func unicodeFollowsTheFirstLocaleVariableThatIsSet() {
    #expect(ColorPolicy.supportsUnicode(environment: [:]))
    #expect(ColorPolicy.supportsUnicode(environment: ["LANG": "en_GB.UTF-8"]))
    #expect(ColorPolicy.supportsUnicode(environment: ["LANG": "C.utf8"]))
    #expect(!ColorPolicy.supportsUnicode(environment: ["LANG": "C"]))
    // The Linux console's fonts lack the emoji and braille, whatever the locale.
    #expect(!ColorPolicy.supportsUnicode(environment: ["TERM": "linux", "LANG": "en_GB.UTF-8"]))
    #expect(ColorPolicy.supportsUnicode(environment: ["TERM": "xterm-256color", "LANG": "en_GB.UTF-8"]))
    #expect(!ColorPolicy.supportsUnicode(environment: ["LC_ALL": "POSIX", "LANG": "en_GB.UTF-8"]))
    #expect(ColorPolicy.supportsUnicode(environment: ["LC_CTYPE": "de_DE.UTF-8", "LANG": "C"]))
    // An empty variable counts as unset.
    #expect(ColorPolicy.supportsUnicode(environment: ["LC_ALL": "", "LANG": "en_US.utf8"]))
    #expect(
      !ColorPolicy.supportsUnicode(environment: ["LC_ALL": "", "LC_CTYPE": "C", "LANG": "en_US.UTF-8"]))
  }

  @Test func nearestPaletteColours() {
    #expect(Palette.nearest256(255, 0, 0) == 196)
    #expect(Palette.nearest256(0, 0, 0) == 16)
    #expect(Palette.nearest256(255, 255, 255) == 231)
    #expect(Palette.nearest256(128, 128, 128) == 244)  // the grey ramp beats the cube
    #expect(Palette.nearest256(95, 135, 175) == 67)
    // The grey ramp's ends, and the cube's last colour just before it.
    for (index, level) in [(232, 8), (255, 238), (231, 255)] as [(UInt8, UInt8)] {
      let (r, g, b) = Palette.rgb(of: index)
      #expect(r == level && g == level && b == level, "\(index)")
    }
  }

  /// The colour chosen is as near as any of the palette's 240 (16–255) to the eye (by
  /// Oklab distance, worked out here in doubles): every grey, every channel at each cube
  /// midpoint and beside it, and random colours.
  @Test func theNearestPaletteColourIsAsNearAsAny() {
    let palette = (16...255).map { index in
      let (r, g, b) = Palette.rgb(of: UInt8(index))
      return (Int(r), Int(g), Int(b))
    }
    func distance(_ colour: (Int, Int, Int), _ r: Int, _ g: Int, _ b: Int) -> Double {
      let (x, y) = (oklab(colour), oklab((r, g, b)))
      return (x.0 - y.0) * (x.0 - y.0) + (x.1 - y.1) * (x.1 - y.1) + (x.2 - y.2) * (x.2 - y.2)
    }
    let edges = [0, 46, 47, 48, 114, 115, 116, 154, 155, 156, 194, 195, 196, 234, 235, 236, 255]
    var colours = (0...255).map { ($0, $0, $0) }
    for r in edges {
      for g in edges { for b in [0, 47, 48, 115, 155, 195, 235, 255] { colours.append((r, g, b)) } }
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      colours.append(
        (
          Int.random(in: 0...255, using: &generator), Int.random(in: 0...255, using: &generator),
          Int.random(in: 0...255, using: &generator)
        ))
    }
    var misses: [String] = []
    for (r, g, b) in colours {
      let chosen = Int(Palette.nearest256(UInt8(r), UInt8(g), UInt8(b)))
      let best = palette.map { distance($0, r, g, b) }.min()!
      // Within what single precision can tell apart.
      if distance(palette[chosen - 16], r, g, b) > best + 1e-6 {
        misses.append("(\(r), \(g), \(b)) → \(chosen)")
      }
    }
    #expect(misses.isEmpty, "\(misses.prefix(5))")
  }

  /// Nearest by eye, not by RGB: a dark blue stays blue (plain RGB distance makes it the
  /// violet 61), and a photo's colours are nearer its own on average than RGB's choice.
  @Test func coloursAreChosenAsTheEyeSeesThem() throws {
    #expect(Palette.nearest256(60, 90, 160) == 25)
    let palette = (16...255).map { index in
      let (r, g, b) = Palette.rgb(of: UInt8(index))
      return (Int(r), Int(g), Int(b))
    }
    func byRGB(_ r: Int, _ g: Int, _ b: Int) -> (Int, Int, Int) {
      palette.min {
        ($0.0 - r) * ($0.0 - r) + ($0.1 - g) * ($0.1 - g) + ($0.2 - b) * ($0.2 - b) < ($1.0 - r) * ($1.0 - r)
          + ($1.1 - g) * ($1.1 - g) + ($1.2 - b) * ($1.2 - b)
      }!
    }
    func error(_ chosen: (Int, Int, Int), _ source: (Int, Int, Int)) -> Double {
      let (x, y) = (oklab(chosen), oklab(source))
      return ((x.0 - y.0) * (x.0 - y.0) + (x.1 - y.1) * (x.1 - y.1) + (x.2 - y.2) * (x.2 - y.2)).squareRoot()
    }
    let image = try ImageDecoder.decode(
      JPEGFixture.bytes("synthetic-500x375-baseline.jpg"), fitting: (125, 94))
    var eye = 0.0
    var rgb = 0.0
    for pixel in stride(from: 0, to: image.pixels.count, by: 3 * 7) {
      let source = (Int(image.pixels[pixel]), Int(image.pixels[pixel + 1]), Int(image.pixels[pixel + 2]))
      let chosen = Palette.rgb(of: Palette.nearest256(UInt8(source.0), UInt8(source.1), UInt8(source.2)))
      eye += error((Int(chosen.0), Int(chosen.1), Int(chosen.2)), source)
      rgb += error(byRGB(source.0, source.1, source.2), source)
    }
    #expect(eye < rgb)
    #expect(eye / Double(image.pixels.count / 21) < 0.04)
  }
}

/// An sRGB colour in Oklab (lightness, green–red, blue–yellow), in doubles.
func oklab(_ colour: (Int, Int, Int)) -> (Double, Double, Double) {
  func linear(_ level: Int) -> Double {
    let value = Double(level) / 255
    return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
  }
  let (r, g, b) = (linear(colour.0), linear(colour.1), linear(colour.2))
  let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
  let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
  let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
  return (
    0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
  )
}
