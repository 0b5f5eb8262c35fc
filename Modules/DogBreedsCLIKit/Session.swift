import AppFeature
import BreedFeature
import CommandLineInterface
import Core
import DogAPIClient
import FavouritesClient
import Foundation
import LocalFiles
import SessionRecording
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// One run of a command: the options, the environment and the client they choose.
@MainActor
struct Session {
  let options: Options
  /// The environment, with `COLORTERM=truecolor` added where the terminal, asked, said it
  /// draws 24-bit colour (``asksDirectColor(isTerminal:)``).
  var environment: [String: String]
  /// The command line as given, without the program's name (a session log keeps it).
  let arguments: [String]
  let client: DogAPIClient
  /// Where the cache and the favourites are kept (found once: ``run()`` says where they go
  /// when that is a temporary folder).
  let folders: UserFolders
  /// The user's favourites, in the data folder: a save waits for another process's for
  /// `lockWait` at most (a script's, a few seconds; the app's, none, as it tries again
  /// by itself and says meanwhile that it waits).
  func favouritesClient(lockWait: Duration = .seconds(3)) -> FavouritesClient {
    .live(folder: folders.data, lockWait: lockWait)
  }

  init(options: Options, environment: [String: String], arguments: [String] = []) {
    self.options = options
    self.environment = environment
    self.arguments = arguments
    let folders = UserFolders(environment: environment)
    self.folders = folders
    switch options.api {
    case .fake:
      let latency = Int(environment["DOGBREEDS_FAKE_LATENCY_MS"] ?? "") ?? 0
      client = .fake(latency: .milliseconds(max(0, min(latency, 60_000))))
    case .live:
      client = .live(
        DogAPIClient.Configuration(
          baseURL: options.baseURL, timeout: .seconds(options.timeout),
          cache: BreedListCache(directory: folders.cache),
          offline: options.offline))
    }
  }

  /// The terminal the interactive app reads keys from; or nil, with the reason when the
  /// output is a terminal (where the browser was to be expected; a pipe expects the list).
  func interactiveInput() -> (input: Int32?, whyNot: String?) {
    guard isatty(Output.streams.output) == 1 else { return (nil, nil) }
    let term = environment["TERM"] ?? ""
    if term.isEmpty || term == "dumb" {
      return (
        nil,
        "TERM is \(term.isEmpty ? "not set" : "dumb"), so the browser cannot draw here: the list instead."
      )
    }
    if isatty(0) == 1 { return (0, nil) }
    let tty = open("/dev/tty", O_RDONLY | O_CLOEXEC)
    if tty >= 0 { return (tty, nil) }
    return (nil, "There is no terminal to read keys from, so the browser cannot run: the list instead.")
  }

  /// A cell's size in pixels, as the window of the terminal on standard output reports it.
  nonisolated static func cellSize() -> TerminalPicture.CellSize? {
    isatty(Output.streams.output) == 1 ? Terminal.window(Output.streams.output)?.cell : nil
  }

