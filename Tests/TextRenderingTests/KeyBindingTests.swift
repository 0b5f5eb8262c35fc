import Testing
import TextRendering

/// A binding answers its own keys (or text), sends what its action gives, offers its hint
/// where it says, and keeps all of that when a parent lifts it.
struct KeyBindingTests {
  struct Screen {
    var count: Int
  }

  enum Action: Equatable {
    case moved(HighlightMove)
    case typed(String)
    case cleared
  }

  struct Parent {
    var screen: Screen?
  }

  enum ParentAction: Equatable {
    case screen(Action)
  }

  static let bindings: [KeyBinding<Screen, Action>] = [
    KeyBinding(
      "↑ ↓", "move", pressed: [.up, .down, .pageDown], hint: .init("↑↓ move", importance: 2) { $0.count > 0 }
    ) { key, pageRows, screen in
      screen.count > 0 ? HighlightMove(key, pageRows: pageRows).map(Action.moved) : nil
    },
    KeyBinding(typing: "letters", "type", hint: .init { "typed \($0.count)" }) { text, _ in .typed(text) },
    KeyBinding("Esc", "clear", pressed: [.escape]) { _, _, _ in .cleared },
    KeyBinding(described: "the mouse", "click"),
  ]

  @Test func aBindingAnswersItsKeysAndTextAndNothingElse() {
    let screen = Screen(count: 2)
    #expect(Self.bindings.action(for: .key(.up), in: screen, pageRows: 4) == .moved(.up))
    #expect(Self.bindings.action(for: .key(.pageDown), in: screen, pageRows: 4) == .moved(.pageDown(rows: 4)))
    #expect(Self.bindings.action(for: .key(.character("a")), in: screen, pageRows: 4) == .typed("a"))
    #expect(Self.bindings.action(for: .paste("ab"), in: screen, pageRows: 4) == .typed("ab"))
    #expect(Self.bindings.action(for: .key(.escape), in: screen, pageRows: 4) == .cleared)
    // Keys no binding names, the mouse and replies are no binding's.
    #expect(Self.bindings.action(for: .key(.home), in: screen, pageRows: 4) == nil)
    #expect(Self.bindings.action(for: .key(.ctrl("a")), in: screen, pageRows: 4) == nil)
    #expect(
      Self.bindings.action(for: .mouse(MouseEvent(.press, column: 0, row: 0)), in: screen, pageRows: 4) == nil
    )
    #expect(
      Self.bindings.action(for: .reply(.terminalAttributes(drawsSixel: true)), in: screen, pageRows: 4) == nil
    )
    // A binding with nothing to do lets the next answer: with nothing to move, ↑ is nothing.
    #expect(Self.bindings.action(for: .key(.up), in: Screen(count: 0), pageRows: 4) == nil)
    #expect(Self.bindings[3].pressed.isEmpty && !Self.bindings[3].takesText)
  }

  @Test func theHintReadsTheScreen() {
    #expect(Self.bindings.compactMap { $0.hint?.text(in: Screen(count: 2)) } == ["↑↓ move", "typed 2"])
    #expect(Self.bindings.compactMap { $0.hint?.text(in: Screen(count: 0)) } == ["typed 0"])
    #expect(Self.bindings[0].hint?.importance == 2 && Self.bindings[1].hint?.importance == 1)
  }

  @Test func aLiftedBindingReadsThroughThePathAndEmbedsItsAction() {
    let lifted = Self.bindings.map { $0.lifted(\Parent.screen, action: ParentAction.screen) }
    let shown = Parent(screen: Screen(count: 1))
    #expect(lifted.action(for: .key(.down), in: shown, pageRows: 4) == .screen(.moved(.down)))
    #expect(lifted.action(for: .paste("x"), in: shown, pageRows: 4) == .screen(.typed("x")))
    #expect(lifted.compactMap { $0.hint?.text(in: shown) } == ["↑↓ move", "typed 1"])
    #expect(
      lifted.map(\.keys) == Self.bindings.map(\.keys) && lifted.map(\.does) == Self.bindings.map(\.does))
    // Where the screen is not shown, its bindings do nothing and offer nothing.
    let hidden = Parent(screen: nil)
    #expect(lifted.action(for: .key(.down), in: hidden, pageRows: 4) == nil)
    #expect(lifted.compactMap { $0.hint?.text(in: hidden) } == [])
  }
}
