import Testing
import TextRendering

/// `HighlightMove.target(from:count:)`: where each key takes a list's highlight.
struct HighlightMoveTests {
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
  ])
  func aMoveStaysInTheList(move: HighlightMove, current: Int?, expected: Int) {
    #expect(move.target(from: current, count: 10) == expected)
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
