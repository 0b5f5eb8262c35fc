import BreedFeature
import Core
import DogsFeature
import FavouritesFeature
import TextRendering

/// What a key does in the full-screen app: an action for the store, or something only the
/// terminal can do.
public enum KeyResponse: Equatable, Sendable {
  /// Send this action to the app's store.
  case send(AppFeature.Action)
  /// Give the terminal back to the shell until the app is continued (Ctrl-Z).
  case suspend
  /// Paint the whole screen again (Ctrl-L).
  case redraw
  /// Drop a marker in the session log, while recording (Ctrl-T).
  case mark
}

extension AppFeature {
  /// A binding of the app's keys: it reads the app's ``KeyContext`` and answers with a
  /// ``KeyResponse``. Each screen's own bindings are lifted into this form.
  public typealias Binding = KeyBinding<KeyContext, KeyResponse>

  /// What the app's key bindings read: the state when the key is read, the view state
  /// derived from it (once, for every binding), and how far the keys overlay scrolls.
  public struct KeyContext {
    /// The app's state when the key was read.
    public var state: State
    /// The view state derived from ``state``.
    public var view: ViewState
    /// How far the keys overlay on screen scrolls at most, as last drawn.
    public var scrollLimit: Int

    /// The context of `state`, with its view state (derived here, unless given).
    public init(_ state: State, view: ViewState? = nil, scrollLimit: Int = .max) {
      self.state = state
      self.view = view ?? ViewState(state)
      self.scrollLimit = scrollLimit
    }

    /// The Breeds tab's view state, while it is the screen the keys reach.
    public var dogs: DogsFeature.ViewState? { state.keyPlace == .breedsTab ? view.dogs : nil }
    /// The Favourites tab's view state, while it is the screen the keys reach.
    public var favourites: FavouritesFeature.ViewState? {
      state.keyPlace == .favouritesTab ? view.favourites : nil
    }
    /// The top Breed screen's view state, while a breed is open.
    public var breed: BreedFeature.ViewState? { view.breed }
  }

  /// What `event` does in `state`, in order.
  ///
  /// Pure, so that every binding is tested without a terminal. Call it once per event with
  /// the state as it is then (each typed character extends the filter the previous one
  /// left). The keys go to what has them now, highest first: Ctrl-C and Ctrl-D on every
  /// layer; while the favourites are saved before quitting, only the terminal's own keys
  /// (Ctrl-Z, Ctrl-L); the keys overlay; an alert; the Favourites tab's dialog; otherwise
  /// the keys of every screen (`?`, Ctrl-Z, Ctrl-L), then the screen's own. The mouse
  /// reaches what is drawn where it clicks. Terminal replies do nothing here.
  ///
  /// - Parameters:
  ///   - event: What the terminal sent: a key, a paste, the mouse.
  ///   - state: The app's state when it was read.
  ///   - pageRows: How many rows PgUp/PgDn move (in the list or the sub-breeds on screen).
  ///   - scrollLimit: How far the keys overlay on screen scrolls at most (its lines that do
  ///     not fit), as last drawn.
  ///   - frame: The screen as last drawn, for the mouse: what was clicked.
  /// - Returns: Nothing for an event that does nothing here; otherwise what to do, in
  ///   order. On a screen, any key but Ctrl-C first dismisses a notice. Ctrl-C and Ctrl-D
  ///   ask to quit (``Action/quitRequested``: the favourites are saved first); pressed
  ///   again while that goes on, they end the app at once.
  public static func responses(
    to event: InputEvent, in state: State, pageRows: Int, scrollLimit: Int = .max, frame: Frame? = nil
  ) -> [KeyResponse] {
    var event = event
    switch event {
    case .reply: return []
    // The app gives Shift-← and Shift-→ no meaning of their own: they are the arrows.
    case .key(.shiftLeft): event = .key(.left)
    case .key(.shiftRight): event = .key(.right)
    case .key, .paste, .mouse: break
    }
    let layer = state.keyLayer
    if case .mouse(let mouse) = event {
      guard layer != .saving else { return [] }
      return mouseResponses(mouse, in: state, frame: frame, pageRows: pageRows, scrollLimit: scrollLimit)
    }
    let context = KeyContext(state, scrollLimit: scrollLimit)
    if let quitting = [quitKeys].action(for: event, in: context, pageRows: pageRows) { return [quitting] }
    let response = answering(layer).action(for: event, in: context, pageRows: pageRows)
    // On a screen, any key first dismisses a notice (over the overlay or a modal the keys
    // are theirs).
    let dismissal: [KeyResponse] =
      if case .screen = layer, state.notice != nil { [.send(.noticeDismissed)] } else { [] }
    return dismissal + (response.map { [$0] } ?? [])
  }

