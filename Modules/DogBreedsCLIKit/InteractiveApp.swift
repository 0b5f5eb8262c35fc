import AppFeature
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

/// How the full-screen app draws: its characters, pictures and colours.
struct ScreenStyle {
  /// Whether it may use characters beyond ASCII (box drawing, arrows, half blocks).
  var unicode: Bool
  /// How pictures are drawn.
  var pictureMode: PictureMode
  /// The colours the terminal takes.
  var colorMode: ColorMode
  /// Whether the terminal's background is light, as it answered (ASCII pictures then run
  /// the other way).
  var lightBackground = false
  /// Who draws a picture in ``PictureMode/terminal``: kitty's protocol, or sixel.
  var pictureProtocol: PictureSettings.TerminalProtocol? = nil
  /// Whether kitty's pictures are sent compressed (``TerminalLink/compressesPictures``).
  var compressesPictures = false
}

/// The full-screen app: keys in, actions to the store, frames out.
///
/// Input is read on its own thread and decoded into keys; everything else happens on the
/// main actor. A frame is rendered whenever the visible state changes (or the spinner
/// ticks, or the terminal is resized), diffed against the last one, and written in one go.
@MainActor
final class InteractiveApp {
  private let store: Store<AppFeature.State, AppFeature.Action>
  private let terminal: any TerminalDevice
  /// Whether the app takes the process's signals (the app does; a test in process does not).
  private let handlesSignals: Bool
  /// How the screen is drawn now.
  private var style: ScreenStyle
  /// How to draw it if the terminal turns out to draw East Asian ambiguous characters
  /// (the UI's `─ ▶ …`, the half blocks) two columns wide, as terminals set up for
  /// Chinese, Japanese or Korean may: ASCII, which is never ambiguous. `nil` once the
  /// terminal has answered, or where there is nothing to ask (an ASCII screen already).
  private var asciiStyle: ScreenStyle?
  /// Whether the input thread has read the terminal's answer to where the cursor is (or can
  /// read nothing more): what quitting and suspending wait for, as the main queue, where the
  /// answer is taken, may be blocked by the wait itself.
  private nonisolated let probeAnswerRead = Atomic<Bool>(false)
  /// When the question was asked: the wait for its answer ends half a second after it, so
  /// a terminal that never answers costs nothing once the app has run that long.
  private var probeAsked = ContinuousClock.now
  private let escapeDelay: Int32
  private var size: (columns: Int, rows: Int)
  /// A cell's size in pixels, for the pictures' shape: as its window says, else as it
  /// answered when asked, else the stated default.
  private var cellSize: TerminalPicture.CellSize
  /// The terminal's answer to how large a cell is, asked where its window does not say.
  private var answeredCellSize: TerminalPicture.CellSize?
  private var previousFrame: Frame?
  /// The picture the terminal shows in the frame's blank cells (``PictureMode/terminal``).
  private var placedPicture: PlacedPicture?
  /// The id the picture is placed under (one picture on screen at a time).
  private static let pictureID = 1
  private var spinnerFrame = 0
  private var observations: [StoreObservation] = []
  private var sources: [any DispatchSourceProtocol] = []
  /// The spinner's timer, while a spinner shows.
  private var spinnerTimer: (any DispatchSourceTimer)?
  private var finish: ((Int32) -> Void)?
  /// Reports changes to the saved favourites made elsewhere; watched while the app runs.
  private let favouritesChanges: AsyncStream<Void>?
  private var favouritesWatcher: Task<Void, Never>?
  /// Where the session is recorded (`--record`): how each frame is drawn goes there too.
  private let recorder: SessionRecorder?

  init(
    store: Store<AppFeature.State, AppFeature.Action>, terminal: any TerminalDevice, style: ScreenStyle,
    asciiStyle: ScreenStyle?, escapeDelay: Int32, handlesSignals: Bool = true,
    favouritesChanges: AsyncStream<Void>? = nil, recorder: SessionRecorder? = nil
  ) {
    self.recorder = recorder
    self.store = store
    self.favouritesChanges = favouritesChanges
    self.terminal = terminal
    self.handlesSignals = handlesSignals
    self.style = style
    self.asciiStyle = asciiStyle
    self.escapeDelay = escapeDelay
    self.size = terminal.size()
    self.cellSize = terminal.cellSize() ?? .default
  }

