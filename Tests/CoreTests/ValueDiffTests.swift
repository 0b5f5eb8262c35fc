import Core
import Foundation
import TestSupport
import Testing

private struct Address: Equatable { var city: String; var zip: Int }
private struct Person: Equatable {
  var name: String
  var address: Address
  var tags: [String]
  var nickname: String?
  var scores: [String: Int]
  var status: Status
}
private enum Status: Equatable { case idle, loading(progress: Int), failed(String) }

private let base = Person(
  name: "Ada", address: Address(city: "London", zip: 1), tags: ["a", "b", "c"],
  nickname: nil, scores: ["x": 1, "y": 2], status: .idle)

struct ValueDiffTests {
  @Test func equalValuesHaveNoDiff() {
    #expect(diffValues(base, base) == nil)
  }

  @Test func aNestedChangeShowsOnlyTheInnermostField() {
    var changed = base
    changed.address.city = "Paris"
    #expect(
      diffValues(base, changed)
        == [
          "  Person(",
          "    … (1 unchanged)",
          "    address: Address(",
          "-     city: \"London\"",
          "+     city: \"Paris\"",
          "      … (1 unchanged)",
          "    )",
          "    … (4 unchanged)",
          "  )",
        ].joined(separator: "\n"))
  }

  @Test func anArrayInsertionIsOnePlusLine() {
    var changed = base
    changed.tags.insert("new", at: 1)
    #expect(
      diffValues(base.tags, changed.tags)
        == [
          "  [",
          "    … (1 unchanged)",
          "+   \"new\"",
          "    … (2 unchanged)",
          "  ]",
        ].joined(separator: "\n"))
  }

  @Test func anArrayRemovalIsOneMinusLine() {
    #expect(diffValues([1, 2, 3], [1, 3]) == "  [\n    … (1 unchanged)\n-   2\n    … (1 unchanged)\n  ]")
  }

  @Test func enumPayloadsAndCaseChanges() {
    #expect(
      diffValues(Status.loading(progress: 1), Status.loading(progress: 2))
        == "  .loading(\n-   progress: 1\n+   progress: 2\n  )")
    #expect(diffValues(Status.idle, Status.failed("x")) == "- .idle\n+ .failed(\"x\")")
  }

  @Test func anotherCaseWithTheSamePayloadIsNotMergedIntoTheFirst() {
    enum Shape { case point(x: Int, y: Int), size(x: Int, y: Int) }
    #expect(
      diffValues(Shape.point(x: 1, y: 2), Shape.size(x: 1, y: 3))
        == "- .point(x: 1, y: 2)\n+ .size(x: 1, y: 3)")
  }

  @Test func optionalsAndDictionaries() {
    var changed = base
    changed.nickname = "Countess"
    changed.scores["y"] = 3
    let diff = diffValues(base, changed) ?? ""
    #expect(diff.contains("-   nickname: nil\n+   nickname: \"Countess\""))
    #expect(diff.contains("-     \"y\": 2\n+     \"y\": 3"))
  }

  @Test func dumpQuotesStringsAndEscapesControlCharacters() {
    #expect(dumpValue("a\u{1B}[31mb\n") == #""a\u{1b}[31mb\n""#)
    #expect(dumpValue(Status.failed("x")) == #".failed("x")"#)
    #expect(dumpValue([1, 2]) == "[1, 2]")
    #expect(dumpValue(Optional<Int>.none as Any) == "nil")
    // Every C0 and C1 control is escaped, the common ones by name.
    #expect(dumpValue("a\rb\tc\u{85}d\u{7F}") == #""a\rb\tc\u{85}d\u{7f}""#)
    // So is what shows as nothing or moves text about; an emoji's joiner stays.
    #expect(
      dumpValue("a\u{200B}b\u{AD}c\u{FEFF}d\u{202E}e\u{2028}f\u{2029}")
        == #""a\u{200b}b\u{ad}c\u{feff}d\u{202e}e\u{2028}f\u{2029}""#)
    #expect(dumpValue("👨\u{200D}👩") == "\"👨\u{200D}👩\"")
  }

  /// Two strings that differ only by an invisible character must not read the same.
  @Test func aDiffShowsACharacterThatDrawsNothing() {
    let diff = diffValues("hound", "hou\u{200B}nd") ?? ""
    #expect(diff.contains(#"+ "hou\u{200b}nd""#), "\(diff)")
  }

  @Test func setsAndDictionariesDumpInAStableOrder() {
    // Their iteration order changes from run to run; a diff must not.
    #expect(dumpValue(Set([30, 1, 200])) == "Set([1, 200, 30])")
    #expect(dumpValue(Set(1...12)) == "Set([1, 10, 11, 12, 2, 3, 4, 5, 6, 7, 8, 9])")
    #expect(dumpValue(["b": 1, "c": 3, "a": 2]) == #"["a": 2, "b": 1, "c": 3]"#)
  }

  /// Types are named as written: without their module, generic arguments included; a
  /// nested type with the type it is in. A struct with nothing stored reads as its
  /// description, or as `Name()`. An enum's unnamed payloads are unlabelled.
  @Test func typesAreNamedAsWritten() {
    #expect(dumpValue(Box(value: 1)) == "Box<Int>(value: 1)")
    #expect(
      dumpValue(Box(value: Box(value: [1]))) == "Box<Box<Array<Int>>>(value: Box<Array<Int>>(value: [1]))")
    #expect(dumpValue(Box<Int?>.Inner(flag: true)) == "Box<Optional<Int>>.Inner(flag: true)")
    #expect(dumpValue(Empty()) == "Empty()")
    #expect(dumpValue(Named()) == "named")
    #expect(dumpValue(Pair.both(1, "a")) == #".both(1, "a")"#)
    #expect(dumpValue(Pair.named(count: 2)) == ".named(count: 2)")
  }

  @Test func aVeryDeepValueIsCutOff() {
    indirect enum Chain { case end, link(Chain) }
    var chain = Chain.end
    for _ in 0..<100 { chain = .link(chain) }
    let dump = dumpValue(chain)
    // Forty levels, then an ellipsis where the rest would be.
    #expect(dump.components(separatedBy: ".link(").count - 1 == 40)
    #expect(dump.contains("…") && !dump.contains(".end"))
  }

  @Test func aReferenceCyclePrintsOnceAndStillDiffs() {
    let first = Link(value: 1)
    first.next = first
    let second = Link(value: 2)
    second.next = second
    #expect(dumpValue(first) == "Link(next: Link(↩︎), value: 1)")
    #expect(diffValues(first, second) == "  Link(\n    … (1 unchanged)\n-   value: 1\n+   value: 2\n  )")
    // The same object twice side by side is not a cycle: both are printed.
    let shared = Link(value: 3)
    #expect(dumpValue([shared, shared]) == "[Link(next: nil, value: 3), Link(next: nil, value: 3)]")
  }

  @Test func aMultiLineStringDiffsByLine() {
    let old = "Dogs\nHound\nPug\nBoxer"
    let new = "Dogs\nHound (7)\nPug\nBoxer"
    #expect(
      diffValues(old, new)
        == [
          "  \"\"\"",
          "    … (1 unchanged)",
          "-   Hound",
          "+   Hound (7)",
          "    … (2 unchanged)",
          "  \"\"\"",
        ].joined(separator: "\n"))
    // Short ones still print on one line; long ones as a block.
    #expect(dumpValue("a\nb") == #""a\nb""#)
    let twoLong = String(repeating: "a", count: 40) + "\n" + String(repeating: "b", count: 40)
    #expect(
      dumpValue(twoLong).split(separator: "\n") == [
        #"""""#, "  " + twoLong.prefix(40), "  " + twoLong.suffix(40), #"""""#,
      ])
    let long = (1...4).map { "line \($0) of a text long enough not to fit on one row" }.joined(
      separator: "\n")
    #expect(dumpValue(long).split(separator: "\n").first == #"""""#)
    #expect(
      dumpValue(long).split(separator: "\n").dropFirst().first
        == "  line 1 of a text long enough not to fit on one row")
  }

  @Test func foundationValuesPrintAsTheirDescription() {
    // Not their private storage, whichever module of Foundation declares them.
    let hound = URL(string: "https://images.dog.ceo/breeds/hound/1.jpg")!
    let pug = URL(string: "https://images.dog.ceo/breeds/pug/2.jpg")!
    #expect(dumpValue(hound) == "https://images.dog.ceo/breeds/hound/1.jpg")
    #expect(dumpValue(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00 +0000")
    #expect(dumpValue(Data([1, 2, 3])) == "3 bytes")
    let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    #expect(dumpValue(id) == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    #expect(
      diffValues(Status.failed(hound.absoluteString), Status.failed(pug.absoluteString))
        == "  .failed(\n-   \"https://images.dog.ceo/breeds/hound/1.jpg\"\n+   \"https://images.dog.ceo/breeds/pug/2.jpg\"\n  )"
    )
    #expect(
      diffValues([hound], [pug])
        == "  [\n-   https://images.dog.ceo/breeds/hound/1.jpg\n+   https://images.dog.ceo/breeds/pug/2.jpg\n  ]"
    )
  }

  @Test func valuesKeptInPrivateStorageReadAsTheirDescription() {
    #expect(dumpValue(Duration.milliseconds(2500)) == "2.5 seconds")
    #expect(
      diffValues(Timer(elapsed: .seconds(1)), Timer(elapsed: .milliseconds(1500)))
        == "  Timer(\n-   elapsed: 1.0 seconds\n+   elapsed: 1.5 seconds\n  )")
    #expect(dumpValue(Token(_raw: 7)) == "token #7")
    // Without a description, or with a property of its own, a struct shows its fields.
    #expect(dumpValue(Opaque(_raw: 7)) == "Opaque(_raw: 7)")
    #expect(dumpValue(Timer(elapsed: .zero)) == "Timer(elapsed: 0.0 seconds)")
  }

  @Test func aSubstringIsQuotedLikeAString() {
    let name = "afghan hound".dropFirst(7)
    #expect(dumpValue(name) == #""hound""#)
    #expect(dumpValue("".dropFirst()) == #""""#)
    let (old, new) = ("a\nb\nc".dropFirst(2), "a\nb\nd".dropFirst(2))
    #expect(diffValues(old, new) != nil && diffValues(old, new) == diffValues(String(old), String(new)))
  }

  @Test func quotesBackslashesCharactersTuplesAndErrors() {
    #expect(dumpValue(#"say "hi" \ there"#) == #""say \"hi\" \\ there""#)
    #expect(dumpValue(Character("q")) == #""q""#)
    #expect(dumpValue((1, label: "x")) == #"(1, label: "x")"#)
    #expect(diffValues((1, "a"), (1, "b")) == "  (\n    … (1 unchanged)\n-   \"a\"\n+   \"b\"\n  )")
    #expect(dumpValue(Tagged()) == "Tagged<42>")
    // Struct and enum errors print as values; others (classes, NSError) as themselves.
    #expect(dumpValue(Boom(code: 3)) == "Boom(code: 3)")
    #expect(
      dumpValue(Wrapped(inner: Address(city: "x", zip: 1))) == #"Wrapped(inner: Address(city: "x", zip: 1))"#)
    #expect(dumpValue(NSError(domain: "dog", code: 7)).hasPrefix("Error Domain=dog Code=7"))
  }

  @Test func aDictionaryKeyRemovedAndAnotherAdded() {
    #expect(
      diffValues(["a": 1, "b": 2, "d": 4], ["a": 1, "c": 3, "d": 4])
        == "  [\n    … (1 unchanged)\n-   \"b\": 2\n    … (1 unchanged)\n+   \"c\": 3\n  ]")
  }

  @Test func aLongArrayStillDiffsToTheChangedElements() {
    // Changed at both ends, so nothing is set aside: two changes in place.
    let old = Array(0..<2000)
    var new = old
    new[0] = -1
    new[1999] = -2
    #expect(
      diffValues(old, new)
        == "  [\n-   0\n+   -1\n    … (1998 unchanged)\n-   1999\n+   -2\n  ]")
  }

  @Test func elementsAddedAndRemovedFarApartInALongArrayAreOneLineEach() {
    // Between the first change and the last lie 3,000 elements: aligning them pair by
    // pair would take 9 million comparisons; a shortest edit script takes a few thousand.
    let old = Array(0..<4000)
    var new = old
    new.insert(-1, at: 3500)
    new.remove(at: 2000)
    new.insert(-2, at: 500)
    #expect(
      diffValues(old, new)
        == [
          "  [", "    … (500 unchanged)", "+   -2", "    … (1500 unchanged)", "-   2000",
          "    … (1499 unchanged)", "+   -1", "    … (500 unchanged)", "  ]",
        ].joined(separator: "\n"))
  }

  @Test func aListChangedThroughoutIsComparedByPosition() {
    // Too many edits to search for a shortest script (every other element changed): the
    // elements are paired by position, each change shown in place.
    let old = Array(0..<3000)
    let new = old.map { $0.isMultiple(of: 2) ? $0 : -$0 }
    let lines = diffValues(old, new)?.split(separator: "\n") ?? []
    #expect(lines.count == 2 + 1500 + 2 * 1500)
    #expect(lines.prefix(5) == ["  [", "    … (1 unchanged)", "-   1", "+   -1", "    … (1 unchanged)"])
    #expect(lines.suffix(3) == ["-   2999", "+   -2999", "  ]"])
  }

  @Test func changesSideBySidePairUpInOrder() {
    #expect(
      diffValues([1, 2, 3, 4], [1, 5, 6, 4])
        == "  [\n    … (1 unchanged)\n-   2\n+   5\n-   3\n+   6\n    … (1 unchanged)\n  ]")
  }

  /// Thousands of small lists, drawn from a few values so that many alignments tie: each
  /// diff must turn the first list into the second (read back line by line) and keep as
  /// many elements as a longest common subsequence has.
  @Test func everyDiffOfTwoListsIsAShortestOne() {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    for _ in 0..<3_000 {
      let values = 1 + next(4)
      let old = (0..<next(12)).map { _ in next(values) }
      let new = (0..<next(12)).map { _ in next(values) }
      guard let diff = diffValues(old, new) else {
        #expect(old == new)
        continue
      }
      let lines = diff.split(separator: "\n").map(String.init)
      guard lines.first == "  [" else {
        // An empty list prints whole: one side is `[]`.
        #expect(old.isEmpty || new.isEmpty)
        continue
      }
      var position = 0
      var rebuilt: [Int] = []
      var kept = 0
      for line in lines.dropFirst().dropLast() {
        let text = line.dropFirst(2).trimmingPrefix(while: { $0 == " " })
        if line.hasPrefix("- ") {
          #expect(Int(text) == old[position], "\(old) → \(new):\n\(diff)")
          position += 1
        } else if line.hasPrefix("+ ") {
          rebuilt.append(Int(text) ?? .min)
        } else {
          let count = Int(text.dropFirst(3).prefix(while: \.isNumber)) ?? 0
          rebuilt += old[position..<position + count]
          position += count
          kept += count
        }
      }
      #expect(position == old.count && rebuilt == new, "\(old) → \(new):\n\(diff)")
      #expect(kept == longestCommonSubsequence(old, new), "\(old) → \(new):\n\(diff)")
    }
  }

  private func longestCommonSubsequence(_ old: [Int], _ new: [Int]) -> Int {
    var lengths = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in old.indices.reversed() {
      for j in new.indices.reversed() {
        lengths[i][j] =
          old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    return lengths[0][0]
  }

  @Test func anElementInsertedIntoALongArrayIsOneAddedLine() {
    // The equal ends are set aside before aligning: 3,000² pairs would be too many.
    let old = Array(0..<3000)
    var new = old
    new.insert(-1, at: 1500)
    #expect(diffValues(old, new) == "  [\n    … (1500 unchanged)\n+   -1\n    … (1500 unchanged)\n  ]")
    #expect(diffValues(new, old) == "  [\n    … (1500 unchanged)\n-   -1\n    … (1500 unchanged)\n  ]")
    let moved = [-1] + old
    #expect(diffValues(old, moved) == "  [\n+   -1\n    … (3000 unchanged)\n  ]")
  }

  @Test func anIdentifiedArrayDiffsAsItsElements() {
    let old: IdentifiedArrayOf<Row> = [Row(id: 1, name: "x"), Row(id: 2, name: "y")]
    var new = old
    new[id: 2]?.name = "z"
    #expect(dumpValue(old) == #"[Row(id: 1, name: "x"), Row(id: 2, name: "y")]"#)
    #expect(
      diffValues(old, new)
        == [
          "  [",
          "    … (1 unchanged)",
          "    Row(",
          "      id: 2",
          "-     name: \"y\"",
          "+     name: \"z\"",
          "    )",
          "  ]",
        ].joined(separator: "\n"))
  }
}

private struct Tagged: CustomDumpStringConvertible {
  var dumpDescription: String { "Tagged<42>" }
}
private struct Boom: Error { var code: Int }
private struct Wrapped: Error { var inner: Address }
private struct Box<Value> {
  var value: Value
  struct Inner { var flag: Bool }
}
private struct Empty {}
private struct Named: CustomStringConvertible { var description: String { "named" } }
private enum Pair {
  case both(Int, String)
  case named(count: Int)
}
private struct Timer: CustomStringConvertible {
  var elapsed: Duration
  var description: String { "timer at \(elapsed)" }
}
private struct Token: CustomStringConvertible {
  var _raw: Int
  var description: String { "token #\(_raw)" }
}
private struct Opaque { var _raw: Int }
private struct Row: Identifiable, Equatable {
  var id: Int
  var name: String
}

private final class Link {
  var next: Link?
  let value: Int
  init(value: Int) { self.value = value }
}
