/// A value that chooses its own one-line text in dumps and diffs (URLs, dates, ids).
public protocol CustomDumpStringConvertible {
  /// The text shown for this value.
  var dumpDescription: String { get }
}

/// Renders any value as readable, indented text, the way diffs show it.
///
/// Structs print as `Type(label: value, …)`, enums as `.case(payload)`, collections as
/// `[…]`, optionals unwrapped or `nil`, strings and substrings quoted (a string of several
/// lines that does not fit prints as a `"""` block, one line per row). Foundation's values
/// (URL, Date, UUID, Data) and structs whose properties are all private storage
/// (`Duration`) print as their description. An object met again inside
/// itself prints as `Type(↩︎)`, so reference cycles end. Values that fit in 60 columns
/// stay on one line.
///
/// - Parameter value: Any value.
/// - Returns: The rendering.
public func dumpValue(_ value: Any) -> String {
  DumpNode(value).lines(indent: 0).joined(separator: "\n")
}

/// `string` as a Swift string literal on one line, escaped as dumps and diffs show strings
/// (control, invisible and bidirectional characters as `\u{…}`). For this package's code
/// generators, which write values as Swift source.
package func swiftStringLiteral(_ string: String) -> String {
  DumpNode.quote(string)
}

/// `dumpValue(value)` with every line indented by `spaces`.
@usableFromInline
func indentedDump(_ value: Any, by spaces: Int = 2) -> String {
  let pad = String(repeating: " ", count: spaces)
  return dumpValue(value).split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }
    .joined(separator: "\n")
}