  /// The terminal's size in cells, or `COLUMNS`/`LINES` (where they are counts above 0), or
  /// 80×24.
  nonisolated static func terminalSize(environment: [String: String]) -> (columns: Int, rows: Int) {
    if isatty(Output.streams.output) == 1, let cells = Terminal.window(Output.streams.output)?.cells {
      return cells
    }
    func count(_ name: String, else fallback: Int) -> Int {
      Int(environment[name] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? fallback
    }
    return (count("COLUMNS", else: 80), count("LINES", else: 24))
  }

  /// Runs the command: the pictures' settings, the store, then the command itself.
  mutating func run() async -> Int32 {
    if let notice = folders.notice { Output.warning(notice) }
    let (input, whyNotInteractive) = options.command == .interactive ? interactiveInput() : (nil, nil)
    let interactive = input != nil
    // The full-screen app asks before it starts, as its colours and pictures are chosen
    // once; `show` asks with its other questions (``screenSettings(interactive:)``).
    if interactive, asksDirectColor(isTerminal: isatty(Output.streams.output) == 1),
      TerminalProbe.ask(
        output: Output.streams.output, width: false, directColor: true,
        patience: TerminalLink.of(environment: environment).patience)?.directColor == true
    {
      environment["COLORTERM"] = "truecolor"
    }
    let screen = screenSettings(interactive: interactive)
    // The browser keeps the user's favourites; the scriptable commands leave them alone.
    let favourites = interactive ? favouritesClient(lockWait: .zero) : nil
    let pictureTarget = interactive ? nil : showPictureTarget(screen)
    let pictureSize = pictureSize(screen, target: pictureTarget)
    // `show` asks for the picture of a breed named by its API name while the list loads.
    var client = client
    if case .show(let name) = options.command, let path = try? Arguments.breedPath(name) {
      client = client.askingAhead(forPictureOf: path.breed, path.subBreed, download: pictureSize != nil)
    }
    // `show` on a terminal, in colour cells, keeps the picture's bytes: an animated GIF's
    // other frames are decoded from them once its first is drawn.
    var animation: Commands.AnimationSettings?
    if case .show = options.command, !options.json, screen.isTerminal, options.loops != 0,
      screen.pictures.playsAnimations, (environment["TERM"] ?? "") != "dumb", pictureSize != nil
    {
      let kept = PictureBytes()
      client = client.keepingPictureBytes(in: kept)
      animation = Commands.AnimationSettings(bytes: kept, loops: options.loops)
    }
    // --record: the session's log, from the first action on.
    var recorder: SessionRecorder?
    if let path = options.record {
      if interactive {
        let header = SessionLog.Header(
          app: Arguments.version, arguments: arguments, pictures: pictureSize != nil,
          favourites: favourites != nil)
        do throws(ExitCode.Failure) {
          recorder = try SessionRecorder(path: path, header: header)
        } catch {
          return error.code
        }
      } else {
        Output.warning(
          "--record records the full-screen browser, and there is no terminal: nothing is recorded.")
      }
    }
    // The Breed screen plays animated GIFs where `show` does: in colour cells, unless
    // `--loops 0` asks for the first frame alone.
    let motion: BreedFeature.Motion =
      interactive && screen.pictures.playsAnimations && options.loops != 0
      ? .plays(times: options.loops) : .still
    let ending = AppEnding()
    let store = makeStore(
      AppFeature(
        client: client, pictureSize: pictureSize, motion: motion, favourites: favourites,
        end: interactive ? ending.end : nil))
    if let recorder { store.startRecording { entry, state in recorder.step(entry, state: state) } }
    // --filter is the list's filter, for `list` and the browser alike (where the browser
    // starts, as if typed); it applies when the list arrives.
    if let filter = options.filter { store.send(.dogs(.filterChanged(filter))) }
    let commands = Commands(
      store: store, options: options, client: client, pictures: screen.pictures,
      pictureColumns: screen.pictureColumns, window: screen.window, display: screen.display,
      animation: animation, pictureTarget: pictureTarget)
    switch options.command {
    case .list:
      return await commands.list()
    case .show(let breed):
      return await commands.show(breed)
    case .favourites(let command):
      return await commands.favourites(command, in: favouritesClient())
    case .interactive:
      guard let input else {
        if let whyNotInteractive { Output.warning(whyNotInteractive) }
        return await commands.list()
      }
      let code = await browse(
        store: store, input: input, screen: screen, ending: ending, favourites: favourites,
        mark: recorder.map { recorder in { recorder.mark() } })
      if let warning = recorder?.finish() { Output.warning(warning) }
      return code
    case .help, .version, .replay, .completions, .manual:
      return ExitCode.success
    }
  }

  /// What the run draws on: how (one ``Display``: the output's colours, a cell's size, the
  /// background's lightness, the pictures' mode, protocol and symbols), the pictures'
  /// other settings, and, for `show`, the terminal's window.
  struct ScreenSettings {
    var isTerminal: Bool
    var colorRefused: Bool
    var pictures: PictureSettings
    /// How the output is drawn. Its colours are the terminal's; a picture in cells is
    /// drawn in `pictures.colorMode` (asked for, 256 at least).
    var display: Display
    /// How wide `show`'s picture may be where the output is not a terminal.
    var pictureColumns: Int
    /// The terminal's window in cells, where the output is one.
    var window: (columns: Int, rows: Int)?
  }

  /// Whether to ask the terminal if it draws 24-bit colour: colour is left to `auto` and
  /// wanted (a terminal, `TERM` set and not `dumb`, no `NO_COLOR`, colours in its terminfo
  /// entry where it has one), and `COLORTERM` does not say so already. A terminal that
  /// says it does counts as `COLORTERM=truecolor`.
  func asksDirectColor(isTerminal: Bool) -> Bool {
    let term = environment["TERM"] ?? ""
    return options.color == .auto && isTerminal && !term.isEmpty && term != "dumb"
      && (environment["NO_COLOR"] ?? "").isEmpty && !ColorPolicy.advertisesTrueColor(environment)
      && ColorPolicy.mode(choice: .auto, isTerminal: true, environment: environment) != .none
  }

  /// The colours and pictures for this run, with what the terminal says it does asked
  /// where `show` needs it.
  mutating func screenSettings(interactive: Bool) -> ScreenSettings {
    let isTerminal = isatty(Output.streams.output) == 1
    var colorMode = ColorPolicy.mode(choice: options.color, isTerminal: isTerminal, environment: environment)
    let colorRefused = ColorPolicy.isRefused(choice: options.color, environment: environment)
    let windowCell = Self.cellSize()
    var cell = windowCell ?? .default
    // Inside tmux, `show` asks it what it passes on to the terminal outside.
    var tmux: TmuxClient?
    if case .show = options.command, isTerminal, !options.json, options.picture == .auto,
      PictureSettings.isInsideTmux(environment)
    {
      tmux = TmuxClient.ask(environment: environment)
    }
    var pictures = PictureSettings.resolve(
      options.picture, colorMode: colorMode, colorRefused: colorRefused, isTerminal: isTerminal,
      interactive: interactive, unicode: Output.unicode, environment: environment, cell: cell, tmux: tmux)
    // Before `show` prints a picture in cells: whether the background is light, and, for
    // half blocks it chose (not asked for by name), whether the terminal draws them two
    // columns wide (each would take two: the ASCII ramp instead, as in the full-screen app).
    // Before it prints any picture but iTerm2's (which keeps its own shape): a cell's size,
    // where the window does not give it, for the picture's shape. And, in the same round
    // trip, for a picture in cells, whether it draws 24-bit colour where nothing says so:
    // then the colours and the pictures are chosen again, for such a terminal. Its
    // attributes, which end the answers, say whether it draws sixel.
    var lightBackground = false
    let inCells = pictures.mode == .blocks || pictures.mode == .ascii
    let asksCell = windowCell == nil && pictures.pixelsPerCell != nil
    let asksColor = !interactive && inCells && asksDirectColor(isTerminal: isTerminal)
    if case .show = options.command, !options.json, inCells || asksCell || asksColor {
      var chosenBlocks = pictures.mode == .blocks && !pictures.explicit
      let answers = TerminalProbe.ask(
        output: Output.streams.output,
        width: chosenBlocks || (asksColor && options.picture == .auto && Output.unicode),
        cellSize: asksCell, directColor: asksColor,
        patience: TerminalLink.of(environment: environment).patience)
      if asksColor, answers?.directColor == true {
        environment["COLORTERM"] = "truecolor"
        colorMode = ColorPolicy.mode(choice: options.color, isTerminal: isTerminal, environment: environment)
        pictures = PictureSettings.resolve(
          options.picture, colorMode: colorMode, colorRefused: colorRefused, isTerminal: isTerminal,
          interactive: interactive, unicode: Output.unicode, environment: environment, cell: cell, tmux: tmux)
        chosenBlocks = pictures.mode == .blocks && !pictures.explicit
      }
      lightBackground = answers?.lightBackground ?? false
      if asksCell, let answered = answers?.cellSize {
        cell = answered
        // A terminal's own protocol is sent the pixels its cells show.
        if pictures.terminalProtocol != nil {
          pictures.pixelsPerCell = PictureSettings.CellPixels(width: answered.width, height: answered.height)
        }
        // Symbols are fitted on as many.
        if pictures.mode == .blocks {
          let samples = SymbolSet.samplesPerCell(answered)
          pictures.pixelsPerCell = PictureSettings.CellPixels(width: samples.across, height: samples.down)
        }
      }
      if chosenBlocks, answers?.drawsSixel == true {
        pictures = PictureSettings.resolve(
          options.picture, colorMode: colorMode, colorRefused: colorRefused, isTerminal: isTerminal,
          interactive: interactive, unicode: Output.unicode, environment: environment, cell: cell, tmux: tmux,
          attributesSaySixel: true)
        chosenBlocks = pictures.mode == .blocks && !pictures.explicit
      }
      if chosenBlocks, answers?.drawsWide == true {
        pictures = PictureSettings.resolve(
          options.picture, colorMode: colorMode, colorRefused: colorRefused, isTerminal: isTerminal,
          interactive: false, unicode: false, environment: environment)
      }
    }
    if let note = pictures.note { Output.warning(note) }
    pictures.compressed = TerminalLink.of(environment: environment).compressesPictures
    // Pictures `show` writes to a file or a pipe are at most 80 columns wide; on a
    // terminal, they fit its window with the text after them.
    let size = Self.terminalSize(environment: environment)
    return ScreenSettings(
      isTerminal: isTerminal, colorRefused: colorRefused, pictures: pictures,
      display: Display(
        columns: size.columns, rows: size.rows, unicode: Output.unicode, colorMode: colorMode,
        lightBackground: lightBackground, cell: cell, pictureMode: pictures.mode,
        pictureProtocol: pictures.terminalProtocol, compressesPictures: pictures.compressed,
        symbols: options.symbols),
      pictureColumns: min(size.columns, 80), window: isTerminal ? size : nil)
  }

  /// What the scriptable commands decode a picture to, where pictures are downloaded:
  /// `show`'s box with no text under the picture yet, until `show` knows its text
  /// (``Commands``).
  func showPictureTarget(_ screen: ScreenSettings) -> ShowPictureTarget? {
    let box = PictureSettings.showBox(
      asked: options.pictureSize, window: screen.window, pipedColumns: screen.pictureColumns, text: "")
    return screen.pictures.pixelsPerCell.map { ShowPictureTarget($0.pixels(of: box)) }
  }

  /// The pixels a picture should have when it arrives, or `nil` for no pictures: the
  /// browser's fit the terminal as it is then (it may have been resized); the scriptable
  /// commands', `target`'s.
  func pictureSize(_ screen: ScreenSettings, target: ShowPictureTarget?) -> (
    @Sendable () -> (width: Int, height: Int)
  )? {
    let environment = environment
    return screen.pictures.pixelsPerCell.map { perCell -> @Sendable () -> (width: Int, height: Int) in
      if let target { return { target.pixels } }
      return {
        let size = Self.terminalSize(environment: environment)
        return perCell.size(columns: size.columns, rows: size.rows)
      }
    }
  }

  /// The store, tracing every action and change of state to standard error with --trace.
  func makeStore(_ feature: AppFeature) -> Store<AppFeature.State, AppFeature.Action> {
    guard options.trace else { return Store(initialState: AppFeature.State(), reducer: feature) }
    // Core's dump already escapes strings; sanitising each line as well keeps any other
    // description (an error's, a URL's) from reaching the terminal raw.
    let trace = feature._printChanges { entry in
      Output.write(
        entry.split(separator: "\n", omittingEmptySubsequences: false).map {
          Sanitizer.sanitize(String($0))
        }
        .joined(separator: "\n"), to: Output.streams.error)
    }
    return Store(initialState: AppFeature.State(), reducer: trace)
  }

  /// The full-screen browser, on the terminal `input` reads keys from.
  func browse(
    store: Store<AppFeature.State, AppFeature.Action>, input: Int32, screen: ScreenSettings,
    ending: AppEnding, favourites: FavouritesClient?, mark: (() -> Void)? = nil
  ) async -> Int32 {
    if options.trace && isatty(Output.streams.error) == 1 {
      Output.error(
        "--trace writes to standard error, which is this terminal; redirect it: DogBreedsCLI --trace 2>trace.log"
      )
      return ExitCode.usage
    }
    let delay = Int32(environment["ESCDELAY"] ?? "") ?? 50
    // With pictures in half blocks the screen takes the pictures' colours (asked for, they
    // are 256 at least); otherwise the terminal's. Its size and cells come from the window.
    func display(_ pictures: PictureSettings, unicode: Bool) -> Display {
      var display = screen.display
      display.unicode = unicode
      display.colorMode = pictures.mode == .blocks ? pictures.colorMode : screen.display.colorMode
      display.pictureMode = pictures.mode
      display.pictureProtocol = pictures.terminalProtocol
      display.compressesPictures = pictures.compressed
      return display
    }
    // What an ASCII screen would draw, for a terminal that draws ambiguous characters wide
    // (an ASCII screen already has nothing to ask).
    let ifAmbiguousWide: Display? =
      if Output.unicode {
        display(
          PictureSettings.resolve(
            options.picture, colorMode: screen.display.colorMode ?? .none, colorRefused: screen.colorRefused,
            isTerminal: screen.isTerminal, interactive: true, unicode: false, environment: environment),
          unicode: false)
      } else {
        nil
      }
    let app = InteractiveApp(
      store: store,
      terminal: Terminal(inputFD: input, outputFD: Output.streams.output, mouse: options.mouse),
      display: display(screen.pictures, unicode: Output.unicode), ifAmbiguousWide: ifAmbiguousWide,
      escapeDelay: max(5, min(delay, 1000)), ending: ending, favouritesChanges: favourites?.changes(),
      mark: mark)
    return await app.run()
  }
}
