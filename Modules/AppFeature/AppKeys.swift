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
  /// End the app now: a second Ctrl-C (or Ctrl-D) once quitting has started. What is not
  /// saved by then is named on standard error, and the app ends in failure.
  case quit
  /// Give the terminal back to the shell until the app is continued (Ctrl-Z).
  case suspend
  /// Paint the whole screen again (Ctrl-L).
  case redraw
}

extension AppFeature {
  /// The app's key bindings: what `key` does in `state`, in order.
  ///
  /// Kept next to ``AppFeature/ViewState/keyHints`` so that what the screen offers and what
  /// the keys do are one module's business, and pure so that every binding is tested
  /// without a terminal. Call it once per key with the state as it is then (each typed
  /// character extends the filter the previous one left).
  ///
  /// - Parameters:
  ///   - event: What the terminal sent: a key, a paste, the mouse (a reply does nothing here).
  ///   - state: The app's state when it was pressed.
  ///   - pageRows: How many rows PgUp/PgDn move (in the list or the sub-breeds on screen).
  ///   - scrollLimit: How far the keys overlay on screen scrolls at most (its lines that do
  ///     not fit), as last drawn.
  ///   - frame: The screen as last drawn, for the mouse: what was clicked.
  /// - Returns: Nothing for a key that does nothing here; otherwise what to do, in order.
  ///   Any key but Ctrl-C first dismisses a notice. Ctrl-C and Ctrl-D ask to quit
  ///   (``Action/quitRequested``: the favourites are saved first); pressed again while
  ///   that goes on, they end the app at once.
  public static func responses(
    to event: InputEvent, in state: State, pageRows: Int, scrollLimit: Int = .max, frame: Frame? = nil
  ) -> [KeyResponse] {
    let key: Key
    switch event {
    case .key(let pressed): key = pressed
    // A paste is text typed: only the filter takes it.
    case .paste: key = .unknown
    case .mouse: key = .unknown
    case .reply: return []
    }
    // The app gives Shift-← and Shift-→ no meaning of their own: they are the arrows.
    if key == .shiftLeft || key == .shiftRight {
      return responses(
        to: .key(key == .shiftLeft ? .left : .right), in: state, pageRows: pageRows, scrollLimit: scrollLimit,
        frame: frame)
    }
    if key == .ctrl("c") || key == .ctrl("d") {
      return [state.quitting == nil ? .send(.quitRequested) : .quit]
    }
    // While the favourites are saved before quitting, only the terminal's own keys work.
    if state.quitting == .saving {
      switch key {
      case .ctrl("z"): return [.suspend]
      case .ctrl("l"): return [.redraw]
      default: return []
      }
    }
    if case .mouse(let event) = event {
      return mouseResponses(event, in: state, frame: frame, pageRows: pageRows, scrollLimit: scrollLimit)
    }
    if let help = state.help { return helpResponses(for: key, scroll: help.scroll, pageRows, scrollLimit) }
    if let alert = state.alert {
      return modalResponses(
        for: key, alert.buttons, focus: state.alertFocus, choose: Action.alert,
        moveFocus: Action.alertFocusMoved)
    }
    if state.breed == nil, state.tab == .favourites, let dialog = state.favouritesTab.confirmationDialog {
      return modalResponses(
        for: key, dialog.buttons, focus: state.favouritesTab.dialogFocus,
        choose: { .favourites(.confirmationDialog($0)) }, moveFocus: { .favourites(.dialogFocusMoved($0)) })
    }
    var responses: [KeyResponse] = state.notice == nil ? [] : [.send(.noticeDismissed)]
    switch key {
    case .ctrl("z"): responses.append(.suspend)
    case .ctrl("l"): responses.append(.redraw)
    // No breed's name has a question mark: on the Breeds tab too, it opens the keys.
    case .character("?"), .function(1): responses.append(.send(.helpShown))
    default:
      let action: Action? =
        if let breed = state.breed {
          breedAction(for: key, in: breed, pageRows)
        } else if key == .tab || key == .backTab {
          // The next tab, or the one before, round the ends.
          .tabSelected(state.tab.moved(by: key == .tab ? 1 : -1))
        } else if state.tab == .favourites {
          favouritesAction(for: key, pageRows).map(Action.favourites)
        } else {
          dogsAction(for: event, in: state, pageRows)
        }
      if let action { responses.append(.send(action)) }
    }
    return responses
  }

