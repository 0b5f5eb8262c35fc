import Core
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
  }

  @Test func setsAndDictionariesDumpInAStableOrder() {
    // Their iteration order changes from run to run; a diff must not.
    #expect(dumpValue(Set([30, 1, 200])) == "Set([1, 200, 30])")
    #expect(dumpValue(["b": 1, "c": 3, "a": 2]) == #"["a": 2, "b": 1, "c": 3]"#)
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
    let long = (1...4).map { "line \($0) of a text long enough not to fit on one row" }.joined(
      separator: "\n")
    #expect(dumpValue(long).split(separator: "\n").first == #"""""#)
    #expect(
      dumpValue(long).split(separator: "\n").dropFirst().first
        == "  line 1 of a text long enough not to fit on one row")
  }
}

private final class Link {
  var next: Link?
  let value: Int
  init(value: Int) { self.value = value }
}

@MainActor
struct PrintChangesTests {
  @Test func logsTheActionAndTheStateDiff() {
    let log = Log<String>()
    let store = Store(initialState: Counter.State(), reducer: Counter()._printChanges { log.append($0) })
    store.send(.increment)
    store.send(.set(1))
    #expect(log.values.count == 2)
    #expect(
      log.values[0] == "received action:\n  .increment\n  Counter.State(\n-   count: 0\n+   count: 1\n  )\n")
    #expect(log.values[1] == "received action:\n  .set(1)\n  (no state changes)\n")
  }
}
