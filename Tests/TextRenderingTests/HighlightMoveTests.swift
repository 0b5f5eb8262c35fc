import Testing
import TextRendering

/// `HighlightMove.target(in:from:)`: where each key, and each click, takes a list's
/// highlight.
struct HighlightMoveTests {
  static let ids = (0..<10).map { "item\($0)" }

  @Test(arguments: [
    (HighlightMove.down, nil as Int?, 0),
    (.down, 3, 4),
    (.down, 9, 9),
    (.up, nil, 0),
    (.up, 3, 2),
    (.up, 0, 0),
    (.first, 7, 0),
    (.last, nil, 9),
    (.pageDown(rows: 4), 3, 7),
    (.pageDown(rows: 4), 8, 9),
    (.pageUp(rows: 4), 3, 0),
    (.pageUp(rows: 0), 5, 4),
    (.row(6), 2, 6),
    (.row(12), nil, 9),
    (.row(-1), 3, 0),
    (.item("item6"), 2, 6),
    (.item("item0"), nil, 0),
  ])
  func aMoveStaysInTheList(move: HighlightMove, current: Int?, expected: Int) {
    #expect(move.target(in: Self.ids, from: current) == expected)
  }

  /// A move to an item the list no longer has goes nowhere, as does every move in an
  /// empty list; an item's place counts from the start of the list given.
  @Test func aMoveToAnItemNotInTheListGoesNowhere() {
    #expect(HighlightMove.item("item10").target(in: Self.ids, from: 3) == nil)
    #expect(HighlightMove.down.target(in: [String](), from: nil) == nil)
    #expect(HighlightMove.item("item6").target(in: Self.ids[4...], from: nil) == 2)
    #expect(HighlightMove.last.target(in: Self.ids[4...], from: nil) == 5)
  }
}

/// `index(_:cyclingBy:)`: a ring of buttons, tabs or frames.
struct CyclingTests {
  @Test func anIndexGoesRoundTheEndsBothWays() {
    let ring = [10, 11, 12]
    #expect(ring.index(0, cyclingBy: 1) == 1)
    #expect(ring.index(2, cyclingBy: 1) == 0)
    #expect(ring.index(0, cyclingBy: -1) == 2)
    #expect(ring.index(1, cyclingBy: -7) == 0)
    #expect(ring.index(0, cyclingBy: 30_001) == 1)
    #expect((5..<8).index(5, cyclingBy: -1) == 7)
    #expect([Int]().index(4, cyclingBy: 3) == 4)
  }
}
