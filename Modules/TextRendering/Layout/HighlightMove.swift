/// Keyboard movement of a list's highlight: the one both screens' lists use.
public enum HighlightMove: Equatable, Sendable, Codable {
  /// One row up or down; to the first or the last row.
  case up, down, first, last
  /// Up by a page of `rows`.
  case pageUp(rows: Int)
  /// Down by a page of `rows`.
  case pageDown(rows: Int)
  /// To this row (where it was clicked).
  case row(Int)

  /// The row this move goes to in a list of `count` rows, from the highlighted row
  /// `current` (`nil` where nothing is highlighted: then down goes to the first row); never
  /// outside the list.
  ///
  /// - Parameters:
  ///   - current: The highlighted row, if any.
  ///   - count: How many rows the list has (at least one).
  /// - Returns: The row to highlight.
  public func target(from current: Int?, count: Int) -> Int {
    let target: Int
    switch self {
    case .up: target = (current ?? 0) - 1
    case .down: target = current.map { $0 + 1 } ?? 0
    case .first: target = 0
    case .last: target = count - 1
    case .pageUp(let rows): target = (current ?? 0) - max(1, rows)
    case .pageDown(let rows): target = (current ?? 0) + max(1, rows)
    case .row(let row): target = row
    }
    return max(0, min(count - 1, target))
  }
}

extension Collection where Index == Int {
  /// The index `steps` along from `index`, round the ends: a ring of buttons, of tabs, of
  /// a spinner's frames. `index` itself where the collection is empty.
  ///
  /// - Parameters:
  ///   - index: Where to start (any integer: it is taken round the ring too).
  ///   - steps: How far to go, forwards or (negative) back.
  /// - Returns: An index of the collection.
  public func index(_ index: Int, cyclingBy steps: Int) -> Int {
    guard !isEmpty else { return index }
    return startIndex + ((index - startIndex + steps) % count + count) % count
  }
}