/// A value seen through `Mirror`, as a tree the differ can walk.
indirect enum DumpNode: Equatable {
  case leaf(String)
  /// `open`/`close` wrap the children; children carry their label (already formatted).
  case container(kind: Kind, open: String, close: String, children: [Child])

  /// `text` is a string of several lines, one child per line, so diffs show changed lines.
  enum Kind: Equatable { case structure, enumeration, collection, dictionary, set, tuple, text }

  struct Child: Equatable {
    var label: String?
    var node: DumpNode
  }

  static let compactWidth = 60
  static let foundationModules: Set<Substring> = [
    "Foundation", "FoundationEssentials", "FoundationInternationalization",
  ]

  /// - Parameter ancestors: The objects this value sits inside, so that a reference
  ///   cycle prints as `Type(↩︎)` once instead of unrolling to the depth limit.
  init(_ value: Any, depth: Int = 0, ancestors: [ObjectIdentifier] = []) {
    guard depth < 40 else {
      self = .leaf("…")
      return
    }
    if let custom = value as? any CustomDumpStringConvertible {
      self = .leaf(custom.dumpDescription)
      return
    }
    switch value {
    case let text as any StringProtocol:  // String, Substring
      let string = String(text)
      let lines = string.split(separator: "\n", omittingEmptySubsequences: false)
      guard lines.count > 1 else {
        self = .leaf(Self.quote(string))
        return
      }
      self = .container(
        kind: .text, open: "\"\"\"", close: "\"\"\"",
        children: lines.map { Child(label: nil, node: .leaf(Self.escape(String($0)))) })
      return
    case let character as Character:
      self = .leaf(Self.quote(String(character)))
      return
    case let error as any Error
    where !(Mirror(reflecting: error).displayStyle == .enum)
      && !(Mirror(reflecting: error).displayStyle == .struct):
      self = .leaf("\(error)")
      return
    default:
      break
    }
    let mirror = Mirror(reflecting: value)
    // Foundation value types (URL, Date, UUID, Data…), and any struct whose stored
    // properties are all private storage (`Duration`'s `_low` and `_high`), read best as
    // their description. Which module declares Foundation's depends on the toolchain
    // (Foundation, or FoundationEssentials since Swift 6).
    if let describable = value as? any CustomStringConvertible, !(type(of: value) is AnyClass),
      Self.foundationModules.contains(String(reflecting: type(of: value)).prefix { $0 != "." })
        || (mirror.displayStyle == .struct && !mirror.children.isEmpty
          && mirror.children.allSatisfy { $0.label?.hasPrefix("_") == true })
    {
      self = .leaf(describable.description)
      return
    }
    let typeName = Self.typeName(type(of: value))
    var ancestors = ancestors
    if mirror.displayStyle == .class, type(of: value) is AnyClass {
      let id = ObjectIdentifier(value as AnyObject)
      guard !ancestors.contains(id) else {
        self = .leaf("\(typeName)(↩︎)")
        return
      }
      ancestors.append(id)
    }
    func node(_ value: Any) -> DumpNode { DumpNode(value, depth: depth + 1, ancestors: ancestors) }
    func children(labeled: Bool) -> [Child] {
      mirror.children.map { Child(label: labeled ? $0.label : nil, node: node($0.value)) }
    }
    switch mirror.displayStyle {
    case .struct, .class:
      if mirror.children.isEmpty {
        let text = "\(value)"
        self = .leaf(text.isEmpty || text.hasPrefix(typeName) ? "\(typeName)()" : text)
      } else {
        self = .container(
          kind: .structure, open: "\(typeName)(", close: ")", children: children(labeled: true))
      }
    case .enum:
      guard let payload = mirror.children.first else {
        self = .leaf(".\(value)")
        return
      }
      let caseName = payload.label ?? "\(value)"
      let payloadMirror = Mirror(reflecting: payload.value)
      if payloadMirror.displayStyle == .tuple {
        self = .container(
          kind: .enumeration, open: ".\(caseName)(", close: ")",
          children: payloadMirror.children.map {
            Child(
              label: $0.label.flatMap { $0.hasPrefix(".") ? nil : $0 }, node: node($0.value))
          })
      } else {
        self = .container(
          kind: .enumeration, open: ".\(caseName)(", close: ")",
          children: [Child(label: nil, node: node(payload.value))])
      }
    case .optional:
      if let wrapped = mirror.children.first {
        self = DumpNode(wrapped.value, depth: depth, ancestors: ancestors)
      } else {
        self = .leaf("nil")
      }
    case .collection:
      self = .container(kind: .collection, open: "[", close: "]", children: children(labeled: false))
    case .set:
      let sorted = children(labeled: false).sorted { $0.node.compact < $1.node.compact }
      self = .container(kind: .set, open: "Set([", close: "])", children: sorted)
    case .dictionary:
      let pairs = mirror.children.map { child -> Child in
        let pair = Array(Mirror(reflecting: child.value).children)
        let key = pair.count == 2 ? node(pair[0].value).compact : "?"
        let value = pair.count == 2 ? node(pair[1].value) : .leaf("?")
        return Child(label: key, node: value)
      }
      self = .container(
        kind: .dictionary, open: "[", close: "]",
        children: pairs.sorted { ($0.label ?? "") < ($1.label ?? "") })
    case .tuple:
      self = .container(
        kind: .tuple, open: "(", close: ")",
        children: mirror.children.map {
          Child(
            label: $0.label.flatMap { $0.hasPrefix(".") ? nil : $0 }, node: node($0.value))
        })
    default:
      self = .leaf("\(value)")
    }
  }

  static func typeName(_ type: Any.Type) -> String {
    // `String(reflecting:)` gives "Module.Outer.Inner", with "(unknown context at $…)."
    // for private types; keep only the readable part.
    var full = ""
    var rest = Substring(String(reflecting: type))
    let marker = "(unknown context at "
    while let start = rest.firstRange(of: marker) {
      full += rest[..<start.lowerBound]
      rest = rest[start.upperBound...]
      if let end = rest.firstRange(of: ").") {
        rest = rest[end.upperBound...]
      }
    }
    full += rest
    // Then each qualified name loses its module, generic arguments' too
    // ("Module.Box<Swift.Int>" reads "Box<Int>"); a nested type keeps its outer one.
    var result = ""
    var name = ""
    func endName() {
      if let dot = name.firstIndex(of: "."), dot != name.startIndex {
        name = String(name[name.index(after: dot)...])
      }
      result += name
      name = ""
    }
    for character in full {
      if character.isLetter || character.isNumber || character == "_" || character == "." {
        name.append(character)
      } else {
        endName()
        result.append(character)
      }
    }
    endName()
    return result
  }

  static func quote(_ string: String) -> String {
    "\"" + escape(string) + "\""
  }

  /// `string` with quotes, backslashes and control characters escaped, Swift style, and
  /// the characters that show as nothing or move text about: Unicode's line and paragraph
  /// separators and the invisible format characters (a zero-width space, a soft hyphen, a
  /// byte-order mark, bidirectional controls), so that two strings a diff shows as different
  /// look different. The zero-width joiner inside emoji sequences stays.
  static func escape(_ string: String) -> String {
    var result = ""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
          || (scalar.properties.generalCategory == .format && value != 0x200D)
        {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// The one-line rendering.
  var compact: String {
    switch self {
    case .leaf(let text):
      return text
    case .container(.text, _, _, let lines):
      return "\"" + lines.map(\.node.compact).joined(separator: "\\n") + "\""
    case .container(_, let open, let close, let children):
      let inner = children.map { child in
        (child.label.map { "\($0): " } ?? "") + child.node.compact
      }
      return open + inner.joined(separator: ", ") + close
    }
  }

  /// The rendering as lines, multi-line when it does not fit compactly.
  func lines(indent: Int, label: String? = nil) -> [String] {
    let pad = String(repeating: " ", count: indent)
    let prefix = label.map { "\($0): " } ?? ""
    let single = compact
    if case .leaf = self {
      return single.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
        $0.offset == 0 ? pad + prefix + $0.element : pad + $0.element
      }
    }
    if single.count + indent + prefix.count <= Self.compactWidth, !single.contains("\n") {
      return [pad + prefix + single]
    }
    guard case .container(_, let open, let close, let children) = self else { return [] }
    var result = [pad + prefix + open]
    for child in children {
      result += child.node.lines(indent: indent + 2, label: child.label)
    }
    result.append(pad + close)
    return result
  }
}
