import Foundation
import Testing
import TextRendering

@testable import CommandLineInterface

/// `Arguments.parse`, in process: one row per case.
struct ArgumentsTests {
  /// Arguments that are a usage error, and how the message starts.
  @Test(arguments: [
    (["--bogus"], "Unknown option --bogus."),
    (["--fitler", "x"], "Unknown option --fitler. Did you mean --filter?"),
    (["list", "extra"], ""),
    (["show"], ""),
    (["--api", "mock"], "--api must be one of"),
    (["--color=sometimes"], "--color must be one of"),
    (["frobnicate"], "Unknown command “frobnicate”: to see a breed, use show frobnicate."),
    (["show", "Afghan", "Hound"], "show needs one breed, e.g. show hound/afghan."),
    (["lsit"], "Unknown command “lsit”. Did you mean list?"),
    (["--timeout", "-1"], ""),
    (["--timeout"], "--timeout needs a value."),
    (["--base-url", "ftp://x"], "--base-url must be an http(s) URL"),
    (["show", "hound", "--filter", "x"], "--filter goes with list, or the browser."),
    (["list", "--picture", "blocks"], "--picture goes with show and the full-screen browser, not list."),
    (
      ["--base-url", "http://[::1]:99999/api"],
      "--base-url has port 99999, where ports go from 1 to 65535: “http://[::1]:99999/api”."
    ),
    (
      ["--base-url", "http://127.0.0.1:0/api"],
      "--base-url has port 0, where ports go from 1 to 65535: “http://127.0.0.1:0/api”."
    ),
    (["--base-url", "http://x/api?key=1"], ""),
    (["--base-url", "http://x/api#top"], ""),
    (["--base-url", "http:///api"], ""),
    (["list", "--json=yes"], "--json takes no value (remove “=yes”)."),
    (["favourites", "--fresh"], "--fresh goes with list and show."),
    (["--fresh"], "--fresh goes with list and show."),
    (
      ["show", "pug", "--size", "60"],
      "--size must be columns x rows, each from 1 to 1000, as in 60x20, not “60”."
    ),
    (["show", "pug", "--size", "0x20"], "--size must be columns x rows"),
    (["show", "pug", "--size", "60x1001"], "--size must be columns x rows"),
    (["show", "pug", "--size", "+6x20"], "--size must be columns x rows"),
    (["show", "pug", "--size", "6x20x3"], "--size must be columns x rows"),
    (["show", "pug", "--size", "٦x20"], "--size must be columns x rows"),
    (["show", "pug", "--size", "99999999999999999999x2"], "--size must be columns x rows"),
    (["list", "--size", "60x20"], "--size goes with show"),
    (["show", "pug", "--json", "--size", "60x20"], "--size goes with show"),
    (["show", "pug", "--picture", "none", "--size", "60x20"], "--size sizes the picture"),
    (
      ["show", "pug", "--symbols", "braille"],
      "--symbols must be one of auto, half, quadrant, block, line, sextant"
    ),
    (["--symbols", "quadrant"], "--symbols goes with show"),
    (
      ["show", "pug", "--picture", "ascii", "--symbols", "sextant"],
      "--symbols draws pictures in colour cells"
    ),
    (["show", "pug", "--loops", "1001"], "--loops must be a count from 0 to 1000, as in 2, not “1001”."),
    (["show", "pug", "--loops", "-1"], "--loops must be a count"),
    (["show", "pug", "--loops=-1"], "--loops must be a count"),
    (["show", "pug", "--loops", "+2"], "--loops must be a count"),
    (["show", "pug", "--loops", "forever"], "--loops must be a count"),
    (["show", "pug", "--loops", "٣"], "--loops must be a count"),
    (["list", "--loops", "2"], "--loops goes with show"),
    (["show", "pug", "--json", "--loops", "2"], "--loops goes with show"),
    (["replay", "log", "--loops", "2"], "--loops goes with show"),
    (["favourites", "--loops", "2"], "--loops goes with show"),
    (
      ["show", "pug", "--picture", "kitty", "--loops", "2"],
      "--loops plays pictures drawn in colour cells: with --picture kitty the picture stays still."
    ),
    (
      ["--picture", "ascii", "--loops", "0"],
      "--loops plays pictures drawn in colour cells: with --picture ascii the picture stays still."
    ),
    (
      ["show", "pug", "--picture", "none", "--loops", "2"],
      "--loops plays pictures drawn in colour cells, and --picture none draws none."
    ),
  ])
  func aUsageErrorSaysWhatIsWrong(arguments: [String], start: String) {
    #expect(throws: UsageError.self, "\(arguments)") {
      try Arguments.parse(arguments, environment: [:])
    }
    do {
      _ = try Arguments.parse(arguments, environment: [:])
    } catch {
      #expect(error.message.hasPrefix(start), "\(arguments): \(error.message)")
      #expect(error.message.hasSuffix(".") || error.message.hasSuffix("?"), "\(error.message)")
    }
  }

  /// Arguments that parse, and the options they give.
  @Test(arguments: [
    ([], Options()),
    (["list"], Options(command: .list)),
    (["--json"], Options(command: .list, json: true)),
    (["list", "--filter", "hou", "--json"], Options(command: .list, filter: "hou", json: true)),
    (["show", "hound/afghan"], Options(command: .show("hound/afghan"))),
    (["show", "Afghan Hound"], Options(command: .show("Afghan Hound"))),
    (["--api", "fake"], Options(api: .fake)),
    (["--api=fake", "--offline"], Options(api: .fake, offline: true)),
    (["--colour", "never"], Options(color: .never)),
    (["show", "pug", "--picture", "sixel"], Options(command: .show("pug"), picture: .sixel)),
    (
      ["show", "pug", "--size", "60x20"],
      Options(command: .show("pug"), pictureSize: .init(columns: 60, rows: 20))
    ),
    (["show", "pug", "--size=7X3"], Options(command: .show("pug"), pictureSize: .init(columns: 7, rows: 3))),
    (["show", "pug", "--symbols", "sextant"], Options(command: .show("pug"), symbols: .sextant)),
    (
      ["show", "pug", "--picture", "256", "--symbols=quadrant"],
      Options(command: .show("pug"), picture: .ansi256, symbols: .quadrant)
    ),
    (
      ["show", "pug", "--size", "1000×1"],
      Options(command: .show("pug"), pictureSize: .init(columns: 1000, rows: 1))
    ),
    (["show", "pug", "--loops", "0"], Options(command: .show("pug"), loops: 0)),
    (
      ["show", "pug", "--loops=1000", "--picture", "256"],
      Options(command: .show("pug"), picture: .ansi256, loops: 1000)
    ),
    (["--loops", "0"], Options(loops: 0)),
    (["--record", "log", "--loops", "2"], Options(loops: 2, record: "log")),
    (["--timeout", "2.5"], Options(timeout: 2.5)),
    (["--trace"], Options(trace: true)),
    (["list", "--fresh"], Options(command: .list, fresh: true)),
    (["--help"], Options(command: .help)),
    (["--version", "list"], Options(command: .version)),
    (["version"], Options(command: .version)),
    (["help"], Options(command: .help)),
  ])
  func argumentsParseIntoOptions(arguments: [String], expected: Options) throws {
    #expect(try Arguments.parse(arguments, environment: [:]) == expected)
  }

  /// `DOG_API_BASE_URL` is the base URL unless `--base-url` says otherwise; empty, it is no
  /// setting.
  @Test(arguments: [
    ([], ["DOG_API_BASE_URL": "http://127.0.0.1:8080/api"], "http://127.0.0.1:8080/api"),
    (
      ["--base-url", "http://127.0.0.1:9090/api"], ["DOG_API_BASE_URL": "http://127.0.0.1:8080/api"],
      "http://127.0.0.1:9090/api"
    ),
    ([], ["DOG_API_BASE_URL": ""], DogAPIDefault.baseURL),
  ])
  func theBaseURLComesFromTheOptionThenTheEnvironment(
    arguments: [String], environment: [String: String], expected: String
  ) throws {
    #expect(try Arguments.parse(arguments, environment: environment).baseURL.absoluteString == expected)
  }
}

/// The API's address when nothing else is said.
private enum DogAPIDefault {
  static let baseURL = Options().baseURL.absoluteString
}

extension Options {
  /// Options with the given fields changed from the defaults.
  init(
    command: Command = .interactive, filter: String? = nil, json: Bool = false, api: API = .live,
    offline: Bool = false, color: ColorChoice = .auto, trace: Bool = false, picture: PictureChoice = .auto,
    timeout: Double = 10, fresh: Bool = false, pictureSize: PictureBox? = nil, symbols: SymbolSet = .auto,
    loops: Int? = nil, record: String? = nil
  ) {
    self.init()
    self.loops = loops
    self.record = record
    self.symbols = symbols
    self.pictureSize = pictureSize
    self.command = command
    self.filter = filter
    self.json = json
    self.api = api
    self.offline = offline
    self.color = color
    self.trace = trace
    self.picture = picture
    self.timeout = timeout
    self.fresh = fresh
  }
}
