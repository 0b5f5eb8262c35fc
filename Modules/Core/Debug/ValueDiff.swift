/// A readable, minimal diff of two values of any type, or `nil` when they print the same.
///
/// Unchanged parts are folded into `… (N unchanged)`; changed lines are marked `-` (the
/// first value) and `+` (the second). Nested structs, enums, arrays, dictionaries, sets,
/// optionals and the lines of multi-line strings are walked, so only the innermost change
/// is shown (with the `id` of a changed element of a collection, such as a row of an
/// `IdentifiedArray`, kept in view):
///
/// ```
///   State(
/// -   filter: "ho"
/// +   filter: "hou"
///     … (2 unchanged)
///   )
/// ```
///
/// - Parameters:
///   - old: The value before (or expected).
///   - new: The value after (or actual).
/// - Returns: The diff, or `nil` if there is no visible difference.
public func diffValues(_ old: Any, _ new: Any) -> String? {
  let lhs = DumpNode(old)
  let rhs = DumpNode(new)
  guard lhs != rhs else { return nil }
  return ValueDiffer.diff(lhs, rhs, label: nil, indent: 0).joined(separator: "\n")
}

enum ValueDiffer {
  /// The lines for two nodes that differ (callers fold equal ones).
  ///
  /// `showingID`: the nodes are elements of a collection, and an unchanged `id` among
  /// their children is shown rather than folded, so the diff says which element changed
  /// (the row of an `IdentifiedArray`, say).
  static func diff(
    _ old: DumpNode, _ new: DumpNode, label: String?, indent: Int, showingID: Bool = false
  ) -> [String] {
    if case .container(let oldKind, let oldOpen, let oldClose, let oldChildren) = old,
      case .container(let newKind, let newOpen, _, let newChildren) = new,
      oldKind == newKind, oldOpen == newOpen
    {
      let pad = String(repeating: " ", count: indent)
      let prefix = label.map { "\($0): " } ?? ""
      var result = ["  " + pad + prefix + oldOpen]
      let body: [String]
      switch oldKind {
      case .collection, .set, .text:
        body = diffSequence(oldChildren, newChildren, indent: indent + 2)
      case .structure, .enumeration, .tuple, .dictionary:
        body = diffLabeled(oldChildren, newChildren, indent: indent + 2, showingID: showingID)
      }
      result += body
      result.append("  " + pad + oldClose)
      return result
    }
    return old.lines(indent: indent, label: label).map { "- " + $0 }
      + new.lines(indent: indent, label: label).map { "+ " + $0 }
  }

  /// Children matched by label (or position when unlabeled); an unchanged `id` is shown
  /// if `showingID`.
  static func diffLabeled(
    _ old: [DumpNode.Child], _ new: [DumpNode.Child], indent: Int, showingID: Bool = false
  ) -> [String] {
    var result = FoldedLines(indent: indent)
    let newByLabel = Dictionary(
      new.enumerated().map { ($0.element.label ?? "#\($0.offset)", $0.element) },
      uniquingKeysWith: { first, _ in first })
    var seen = Set<String>()
    for (offset, child) in old.enumerated() {
      let key = child.label ?? "#\(offset)"
      seen.insert(key)
      guard let counterpart = newByLabel[key] else {
        result.append(child.node.lines(indent: indent, label: child.label).map { "- " + $0 })
        continue
      }
      if counterpart.node == child.node {
        if showingID, child.label == "id" {
          result.append(child.node.lines(indent: indent, label: child.label).map { "  " + $0 })
        } else {
          result.keep()
        }
      } else {
        result.append(diff(child.node, counterpart.node, label: child.label, indent: indent))
      }
    }
    for (offset, child) in new.enumerated() where !seen.contains(child.label ?? "#\(offset)") {
      result.append(child.node.lines(indent: indent, label: child.label).map { "+ " + $0 })
    }
    return result.finished()
  }

  /// Elements aligned by a shortest edit script, so an insertion shows as one `+`.
  ///
  /// Equal elements at either end stay as they are and only what lies between them is
  /// aligned: one element inserted into or changed in a long list costs no search.
  static func diffSequence(
    _ old: [DumpNode.Child], _ new: [DumpNode.Child], indent: Int
  ) -> [String] {
    var start = 0
    while start < old.count, start < new.count, old[start].node == new[start].node { start += 1 }
    var oldEnd = old.count
    var newEnd = new.count
    while oldEnd > start, newEnd > start, old[oldEnd - 1].node == new[newEnd - 1].node {
      oldEnd -= 1
      newEnd -= 1
    }
    var result = FoldedLines(indent: indent)
    result.keep(start)
    align(Array(old[start..<oldEnd]), Array(new[start..<newEnd]), into: &result)
    result.keep(old.count - oldEnd)
    return result.finished()
  }

