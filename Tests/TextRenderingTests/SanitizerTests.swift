import Foundation
import Testing

@testable import TextRendering

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
    #expect(Sanitizer.ascii("Hound › Afghan ‹") == "Hound > Afghan <")
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
