import DogsFeature
import Testing

/// The spelling suggestions against a plain, whole-table count of slips, on names and
/// slips made at random (seeded: the same every run).
struct SpellingTests {
  /// Letters put in, left out, changed, or two side by side swapped: the whole table.
  func slips(_ a: [UInt8], _ b: [UInt8]) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in stride(from: 1, through: a.count, by: 1) {
      for j in stride(from: 1, through: b.count, by: 1) {
        table[i][j] = min(
          table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }

  /// With four letters names are often a slip or two apart; with twenty-six, most differ
  /// in letters they have, which rules them out before they are measured.
  @Test(arguments: [4, 26])
  func suggestionsAreTheNamesWithinTheSlipsAllowedClosestFirst(alphabet: Int) {
    var seed: UInt64 = 0x5EED
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    func letter() -> UInt8 { UInt8(ascii: "a") + UInt8(next(alphabet)) }
    func word(_ length: Int) -> [UInt8] { (0..<length).map { _ in letter() } }
    func slipped(_ name: [UInt8]) -> [UInt8] {
      var typed = name
      for _ in 0..<next(4) {
        let at = next(typed.count + 1)
        switch next(4) {
        case 0: typed.insert(letter(), at: at)
        case 1 where at < typed.count: typed.remove(at: at)
        case 2 where at < typed.count: typed[at] = letter()
        case 3 where at + 1 < typed.count: typed.swapAt(at, at + 1)
        default: break
        }
      }
      return typed
    }
    var offered = 0
    for _ in 0..<400 {
      let names = (0..<(1 + next(12))).map { _ in String(decoding: word(1 + next(13)), as: UTF8.self) }
      let typed = slipped(Array(names[next(names.count)].utf8))
      let allowed = typed.count < 3 ? 0 : typed.count <= 5 ? 1 : typed.count <= 10 ? 2 : 3
      let expected = names.indices
        .map { (slips: slips(typed, Array(names[$0].utf8)), index: $0) }
        .filter { allowed > 0 && $0.slips <= allowed }
        .sorted { ($0.slips, $0.index) < ($1.slips, $1.index) }
        .prefix(3).map { names[$0.index] }
      let text = String(decoding: typed, as: UTF8.self)
      #expect(DogsFeature.spellingMatches(of: text, among: names) == expected, "\(text) among \(names)")
      offered += expected.isEmpty ? 0 : 1
    }
    // The cases are not all empty ones.
    #expect(offered > 200)
  }
}
