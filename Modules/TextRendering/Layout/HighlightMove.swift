/// How a list's highlight moves: by the keys, or to the item a click was on. The one move
/// every screen's list takes.
public enum HighlightMove: Equatable, Sendable, Codable {
  /// One row up or down; to the first or the last row.
  case up, down, first, last
  /// Up by a page of `rows`.
  case pageUp(rows: Int)
  /// Down by a page of `rows`.
  case pageDown(rows: Int)
  /// To the row at this place in the list. Only session logs of the first format version
  /// hold it, from clicks, and it is kept so that they replay: a place names another item
  /// once the list has changed, so a click sends ``item(_:)``.
  case row(Int)
  /// To the item with this id (a breed's API name, a sub-breed's, a favourite's): where a
  /// click was. The highlight stays where the list no longer has the item.
  case item(String)

  /// The place this move goes to in a list of items, from the highlighted place `current`
  /// (`nil` where nothing is highlighted: then down goes to the first row); never outside
  /// the list.
  ///
  /// - Parameters:
  ///   - ids: The list's items, by id, in order.
  ///   - current: The highlighted place, if any (counted from the list's start).
  /// - Returns: The place to highlight (counted from the list's start), or `nil` where the
  ///   list is empty or has no item this move names.
  public func target<IDs: RandomAccessCollection<String>>(in ids: IDs, from current: Int?) -> Int? {
    let count = ids.count
    guard count > 0 else { return nil }
    let target: Int
    switch self {
    case .up: target = (current ?? 0) - 1
    case .down: target = current.map { $0 + 1 } ?? 0
    case .first: target = 0
    case .last: target = count - 1
    case .pageUp(let rows): target = (current ?? 0) - max(1, rows)
    case .pageDown(let rows): target = (current ?? 0) + max(1, rows)
    case .row(let row): target = row
    case .item(let id):
      guard let index = ids.firstIndex(of: id) else { return nil }
      return ids.distance(from: ids.startIndex, to: index)
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
