/// A readable, minimal diff of two values of any type, or `nil` when they print the same.
///
/// Unchanged parts are folded into `… (N unchanged)`; changed lines are marked `-` (the
/// first value) and `+` (the second). Nested structs, enums, arrays, dictionaries, sets,
/// optionals and the lines of multi-line strings are walked, so only the innermost change
/// is shown:
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
  static func diff(_ old: DumpNode, _ new: DumpNode, label: String?, indent: Int) -> [String] {
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
        body = diffLabeled(oldChildren, newChildren, indent: indent + 2)
      }
      result += body
      result.append("  " + pad + oldClose)
      return result
    }
    return old.lines(indent: indent, label: label).map { "- " + $0 }
      + new.lines(indent: indent, label: label).map { "+ " + $0 }
  }

  /// Children matched by label (or position when unlabeled).
  static func diffLabeled(
    _ old: [DumpNode.Child], _ new: [DumpNode.Child], indent: Int
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
        result.keep()
      } else {
        result.append(diff(child.node, counterpart.node, label: child.label, indent: indent))
      }
    }
    for (offset, child) in new.enumerated() where !seen.contains(child.label ?? "#\(offset)") {
      result.append(child.node.lines(indent: indent, label: child.label).map { "+ " + $0 })
    }
    return result.finished()
  }

  /// Elements aligned by a longest common subsequence, so an insertion shows as one `+`.
  ///
  /// Equal elements at either end stay as they are and only what lies between them is
  /// aligned, so one element inserted into or changed in a long list is found at any
  /// length (aligning costs the product of the two lengths).
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

  /// Writes the lines for two runs of elements, aligned by a longest common subsequence;
  /// past a million pairs to compare, by position.
  static func align(_ old: [DumpNode.Child], _ new: [DumpNode.Child], into result: inout FoldedLines) {
    let n = old.count
    let m = new.count
    let indent = result.indent
    func removed(_ child: DumpNode.Child) {
      result.append(child.node.lines(indent: indent).map { "- " + $0 })
    }
    func added(_ child: DumpNode.Child) { result.append(child.node.lines(indent: indent).map { "+ " + $0 }) }
    func changed(_ old: DumpNode.Child, _ new: DumpNode.Child) {
      if old.node == new.node {
        result.keep()
      } else {
        result.append(diff(old.node, new.node, label: nil, indent: indent))
      }
    }
    guard n * m <= 1_000_000 else {
      for index in 0..<max(n, m) {
        if index < n, index < m {
          changed(old[index], new[index])
        } else if index < n {
          removed(old[index])
        } else {
          added(new[index])
        }
      }
      return
    }
    // lengths[i][j]: LCS length of old[i...] and new[j...].
    var lengths = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    if n > 0 && m > 0 {
      for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
          lengths[i][j] =
            old[i].node == new[j].node
            ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
        }
      }
    }
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, old[i].node == new[j].node || lengths[i + 1][j + 1] == lengths[i][j] {
        // Common to both, or neither belongs to the common part: a change in place.
        changed(old[i], new[j])
        i += 1
        j += 1
      } else if j < m, i == n || lengths[i][j + 1] >= lengths[i + 1][j] {
        added(new[j])
        j += 1
      } else {
        removed(old[i])
        i += 1
      }
    }
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
