import AppFeature
import DogAPIClient
import DogsFeature
import Foundation
import TextRendering

/// What the `favourites` command does.
package enum FavouritesCommand: Equatable {
  /// Lists them.
  case list
  /// Stars these breeds (named as `show` takes them).
  case add([String])
  /// Un-stars these.
  case remove([String])
}

/// What the command line asked for.
package struct Options: Equatable {
  package enum Command: Equatable {
    case interactive
    case list
    case show(String)
    case favourites(FavouritesCommand)
    /// Replay the session log at this path.
    case replay(String, ReplayRequest)
    case help
    case version
    /// A shell's completion script, or the breed names it offers.
    case completions(CompletionRequest)
    /// The man page.
    case manual
  }

  /// What `completions` prints.
  package enum CompletionRequest: Equatable {
    /// The script for this shell.
    case script(Shell)
    /// The breed names that start with `prefix`, one a line (what the scripts offer).
    case names(prefix: String)
  }

  package enum API: String, CaseIterable { case live, fake }

  package var command: Command = .interactive
  package var filter: String?
  package var json = false
  package var api: API = .live
  package var baseURL: URL = DogAPIClient.defaultBaseURL
  package var offline = false
  /// `list` and `show` fail, rather than warn, when a saved or built-in list stands in.
  package var fresh = false
  package var color: ColorChoice = .auto
  package var trace = false
  /// The full-screen app takes the mouse (clicks, the wheel); `--no-mouse` leaves it to
  /// the terminal.
  package var mouse = true
  package var picture: PictureChoice = .auto
  /// `show`'s picture box in cells (`--size WxH`), if given.
  package var pictureSize: PictureBox?
  /// The glyphs `show` draws pictures in colour cells with (`--symbols`).
  package var symbols: SymbolSet = .auto
  /// How many times `show` and the Breed screen play an animated picture (`--loops N`; 0:
  /// the first frame alone); `nil`: as the file says (within `show`'s limits).
  package var loops: Int?
  package var timeout: Double = 10
  /// Where the full-screen app writes the session (`--record FILE`).
  package var record: String?
  /// `replay --check`.
  package var check = false
  /// `replay --frame N|last|mN`: the step, `nil` for the last.
  package var frame: FrameChoice?
  /// `replay --cast FILE`: where the asciicast goes.
  package var cast: String?
  /// `replay --test DIR`: where the test made from the session goes.
  package var test: String?
}

/// The most cells a picture may take, across and down.
package struct PictureBox: Equatable {
  package var columns: Int
  package var rows: Int

  /// The largest box `--size` takes, each way.
  package static let largest = 1_000

  /// `WxH` (`60x20`, `60X20` or `60×20`), each a count from 1 to ``largest``.
  package init(parsing text: String) throws(UsageError) {
    let parts = text.split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "X" || $0 == "×" }
    // Plain digits only: Int also reads "+5".
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
      parts.allSatisfy({ $0.allSatisfy(\.isNumber) }),
      let columns = Int(parts[0]), let rows = Int(parts[1]),
      (1...Self.largest).contains(columns), (1...Self.largest).contains(rows)
    else {
      throw UsageError(
        message:
          "--size must be columns x rows, each from 1 to \(Self.largest), as in 60x20, not \(Output.quoted(text))."
      )
    }
    self.init(columns: columns, rows: rows)
  }

  package init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }
}

/// How pictures are shown (`--picture`).
package enum PictureChoice: String, CaseIterable {
  case auto, blocks, ascii, none
  case ansi256 = "256"
  case kitty, iterm, sixel
}

/// A command line that cannot be run; exit code 2.
package struct UsageError: Error, Equatable {
  package var message: String
}

