/// The actions of a presented child, as its parent receives them: the child's own, or
/// its dismissal.
///
/// ```swift
/// struct State { var detail: Detail.State? }
/// enum Action {
///   case detail(PresentationAction<Detail.Action>)
///   case showDetailTapped
/// }
///
/// Reduce { state, action in
///   switch action {
///   case .showDetailTapped:
///     state.detail = Detail.State()
///     return .none
///   case .detail(.presented(.delegate(.saved))):
///     return .none   // the child said something; it may also dismiss itself
///   case .detail:
///     return .none
///   }
/// }
/// .ifLet(\.detail, action: Action.detail) { Detail() }
/// ```
public enum PresentationAction<Action> {
  /// An action of the presented child.
  case presented(Action)
  /// The child is to go: sent by whatever shows it (a close key, Escape), by the parent's
  /// effects, or made by the presenting `ifLet` from the child's ``Effect/dismiss`` (or its
  /// effect's ``Send/dismiss(fileID:filePath:line:column:)``). The
  /// parent's reducer sees it while the child is still there; then the child's state
  /// becomes `nil` and its effects are cancelled.
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
/// Coded as any enum's synthesized conformance codes its cases (`{"presented":{"_0":…}}`,
/// `{"dismiss":{}}`), so that a parent's actions that carry a child's can be written to a
/// log and read back.
extension PresentationAction: Codable where Action: Codable {}

extension Reducer {
  /// Presents a child: runs its reducer while its optional state is there, for the
  /// ``PresentationAction/presented(_:)`` actions, and dismisses it on
  /// ``PresentationAction/dismiss``.
  ///
  /// The parent presents by setting the state and dismisses by setting it to `nil` or by
  /// sending `.dismiss`; the child dismisses itself by returning ``Effect/dismiss``, or from
  /// inside a running effect with ``Send/dismiss(fileID:filePath:line:column:)``. Either way
  /// the child's effects are cancelled when it goes. The child may be an enum of
  /// several destinations (run its cases with ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)-((CaseState)->State,_,_,_,_,_,_)``):
  /// one that switches to another case, or to another `Identifiable` id, is a new child,
  /// and the old one's effects are cancelled.
  ///
  /// A child whose state is an ``AlertState`` or a ``ConfirmationDialogState`` (or an
  /// enum case holding one) is dismissed by any of its actions, before the parent's
  /// reducer sees the action: choosing a button sends its action and closes the alert. For
  /// those there is no child reducer to give: see ``ifLet(_:action:fileID:filePath:line:column:)-(_,(PresentationAction<ChildAction>)->Action,_,_,_,_)``.
  ///
  /// A presented action that arrives while the state is `nil` is reported as an issue and
  /// ignored, as with the plain `ifLet`.
  ///
  /// - Parameters:
  ///   - state: The optional child state.
  ///   - action: The case of this reducer's action that carries the child's
  ///     presentation actions.
  ///   - child: The child reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?>,
    action: CasePath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfLetReducer<_PresentingReducer<Self, ChildState, ChildAction>, Child>
  where Child.State == ChildState, Child.Action == ChildAction {
    let presented = CasePath<Action, ChildAction>(embed: { action.embed(.presented($0)) }) {
      if case .presented(let child)? = action.extract($0) { child } else { nil }
    }
    return _IfLetReducer(
      parent: _PresentingReducer(base: self, toChildState: state, toPresentationAction: action),
      child: child(), toChildState: state, toChildAction: presented,
      identify: { EffectID(PresentedIdentity(of: $0)) }, dismissal: { action.embed(.dismiss) },
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Presents a child that has no reducer of its own: an ``AlertState`` or a
  /// ``ConfirmationDialogState``, which any of its actions dismisses.
  ///
  /// ```swift
  /// case .clearTapped:
  ///   state.confirmation = ConfirmationDialogState(
  ///     title: "Remove every favourite?",
  ///     buttons: [
  ///       ButtonState(role: .destructive, "Remove all", action: .confirmClear),
  ///       ButtonState(role: .cancel, "Keep them"),
  ///     ])
  ///   return .none
  /// case .confirmation(.presented(.confirmClear)):
  ///   state.favourites = []   // the dialog is already gone
  ///   return .none
  ///
  /// // …
  /// .ifLet(\.confirmation, action: Action.confirmation)
  /// ```
  ///
  /// - Parameters:
  ///   - state: The optional alert or dialog.
  ///   - action: The case of this reducer's action that carries its presentation actions.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func ifLet<ChildState, ChildAction>(
    _ state: WritableKeyPath<State, ChildState?>,
    action: CasePath<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfLetReducer<_PresentingReducer<Self, ChildState, ChildAction>, EmptyReducer<ChildState, ChildAction>>
  {
    ifLet(
      state, action: action, then: { EmptyReducer() }, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }
}

/// The parent's side of a presentation: dismisses an alert or dialog before the parent
/// sees its action, and the child after the parent sees `.dismiss`.
public struct _PresentingReducer<Base: Reducer, ChildState, ChildAction>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let toChildState: WritableKeyPath<Base.State, ChildState?>
  @usableFromInline let toPresentationAction: CasePath<Base.Action, PresentationAction<ChildAction>>

  @usableFromInline
  init(
    base: Base, toChildState: WritableKeyPath<Base.State, ChildState?>,
    toPresentationAction: CasePath<Base.Action, PresentationAction<ChildAction>>
  ) {
    self.base = base
    self.toChildState = toChildState
    self.toPresentationAction = toPresentationAction
  }

  /// Runs the parent, dismissing the child where the action says so.
  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    switch toPresentationAction.extract(action) {
    case nil:
      return base.reduce(into: &state, action: action)
    case .presented?:
      if let child = state[keyPath: toChildState], dismissesOnAnyAction(child) {
        state[keyPath: toChildState] = nil
      }
      return base.reduce(into: &state, action: action)
    case .dismiss?:
      let effect = base.reduce(into: &state, action: action)
      state[keyPath: toChildState] = nil
      return effect
    }
  }
}

/// Which presented child a state is, for cancelling the effects of one that another
/// replaces: the case of an enum state, and the id of an `Identifiable` one (or its case's
/// payload's).
@usableFromInline
struct PresentedIdentity: Hashable, @unchecked Sendable {
  // Only compared and hashed, never handed out: the boxed id need not be `Sendable`.
  let caseName: String?
  let id: AnyHashable?