  /// The bindings that answer keys in `layer` (Ctrl-C and Ctrl-D aside), in the order they
  /// are tried: the keys of every screen before the screen's own (`?` opens the keys on
  /// the Breeds tab too: no breed's name has a question mark).
  static func answering(_ layer: KeyLayer) -> [Binding] {
    switch layer {
    case .saving: [suspendKeys, redrawKeys, markKeys]
    case .overlay: overlayKeys + [suspendKeys, redrawKeys, markKeys]
    case .alert, .dialog: modalKeys + [suspendKeys, redrawKeys, markKeys]
    case .screen(let place): [helpKeys, suspendKeys, redrawKeys, markKeys] + bindings(of: place)
    }
  }

  /// The bindings whose hints the footer shows in `layer`, in its order.
  static func hinted(_ layer: KeyLayer) -> [Binding] {
    switch layer {
    case .saving: [quitKeys]
    case .overlay: overlayKeys
    case .alert, .dialog: modalKeys
    case .screen(let place): bindings(of: place) + bindings(of: .everywhere)
    }
  }

  // MARK: The app's own bindings

  /// The Breeds tab: the Dogs screen's keys, with Tab after those that move and open.
  static let breedsTabKeys = screenKeys(
    DogsFeature.keyBindings.map { $0.lifted(\KeyContext.dogs) { .send(.dogs($0)) } },
    tab: tabKeys(
      "the Favourites tab",
      hint: .init("Tab favourites", importance: 2) { $0.dogs?.content.showsList == true }))

  /// The Favourites tab: its screen's keys, with Tab after those that move and open.
  static let favouritesTabKeys = screenKeys(
    FavouritesFeature.keyBindings.map { $0.lifted(\KeyContext.favourites) { .send(.favourites($0)) } },
    tab: tabKeys("the Breeds tab", hint: .init("Tab breeds", importance: 2)))

  /// A breed's screen, the top one: its keys, then going back one screen (the app pushed it).
  static let breedKeys =
    BreedFeature.keyBindings.map { $0.lifted(\KeyContext.breed) { .send(.breed($0)) } } + [
      Binding(
        "Esc, ←, q, b", "back one screen: to the breed from its sub-breed, else to the tab (also Backspace)",
        pressed: [.escape, .left, .character("q"), .character("b"), .backspace],
        hint: .init("Esc back", importance: 3)
      ) { _, _, _ in .send(.breedScreenDismissed) }
    ]

  /// A tab's keys with the app's Tab among them: after the last that answers Enter (what
  /// moves and opens), as the footer reads.
  private static func screenKeys(_ keys: [Binding], tab: Binding) -> [Binding] {
    var keys = keys
    let opening = keys.lastIndex { $0.pressed.contains(.enter) }.map { $0 + 1 } ?? keys.endIndex
    keys.insert(tab, at: opening)
    return keys
  }

  /// Tab and Shift-Tab: the next tab, or the one before, round the ends.
  private static func tabKeys(_ does: String, hint: Binding.Hint) -> Binding {
    Binding("Tab, Shift-Tab", does, pressed: [.tab, .backTab], hint: hint) { key, _, context in
      .send(.tabSelected(context.state.tab.moved(by: key == .tab ? 1 : -1)))
    }
  }

  /// Over an alert or a confirmation dialog, keys are its own: Tab and the arrows move
  /// between its buttons, Enter chooses the focused one, Esc the cancel button (or
  /// dismisses); nothing else reaches the screens under it.
  static let modalKeys = [
    Binding(
      "Tab, ← →", "move between the buttons (also Shift-Tab, ↑ ↓)",
      pressed: [.tab, .backTab, .left, .right, .up, .down],
      // One button: nothing to move to.
      hint: .init("Tab next button") { ($0.view.modal?.buttons.count ?? 0) > 1 }
    ) { key, _, context in
      context.modal.map { .send($0.moveFocus([.tab, .right, .down].contains(key) ? 1 : -1)) }
    },
    Binding(
      "Enter", "choose the focused button", pressed: [.enter], hint: .init("Enter choose", importance: 3)
    ) { _, _, context in context.modal.map { .send($0.chosen) } },
    Binding("Esc", "cancel", pressed: [.escape], hint: .init("Esc cancel", importance: 3)) { _, _, context in
      context.modal.map { .send($0.cancelled) }
    },
  ]