  private static func dogsAction(for event: InputEvent, in state: State, _ pageRows: Int) -> Action? {
    if case .paste(let text) = event {
      return text.isEmpty ? nil : .dogs(.filterChanged(state.dogsTab.filter + text))
    }
    guard case .key(let key) = event else { return nil }
    let filter = state.dogsTab.filter
    // Derived only for the keys that need it: it filters the whole list.
    func view() -> DogsFeature.ViewState { DogsFeature.ViewState(state.dogs) }
    func filtered(_ text: String) -> Action? { text == filter ? nil : .dogs(.filterChanged(text)) }
    func move(_ move: HighlightMove) -> Action { .dogs(.highlightMoved(move)) }
    switch key {
    // After a failure, or an answer with no breeds, r asks again (there is no list to filter).
    case .character("r") where view().content.canReload: return .dogs(.retryRequested)
    // Over a list too (one saved or built in, say), unless it is already being loaded.
    case .ctrl("r") where state.dogsTab.status != .loading && state.dogsTab.status != .notStarted:
      return .dogs(.retryRequested)
    case .character(let character): return filtered(filter + String(character))
    case .backspace: return filtered(filter.droppingLastKeyTyped())
    case .ctrl("u"), .escape: return filtered("")
    case .ctrl("w"), .altBackspace:
      // As in a shell: the spaces at the end, then the word before them.
      var shorter = filter
      while shorter.last == " " { shorter.removeLast() }
      while let last = shorter.last, last != " " { shorter.removeLast() }
      return filtered(shorter)
    // Every printable key types into the filter: starring takes a control key.
    case .ctrl("f"): return .dogs(.favouriteToggled)
    case .up, .ctrl("p"): return move(.up)
    case .down, .ctrl("n"): return move(.down)
    case .pageUp: return move(.pageUp(rows: pageRows))
    case .pageDown: return move(.pageDown(rows: pageRows))
    case .home: return move(.first)
    case .end: return move(.last)
    case .enter, .right:
      let view = view()
      if let name = view.highlightedBreed { return .dogs(.rowSelected(name)) }
      return view.offered.map { .dogs($0.action) }
    default: return nil
    }
  }

  private static func favouritesAction(for key: Key, _ pageRows: Int) -> FavouritesFeature.Action? {
    switch key {
    case .up, .character("k"), .ctrl("p"): return .highlightMoved(.up)
    case .down, .character("j"), .ctrl("n"): return .highlightMoved(.down)
    case .home: return .highlightMoved(.first)
    case .end: return .highlightMoved(.last)
    case .pageUp: return .highlightMoved(.pageUp(rows: pageRows))
    case .pageDown: return .highlightMoved(.pageDown(rows: pageRows))
    case .enter, .right: return .highlightedRowOpened
    case .character("f"), .ctrl("f"): return .favouriteToggled
    case .character("x"): return .clearAllRequested
    case .character("r"), .ctrl("r"): return .failedThumbnailsRetried
    default: return nil
    }
  }

  /// Over an alert or a confirmation dialog, keys are its own: Tab and the arrows move
  /// between its buttons, Enter chooses the focused one, Esc the cancel button (or
  /// dismisses); nothing else reaches the screens under it.
  private static func modalResponses<Choice>(
    for key: Key, _ buttons: [ButtonState<Choice>], focus: Int,
    choose: (PresentationAction<Choice>) -> Action, moveFocus: (Int) -> Action
  ) -> [KeyResponse] {
    switch key {
    case .tab, .right, .down: return [.send(moveFocus(1))]
    case .backTab, .left, .up: return [.send(moveFocus(-1))]
    case .enter:
      guard buttons.indices.contains(focus) else { return [.send(choose(.dismiss))] }
      return [.send(choose(buttons[focus].choice))]
    case .escape:
      let cancel = buttons.first { $0.role == .cancel }
      return [.send(choose(cancel?.choice ?? .dismiss))]
    case .ctrl("z"): return [.suspend]
    case .ctrl("l"): return [.redraw]
    default: return []
    }
  }

