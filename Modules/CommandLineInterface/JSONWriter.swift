/// A tiny JSON writer with a fixed key order and strict escaping.
///
/// Every control character (C0, DEL, C1), the line/paragraph separators and the bidi
/// controls are written as `\uXXXX`, so JSON output is safe to show on a terminal even
/// when the API sent escape sequences. (Foundation's encoders leave DEL and C1 raw.)
package enum JSON {
  indirect case string(String)
  case null
  case array([JSON])
  case object([(String, JSON)])

  package var text: String {
    var output = ""
    write(to: &output)
    return output
  }

  package func write(to output: inout String) {
    switch self {
    case .string(let value): JSON.quote(value, into: &output)
    case .null: output += "null"
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.write(to: &output)
      }
      output += "]"
    case .object(let pairs):
      output += "{"
      for (index, pair) in pairs.enumerated() {
        if index > 0 { output += "," }
        JSON.quote(pair.0, into: &output)
        output += ":"
        pair.1.write(to: &output)
      }
      output += "}"
    }
  }

  package static func quote(_ value: String, into output: inout String) {
    output += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      default:
        let code = scalar.value
        if code < 0x20 || (0x7F...0x9F).contains(code) || code == 0x2028 || code == 0x2029
          || (0x202A...0x202E).contains(code) || (0x2066...0x2069).contains(code)
        {
          let hex = String(code, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output += "\""
  }
}
