/// How far apart two names are in typing slips: the fewest letters put in, left out,
/// changed, or two side by side swapped ("retreiver" is one from "retriever"), each slip
/// once (the optimal string alignment distance), compared byte by byte.
enum Spelling {
  /// The slips that may turn `typed` into a name and still read as a slip: none for one or
  /// two letters (too many names are that close), one up to five, two up to ten, three past.
  static func allowedSlips(_ typed: Int) -> Int {
    switch typed {
    case ..<3: 0
    case ...5: 1
    case ...10: 2
    default: 3
    }
  }

  /// The indices of the keys that `typed` misspells: the closest first, each distance in
  /// order; three at most.
  static func closest(to typed: [UInt8], among keys: [[UInt8]]) -> [Int] {
    let limit = allowedSlips(typed.count)
    guard limit > 0 else { return [] }
    var table = Table()
    var found: [(distance: Int, index: Int)] = []
    for (index, key) in keys.enumerated() {
      if let distance = table.distance(typed, key, limit: limit) { found.append((distance, index)) }
    }
    return found.sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }.prefix(3).map(\.index)
  }

  /// The rows of the distance table, kept from one name to the next: a list of 10,000
  /// names is measured with one allocation, not three per name.
  struct Table {
    private var cells: [Int] = []

    /// The distance from `typed` to `name`, or `nil` where it is more than `limit` (found
    /// without finishing the table where the lengths alone, or a whole row, say so).
    mutating func distance(_ typed: [UInt8], _ name: [UInt8], limit: Int) -> Int? {
      guard abs(typed.count - name.count) <= limit else { return nil }
      if typed.isEmpty || name.isEmpty { return max(typed.count, name.count) }
      let width = name.count + 1
      if cells.count < 3 * width { cells = [Int](repeating: 0, count: 3 * width) }
      let result = cells.withUnsafeMutableBufferPointer { cells in
        typed.withUnsafeBufferPointer { typed in
          name.withUnsafeBufferPointer { name in
            Self.fill(cells, typed, name, limit: limit)
          }
        }
      }
      return result <= limit ? result : nil
    }

    /// Fills three rows of `cells` in turn (two back, for a swap; the last; the one being
    /// filled) and answers the distance, or `limit + 1` once a whole row is past `limit`.
    ///
    /// Only the band of cells within `limit` of the diagonal is filled: a cell further off
    /// is past `limit` whatever the letters. The cell on each side of a row's band holds
    /// `limit + 1`, so that the next row reads no cell of an earlier name.
    private static func fill(
      _ cells: UnsafeMutableBufferPointer<Int>, _ typed: UnsafeBufferPointer<UInt8>,
      _ name: UnsafeBufferPointer<UInt8>, limit: Int
    ) -> Int {
      let width = name.count + 1
      let past = limit + 1
      var (twoBack, last, row) = (0, width, 2 * width)
      for j in 0..<width { cells[last + j] = j }
      for i in 1...typed.count {
        let low = max(1, i - limit)
        let high = min(name.count, i + limit)
        cells[row + low - 1] = low == 1 ? i : past
        var smallest = low == 1 ? i : past
        if low <= high {
          for j in low...high {
            let changed = typed[i - 1] == name[j - 1] ? 0 : 1
            var best = min(cells[last + j] + 1, cells[row + j - 1] + 1, cells[last + j - 1] + changed)
            if i > 1, j > 1, typed[i - 1] == name[j - 2], typed[i - 2] == name[j - 1] {
              best = min(best, cells[twoBack + j - 2] + 1)
            }
            cells[row + j] = best
            smallest = min(smallest, best)
          }
        }
        if high < name.count { cells[row + high + 1] = past }
        if smallest > limit { return past }
        (twoBack, last, row) = (last, row, twoBack)
      }
      return cells[last + name.count]
    }
  }
}
