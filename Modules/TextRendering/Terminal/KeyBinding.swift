/// One key binding of a screen, declared once: the keys as people write them, what they
/// do, the footer's hint and when the screen offers it, and the action they send.
///
/// Everything that shows or obeys the keys reads the same value: matching a key to an
/// action (``action(for:in:pageRows:)``), the footer's hints (``hint``), and the tables
/// of the keys overlay, `--help` and the manual (``keys``, ``does``).
///
/// `Context` is what the binding reads to decide (a feature's view state), `Action` what
/// it sends. A feature declares its bindings over its own view state and actions; the
/// parent that composes it lifts them into its own (``lifted(_:action:)``) through the
/// path to the child's view state and the case that embeds the child's actions.
///
/// ```swift
/// KeyBinding(
///   "f, Ctrl-F", "star or un-star", pressed: [.character("f"), .ctrl("f")],
///   hint: .init("f star", importance: 2) { view in !view.rows.isEmpty }
/// ) { key, pageRows, view in .favouriteToggled }
/// ```
public struct KeyBinding<Context, Action>: Sendable {
  /// The keys as people write them: `Enter, →`.
  public var keys: String
  /// What they do, as the keys overlay, `--help` and the manual say it.
  public var does: String
  /// The keys the binding answers (a binding that takes text answers any printable
  /// character and a paste besides).
  public var pressed: [Key]
  /// Whether the binding takes text: a printable character typed, or a paste.
  public var takesText: Bool
  /// The footer's hint, if the binding has one.
  public var hint: Hint?
  private let respond: @Sendable (KeyBindingInput, Context) -> Action?

  /// A short hint for the footer: its text where the screen offers the binding, and how
  /// long it stays on a narrow screen (higher stays longer).
  public struct Hint: Sendable {
    /// How long the hint stays on a narrow screen: higher stays longer.
    public var importance: Int
    private let text: @Sendable (Context) -> String?

    /// A hint whose text depends on the screen: `text` gives it as it reads now, or `nil`
    /// where the screen does not offer the binding now.
    public init(importance: Int = 1, _ text: @escaping @Sendable (Context) -> String?) {
      self.importance = importance
      self.text = text
    }

    /// A hint that reads `text` (`key word`: `^F star`) where `offered` says the screen
    /// offers the binding.
    public init(
      _ text: String, importance: Int = 1, when offered: @escaping @Sendable (Context) -> Bool = { _ in true }
    ) {
      self.init(importance: importance) { offered($0) ? text : nil }
    }

    /// The hint's text in `context`, `nil` where the screen does not offer it.
    public func text(in context: Context) -> String? { text(context) }

    /// The hint read through `path`: none where the context there is absent.
    func lifted<Parent, ParentAction>(_ path: KeyPath<Parent, Context?> & Sendable)
      -> KeyBinding<Parent, ParentAction>.Hint
    {
      let text = self.text
      return .init(importance: importance) { parent in parent[keyPath: path].flatMap(text) }
    }
  }

  /// A binding of the keys `pressed`.
  ///
  /// - Parameters:
  ///   - keys: The keys as people write them (`Enter, →`).
  ///   - does: What they do.
  ///   - pressed: The keys it answers.
  ///   - hint: The footer's hint, if any.
  ///   - action: What the key sends in the context, `nil` for nothing to do now.
  public init(
    _ keys: String, _ does: String, pressed: [Key], hint: Hint? = nil,
    action: @escaping @Sendable (_ key: Key, _ pageRows: Int, Context) -> Action?
  ) {
    self.init(keys: keys, does: does, pressed: pressed, takesText: false, hint: hint) { input, context in
      guard case .key(let key, let pageRows) = input else { return nil }
      return action(key, pageRows, context)
    }
  }

  /// A binding that takes text: any printable character typed, and a paste.
  ///
  /// - Parameters:
  ///   - keys: The keys as people write them (`letters, Space`).
  ///   - does: What they do.
  ///   - hint: The footer's hint, if any.
  ///   - action: What the text sends in the context, `nil` for nothing to do now.
  public init(
    typing keys: String, _ does: String, hint: Hint? = nil,
    action: @escaping @Sendable (_ text: String, Context) -> Action?
  ) {
    self.init(keys: keys, does: does, pressed: [], takesText: true, hint: hint) { input, context in
      guard case .text(let text) = input else { return nil }
      return action(text, context)
    }
  }

