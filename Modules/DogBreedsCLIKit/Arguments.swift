import AppFeature
import DogAPIClient
import DogsFeature
import Foundation
import TextRendering

/// What the `favourites` command does.
enum FavouritesCommand: Equatable {
  /// Lists them.
  case list
  /// Stars these breeds (named as `show` takes them).
  case add([String])
  /// Un-stars these.
  case remove([String])
}

/// What the command line asked for.
struct Options: Equatable {
  enum Command: Equatable {
    case interactive
    case list
    case show(String)
    case favourites(FavouritesCommand)
    /// Replay the session log at this path.
    case replay(String, ReplayRequest)
    case help
    case version
  }

  enum API: String, CaseIterable { case live, fake }

  var command: Command = .interactive
  var filter: String?
  var json = false
  var api: API = .live
  var baseURL: URL = DogAPIClient.defaultBaseURL
  var offline = false
  /// `list` and `show` fail, rather than warn, when a saved or built-in list stands in.
  var fresh = false
  var color: ColorChoice = .auto
  var trace = false
  /// The full-screen app takes the mouse (clicks, the wheel); `--no-mouse` leaves it to
  /// the terminal.
  var mouse = true
  var picture: PictureChoice = .auto
  /// `show`'s picture box in cells (`--size WxH`), if given.
  var pictureSize: PictureBox?
  /// The glyphs `show` draws pictures in colour cells with (`--symbols`).
  var symbols: SymbolSet = .auto
  /// How many times `show` and the Breed screen play an animated picture (`--loops N`; 0:
  /// the first frame alone); `nil`: as the file says (within `show`'s limits).
  var loops: Int?
  var timeout: Double = 10
  /// Where the full-screen app writes the session (`--record FILE`).
  var record: String?
  /// `replay --check`.
  var check = false
  /// `replay --frame N|last`: the step, `nil` for the last.
  var frame: Int??
}

/// The most cells a picture may take, across and down.
struct PictureBox: Equatable {
  var columns: Int
  var rows: Int

  /// The largest box `--size` takes, each way.
  static let largest = 1_000

  /// `WxH` (`60x20`, `60X20` or `60×20`), each a count from 1 to ``largest``.
  init(parsing text: String) throws(UsageError) {
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

  init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }
}

/// How pictures are shown (`--picture`).
enum PictureChoice: String, CaseIterable {
  case auto, blocks, ascii, none
  case ansi256 = "256"
  case kitty, iterm, sixel
}

/// A command line that cannot be run; exit code 2.
struct UsageError: Error, Equatable {
  var message: String
}

enum Arguments {
  static let version = "DogBreedsCLI 0.1.0"

  /// The most times `--loops` plays an animation.
  static let mostLoops = 1_000

  /// The options that take no value, and what each sets.
  private static let switches: [String: @Sendable (inout Options) -> Void] = [
    "-h": { $0.command = .help }, "--help": { $0.command = .help }, "--version": { $0.command = .version },
    "--json": { $0.json = true }, "--offline": { $0.offline = true }, "--trace": { $0.trace = true },
    "--fresh": { $0.fresh = true }, "--no-mouse": { $0.mouse = false }, "--check": { $0.check = true },
  ]

  /// The options that take a value (`--colour` is `--color` spelt the British way).
  static let valueOptions = [
    "--filter", "--api", "--color", "--colour", "--picture", "--size", "--symbols", "--base-url",
    "--timeout", "--record", "--frame", "--loops",
  ]

  /// The commands.
  static let commands = ["list", "show", "favourites", "replay", "help", "version"]

  /// The options a misspelt one may have meant: all of them, aliases aside.
  static var suggestedOptions: [String] {
    (switches.keys + valueOptions).filter { $0 != "--colour" }.sorted()
  }

  /// " Did you mean list?" where `typed` misspells one of `names` by a slip of typing (the
  /// rule of the breed list's filter, dashes counted as letters), else "".
  static func suggestion(for typed: String, among names: [String]) -> String {
    didYouMean(DogsFeature.spellingMatches(of: typed, among: names))
  }

