import Core
import CoreTesting
import TestSupport
import Testing

/// Presentation: an optional destination presented by `ifLet` with `PresentationAction`,
/// dismissed by the parent or by itself, and alerts and dialogs as values.
@MainActor
struct PresentationTests {
  @Test func aPresentedChildRunsAndDismissesItselfWithAnEffect() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.showEditor) { $0.destination = .editor(Editor.State()) }
    await store.send(.destination(.presented(.editor(.typed("pug"))))) {
      $0.destination = .editor(Editor.State(text: "pug"))
    }
    await store.send(.destination(.presented(.editor(.closeTapped))))
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
      $0.log = ["dismissing .editor"]
    }
  }

  /// The child's `dismiss` may come after work it awaits: it goes with its effects.
  @Test func aChildDismissesItselfAfterItsWork() async {
    let gate = Gate()
    let store = TestStore(initialState: Host.State(destination: .editor(Editor.State()))) { Host(gate: gate) }
    await store.send(.destination(.presented(.editor(.saveTapped))))
    await gate.open()
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
      $0.log = ["dismissing .editor"]
    }
    await store.finish()
  }

  @Test func dismissingCancelsTheChildsEffects() async {
    let gate = Gate()
    let store = TestStore(initialState: Host.State()) { Host(gate: gate) }
    await store.send(.showViewer) { $0.destination = .viewer(GatedLoader.State()) }
    await store.send(.destination(.presented(.viewer(.start))))
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
      $0.log = ["dismissing .viewer"]
    }
    await gate.open()
    await store.finish()  // the load was cancelled: nothing arrives, nothing runs
  }

  @Test func theParentDismissesBySettingTheStateToNil() async {
    let gate = Gate()
    let store = TestStore(initialState: Host.State()) { Host(gate: gate) }
    await store.send(.showViewer) { $0.destination = .viewer(GatedLoader.State()) }
    await store.send(.destination(.presented(.viewer(.start))))
    await store.send(.closeDestination) { $0.destination = nil }
    await gate.open()
    await store.finish()
  }

  /// Another case of the destination is another child: the old one's effects end.
  @Test func presentingAnotherDestinationCancelsTheFormersEffects() async {
    let gate = Gate()
    let store = TestStore(initialState: Host.State()) { Host(gate: gate) }
    await store.send(.showViewer) { $0.destination = .viewer(GatedLoader.State()) }
    await store.send(.destination(.presented(.viewer(.start))))
    await store.send(.showEditor) { $0.destination = .editor(Editor.State()) }
    await gate.open()
    await store.finish()
  }

  /// Choosing an alert's button: the parent receives its action with the alert gone.
  @Test func anAlertButtonsActionArrivesWithTheAlertGone() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.showAlert) { $0.alert = Host.retryAlert }
    let retry = Host.retryAlert.buttons[0]
    #expect(retry.choice == .presented(.retry))
    await store.send(.alert(retry.choice)) {
      $0.alert = nil
      $0.log = ["retry, with no alert"]
    }
    await store.send(.showAlert) { $0.alert = Host.retryAlert }
    let cancel = Host.retryAlert.buttons[1]
    #expect(cancel.role == .cancel)
    #expect(cancel.choice == .dismiss)
    await store.send(.alert(cancel.choice)) { $0.alert = nil }
  }

  /// A parent may answer a button by presenting another alert: that one stays.
  @Test func aNewAlertPresentedInAnswerToAButtonStays() async {
    let store = TestStore(initialState: Host.State(alert: Host.retryAlert)) { Host(failsAgain: true) }
    await store.send(.alert(.presented(.retry))) {
      $0.alert = AlertState(title: "Still failing")
      $0.log = ["retry, with no alert"]
    }
    #expect(store.state.alert?.buttons == [ButtonState(role: .cancel, "OK")])
  }

  /// A dialog that is one case of the destination is dismissed by its buttons too.
  @Test func aDialogInADestinationIsDismissedByItsButton() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.showDialog) { $0.destination = .dialog(Host.clearDialog) }
    await store.send(.destination(.presented(.dialog(.clearAll)))) {
      $0.destination = nil
      $0.log = ["cleared"]
    }
  }

  @Test func dismissFromAFeatureNothingPresentsIsReported() async {
    let store = Store(initialState: Editor.State()) { Editor(gate: Gate()) }
    let issues = await collectingIssues { store.send(.closeTapped) }
    #expect(
      issues == [
        """
        'Effect.dismiss' was returned by a feature that nothing presents (no 'ifLet' with a \
        'PresentationAction' runs it); it was ignored.
        """
      ])
  }

  /// The form saves a second after the tap and closes itself only if the save worked,
  /// from inside the effect: `send.dismiss()`.
  @Test func aPresentedChildDismissesItselfFromInsideAnEffectIfItDecidesTo() async {
    let clock = TestClock()
    let store = TestStore(initialState: FormHost.State(form: Form.State())) {
      FormHost(clock: clock, save: { attempt in attempt >= 2 })
    }
    await store.send(.form(.presented(.saveTapped))) { $0.form?.attempts = 1 }
    await untilAsleep(on: clock)
    await clock.advance(by: .milliseconds(999))
    #expect(store.state.form?.error == nil)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.form(.presented(.saveFailed))) { $0.form?.error = "not saved" }
    await store.send(.form(.presented(.saveTapped))) {
      $0.form?.attempts = 2
      $0.form?.error = nil
    }
    await untilAsleep(on: clock)
    await clock.advance(by: .seconds(1))
    await store.receive(.form(.dismiss)) {
      $0.form = nil
      $0.log = ["dismissed"]
    }
    // The effect was cancelled with the form: what it sends after dismissing is dropped.
    await store.finish()
  }

  /// A feature inside the presented one (here through `Scope`) dismisses the presented one.
  @Test func aFeatureInsideThePresentedOneDismissesIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: FormHost.State(form: Form.State())) {
      FormHost(clock: clock, save: { _ in true })
    }
    await store.send(.form(.presented(.footer(.closeLater))))
    await untilAsleep(on: clock)
    await clock.advance(by: .seconds(1))
    await store.receive(.form(.dismiss)) {
      $0.form = nil
      $0.log = ["dismissed"]
    }
    await store.finish()
  }

  @Test func dismissFromTheEffectOfAFeatureNothingPresentsIsReported() async {
    let clock = TestClock()
    var store: TestStore<Form.State, Form.Action>?
    let issues = await collectingIssues {
      let form = TestStore(initialState: Form.State()) { Form(clock: clock, save: { _ in true }) }
      store = form
      await form.send(.saveTapped) { $0.attempts = 1 }
      await untilAsleep(on: clock)
      await clock.advance(by: .seconds(1))
      await form.receive(.afterDismiss)
      await form.finish()
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.hasPrefix(
        "'send.dismiss()' was called in an effect of a feature that nothing presents") == true,
      "\(issues)")
    #expect(store?.state == Form.State(attempts: 1))
  }

  @Test func aPresentedActionWithNothingPresentedIsReported() async {
    let store = Store(initialState: Host.State()) { Host() }
    let issues = await collectingIssues { store.send(.destination(.presented(.editor(.typed("x"))))) }
    #expect(issues.count == 1)
    #expect(
      issues.first?.hasPrefix("An 'ifLet' received a child action while its child state was nil") == true)
  }

  @Test func alertsAndDialogsAreValues() {
    let alert = AlertState<Int>(title: "Saved")
    #expect(alert.buttons == [ButtonState(role: .cancel, "OK")])
    #expect(alert != AlertState(title: "Saved", message: "To disk."))
    let dialog = ConfirmationDialogState<Int>(title: "Clear?")
    #expect(dialog.buttons.map(\.label) == ["Cancel"])
    #expect(ButtonState(role: .destructive, "Delete", action: 1).choice == .presented(1))
  }
}