  @usableFromInline
  init(of state: Any) {
    let mirror = Mirror(reflecting: state)
    if mirror.displayStyle == .enum {
      let payload = mirror.children.first
      caseName = payload?.label ?? String(describing: state)
      id = payload.flatMap { identity(of: $0.value) }
    } else {
      caseName = nil
      id = identity(of: state)
    }
  }
}

/// The id of `value` if it is `Identifiable`.
private func identity(of value: Any) -> AnyHashable? {
  func id(_ value: some Identifiable) -> AnyHashable { AnyHashable(value.id) }
  guard let value = value as? any Identifiable else { return nil }
  return id(value)
}

/// Whether `state` is an alert or a dialog (or an enum case holding one), which any of its
/// actions dismisses.
@usableFromInline
func dismissesOnAnyAction(_ state: Any) -> Bool {
  if state is any ButtonPrompt { return true }
  let mirror = Mirror(reflecting: state)
  guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return false }
  return payload is any ButtonPrompt
}

/// A presented value made of buttons, gone once one is chosen.
protocol ButtonPrompt {}

// MARK: Given the case

extension Reducer {
  /// Presents a child whose presentation actions are the case `action` of this reducer's
  /// (see the form that takes a ``CasePath``).
  ///
  /// ```swift
  /// .ifLet(\.destination, action: Action.destination) { Destination() }
  /// ```
  ///
  /// - Parameters:
  ///   - state: The optional child state.
  ///   - action: The case of this reducer's action that carries the child's presentation
  ///     actions.
  ///   - child: The child reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?>,
    action: @escaping @Sendable (PresentationAction<ChildAction>) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfLetReducer<_PresentingReducer<Self, ChildState, ChildAction>, Child>
  where Child.State == ChildState, Child.Action == ChildAction {
    ifLet(
      state, action: CasePath(action), then: child, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Presents an alert or a dialog whose presentation actions are the case `action` of
  /// this reducer's (see the form that takes a ``CasePath``).
  ///
  /// ```swift
  /// .ifLet(\.alert, action: Action.alert)
  /// ```
  ///
  /// - Parameters:
  ///   - state: The optional alert or dialog.
  ///   - action: The case of this reducer's action that carries its presentation actions.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func ifLet<ChildState, ChildAction>(
    _ state: WritableKeyPath<State, ChildState?>,
    action: @escaping @Sendable (PresentationAction<ChildAction>) -> Action,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfLetReducer<_PresentingReducer<Self, ChildState, ChildAction>, EmptyReducer<ChildState, ChildAction>>
  {
    ifLet(state, action: CasePath(action), fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
