import AppFeature
import CommandLineInterface
import Core
import Dispatch
import DogAPIClient
import FavouritesClient
import FavouritesFeature
import Foundation
import Synchronization
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// How AppFeature's reducer ends the full-screen app: its `end` effect calls ``end()``,
/// and the run loop, waiting on ``stream``, ends.
final class AppEnding: Sendable {
  let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() { (stream, continuation) = AsyncStream.makeStream() }

  /// Ends the app (what AppFeature is given as `end`).
  @Sendable func end() { continuation.yield() }
}

/// The full-screen app: input in, actions to the store, frames out.
///
/// Input is read on its own thread (``InputReader``); everything else happens on the main
/// actor. Keys become actions through the app's key bindings, and the terminal's size and
/// replies become `.terminal` actions: the reducer decides what they change. A frame is
/// rendered whenever the view state or the display changes (or the spinner ticks, or the
/// screen must be painted again) and written through one ``TerminalScreen``.
@MainActor
final class InteractiveApp {
  private let store: Store<AppFeature.State, AppFeature.Action>
  private let terminal: any TerminalDevice
  /// Whether the app takes the process's signals (the app does; a test in process does not).
  private let handlesSignals: Bool
  /// How the app starts drawing, and how it draws if the terminal answers that it draws
  /// ambiguous characters wide (``AppFeature/Screen``).
  private let display: Display
  private let ifAmbiguousWide: Display?
  /// Whether the input thread has read the terminal's answer to where the cursor is (or can
  /// read nothing more): what quitting and suspending wait for, as the main queue, where the
  /// answer is taken, may be blocked by the wait itself.
  private nonisolated let probeAnswerRead = Atomic<Bool>(false)
  /// When the question was asked: the wait for its answer ends half a second after it, so
  /// a terminal that never answers costs nothing once the app has run that long.
  private var probeAsked = ContinuousClock.now
  private let escapeDelay: Int32
  /// The screen, as last drawn, and the one writer to it.
  private var screen: TerminalScreen
  private var spinnerFrame = 0
  private var observations: [StoreObservation] = []
  private var sources: [any DispatchSourceProtocol] = []
  /// The spinner's timer, while a spinner shows.
  private var spinnerTimer: (any DispatchSourceTimer)?
  private var finish: ((Int32) -> Void)?
  /// Reports changes to the saved favourites made elsewhere; watched while the app runs.
  private let favouritesChanges: AsyncStream<Void>?
  private var favouritesWatcher: Task<Void, Never>?
  /// What the app's reducer signals when it ends the app.
  private let ending: AppEnding
  private var endWatcher: Task<Void, Never>?
  /// Drops a marker in the session log, where the session is recorded.
  private let mark: (() -> Void)?

  init(
    store: Store<AppFeature.State, AppFeature.Action>, terminal: any TerminalDevice, display: Display,
    ifAmbiguousWide: Display?, escapeDelay: Int32, ending: AppEnding, handlesSignals: Bool = true,
    favouritesChanges: AsyncStream<Void>? = nil, mark: (() -> Void)? = nil
  ) {
    self.store = store
    self.mark = mark
    self.favouritesChanges = favouritesChanges
    self.terminal = terminal
    self.handlesSignals = handlesSignals
    self.display = display
    self.ifAmbiguousWide = ifAmbiguousWide
    self.escapeDelay = escapeDelay
    self.ending = ending
    self.screen = TerminalScreen(write: terminal.write)
  }