  /// What the mouse does: the wheel moves as three arrow keys do (and scrolls the keys
  /// overlay); a click on a row highlights it, on the highlighted row opens it (as Enter
  /// does); a click on a tab shows it, on a button chooses it.
  ///
  /// A click on a row names the item the frame drew there by its id, never by its place:
  /// by the time the click is read the list may have changed (a letter typed, a list
  /// arrived), and the place be another item's. The screen's reducer finds the item in its
  /// list as it is then; one no longer there is not highlighted.
  private static func mouseResponses(
    _ event: MouseEvent, in state: State, frame: Frame?, pageRows: Int, scrollLimit: Int
  ) -> [KeyResponse] {
    func press(_ key: Key, in state: State = state) -> [KeyResponse] {
      responses(to: .key(key), in: state, pageRows: pageRows, scrollLimit: scrollLimit)
    }
    switch event.kind {
    case .wheelUp, .wheelDown:
      let key: Key = event.kind == .wheelUp ? .up : .down
      if let help = state.help {
        return helpResponses(
          for: event.kind == .wheelUp ? .pageUp : .pageDown, scroll: help.scroll, 3, scrollLimit)
      }
      return press(key) + press(key) + press(key)
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

  /// Over the keys overlay, keys scroll it or close it.
  private static func helpResponses(for key: Key, scroll: Int, _ pageRows: Int, _ limit: Int)
    -> [KeyResponse]
  {
    func to(_ line: Int) -> [KeyResponse] { [.send(.helpScrolled(to: max(0, min(line, limit))))] }
    switch key {
    case .up, .character("k"), .ctrl("p"): return to(scroll - 1)
    case .down, .character("j"), .ctrl("n"), .enter: return to(scroll + 1)
    case .pageUp: return to(scroll - pageRows)
    case .pageDown, .character(" "): return to(scroll + pageRows)
    case .home: return to(0)
    case .end: return to(limit)
    case .escape, .character("?"), .character("q"), .function(1), .backspace, .left:
      return [.send(.helpDismissed)]
    case .ctrl("z"): return [.suspend]
    case .ctrl("l"): return [.redraw]
    default: return []
    }
  }

  private static func breedAction(for key: Key, in breed: BreedFeature.State, _ pageRows: Int) -> Action? {
    switch key {
    case .escape, .left, .backspace, .character("q"), .character("b"): return .breedScreenDismissed
    case .character("n"), .character(" "): return .breed(.anotherPictureRequested)
    case .character("r"): return .breed(.retryRequested)
    case .character("f"), .ctrl("f"): return .breed(.favouriteToggled)
    case .up, .character("k"): return .breed(.highlightMoved(.up))
    case .down, .character("j"): return .breed(.highlightMoved(.down))
    case .home: return .breed(.highlightMoved(.first))
    case .end: return .breed(.highlightMoved(.last))
    case .pageUp: return .breed(.highlightMoved(.pageUp(rows: pageRows)))
    case .pageDown: return .breed(.highlightMoved(.pageDown(rows: pageRows)))
    case .enter, .right:
      // Enter on the sub-breed already shown goes back to the breed's own pictures.
      return breed.highlighted.map { .breed(.subBreedSelected($0 == breed.subBreed ? nil : $0)) }
    default: return nil
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

extension String {
  /// The text without what Backspace takes from its end: the last key typed. A character
  /// drawn as one picture (an emoji, with its skin tone or joined family, a flag, a keycap)
  /// was typed as one and goes whole; any other loses its last scalar, the sign typed last
  /// (`कि` keeps `क`, `क्ष` keeps `क्`, a decomposed `é` keeps `e`), as Backspace does in
  /// browsers and on phones. Taking the whole character would drop letters that cost
  /// several keys.
  func droppingLastKeyTyped() -> String {
    guard let last else { return self }
    let isPicture = last.unicodeScalars.contains {
      ($0.properties.isEmoji && !$0.isASCII) || $0 == "\u{20E3}"  // a keycap's enclosing square
    }
    guard !isPicture else { return String(dropLast()) }
    var scalars = unicodeScalars
    scalars.removeLast()
    return String(scalars)
  }
}

extension DogsFeature.ViewState {
  /// What Enter opens where no breed matches, with its title for the key hints: the first
  /// sub-breed the filter names, else the closest breed or sub-breed it misspells; `nil`
  /// where there is neither. One rule for the key and its hint.
  var offered: (title: String, action: DogsFeature.Action)? {
    if let match = subBreedMatches.first {
      return (match.title, .subBreedMatchSelected(breed: match.breed, subBreed: match.subBreed))
    }
    guard let match = spellingMatches.first else { return nil }
    guard let subBreed = match.subBreed else { return (match.title, .rowSelected(match.breed)) }
    return (match.title, .subBreedMatchSelected(breed: match.breed, subBreed: subBreed))
  }
}

extension DogsFeature.ViewState.Content {
  /// Whether `r` loads the list again: after a failure, or an answer with no breeds.
  var canReload: Bool {
    switch self {
    case .failed, .empty: return true
    case .loading, .loaded, .noMatch: return false
    }
  }
}