  /// Over the keys overlay, keys scroll it or close it.
  static let overlayKeys = [
    Binding(
      "↑ ↓ PgUp PgDn Home End", "scroll the keys (also k, j, Ctrl-P, Ctrl-N, Enter, Space)",
      pressed: [
        .up, .down, .pageUp, .pageDown, .home, .end, .character("k"), .character("j"), .ctrl("p"), .ctrl("n"),
        .enter, .character(" "),
      ],
      hint: .init("↑↓ scroll")
    ) { key, pageRows, context in
      let scroll = context.state.help?.scroll ?? 0
      let limit = context.scrollLimit
      let line =
        switch HighlightMove(key, pageRows: pageRows) ?? (key == .enter ? .down : .pageDown(rows: pageRows)) {
        case .up: scroll - 1
        case .down: scroll + 1
        case .pageUp(let rows): scroll - rows
        case .pageDown(let rows): scroll + rows
        case .first: 0
        case .last, .row, .item: limit
        }
      return .send(.helpScrolled(to: max(0, min(line, limit))))
    },
    Binding(
      "Esc, ?, q", "close the keys (also F1, Backspace, ←)",
      pressed: [.escape, .character("?"), .character("q"), .function(1), .backspace, .left],
      hint: .init("Esc close", importance: 4)
    ) { _, _, _ in .send(.helpDismissed) },
  ]

  /// `?` and F1: the keys of the screen.
  static let helpKeys = Binding(
    "?, F1", "these keys", pressed: [.character("?"), .function(1)], hint: .init("? keys", importance: 3)
  ) { _, _, _ in .send(.helpShown) }

  /// Ctrl-C and Ctrl-D: quit, saving first; once quitting has started, at once (the
  /// reducer decides which).
  static let quitKeys = Binding(
    "Ctrl-C, Ctrl-D", "quit, saving the favourites first (asked again: at once, naming what is not saved)",
    pressed: [.ctrl("c"), .ctrl("d")],
    hint: .init(importance: 4) { $0.view.isQuitting ? "^C quit without saving" : "^C quit" }
  ) { _, _, _ in .send(.quitRequested) }

  /// Ctrl-Z: the terminal back to the shell.
  static let suspendKeys = Binding(
    "Ctrl-Z", "suspend (from a shell with job control; `fg` resumes)", pressed: [.ctrl("z")]
  ) { _, _, _ in .suspend }

  /// Ctrl-L: the screen painted again.
  static let redrawKeys = Binding("Ctrl-L", "paint the screen again", pressed: [.ctrl("l")]) { _, _, _ in
    .redraw
  }

  /// Ctrl-T: a marker in the session log, while recording (no screen's keys use it, and
  /// no text field takes it).
  static let markKeys = Binding(
    "Ctrl-T", "while recording (--record FILE): drop a marker in the session log, which replay jumps to",
    pressed: [.ctrl("t")]
  ) { _, _, context in context.state.screen.isRecording ? .mark : nil }

  /// The keys of every screen, as the tables list them (the mouse is matched by
  /// ``responses(to:in:pageRows:scrollLimit:frame:)`` against the frame drawn).
  static let everywhereKeys = [
    helpKeys, quitKeys, suspendKeys, redrawKeys, markKeys,
    Binding(
      described: "the mouse",
      "click a row to highlight it, the highlighted row to open it; click a tab or a button, or a breed's header to go back one screen; the wheel moves (--no-mouse leaves the mouse to the terminal)"
    ),
  ]

  // MARK: The mouse

  /// What the mouse does: the wheel moves as three arrow keys do (and scrolls the keys
  /// overlay); a click on a row highlights it, on the highlighted row opens it (as Enter
  /// does); a click on a tab shows it, on a button chooses it, on a Breed screen's header
  /// goes back one screen (as Esc does).
  ///
  /// A click on a row names the item the frame drew there by its id, never by its place:
  /// by the time the click is read the list may have changed (a letter typed, a list
  /// arrived), and the place be another item's. The screen's reducer finds the item in its
  /// list as it is then; one no longer there is not highlighted.
  private static func mouseResponses(
    _ event: MouseEvent, in state: State, frame: Frame?, pageRows: Int, scrollLimit: Int
  ) -> [KeyResponse] {
    func press(_ key: Key, in state: State = state, pageRows: Int = pageRows) -> [KeyResponse] {
      responses(to: .key(key), in: state, pageRows: pageRows, scrollLimit: scrollLimit)
    }
    switch event.kind {
    case .wheelUp, .wheelDown:
      // Over the keys overlay, a page of three lines.
      if state.help != nil { return press(event.kind == .wheelUp ? .pageUp : .pageDown, pageRows: 3) }
      let arrow = press(event.kind == .wheelUp ? .up : .down)
      return arrow + arrow + arrow
    case .other:
      return []
    case .press:
      guard let frame, state.help == nil else { return [] }
      if let button = frame.buttons.first(where: { $0.row == event.row && $0.columns.contains(event.column) })
      {
        // As if the button were focused and Enter pressed.
        var focused = state
        focused.alertFocus = button.index
        focused.favouritesTab.dialogFocus = button.index
        return press(.enter, in: focused)
      }
      guard state.alert == nil, state.favouritesTab.confirmationDialog == nil || state.tab != .favourites
      else {
        return []
      }
      if event.row == 0, state.breed != nil { return [.send(.breedScreenDismissed)] }
      if event.row == 0, state.breed == nil,
        let tab = AppView.tab(atColumn: event.column, state.favourites.count)
      {
        return tab == state.tab ? [] : [.send(.tabSelected(tab))]
      }
      guard let id = frame.listItems[event.row] else { return [] }
      if id == frame.listHighlight { return opening(id, in: state) }
      let move = HighlightMove.item(id)
      if state.breed != nil { return [.send(.breed(.highlightMoved(move)))] }
      return state.tab == .favourites
        ? [.send(.favourites(.highlightMoved(move)))] : [.send(.dogs(.highlightMoved(move)))]
    }
  }