  /// " Did you mean a, b or c?", or nothing for no names.
  static func didYouMean(_ names: [String]) -> String {
    names.isEmpty ? "" : " Did you mean \(names.joinedAsAlternatives)?"
  }

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Options {
    var options = Options()
    var positional: [String] = []
    var baseURLText = environment["DOG_API_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    var baseURLSource = "DOG_API_BASE_URL"
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
    func choice<T: RawRepresentable & CaseIterable>(_ flag: String, _ text: String) throws(UsageError) -> T
    where T.RawValue == String {
      guard let value = T(rawValue: text) else {
        let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
        let near = suggestion(for: text, among: T.allCases.map(\.rawValue))
        throw UsageError(message: "\(flag) must be one of \(allowed), not \(Output.quoted(text)).\(near)")
      }
      return value
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
      if let set = switches[flag] {
        // Refused rather than ignored: `--offline=false` would otherwise mean offline.
        if let inline { throw UsageError(message: "\(flag) takes no value (remove “=\(inline)”).") }
        set(&options)
        index += 1
        continue
      }
      switch flag {
      case "--filter": options.filter = try value(for: flag, inline: inline)
      case "--api": options.api = try choice(flag, try value(for: flag, inline: inline))
      case "--color", "--colour": options.color = try choice(flag, try value(for: flag, inline: inline))
      case "--picture": options.picture = try choice(flag, try value(for: flag, inline: inline))
      case "--size": options.pictureSize = try PictureBox(parsing: try value(for: flag, inline: inline))
      case "--symbols": options.symbols = try choice(flag, try value(for: flag, inline: inline))
      case "--record": options.record = try value(for: flag, inline: inline)
      case "--loops":
        let text = try value(for: flag, inline: inline)
        // Plain digits only: Int also reads "+5".
        guard text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isNumber }), let loops = Int(text),
          loops <= Self.mostLoops
        else {
          throw UsageError(
            message:
              "--loops must be a count from 0 to \(Self.mostLoops), as in 2, not \(Output.quoted(text)).")
        }
        options.loops = loops
      case "--frame":
        let text = try value(for: flag, inline: inline)
        guard
          text == "last"
            || (text.count <= 9 && text.allSatisfy(\.isASCII) && Int(text).map { $0 >= 0 } == true)
        else {
          throw UsageError(
            message: "--frame takes a step's number (0 is the start) or last, not \(Output.quoted(text)).")
        }
        options.frame = .some(text == "last" ? nil : Int(text))
      case "--base-url":
        baseURLText = try value(for: flag, inline: inline)
        baseURLSource = "--base-url"
      case "--timeout":
        let text = try value(for: flag, inline: inline)
        // Plain decimals only: Double also reads hexadecimal ("0x10" is 16) and exponents.
        let isDecimal = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard isDecimal, let seconds = Double(text), seconds > 0, seconds <= 300 else {
          throw UsageError(
            message:
              "--timeout must be a number of seconds above 0 and at most 300, as in 2.5, not \(Output.quoted(text))."
          )
        }
        options.timeout = seconds
      default:
        throw UsageError(message: "Unknown option \(flag).\(suggestion(for: flag, among: suggestedOptions))")
      }
      index += 1
    }

    if let baseURLText {
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
      options.baseURL = url
    }

    if options.command == .help || options.command == .version { return options }
    if let command = positional.first {
      try read(command: command, positional, into: &options)
    } else if options.json {
      // Alone, --json asks for the list as JSON, on a terminal too: not the browser.
      options.command = .list
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
      case .list, .favourites, .replay, .help, .version: drawsPictures = false
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
      if options.check, options.frame != nil {
        throw UsageError(message: "replay takes --check or --frame, not both.")
      }
    } else if options.check || options.frame != nil {
      throw UsageError(message: "--check and --frame go with replay FILE.")
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
  private static func read(command: String, _ positional: [String], into options: inout Options)
    throws(UsageError)
  {
    switch command {
    case "list":
      guard positional.count == 1 else {
        throw UsageError(message: "list takes no arguments (use --filter TEXT).")
      }
      options.command = .list
    case "show":
      guard positional.count == 2 else {
        throw UsageError(message: "show needs one breed, e.g. show hound/afghan.")
      }
      options.command = .show(positional[1])
    case "favourites", "favorites":
      switch positional.dropFirst().first {
      case nil: options.command = .favourites(.list)
      case "add" where positional.count > 2:
        options.command = .favourites(.add(Array(positional.dropFirst(2))))
      case "remove" where positional.count > 2:
        options.command = .favourites(.remove(Array(positional.dropFirst(2))))
      case "add", "remove":
        throw UsageError(message: "favourites \(positional[1]) needs one breed or more, e.g. hound/afghan.")
      case let other?:
        let near = suggestion(for: other, among: ["add", "remove"])
        throw UsageError(message: "favourites takes add or remove, not \(Output.quoted(other)).\(near)")
      }
    case "replay":
      guard positional.count == 2 else {
        throw UsageError(message: "replay needs one session log, as written by --record FILE.")
      }
      let request: ReplayRequest =
        if options.check { .check } else if let frame = options.frame { .frame(frame) } else { .view }
      options.command = .replay(positional[1], request)
    case "help":
      options.command = .help
    case "version":
      options.command = .version
    default:
      let near = suggestion(for: command, among: commands)
      // A breed where the command goes (`DogBreedsCLI hound`): say how to show it.
      if near.isEmpty, (try? breedPath(command)) != nil || runTogether(command) != nil {
        let argument = command.contains(" ") ? "\"\(command)\"" : command
        throw UsageError(
          message: "Unknown command \(Output.quoted(command)): to see a breed, use show \(argument).")
      }
      throw UsageError(message: "Unknown command \(Output.quoted(command)).\(near)")
    }
  }
}