// MARK: - Features

/// A text field that closes itself, or saves (through a gate) and then closes.
private struct Editor: Reducer {
  struct State: Equatable { var text = "" }
  enum Action: Equatable, Sendable { case typed(String), closeTapped, saveTapped }
  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .typed(let text):
      state.text = text
      return .none
    case .closeTapped:
      return .dismiss
    case .saveTapped:
      return .concatenate(.run { [gate] _ in await gate.wait() }, .dismiss)
    }
  }
}

private enum Clear: Equatable, Sendable { case clearAll }

/// What the host presents: an editor, a viewer that loads, or a dialog.
private struct Destination: Reducer {
  enum State: Equatable {
    case editor(Editor.State)
    case viewer(GatedLoader.State)
    case dialog(ConfirmationDialogState<Clear>)

    static let editorPath = CasePath<State, Editor.State>(embed: State.editor) {
      if case .editor(let state) = $0 { state } else { nil }
    }
    static let viewerPath = CasePath<State, GatedLoader.State>(embed: State.viewer) {
      if case .viewer(let state) = $0 { state } else { nil }
    }
  }
  enum Action: Equatable, Sendable {
    case editor(Editor.Action)
    case viewer(GatedLoader.Action)
    case dialog(Clear)

    static let editorPath = CasePath<Action, Editor.Action>(embed: Action.editor) {
      if case .editor(let action) = $0 { action } else { nil }
    }
    static let viewerPath = CasePath<Action, GatedLoader.Action>(embed: Action.viewer) {
      if case .viewer(let action) = $0 { action } else { nil }
    }
  }
  let gate: Gate

  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(State.editorPath, action: Action.editorPath) { Editor(gate: gate) }
      .ifCaseLet(State.viewerPath, action: Action.viewerPath) { GatedLoader(gate: gate) }
  }
}