  /// A binding described for people but matched elsewhere (the mouse), with no keys.
  public init(described keys: String, _ does: String) {
    self.init(keys: keys, does: does, pressed: [], takesText: false, hint: nil) { _, _ in nil }
  }

  private init(
    keys: String, does: String, pressed: [Key], takesText: Bool, hint: Hint?,
    respond: @escaping @Sendable (KeyBindingInput, Context) -> Action?
  ) {
    self.keys = keys
    self.does = does
    self.pressed = pressed
    self.takesText = takesText
    self.hint = hint
    self.respond = respond
  }

  /// What the binding sends for `event` in `context`: `nil` where it does not answer the
  /// event, or has nothing to do now.
  ///
  /// - Parameters:
  ///   - event: What the terminal sent.
  ///   - context: What the binding reads (the screen's view state).
  ///   - pageRows: How many rows PgUp and PgDn move on the screen shown.
  public func action(for event: InputEvent, in context: Context, pageRows: Int) -> Action? {
    switch event {
    case .key(let key) where pressed.contains(key): respond(.key(key, pageRows: pageRows), context)
    case .key(.character(let character)) where takesText: respond(.text(String(character)), context)
    case .paste(let text) where takesText: respond(.text(text), context)
    case .key, .paste, .mouse, .reply: nil
    }
  }

  /// The binding in a parent whose context holds this one's at `path` (`nil` where the
  /// child's screen is not shown: the binding then does nothing and offers no hint), its
  /// actions embedded with `embed`: the same case the parent's reducer scopes the child
  /// with.
  public func lifted<Parent, ParentAction>(
    _ path: KeyPath<Parent, Context?> & Sendable, action embed: @escaping @Sendable (Action) -> ParentAction
  ) -> KeyBinding<Parent, ParentAction> {
    let respond = self.respond
    return KeyBinding<Parent, ParentAction>(
      keys: keys, does: does, pressed: pressed, takesText: takesText, hint: hint?.lifted(path)
    ) { input, parent in
      parent[keyPath: path].flatMap { respond(input, $0) }.map(embed)
    }
  }
}

/// What a binding answers: a key (with the rows a page moves on the screen it was pressed
/// on), or text typed or pasted.
enum KeyBindingInput: Sendable {
  /// A key of ``KeyBinding/pressed``, and the rows PgUp and PgDn move.
  case key(Key, pageRows: Int)
  /// A printable character typed, or text pasted.
  case text(String)
}

extension Sequence {
  /// What the first of these bindings that has something to do sends for `event`, `nil`
  /// where none has.
  ///
  /// - Parameters:
  ///   - event: What the terminal sent.
  ///   - context: What the bindings read.
  ///   - pageRows: How many rows PgUp and PgDn move on the screen shown.
  public func action<Context, Action>(for event: InputEvent, in context: Context, pageRows: Int) -> Action?
  where Element == KeyBinding<Context, Action> {
    for binding in self {
      if let action = binding.action(for: event, in: context, pageRows: pageRows) { return action }
    }
    return nil
  }
}

extension HighlightMove {
  /// The move a list's key names: ↑ (or k, Ctrl-P) up, ↓ (or j, Ctrl-N) down, PgUp and
  /// PgDn by `pageRows`, Home and End to the ends; `nil` for any other key. Which of these
  /// a list answers is its binding's ``KeyBinding/pressed``.
  public init?(_ key: Key, pageRows: Int) {
    switch key {
    case .up, .character("k"), .ctrl("p"): self = .up
    case .down, .character("j"), .ctrl("n"): self = .down
    case .pageUp: self = .pageUp(rows: pageRows)
    case .pageDown: self = .pageDown(rows: pageRows)
    case .home: self = .first
    case .end: self = .last
    default: return nil
    }
  }
}
