import DogAPIClient
import Foundation
import TextRendering

/// What a shell offers where an option's value or a command's argument goes.
package enum Completion: Equatable, Sendable {
  /// Nothing: free text (a filter, a URL, a number).
  case nothing
  /// One of these words.
  case words([String])
  /// A file's path.
  case files
  /// A breed's name, from the saved list or the built-in one.
  case breeds
}

/// One option of the command line: its names, the value it takes, what `--help` and the
/// man page say of it, and what it sets. ``Arguments/options`` lists them all; the parser,
/// the help, the man page and the shells' completions are all made from that list.
package struct OptionSpec: Sendable {
  /// The value an option takes.
  package struct Value: Sendable {
    /// How the help names it (`TEXT`, `live|fake`).
    package var placeholder: String
    /// What a shell offers for it.
    package var completion: Completion
  }

  /// The names the help lists (`-h`, `--help`).
  package var names: [String]
  /// Other names it is taken by and not listed (`--colour`).
  package var aliases: [String] = []
  /// The value it takes; `nil` for a switch.
  package var value: Value?
  /// What it does, as one paragraph (the help wraps it).
  package var help: String
  /// Taken, but left out of the help, the man page and the completions.
  package var isHidden = false
  /// Reads it: the value, or `nil` for a switch.
  package var apply: @Sendable (inout Arguments.Parsing, String?) throws(UsageError) -> Void

  /// The names it is taken by.
  package var allNames: [String] { names + aliases }

  /// A switch: an option without a value.
  package static func flag(
    _ names: String..., help: String, hidden: Bool = false,
    _ set: @escaping @Sendable (inout Options) -> Void
  ) -> OptionSpec {
    OptionSpec(names: names, help: help, isHidden: hidden) { parsing, _ in set(&parsing.options) }
  }

  /// An option with a value of any text, which `read` checks.
  package static func value(
    _ name: String, _ placeholder: String, completes completion: Completion = .nothing, help: String,
    _ read: @escaping @Sendable (inout Arguments.Parsing, String) throws(UsageError) -> Void
  ) -> OptionSpec {
    OptionSpec(names: [name], value: Value(placeholder: placeholder, completion: completion), help: help) {
      parsing, text throws(UsageError) in try read(&parsing, text ?? "")
    }
  }

  /// An option whose value is one of the cases of `T`, by their raw values.
  package static func choice<T: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _: T.Type, aliases: [String] = [], help: String,
    _ set: @escaping @Sendable (inout Options, T) -> Void
  ) -> OptionSpec where T.RawValue == String {
    let words = T.allCases.map(\.rawValue)
    return OptionSpec(
      names: [name], aliases: aliases,
      value: Value(placeholder: words.joined(separator: "|"), completion: .words(words)), help: help
    ) { parsing, text throws(UsageError) in
      let text = text ?? ""
      guard let value = T(rawValue: text) else {
        let near = Arguments.suggestion(for: text, among: words)
        throw UsageError(
          message:
            "\(name) must be one of \(words.joined(separator: ", ")), not \(Output.quoted(text)).\(near)")
      }
      set(&parsing.options, value)
    }
  }
}

/// One command: its name, what a shell offers for its arguments, and how it reads them.
package struct CommandSpec: Sendable {
  /// The name the help lists.
  package var name: String
  /// What it does, in a few words (a shell shows them beside the name).
  package var summary: String
  /// Other spellings it is taken by (`favorites`).
  package var aliases: [String] = []
  /// What a shell offers for each argument after the name, in turn.
  package var arguments: [Completion] = []
  /// What it offers for the arguments after those.
  package var rest: Completion = .nothing
  /// Reads the command's words (its name first) once every option is read.
  package var read: @Sendable (inout Arguments.Parsing, [String]) throws(UsageError) -> Void

  /// The names it is taken by.
  package var allNames: [String] { [name] + aliases }
}

extension Arguments {
  /// A command line as it is read: the options, and what is settled only at its end.
  package struct Parsing {
    package var options = Options()
    /// The base URL's text and where it came from (`--base-url`, or the environment).
    package var baseURL: (text: String, source: String)?
    /// `completions --names`: the breed names, not a script.
    package var listsNames = false
  }

