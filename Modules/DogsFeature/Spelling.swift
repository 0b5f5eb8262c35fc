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

  /// The three candidates closest to `typed` of those it misspells, ranked by distance,
  /// then by their numbers: each candidate is measured against one spelling or more (a
  /// sub-breed's title either way round) and its closest counts.
  struct Nearest {
    let typed: [UInt8]
    let limit: Int
    /// The letters `typed` has (see ``Spelling/letters(_:)``).
    let typedLetters: UInt64
    private var table = Table()
    private var found: [(distance: Int, candidate: Int)] = []

    init(_ typed: [UInt8]) {
      self.typed = typed
      limit = Spelling.allowedSlips(typed.count)
      typedLetters = Spelling.letters(typed)
    }

    /// Whether anything can be a slip away (not for one or two letters).
    var isPossible: Bool { limit > 0 }

    /// Whether a spelling of `length` bytes may be near enough (its length alone can rule
    /// it out, before it is put together).
    func canReach(length: Int) -> Bool { isPossible && abs(typed.count - length) <= limit }

    /// Whether a spelling with `letters` may be near enough. A letter that one of the two
    /// has and the other lacks takes a slip of its own to mend (a change mends one on each
    /// side; a swap none), so more such letters on either side than the slips allowed rule
    /// the spelling out before any table is filled: most names, for most of what is typed.
    func canReach(letters: UInt64) -> Bool {
      (typedLetters & ~letters).nonzeroBitCount <= limit && (letters & ~typedLetters).nonzeroBitCount <= limit
    }

    /// Measures one spelling of `candidate`; the spellings of a candidate come together.
    /// `letters` are the key's (``Spelling/letters(_:)``), where the caller has them.
    mutating func consider(_ key: [UInt8], letters: UInt64? = nil, as candidate: Int) {
      guard isPossible, canReach(letters: letters ?? Spelling.letters(key)),
        let distance = table.distance(typed, key, limit: limit)
      else { return }
      if let last = found.last, last.candidate == candidate {
        found[found.count - 1].distance = min(last.distance, distance)
      } else {
        found.append((distance, candidate))
      }
    }

    /// The closest three candidates' numbers, closest first.
    var closest: [Int] {
      found.sorted { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }.prefix(3).map(\.candidate)
    }
  }

  /// The letters of `bytes`, one bit each: a byte's low six bits choose its bit. Bytes
  /// that share a bit (a letter and a digit, say) count as one letter, which only lets
  /// more spellings through to be measured.
  static func letters(_ bytes: [UInt8]) -> UInt64 {
    var letters: UInt64 = 0
    for byte in bytes { letters |= 1 << (byte & 63) }
    return letters
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