private struct Host: Reducer {
  struct State: Equatable {
    var destination: Destination.State?
    var alert: AlertState<Action.Alert>?
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case destination(PresentationAction<Destination.Action>)
    case alert(PresentationAction<Alert>)
    case showEditor, showViewer, showDialog, showAlert, closeDestination

    enum Alert: Equatable, Sendable { case retry }

    static let destinationPath = CasePath<Action, PresentationAction<Destination.Action>>(
      embed: Action.destination
    ) { if case .destination(let action) = $0 { action } else { nil } }
    static let alertPath = CasePath<Action, PresentationAction<Alert>>(embed: Action.alert) {
      if case .alert(let action) = $0 { action } else { nil }
    }
  }
  static let retryAlert = AlertState<Action.Alert>(
    title: "Could not save", message: "The disk is full.",
    buttons: [ButtonState("Try again", action: .retry), ButtonState(role: .cancel, "Not now")])
  static let clearDialog = ConfirmationDialogState<Clear>(
    title: "Clear everything?",
    buttons: [
      ButtonState(role: .destructive, "Clear", action: .clearAll), ButtonState(role: .cancel, "Keep"),
    ])

  var gate = Gate()
  var failsAgain = false

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .showEditor: state.destination = .editor(Editor.State())
      case .showViewer: state.destination = .viewer(GatedLoader.State())
      case .showDialog: state.destination = .dialog(Self.clearDialog)
      case .showAlert: state.alert = Self.retryAlert
      case .closeDestination: state.destination = nil
      case .destination(.dismiss):
        state.log.append("dismissing \(state.destination.map { caseLabel($0) } ?? "nothing")")
      case .destination(.presented(.dialog(.clearAll))):
        state.log.append("cleared")
      case .destination:
        break
      case .alert(.presented(.retry)):
        state.log.append(state.alert == nil ? "retry, with no alert" : "retry, with the alert")
        if failsAgain { state.alert = AlertState(title: "Still failing") }
      case .alert:
        break
      }
      return .none
    }
    .ifLet(\.destination, action: Action.destinationPath) { Destination(gate: gate) }
    .ifLet(\.alert, action: Action.alertPath)
  }
}

private func caseLabel(_ destination: Destination.State) -> String {
  switch destination {
  case .editor: ".editor"
  case .viewer: ".viewer"
  case .dialog: ".dialog"
  }
}

/// Returns once a task sleeps on `clock`: an effect's task runs on another thread, and
/// time must not move before it sleeps.
private func untilAsleep(on clock: TestClock) async {
  while clock.sleeperCount == 0 { await Task.yield() }
}

/// A form that saves a second after the tap, then closes itself if the save worked; its
/// footer can close it too, a second after asking.
private struct Form: Reducer {
  struct State: Equatable {
    var attempts = 0
    var error: String?
    var footer = Footer.State()
  }
  enum Action: Equatable, Sendable {
    case saveTapped, saveFailed, afterDismiss
    case footer(Footer.Action)

    static let footerPath = CasePath<Action, Footer.Action>(embed: Action.footer) {
      if case .footer(let action) = $0 { action } else { nil }
    }
  }
  let clock: any Clock<Duration>
  let save: @Sendable (Int) async -> Bool

  var body: some Reducer<State, Action> {
    Scope(state: \.footer, action: Action.footerPath) { Footer(clock: clock) }
    Reduce { state, action in
      switch action {
      case .saveTapped:
        state.attempts += 1
        state.error = nil
        return .run { [attempt = state.attempts, clock, save] send in
          try await clock.sleep(for: .seconds(1))
          if await save(attempt) {
            await send.dismiss()
            await send(.afterDismiss)
          } else {
            await send(.saveFailed)
          }
        }
      case .saveFailed:
        state.error = "not saved"
        return .none
      case .afterDismiss, .footer:
        return .none
      }
    }
  }
}

private struct Footer: Reducer {
  struct State: Equatable {}
  enum Action: Equatable, Sendable { case closeLater }
  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { [clock] send in
      try await clock.sleep(for: .seconds(1))
      await send.dismiss()
    }
  }
}

private struct FormHost: Reducer {
  struct State: Equatable {
    var form: Form.State?
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case form(PresentationAction<Form.Action>)

    static let formPath = CasePath<Action, PresentationAction<Form.Action>>(embed: Action.form) {
      if case .form(let action) = $0 { action } else { nil }
    }
  }
  let clock: any Clock<Duration>
  let save: @Sendable (Int) async -> Bool

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .form(.dismiss) = action { state.log.append("dismissed") }
      return .none
    }
    .ifLet(\.form, action: Action.formPath) { Form(clock: clock, save: save) }
  }
}