  /// Runs until the user quits or a signal ends it; returns the exit code.
  func run() async -> Int32 {
    do {
      try terminal.enter()
    } catch {
      Output.error("This terminal cannot be put in raw mode; try `DogBreedsCLI list`.")
      return ExitCode.failure
    }
    // How the app draws comes first: the terminal as the settings describe it, and its window.
    store.send(.terminal(.opened(display, ifAmbiguousWide: ifAmbiguousWide)))
    if mark != nil { store.send(.terminal(.recording)) }
    sendWindow()
    // The observation derives the view state once per change; rendering reuses it.
    observations.append(store.observe(Drawn.init) { [weak self] drawn in self?.render(drawn) })
    // The reducer decides when the app ends (``AppFeature``'s `end`); the loop obeys.
    endWatcher = Task { [ending] in
      for await _ in ending.stream {
        self.quit(ExitCode.success)
        return
      }
    }
    if handlesSignals { installSignals() }
    startInputThread()
    startSpinner()
    // Where an ambiguous character leaves the cursor tells how wide the terminal draws
    // it; the answer arrives with the keys, and the first frame does not wait for it.
    // The background colour is asked first: terminals answer in order, so once the
    // position's answer is in, any answer about the background is too (one that knows no
    // such question says nothing). So is a cell's size, asked for the pictures' shape where
    // the window does not give it.
    if ifAmbiguousWide != nil {
      let asksCell = display.pictureMode != .none && terminal.cellSize() == nil
      terminal.write(
        Array(
          (ControlSequence.reportBackgroundColor + (asksCell ? ControlSequence.reportCellSize : "")
            + ControlSequence.home + "─" + ControlSequence.reportCursorPosition).utf8))
      probeAsked = ContinuousClock.now
    }
    render()
    store.send(.appeared)
    if let favouritesChanges {
      // What another app or a script saves shows within a second, on every screen.
      favouritesWatcher = Task { [store] in
        for await _ in favouritesChanges { store.send(.favouritesChangedElsewhere) }
      }
    }
    let code = await withCheckedContinuation { continuation in
      finish = { continuation.resume(returning: $0) }
    }
    awaitProbeAnswer()
    screen.leave()
    terminal.restore()
    // However the app ends (a second Ctrl-C, SIGTERM, SIGHUP, the terminal closed), what
    // changed in the favourites and is not saved yet gets one more attempt, unless the user
    // chose to leave it. What is still not saved is named, and the app ends in failure: a
    // star the screen showed is never lost without a word.
    if store.state.quitting != .withoutSaving { await store.send(.saveFavouritesNow).finish() }
    let unsaved = store.state.unsavedFavourites
    guard unsaved.isEmpty else {
      Output.error(Self.notSaved(unsaved, because: store.state.favouritesSaveFailure))
      return ExitCode.failure
    }
    return code
  }

  /// One line naming the changes to the favourites that were not saved, and why.
  static func notSaved(_ unsaved: FavouritesChange, because reason: String?) -> String {
    "Favourites not saved (\(AppFeature.describe(unsaved))). "
      + (reason ?? "They could not be saved before the app ended.")
  }

  private func quit(_ code: Int32) {
    guard let finish else { return }
    self.finish = nil
    for source in sources { source.cancel() }
    spinnerTimer?.cancel()
    favouritesWatcher?.cancel()
    endWatcher?.cancel()
    observations.removeAll()
    finish(code)
  }

  // MARK: Rendering

  /// What a frame is drawn from: the screen's view state, and how the terminal draws.
  private struct Drawn: Equatable {
    var view: AppFeature.ViewState
    var display: Display

    init(_ state: AppFeature.State) {
      view = AppFeature.ViewState(state)
      display = state.screen.display
    }
  }

  /// Draws the screen as the state describes it, through the one screen writer; the whole
  /// screen where `repaint` is set.
  private func render(_ drawn: Drawn? = nil, repaint: Bool = false) {
    guard finish != nil else { return }
    let drawn = drawn ?? Drawn(store.state)
    screen.draw(
      AppView.render(drawn.view, display: drawn.display, spinnerFrame: spinnerFrame), display: drawn.display,
      repaint: repaint)
  }

  /// Ticks the spinner ten times a second while one is on screen, and only then: an idle
  /// app wakes for nothing.
  private func startSpinner() {
    observations.append(store.observe(AppView.showsSpinner) { [weak self] in self?.spin($0) })
    spin(AppView.showsSpinner(store.state))
  }