package enum Arguments {
  package static let version = "DogBreedsCLI 0.1.0"

  /// The most times `--loops` plays an animation.
  package static let mostLoops = 1_000

  /// The options a misspelt one may have meant: all those the help lists, aliases aside.
  package static var suggestedOptions: [String] { listedOptions.flatMap(\.names).sorted() }

  /// " Did you mean list?" where `typed` misspells one of `names` by a slip of typing (the
  /// rule of the breed list's filter, dashes counted as letters), else "".
  package static func suggestion(for typed: String, among names: [String]) -> String {
    didYouMean(DogsFeature.spellingMatches(of: typed, among: names))
  }

  /// " Did you mean a, b or c?", or nothing for no names.
  package static func didYouMean(_ names: [String]) -> String {
    names.isEmpty ? "" : " Did you mean \(names.joinedAsAlternatives)?"
  }

  /// Parses `arguments` (without the program name).
  package static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
    -> Options
  {
    var parsing = Parsing()
    var positional: [String] = []
    var index = 0

    /// The flag's value: after `=`, or the next argument unless that is another option
    /// (`list --filter --json` forgot the filter; it did not mean to filter by "--json").
    func value(for flag: String, inline: String?) throws(UsageError) -> String {
      if let inline { return inline }
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value.") }
      let next = arguments[index]
      if next.hasPrefix("--") {
        throw UsageError(
          message:
            "\(flag) needs a value, and \(Output.quoted(next)) is an option (to give that very text, write \(flag)=\(next))."
        )
      }
      return next
    }

    var sawDashDash = false
    while index < arguments.count {
      let argument = arguments[index]
      if sawDashDash || !argument.hasPrefix("-") || argument == "-" {
        positional.append(argument)
        index += 1
        continue
      }
      if argument == "--" {
        sawDashDash = true
        index += 1
        continue
      }
      // "--filter=" gives an empty value, as `--filter ""` does: it must not take the
      // next argument as its value.
      let equals = argument.firstIndex(of: "=")
      let flag = String(argument[..<(equals ?? argument.endIndex)])
      let inline = equals.map { String(argument[argument.index(after: $0)...]) }
      guard let option = option(named: flag) else {
        throw UsageError(message: "Unknown option \(flag).\(suggestion(for: flag, among: suggestedOptions))")
      }
      if option.value == nil {
        // Refused rather than ignored: `--offline=false` would otherwise mean offline.
        if let inline { throw UsageError(message: "\(flag) takes no value (remove “=\(inline)”).") }
        try option.apply(&parsing, nil)
      } else {
        try option.apply(&parsing, try value(for: flag, inline: inline))
      }
      index += 1
    }

    if parsing.baseURL == nil, let text = environment["DOG_API_BASE_URL"], !text.isEmpty {
      parsing.baseURL = (text, "DOG_API_BASE_URL")
    }
    if let (baseURLText, baseURLSource) = parsing.baseURL {
      guard let url = URL(string: baseURLText), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", url.host?.isEmpty == false
      else {
        throw UsageError(
          message: "\(baseURLSource) must be an http(s) URL, not \(Output.quoted(baseURLText)).")
      }
      if let port = url.port, !(1...65_535).contains(port) {
        throw UsageError(
          message:
            "\(baseURLSource) has port \(port), where ports go from 1 to 65535: \(Output.quoted(baseURLText))."
        )
      }
      // Request paths are appended to it; after a query or fragment they would not be paths.
      guard url.query == nil, url.fragment == nil else {
        throw UsageError(
          message:
            "\(baseURLSource) must end with the API's path, not a ?query or #fragment: \(Output.quoted(baseURLText))."
        )
      }
      parsing.options.baseURL = url
    }

    if parsing.options.command == .help || parsing.options.command == .version { return parsing.options }
    if let command = positional.first {
      try read(command: command, positional, into: &parsing)
    } else if parsing.options.json {
      // Alone, --json asks for the list as JSON, on a terminal too: not the browser.
      parsing.options.command = .list
    }
    let options = parsing.options
    if parsing.listsNames {
      guard case .completions(.names) = options.command else {
        throw UsageError(message: "--names goes with completions.")
      }
    }
    // The commands that print what the app is made of take no other option.
    switch options.command {
    case .completions, .manual:
      var bare = Options(command: options.command)
      bare.baseURL = options.baseURL
      guard options == bare else { throw UsageError(message: "\(positional[0]) takes no options.") }
    default: break
    }
    if options.picture != .auto && options.picture != .none && options.json {
      throw UsageError(
        message: "--json gives the picture's address, not the picture: use --picture or --json.")
    }
    // An option where it does nothing would be dropped without a word. (Without a command,
    // --filter is the filter the browser starts with, or the list's where that runs.)
    if case .show = options.command, options.filter != nil {
      throw UsageError(message: "--filter goes with list, or the browser.")
    }
    if options.pictureSize != nil {
      guard case .show = options.command, !options.json else {
        throw UsageError(message: "--size goes with show, which draws the picture (not with --json).")
      }
      if options.picture == .none {
        throw UsageError(message: "--size sizes the picture, and --picture none draws none.")
      }
    }
    if options.loops != nil {
      let drawsPictures: Bool
      switch options.command {
      case .show: drawsPictures = !options.json
      case .interactive: drawsPictures = true
      case .list, .favourites, .replay, .help, .version, .completions, .manual: drawsPictures = false
      }
      guard drawsPictures else {
        throw UsageError(
          message: "--loops goes with show, which draws the picture (not with --json), or the browser.")
      }
      if options.picture == .none {
        throw UsageError(
          message: "--loops plays pictures drawn in colour cells, and --picture none draws none.")
      }
      if [.ascii, .kitty, .iterm, .sixel].contains(options.picture) {
        throw UsageError(
          message:
            "--loops plays pictures drawn in colour cells: with --picture \(options.picture.rawValue) the picture stays still."
        )
      }
    }
    if options.symbols != .auto {
      guard case .show = options.command, !options.json else {
        throw UsageError(message: "--symbols goes with show, which draws the picture (not with --json).")
      }
      if [.ascii, .none, .kitty, .iterm, .sixel].contains(options.picture) {
        throw UsageError(
          message: "--symbols draws pictures in colour cells, not with --picture \(options.picture.rawValue)."
        )
      }
    }
    if options.picture != .auto && options.command == .list {
      throw UsageError(message: "--picture goes with show and the full-screen browser, not list.")
    }
    if options.fresh {
      switch options.command {
      case .list, .show: break
      default: throw UsageError(message: "--fresh goes with list and show.")
      }
    }
    if options.record != nil, options.command != .interactive {
      throw UsageError(message: "--record records the full-screen browser: run DogBreedsCLI --record FILE.")
    }
    if case .replay = options.command {
      if [options.check, options.frame != nil, options.cast != nil, options.test != nil].filter({ $0 }).count
        > 1
      {
        throw UsageError(message: "replay takes one of --check, --frame, --cast and --test.")
      }
    } else if options.check || options.frame != nil || options.cast != nil || options.test != nil {
      throw UsageError(message: "--check, --frame, --cast and --test go with replay FILE.")
    }
    if case .favourites(let command) = options.command {
      if options.picture != .auto || options.filter != nil {
        throw UsageError(message: "--picture and --filter do not go with favourites.")
      }
      if options.json, command != .list {
        throw UsageError(message: "--json goes with favourites alone, which lists them.")
      }
    }
    return options
  }

  /// Reads the command and its arguments.
  private static func read(command: String, _ positional: [String], into parsing: inout Parsing)
    throws(UsageError)
  {
    guard let spec = Self.command(named: command) else {
      let near = suggestion(for: command, among: commands.map(\.name))
      // A breed where the command goes (`DogBreedsCLI hound`): say how to show it.
      if near.isEmpty, (try? breedPath(command)) != nil || runTogether(command) != nil {
        let argument = command.contains(" ") ? "\"\(command)\"" : command
        throw UsageError(
          message: "Unknown command \(Output.quoted(command)): to see a breed, use show \(argument).")
      }
      throw UsageError(message: "Unknown command \(Output.quoted(command)).\(near)")
    }
    try spec.read(&parsing, positional)
  }
}