  /// What a click on the highlighted row does: it opens the item drawn there, `id`, as
  /// Enter opens the highlighted one (on the sub-breed shown, it goes back to the breed's
  /// own pictures), whatever the highlight is on by the time the click is read.
  private static func opening(_ id: String, in state: State) -> [KeyResponse] {
    let action: Action
    if let breed = state.breed {
      guard breed.breed.subBreeds.contains(id) else { return [] }
      action = .breed(.subBreedSelected(id == breed.subBreed ? nil : id))
    } else if state.tab == .favourites {
      action = .favourites(.rowOpened(id))
    } else {
      action = .dogs(.rowSelected(id))
    }
    return (state.notice == nil ? [] : [.send(.noticeDismissed)]) + [.send(action)]
  }
}

/// What has the keys, highest first.
enum KeyLayer: Equatable {
  /// The favourites are saved before quitting: only the terminal's own keys work.
  case saving
  /// The keys overlay.
  case overlay
  /// An alert.
  case alert
  /// The Favourites tab's dialog.
  case dialog
  /// The screen shown, in its place.
  case screen(KeyPlace)
}

extension AppFeature.State {
  /// What has the keys now.
  var keyLayer: KeyLayer {
    if quitting == .saving { return .saving }
    if help != nil { return .overlay }
    if alert != nil { return .alert }
    if breed == nil, tab == .favourites, favouritesTab.confirmationDialog != nil { return .dialog }
    return .screen(keyPlace)
  }
}

/// The alert, or the dialog, that has the keys: what its keys send.
private struct ModalKeys {
  /// What Enter sends: the focused button chosen (dismissed, where none is focused).
  var chosen: AppFeature.Action
  /// What Esc sends: the cancel button chosen (dismissed, where there is none).
  var cancelled: AppFeature.Action
  /// What moving the focus by so many buttons sends.
  var moveFocus: (Int) -> AppFeature.Action

  init<Choice>(
    _ buttons: [ButtonState<Choice>], focus: Int, choose: (PresentationAction<Choice>) -> AppFeature.Action,
    moveFocus: @escaping (Int) -> AppFeature.Action
  ) {
    chosen = choose(buttons.indices.contains(focus) ? buttons[focus].choice : .dismiss)
    cancelled = choose(buttons.first { $0.role == .cancel }?.choice ?? .dismiss)
    self.moveFocus = moveFocus
  }
}

extension AppFeature.KeyContext {
  /// The alert, or the Favourites tab's dialog, while it has the keys.
  fileprivate var modal: ModalKeys? {
    switch state.keyLayer {
    case .alert:
      state.alert.map {
        ModalKeys(
          $0.buttons, focus: state.alertFocus, choose: AppFeature.Action.alert,
          moveFocus: AppFeature.Action.alertFocusMoved)
      }
    case .dialog:
      state.favouritesTab.confirmationDialog.map {
        ModalKeys(
          $0.buttons, focus: state.favouritesTab.dialogFocus,
          choose: { .favourites(.confirmationDialog($0)) },
          moveFocus: { .favourites(.dialogFocusMoved($0)) })
      }
    case .saving, .overlay, .screen: nil
    }
  }
}

extension AppFeature.State.Tab {
  /// The tab `steps` along from this one, round the ends.
  func moved(by steps: Int) -> Self {
    let all = Self.allCases
    return all[all.index(all.firstIndex(of: self)!, cyclingBy: steps)]
  }
}