  /// Starts the spinner's timer, or stops it.
  private func spin(_ shows: Bool) {
    spinnerTimer?.cancel()
    spinnerTimer = nil
    guard shows else { return }
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
    timer.setEventHandler { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        self.spinnerFrame += 1
        self.render()
      }
    }
    timer.resume()
    spinnerTimer = timer
  }

  // MARK: Input

  private func startInputThread() {
    let (fd, delay) = (terminal.inputFD, Duration.milliseconds(Int(escapeDelay)))
    let thread = Thread { [weak self] in
      var reader = InputReader(fd: fd, escapeDelay: delay)
      var code = ExitCode.success
      reading: while true {
        switch reader.read() {
        case .events(let events):
          guard !events.isEmpty else { continue }
          if events.contains(where: { if case .reply(.cursorPosition) = $0 { true } else { false } }) {
            self?.probeAnswerRead.store(true, ordering: .releasing)
          }
          DispatchQueue.main.async { MainActor.assumeIsolated { self?.handle(events) } }
        case .timedOut, .ready:
          continue
        case .ended(let failed):
          // Nothing more can be asked of the app: it ends.
          code = failed ? ExitCode.failure : ExitCode.success
          break reading
        }
      }
      let ended = code
      self?.probeAnswerRead.store(true, ordering: .releasing)  // no answer can be read any more
      DispatchQueue.main.async { MainActor.assumeIsolated { self?.quit(ended) } }
    }
    thread.start()
  }

  func handle(_ keys: [InputEvent]) {
    for key in keys {
      if case .reply(let reply) = key {
        store.send(.terminal(.replied(reply)))
        continue
      }
      // Each key sees the state the one before it left (typed characters extend the filter).
      for response in AppFeature.responses(
        to: key, in: store.state, pageRows: listRows, scrollLimit: screen.frame?.scrollLimit ?? .max,
        frame: screen.frame)
      {
        guard finish != nil else { return }
        switch response {
        case .send(let action): store.send(action)
        case .suspend:
          awaitProbeAnswer()
          terminal.suspend()
          resized()
        case .redraw: render(repaint: true)
        case .mark: mark?()
        }
      }
    }
  }

  /// Waits, until half a second after the question, for the input thread to read the
  /// terminal's answer to the probe if it has not come yet (a quick Ctrl-C or Ctrl-Z over a
  /// slow link): the terminal given back to the shell, the answer would reach the shell
  /// instead and show on its prompt as `^[[1;2R`. The answer itself is taken when the main
  /// queue next runs.
  private func awaitProbeAnswer() {
    guard ifAmbiguousWide != nil else { return }
    let deadline = probeAsked + .milliseconds(500)
    while !probeAnswerRead.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(2_000) }
  }

  /// Tells the store the window's size, and a cell's pixels where the window gives them.
  private func sendWindow() {
    let size = terminal.size()
    store.send(.terminal(.resized(columns: size.columns, rows: size.rows, cell: terminal.cellSize())))
  }

  /// Takes the terminal's size again and paints the whole screen (the reducer has a
  /// picture on screen decoded for a smaller terminal decoded again for this one).
  private func resized() {
    sendWindow()
    render(repaint: true)
  }

  /// The rows PgUp/PgDn move: the list on screen (the breeds, or a breed's sub-breeds, as
  /// last drawn) less one row kept in view for context.
  private var listRows: Int { max(1, (screen.frame?.listRows ?? store.state.screen.display.rows) - 1) }

  // MARK: Signals

  private func installSignals() {
    signal(SIGPIPE, SIG_IGN)
    let exitCodes = ExitCode.interrupted
    guard let pipe = SignalPipe.install(Array(exitCodes.keys) + [SIGWINCH]) else { return }
    let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: .main)
    source.setEventHandler { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        let signals = SignalPipe.drain(pipe)
        if let code = signals.lazy.compactMap({ exitCodes[$0] }).first {
          self.quit(code)
        } else if signals.contains(SIGWINCH) {
          // A burst of resizes is read at once and redrawn once.
          self.resized()
        }
      }
    }
    source.resume()
    sources.append(source)
  }
}
