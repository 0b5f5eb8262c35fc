import Foundation

/// The manual as a man page, DogBreedsCLI(1): roff with man(7)'s macros, in ASCII (any
/// other character as groff's and mandoc's `\[uXXXX]`), made from the structure `--help`
/// prints (``Manual``), so that the two say the same.
package enum ManPage {
  /// The page for `manual`, as `DogBreedsCLI man` prints it.
  package static func roff(_ manual: Manual = .app, version: String = Arguments.version) -> String {
    var lines = [
      #".\" \#(manual.name)(1), written by `\#(manual.name) man` from the manual `--help` prints."#,
      ".TH \(manual.name) 1 \"\" \"\(escape(version))\" \"User Commands\"",
      // Option names are not to be broken at their hyphens.
      ".nh",
      ".SH NAME",
      "\(escape(manual.name)) \\- \(escape(manual.summary.hasSuffix(".") ? String(manual.summary.dropLast()) : manual.summary))",
    ]
    for section in manual.sections {
      lines.append(".SH \(escape(section.manTitle ?? section.title))")
      if let note = section.note { lines += [".PP", escape(sentence(note))] }
      for block in section.blocks {
        switch block {
        case .lines(let kept): lines += [".PP", ".nf"] + kept.map(escape) + [".fi"]
        case .paragraphs(let paragraphs): lines += paragraphs.flatMap { [".PP", escape($0)] }
        case .entries(let heading, let entries):
          if let heading { lines.append(".SS \(escape(heading))") }
          lines += entries.flatMap { [".TP", "\\fB\(escape($0.term))\\fR", escape($0.text)] }
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` as a sentence: its first letter upper-cased, ending with a full stop.
  package static func sentence(_ text: String) -> String {
    (text.first.map { $0.uppercased() + text.dropFirst() } ?? "") + (text.hasSuffix(".") ? "" : ".")
  }

  /// `text` as one line of roff text: backslashes and hyphens escaped (`\-` is the hyphen
  /// an option is typed with), every other character outside ASCII as `\[uXXXX]`, and a
  /// line that would start with a control character (`.` or `'`) guarded by `\&`.
  package static func escape(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\e"
      case "-": escaped += "\\-"
      case "\n", "\r", "\t": escaped += " "
      case _ where scalar.isASCII && scalar.value >= 0x20 && scalar.value != 0x7F:
        escaped.unicodeScalars.append(scalar)
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped += "\\[u\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)]"
      }
    }
    return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
  }
}
