import Core
import Foundation

/// Values written as Swift source, for the tests `replay --test` writes: enums with their
/// payloads, strings, numbers, booleans, optionals, dates, addresses, short arrays and
/// sets, and the few structs whose initialiser names every stored property.
///
/// What it cannot write (a picture, a breed list, a long text) it asks `large` for: an
/// expression that reads the value from the log, or `nil` where there is none.
enum SwiftSource {
  /// The structs written as `Type(label: value, …)`: their initialisers take every stored
  /// property, in order, by its name.
  static let constructible: Set<String> = ["CellSize"]
  /// The longest string written as a literal; longer ones are large.
  static let longestString = 120
  /// The most elements an array or a set written as a literal has; more are large.
  static let mostElements = 8

  /// `value` as Swift source, where it can be written.
  static func literal(_ value: Any, large: (Any) -> String? = { _ in nil }) -> String? {
    switch value {
    case let text as String:
      return text.count <= longestString ? quoted(text) : large(text)
    case let flag as Bool: return flag ? "true" : "false"
    case let number as Int: return number.formatted(.number.grouping(.never))
    case let number as Int64: return "\(number)"
    case let number as UInt64: return "\(number)"
    case let number as Double: return number.isFinite ? "\(number)" : large(number)
    case let date as Date:
      return "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
    case let url as URL: return "URL(string: \(quoted(url.absoluteString)))!"
    // A stack element's id is written as the integer it is.
    case let id as StackElementID: return "\(id.rawValue)"
    default: break
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return "nil" }
      return literal(wrapped, large: large)
    case .enum:
      guard let (name, payload) = mirror.children.first.map({ ($0.label ?? "", $0.value) }) else {
        return "." + caseName(value)
      }
      guard let arguments = arguments(payload, large: large) else { return large(value) }
      return ".\(name)(\(arguments))"
    case .collection, .set:
      let elements = mirror.children.map(\.value)
      guard elements.count <= mostElements else { return large(value) }
      var written: [String] = []
      for element in elements {
        guard let text = literal(element, large: large) else { return large(value) }
        written.append(text)
      }
      // A set's order is the hash's: sorted, the same in every run.
      if mirror.displayStyle == .set { written.sort() }
      return "[" + written.joined(separator: ", ") + "]"
    case .struct where constructible.contains(String(describing: type(of: value))):
      guard let arguments = arguments(value, large: large, labelled: true) else { return large(value) }
      return "\(String(reflecting: type(of: value)))(\(arguments))"
    default:
      return large(value)
    }
  }

  /// The arguments of an enum's payload or a struct's initialiser: `a, label: b`.
  private static func arguments(_ payload: Any, large: (Any) -> String?, labelled: Bool = false) -> String? {
    let mirror = Mirror(reflecting: payload)
    guard mirror.displayStyle == .tuple || labelled else { return literal(payload, large: large) }
    var written: [String] = []
    for child in mirror.children {
      guard let text = literal(child.value, large: large) else { return nil }
      let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
      written.append(label.map { "\($0): \(text)" } ?? text)
    }
    return written.joined(separator: ", ")
  }

  /// The name of a case without a payload.
  private static func caseName(_ value: Any) -> String {
    let name = String(reflecting: value)
    return String(name.split(separator: ".").last ?? Substring(name))
  }

  /// Whether `value` is written whole, as one literal (a date, an address): never field by
  /// field, whatever its mirror shows.
  static func isAtom(_ value: Any) -> Bool {
    switch value {
    case is String, is Bool, is Int, is Int64, is UInt64, is Double, is Date, is URL, is StackElementID: true
    default: false
    }
  }

  /// `text` as a Swift string literal.
  static func quoted(_ text: String) -> String { swiftStringLiteral(text) }

  /// The values inside `value`, outermost first (itself first), optionals unwrapped: where
  /// ``RecordedSession/payload(of:as:)`` looks for a value of a type.
  static func parts(of value: Any) -> [Any] {
    var found: [Any] = []
    func visit(_ value: Any) {
      let mirror = Mirror(reflecting: value)
      if mirror.displayStyle == .optional {
        if let wrapped = mirror.children.first?.value { visit(wrapped) }
        return
      }
      found.append(value)
      // A picture's pixels, a list's hundred breeds: nothing a payload is looked up by.
      if [.collection, .set, .dictionary].contains(mirror.displayStyle), mirror.children.count > mostElements
      {
        return
      }
      for child in mirror.children { visit(child.value) }
    }
    visit(value)
    return found
  }
}
