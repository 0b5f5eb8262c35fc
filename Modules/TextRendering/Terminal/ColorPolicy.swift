/// The user's colour choice, as given by `--color`.
public enum ColorChoice: String, Sendable, CaseIterable {
  /// Colour on a terminal that has it unless `NO_COLOR` says otherwise; always; never.
  case auto, always, never
}

/// The one colour rule used everywhere.
///
/// - `never`: no colour. `always`: colour, at the depth the terminal advertises.
/// - `auto`: no colour if `NO_COLOR` is set and non-empty; otherwise colour if
///   `CLICOLOR_FORCE` or `FORCE_COLOR` is set (non-empty, not `0`); otherwise colour only
///   when the stream is a terminal, `TERM` is set and not `dumb`, and the terminal's
///   terminfo entry, where the system has one, gives it 8 colours or more (`vt100`'s gives
///   it none).
///
/// Depth: 24-bit when `COLORTERM` is `truecolor`/`24bit`; otherwise, where there is a
/// terminfo entry, 24-bit for 2²⁴ colours, 256 for 256 or more, else 16; where there is
/// none, 256 when `TERM` mentions `256color`, else 16. Without colour, attributes (bold,
/// reverse video) still apply.
public enum ColorPolicy {
  /// The colour mode for a stream.
  ///
  /// - Parameters:
  ///   - choice: The `--color` value.
  ///   - isTerminal: Whether the stream is a terminal.
  ///   - environment: The process environment.
  public static func mode(choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> ColorMode {
    func isSet(_ name: String) -> Bool {
      guard let value = environment[name] else { return false }
      return !value.isEmpty && value != "0"
    }
    let term = environment["TERM"] ?? ""
    // Read only where the answer depends on it.
    let entry = { term.isEmpty ? nil : Terminfo.entry(for: term, environment: environment) }
    switch choice {
    case .never:
      return .none
    case .always:
      return depth(environment, entry: entry())
    case .auto:
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
      if isSet("CLICOLOR_FORCE") || isSet("FORCE_COLOR") { return depth(environment, entry: entry()) }
      guard isTerminal, !term.isEmpty, term != "dumb" else { return .none }
      let found = entry()
      if let found, (found.colors ?? 0) < 8 { return .none }
      return depth(environment, entry: found)
    }
  }

  /// Whether the user turned colour off: `--color never`, or `NO_COLOR` under `auto` (as
  /// opposed to colour left off by default, on output that is not a terminal).
  ///
  /// - Parameters:
  ///   - choice: The `--color` value.
  ///   - environment: The process environment.
  public static func isRefused(choice: ColorChoice, environment: [String: String]) -> Bool {
    choice == .never || (choice == .auto && !(environment["NO_COLOR"] ?? "").isEmpty)
  }

  /// The depth of colour, where there is colour: `COLORTERM`'s, else the entry's, else the
  /// name's.
  static func depth(_ environment: [String: String], entry: Terminfo?) -> ColorMode {
    if advertisesTrueColor(environment) { return .truecolor }
    if let entry {
      let colors = entry.colors ?? 0
      return colors >= 1 << 24 ? .truecolor : colors >= 256 ? .ansi256 : .ansi16
    }
    if (environment["TERM"] ?? "").contains("256color") { return .ansi256 }
    return .ansi16
  }

  /// Whether `COLORTERM` says the terminal shows 24-bit colour (`truecolor` or `24bit`, in
  /// any case). The one reading of it: it sets the depth of ``mode(choice:isTerminal:environment:)``,
  /// and callers ask it for a picture drawn in colour whatever the colour choice.
  ///
  /// - Parameter environment: The process environment.
  public static func advertisesTrueColor(_ environment: [String: String]) -> Bool {
    let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
    return colorTerm == "truecolor" || colorTerm == "24bit"
  }

  /// Whether the terminal can show the app's Unicode glyphs: the locale says UTF-8 (or
  /// says nothing), and the terminal is not the Linux console (`TERM=linux`), whose fonts
  /// hold a few hundred glyphs, without the emoji, braille spinner or arrows the screens use.
  public static func supportsUnicode(environment: [String: String]) -> Bool {
    if environment["TERM"] == "linux" { return false }
    for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
      if let value = environment[name], !value.isEmpty {
        let lower = value.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
      }
    }
    return true  // unset locale: modern terminals are UTF-8
  }
}