  /// Runs until the user quits or a signal ends it; returns the exit code.
  func run() async -> Int32 {
    do {
      try terminal.enter()
    } catch {
      Output.error("This terminal cannot be put in raw mode; try `DogBreedsCLI list`.")
      return ExitCode.failure
    }
    // The observation derives the view state once per change; rendering reuses it.
    observations.append(store.observe(AppFeature.ViewState.init) { [weak self] view in self?.render(view) })
    observations.append(
      store.observe({ $0.breed?.id }) { [weak self] id in
        if id != nil { self?.store.send(.breed(.appeared)) }
      })
    // The Favourites tab appears when it is shown, and again when its favourites change
    // while it shows (rows follow them, and rows coming into view load their thumbnails).
    observations.append(
      store.observe({ $0.tab == .favourites && $0.breed == nil ? $0.favourites : nil }) { [weak self] shown in
        if shown != nil { self?.store.send(.favourites(.appeared)) }
      })
    // Asked to quit, the app saves first; it ends once nothing is left to save, or the user
    // chose to leave it unsaved.
    observations.append(
      store.observe(\.quitting) { [weak self] quitting in
        if quitting == .ready || quitting == .withoutSaving { self?.quit(ExitCode.success) }
      })
    if handlesSignals { installSignals() }
    startInputThread()
    startSpinner()
    // Where an ambiguous character leaves the cursor tells how wide the terminal draws
    // it; the answer arrives with the keys, and the first frame does not wait for it.
    // The background colour is asked first: terminals answer in order, so once the
    // position's answer is in, any answer about the background is too (one that knows no
    // such question says nothing). So is a cell's size, asked for the pictures' shape where
    // the window does not give it.
    if asciiStyle != nil {
      let asksCell = style.pictureMode != .none && terminal.cellSize() == nil
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
    if placedPicture != nil, style.pictureProtocol == .kitty {
      terminal.write(Array(TerminalPicture.kittyDelete(id: Self.pictureID).utf8))
    }
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
    observations.removeAll()
    finish(code)
  }

  // MARK: Rendering

  private func render(_ view: AppFeature.ViewState? = nil, force: Bool = false) {
    guard finish != nil else { return }
    let view = view ?? AppFeature.ViewState(store.state)
    let frame = AppView.render(
      view, width: size.columns, height: size.rows, spinnerFrame: spinnerFrame, unicode: style.unicode,
      pictureMode: style.pictureMode, lightBackground: style.lightBackground, cell: cellSize,
      colorMode: style.colorMode)
    recorder?.screen(SessionLog.Screen(size: size, style: style, cell: cellSize))
    if !force, frame == previousFrame { return }
    // Sixel pixels belong to the cells they were drawn in, and only writing over those
    // cells takes them away: when the picture changes, or a cell over it does (an alert
    // drawn over it, then gone), the whole screen is painted again and the picture with it.
    let force = force || sixelNeedsRepaint(for: frame)
    terminal.write(
      ScreenDiffer.update(
        from: force ? nil : previousFrame, to: frame, colorMode: style.colorMode,
        overlay: pictureUpdate(frame.picture, redraw: force)))
    previousFrame = frame
  }

  /// Whether a sixel picture must be drawn again with the whole screen: the frame's
  /// picture is not the one drawn, or a cell of the one drawn changes.
  private func sixelNeedsRepaint(for frame: Frame) -> Bool {
    guard style.pictureMode == .terminal, style.pictureProtocol == .sixel else { return false }
    let picture = frame.picture?.keepingShape(in: cellSize)
    guard picture == placedPicture else { return true }
    guard let placed = placedPicture, let previousFrame else { return false }
    for y in placed.y..<min(placed.y + placed.rows, frame.height, previousFrame.height) {
      for x in placed.x..<min(placed.x + placed.columns, frame.width, previousFrame.width)
      where frame[x, y] != previousFrame[x, y] {
        return true
      }
    }
    return false
  }

  /// What takes the picture on screen away and puts the frame's there, when they differ
  /// (or when the whole screen is painted again).
  private func pictureUpdate(_ picture: PlacedPicture?, redraw: Bool) -> [UInt8] {
    // In the terminal's cells, in the picture's shape (the layout assumes 1 × 2 cells).
    let picture = picture?.keepingShape(in: cellSize)
    guard style.pictureMode == .terminal, redraw || picture != placedPicture else { return [] }
    if style.pictureProtocol == .sixel {
      // Drawn with every full repaint (which has cleared the one before), from the
      // picture's top left cell, the cursor saved before and restored after.
      placedPicture = picture
      guard let picture else { return [] }
      // (Without the line feed `show` ends the picture with: the cursor is put back.)
      let sixel = TerminalPicture.sixel(
        picture.image, columns: picture.columns, rows: picture.rows, cell: cellSize)
      return Array(
        (ControlSequence.saveCursor + ControlSequence.cursorTo(row: picture.y, column: picture.x)
          + (sixel.hasSuffix("\n") ? String(sixel.dropLast()) : sixel) + ControlSequence.restoreCursor).utf8)
    }
    var text = placedPicture != nil || redraw ? TerminalPicture.kittyDelete(id: Self.pictureID) : ""
    if let picture {
      // From the picture's top left cell, the cursor saved before and restored after
      // (the picture itself leaves it in place), so the frame's cursor stays right.
      text +=
        ControlSequence.saveCursor + ControlSequence.cursorTo(row: picture.y, column: picture.x)
        + TerminalPicture.kittyPlacement(
          picture.image, columns: picture.columns, rows: picture.rows, id: Self.pictureID,
          compressed: style.compressesPictures)
        + ControlSequence.restoreCursor
    }
    placedPicture = picture
    return Array(text.utf8)
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
    let fd = terminal.inputFD
    let delay = escapeDelay
    let thread = Thread { [weak self] in
      var decoder = KeyDecoder()
      var buffer = [UInt8](repeating: 0, count: 4096)
      // The keyboard closed (end of input, as a closed terminal reads) or can no longer be
      // read (EIO, as a background process in an orphaned group reads it): either way
      // nothing more can be asked of the app, so it ends.
      var code = ExitCode.success
      reading: while true {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // A lone ESC waits `delay` for the rest of a sequence; a paste whose end has not
        // come, a second (or it would swallow every key after it, Ctrl-C included).
        let timeout = decoder.isInPaste ? 1_000 : decoder.hasPendingInput ? delay : -1
        let ready = poll(&descriptor, 1, timeout)
        var keys: [InputEvent] = []
        if ready < 0 {
          if errno == EINTR { continue }
          code = ExitCode.failure
          break reading
        } else if ready == 0 {
          keys = decoder.flush()
        } else {
          let count = read(fd, &buffer, buffer.count)
          if count < 0 {
            if errno == EINTR || errno == EAGAIN { continue }
            code = ExitCode.failure
            break reading
          }
          if count == 0 { break reading }
          keys = decoder.feed(buffer[0..<count])
          if keys.contains(where: { if case .reply(.cursorPosition) = $0 { true } else { false } }) {
            self?.probeAnswerRead.store(true, ordering: .releasing)
          }
        }
        if !keys.isEmpty {
          let delivered = keys
          DispatchQueue.main.async { MainActor.assumeIsolated { self?.handle(delivered) } }
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
      if case .reply(.cursorPosition(_, let column)) = key {
        ambiguousCharacterEnded(atColumn: column)
        continue
      }
      if case .reply(.backgroundColor(let red, let green, let blue)) = key {
        let light = TerminalPicture.isLight(red: red, green: green, blue: blue)
        guard light != style.lightBackground else { continue }
        style.lightBackground = light
        asciiStyle?.lightBackground = light
        render(force: true)
        continue
      }
      if case .reply(.cellSize(let width, let height)) = key {
        answeredCellSize = TerminalPicture.CellSize(width: width, height: height)
        resized()
        continue
      }
      // Each key sees the state the one before it left (typed characters extend the filter).
      for response in AppFeature.responses(
        to: key, in: store.state, pageRows: listRows, scrollLimit: previousFrame?.scrollLimit ?? .max,
        frame: previousFrame)
      {
        guard finish != nil else { return }
        switch response {
        case .send(let action): store.send(action)
        case .quit: quit(ExitCode.success)
        case .suspend:
          awaitProbeAnswer()
          terminal.suspend()
          resized()
        case .redraw: render(force: true)
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
    guard asciiStyle != nil else { return }
    let deadline = probeAsked + .milliseconds(500)
    while !probeAnswerRead.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(2_000) }
  }

  /// Takes the terminal's first answer to where the probe's ambiguous character left the
  /// cursor (column 2: one column wide, as the frame counts it; 3: two) and draws the
  /// screen in ASCII if it is drawn wide.
  private func ambiguousCharacterEnded(atColumn column: Int) {
    guard let ascii = asciiStyle else { return }
    asciiStyle = nil
    guard column == 3 else { return }
    style = ascii
    render(force: true)
  }

  /// Takes the terminal's size again and paints the whole screen; a picture on screen
  /// decoded for a smaller terminal is decoded again for this one.
  private func resized() {
    size = terminal.size()
    cellSize = terminal.cellSize() ?? answeredCellSize ?? .default
    render(force: true)
    if store.state.breed != nil { store.send(.breed(.screenResized)) }
  }

  /// The rows PgUp/PgDn move: the list on screen (the breeds, or a breed's sub-breeds, as
  /// last drawn) less one row kept in view for context.
  private var listRows: Int { max(1, (previousFrame?.listRows ?? size.rows) - 1) }

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