  /// Every option, in the order the help lists them.
  package static let options: [OptionSpec] = [
    .choice("--api", Options.API.self, help: "live API (default) or built-in fake data") { $0.api = $1 },
    .value(
      "--base-url", "URL",
      help: "API root (default \(DogAPIClient.defaultBaseURL.absoluteString); env DOG_API_BASE_URL)"
    ) { parsing, text in parsing.baseURL = (text, "--base-url") },
    .flag("--offline", help: "no network: the cached or built-in breed list") { $0.offline = true },
    .flag(
      "--fresh",
      help:
        "list, show: exit 1 where a saved or built-in list stands in for the network's (without it: exit 0, with a warning on standard error)"
    ) { $0.fresh = true },
    .value("--timeout", "SECONDS", help: "per request (default 10)") { parsing, text throws(UsageError) in
      // Plain decimals only: Double also reads hexadecimal ("0x10" is 16) and exponents.
      let isDecimal = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
      guard isDecimal, let seconds = Double(text), seconds > 0, seconds <= 300 else {
        throw UsageError(
          message:
            "--timeout must be a number of seconds above 0 and at most 300, as in 2.5, not \(Output.quoted(text))."
        )
      }
      parsing.options.timeout = seconds
    },
    .choice(
      "--color", ColorChoice.self, aliases: ["--colour"],
      help:
        "auto: only on a terminal, TERM not dumb, NO_COLOR unset (CLICOLOR_FORCE/FORCE_COLOR force it); a picture named by --picture is in colour even piped, unless never or NO_COLOR"
    ) { $0.color = $1 },
    .choice(
      "--picture", PictureChoice.self,
      help: "how `show` and the Breed screen draw the picture (the browser draws iterm in cells)"
    ) { $0.picture = $1 },
    .value(
      "--size", "WxH",
      help:
        "show: the picture in at most W columns and H rows (default: on a terminal, the largest that fits the window with the text after it; otherwise 80 columns wide, or COLUMNS)"
    ) { parsing, text throws(UsageError) in parsing.options.pictureSize = try PictureBox(parsing: text) },
    .choice(
      "--symbols", SymbolSet.self,
      help:
        "show: the glyphs a picture in colour cells is drawn with: half blocks; also quarters; also eighths (block: all in the Unicode block of the half block); also lines through the middle of a cell (line, and auto: in any font with half blocks); also sixths (a font with Symbols for Legacy Computing, Unicode 13)"
    ) { $0.symbols = $1 },
    .value(
      "--loops", "N",
      help:
        "how many times an animated GIF plays, in show and on the Breed screen, where the picture is in colour cells (ASCII, kitty, iTerm2 and sixel pictures stay still): N from 0 (the first frame alone, as when piped) to \(mostLoops). By default, as the file says; one that loops for ever plays 3 times in show (10 s at most; Ctrl-C stops it), and on the Breed screen for as long as it is shown"
    ) { parsing, text throws(UsageError) in
      // Plain digits only: Int also reads "+5".
      guard text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isNumber }), let loops = Int(text),
        loops <= Self.mostLoops
      else {
        throw UsageError(
          message: "--loops must be a count from 0 to \(Self.mostLoops), as in 2, not \(Output.quoted(text))."
        )
      }
      parsing.options.loops = loops
    },
    .flag("--json", help: "machine-readable output (list, show; alone: list)") { $0.json = true },
    .value(
      "--filter", "TEXT",
      help:
        "only breeds whose name contains TEXT, or each of its words (list; the browser starts with it typed)"
    ) { parsing, text in parsing.options.filter = text },
    .flag("--trace", help: "every action and state change to standard error") { $0.trace = true },
    .value(
      "--record", "FILE", completes: .files,
      help:
        "the browser writes the session to FILE as it goes (JSON Lines, readable by its owner only): every action, so what you typed and chose, the server's address and your favourites; the pictures shown; the window's size and drawing settings, and the markers Ctrl-T drops. Nothing else. replay FILE plays it back offline and writes nothing: ← → step, PgUp PgDn (or Shift-← →) ten, Home End, [ ] the marker before or after, Space plays, d shows what the step changed, s hides the status line, q quits"
    ) { parsing, text in parsing.options.record = text },
    .flag(
      "--check",
      help:
        "replay: exit 0 if every step arrives at the state recorded, else 1 naming the first that does not"
    ) { $0.check = true },
    .value(
      "--frame", "N|last|mN", completes: .words(["last"]),
      help:
        "replay: print the screen after step N (0: the start), after the last, or at marker mN (dropped with Ctrl-T while recording: m1, m2…), plain when piped"
    ) { parsing, text throws(UsageError) in
      func count(_ digits: Substring) -> Int? {
        digits.count <= 9 && digits.allSatisfy(\.isASCII) ? Int(digits).flatMap { $0 >= 0 ? $0 : nil } : nil
      }
      if text == "last" {
        parsing.options.frame = .last
      } else if let step = count(Substring(text)) {
        parsing.options.frame = .step(step)
      } else if text.hasPrefix("m"), let number = count(text.dropFirst()), number > 0 {
        parsing.options.frame = .marker(text)
      } else {
        throw UsageError(
          message:
            "--frame takes a step's number (0 is the start), last, or a marker (m1, m2…), not \(Output.quoted(text))."
        )
      }
    },
    .value(
      "--cast", "FILE", completes: .files,
      help:
        "replay: write the session to FILE as an asciicast (version 2, for asciinema's player and asciinema cat): each frame at its recorded time and size, pictures in colour cells"
    ) { parsing, text in parsing.options.cast = text },
    .value(
      "--test", "DIR", completes: .files,
      help:
        "replay: write the session into DIR as a Swift Testing test of AppFeature (NAMESessionTests.swift, and the log it reads in DIR/Recordings): each action sent or received with what it changed, the clients answering as recorded. Copy DIR's contents into Tests/AppFeatureTests"
    ) { parsing, text in parsing.options.test = text },
    .flag(
      "--no-mouse",
      help:
        "the browser leaves the mouse to the terminal (by default a click highlights or opens, the wheel moves; Shift with the mouse selects text either way)"
    ) { $0.mouse = false },
    .flag("-h", "--help", help: "this help") { $0.command = .help },
    .flag("--version", help: "the version") { $0.command = .version },
    OptionSpec(names: ["--names"], help: "", isHidden: true) { parsing, _ in parsing.listsNames = true },
  ]

  /// Every command, in the order a shell offers them.
  package static let commands: [CommandSpec] = [
    CommandSpec(name: "list", summary: "the breeds, one per line") { parsing, words throws(UsageError) in
      guard words.count == 1 else {
        throw UsageError(message: "list takes no arguments (use --filter TEXT).")
      }
      parsing.options.command = .list
    },
    CommandSpec(name: "show", summary: "a breed: its sub-breeds and a picture", arguments: [.breeds]) {
      parsing, words throws(UsageError) in
      guard words.count == 2 else {
        throw UsageError(message: "show needs one breed, e.g. show hound/afghan.")
      }
      parsing.options.command = .show(words[1])
    },
    CommandSpec(
      name: "favourites", summary: "the breeds you starred; add or remove some", aliases: ["favorites"],
      arguments: [.words(["add", "remove"])], rest: .breeds
    ) {
      parsing, words throws(UsageError) in
      switch words.dropFirst().first {
      case nil: parsing.options.command = .favourites(.list)
      case "add" where words.count > 2: parsing.options.command = .favourites(.add(Array(words.dropFirst(2))))
      case "remove" where words.count > 2:
        parsing.options.command = .favourites(.remove(Array(words.dropFirst(2))))
      case "add", "remove":
        throw UsageError(message: "favourites \(words[1]) needs one breed or more, e.g. hound/afghan.")
      case let other?:
        let near = suggestion(for: other, among: ["add", "remove"])
        throw UsageError(message: "favourites takes add or remove, not \(Output.quoted(other)).\(near)")
      }
    },
    CommandSpec(name: "replay", summary: "a session recorded by --record", arguments: [.files]) {
      parsing, words throws(UsageError) in
      guard words.count == 2 else {
        throw UsageError(message: "replay needs one session log, as written by --record FILE.")
      }
      let options = parsing.options
      let request: ReplayRequest =
        if options.check {
          .check
        } else if let frame = options.frame {
          .frame(frame)
        } else if let cast = options.cast {
          .cast(cast)
        } else if let test = options.test {
          .test(test)
        } else {
          .view
        }
      parsing.options.command = .replay(words[1], request)
    },
    CommandSpec(
      name: "completions", summary: "the shell's completion script",
      arguments: [.words(Shell.allCases.map(\.rawValue))]
    ) {
      parsing, words throws(UsageError) in
      if parsing.listsNames {
        guard words.count <= 2 else {
          throw UsageError(message: "completions --names takes one prefix at most.")
        }
        parsing.options.command = .completions(.names(prefix: words.count == 2 ? words[1] : ""))
        return
      }
      let shells = Shell.allCases.map(\.rawValue)
      guard words.count == 2, let shell = Shell(rawValue: words[1]) else {
        let near = words.count == 2 ? suggestion(for: words[1], among: shells) : ""
        throw UsageError(message: "completions needs a shell: \(shells.joined(separator: ", ")).\(near)")
      }
      parsing.options.command = .completions(.script(shell))
    },
    CommandSpec(name: "man", summary: "this manual as a man page") { parsing, words throws(UsageError) in
      guard words.count == 1 else { throw UsageError(message: "man takes no arguments.") }
      parsing.options.command = .manual
    },
    CommandSpec(name: "help", summary: "the help") { parsing, _ in parsing.options.command = .help },
    CommandSpec(name: "version", summary: "the version") { parsing, _ in parsing.options.command = .version },
  ]

  /// The option `name` (or one of its aliases) names.
  package static func option(named name: String) -> OptionSpec? {
    options.first { $0.allNames.contains(name) }
  }

  /// The command `name` names.
  package static func command(named name: String) -> CommandSpec? {
    commands.first { $0.allNames.contains(name) }
  }

  /// The options the help lists.
  package static var listedOptions: [OptionSpec] { options.filter { !$0.isHidden } }
}