  /// Writes the lines for two runs of elements, aligned by a shortest edit script (so by
  /// a longest common subsequence); where more than ``maximumEdits`` elements would have
  /// to be added or removed, by position.
  static func align(_ old: [DumpNode.Child], _ new: [DumpNode.Child], into result: inout FoldedLines) {
    let indent = result.indent
    // Elements removed and added between two kept ones pair up in order, as changes in
    // place (shown as a nested diff); the rest are removed, then added.
    func changes(removed: [Int], added: [Int]) {
      let paired = min(removed.count, added.count)
      for (before, after) in zip(removed.map { old[$0].node }, added.map { new[$0].node }) {
        if before == after {
          result.keep()
        } else {
          result.append(diff(before, after, label: nil, indent: indent, showingID: true))
        }
      }
      for index in removed.dropFirst(paired) {
        result.append(old[index].node.lines(indent: indent).map { "- " + $0 })
      }
      for index in added.dropFirst(paired) {
        result.append(new[index].node.lines(indent: indent).map { "+ " + $0 })
      }
    }
    guard let script = editScript(old, new) else {
      // Too many edits to search for: the whole run pairs up by position.
      changes(removed: Array(old.indices), added: Array(new.indices))
      return
    }
    var removed: [Int] = []
    var added: [Int] = []
    for edit in script {
      switch edit {
      case .keep:
        changes(removed: removed, added: added)
        (removed, added) = ([], [])
        result.keep()
      case .remove(let index): removed.append(index)
      case .add(let index): added.append(index)
      }
    }
    changes(removed: removed, added: added)
  }

  /// The most elements ``editScript(_:_:)`` adds and removes before giving up, and the
  /// most comparisons its search may take (it takes about the lengths times the edits).
  static let maximumEdits = 1_000
  static let maximumComparisons = 4_000_000

  enum Edit {
    case keep
    case remove(Int)
    case add(Int)
  }

  /// A shortest edit script from `old` to `new` (Myers, "An O(ND) difference algorithm"):
  /// time grows with the lengths times the number of edits, not with the product of the
  /// lengths, so a few changes in a long list are found at once. `nil` past
  /// ``maximumEdits`` edits, or fewer where the lists are so long that searching for that
  /// many would take more than ``maximumComparisons``.
  static func editScript(_ old: [DumpNode.Child], _ new: [DumpNode.Child]) -> [Edit]? {
    let n = old.count
    let m = new.count
    let limit = min(n + m, maximumEdits, max(1, maximumComparisons / max(1, n + m)))
    // furthest[k + offset]: the furthest x reached on diagonal k (x - y) so far; one copy
    // per number of edits, kept for the way back.
    let offset = limit + 1
    var furthest = [Int](repeating: 0, count: 2 * offset + 1)
    var history: [[Int]] = []
    for edits in 0...limit {
      history.append(furthest)
      for k in stride(from: -edits, through: edits, by: 2) {
        var x =
          k == -edits || (k != edits && furthest[offset + k - 1] < furthest[offset + k + 1])
          ? furthest[offset + k + 1] : furthest[offset + k - 1] + 1
        var y = x - k
        while x < n, y < m, old[x].node == new[y].node {
          x += 1
          y += 1
        }
        furthest[offset + k] = x
        if x >= n, y >= m {
          return backtrack(history, offset: offset, to: (n, m))
        }
      }
    }
    return nil
  }

  /// Walks back from the end through the furthest points of each number of edits.
  private static func backtrack(_ history: [[Int]], offset: Int, to end: (x: Int, y: Int)) -> [Edit] {
    var script: [Edit] = []
    var (x, y) = end
    for edits in stride(from: history.count - 1, to: 0, by: -1) {
      let before = history[edits]
      let k = x - y
      let previousK =
        k == -edits || (k != edits && before[offset + k - 1] < before[offset + k + 1]) ? k + 1 : k - 1
      let previousX = before[offset + previousK]
      let previousY = previousX - previousK
      while x > previousX, y > previousY {
        script.append(.keep)
        x -= 1
        y -= 1
      }
      if x == previousX {
        script.append(.add(previousY))
      } else {
        script.append(.remove(previousX))
      }
      (x, y) = (previousX, previousY)
    }
    script += Array(repeating: .keep, count: x)
    return script.reversed()
  }
}

/// The lines of a diff as they are written, each run of unchanged children folded into
/// one `… (N unchanged)` line.
struct FoldedLines {
  let indent: Int
  private var lines: [String] = []
  private var unchanged = 0

  init(indent: Int) { self.indent = indent }

  /// One more child (or `count` more) is unchanged.
  mutating func keep(_ count: Int = 1) { unchanged += count }

  /// Lines for a changed, removed or added child.
  mutating func append(_ more: [String]) {
    foldUnchanged()
    lines += more
  }

  /// All the lines, the last unchanged run folded.
  mutating func finished() -> [String] {
    foldUnchanged()
    return lines
  }

  private mutating func foldUnchanged() {
    guard unchanged > 0 else { return }
    lines.append("  " + String(repeating: " ", count: indent) + "… (\(unchanged) unchanged)")
    unchanged = 0
  }
}
