extension Reducer {
  /// Runs a child reducer on one case of an enum state, while the state is in that case.
  ///
  /// ```swift
  /// struct Session: Reducer {
  ///   enum State { case signedOut(SignIn.State), signedIn(Home.State) }
  ///   enum Action { case signIn(SignIn.Action), home(Home.Action) }
  ///
  ///   var body: some Reducer<State, Action> {
  ///     Reduce { state, action in … }   // switches the case
  ///       .ifCaseLet(State.signedOut, action: Action.signIn) { SignIn() }
  ///       .ifCaseLet(State.signedIn, action: Action.home) { Home() }
  ///   }
  /// }
  /// ```
  ///
  /// This form takes ``CasePath``s, for a path no single case makes (through several
  /// levels, or computed); given the cases themselves, as above, the form that takes them
  /// makes the paths. The case on the state names where the child lives, as the one on
  /// the action names the child's actions. The child runs first for its actions, then this reducer. When this reducer
  /// moves the state to another case, the effects the child still has in flight are
  /// cancelled; those of another `ifCaseLet`'s child, even under the same cancel id, are
  /// not. A child action that arrives while the state is in another case is reported as an
  /// issue, naming the action and the case, and ignored.
  ///
  /// The child works on a copy of the case's payload, put back after it ran: an array in it
  /// that the child changes is copied once per action.
  ///
  /// - Parameters:
  ///   - state: The case of this reducer's state that holds the child's.
  ///   - action: How the child's actions embed into this reducer's.
  ///   - child: The child reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Child: Reducer>(
    _ state: CasePath<State, CaseState>,
    action: CasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Child,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Child> where Child.State == CaseState, Child.Action == CaseAction {
    _IfCaseLetReducer(
      parent: self, child: child(), toChildState: state, toChildAction: action,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)-((CaseState)->State,_,_,_,_,_,_)`` builds.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: CasePath<Parent.State, Child.State>
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>
  @usableFromInline let location: IssueLocation

  @usableFromInline
  init(
    parent: Parent, child: Child, toChildState: CasePath<Parent.State, Child.State>,
    toChildAction: CasePath<Parent.Action, Child.Action>, location: IssueLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
  }

  /// Runs the child on its case for its actions, then the parent; cancels the child's
  /// effects when the parent leaves the case.
  ///
  /// The child's effects run in a namespace of this `ifCaseLet`'s own (named by where it
  /// is written), so leaving the case cancels them and nothing else.
  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let namespace = CaseNamespace(location: location, child: ObjectIdentifier(Child.State.self))
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(action) {
      if var childState = toChildState.extract(state) {
        let effect = child.reduce(into: &childState, action: childAction)
        state = toChildState.embed(childState)
        if !effect.isNone { childEffect = effect.map(toChildAction.embed).namespaced(namespace) }
      } else {
        reportIssue(
          """
          An 'ifCaseLet' received a child action while its state was in another case:
          \(indentedDump(childAction))
            state: \(caseName(of: state))
          The action was ignored. Usually a late effect of a case that was left, or an \
          action sent for a case the state is not in.
          """, at: location)
      }
    }
    let wasInCase = toChildState.extract(state) != nil
    let parentEffect = parent.reduce(into: &state, action: action)
    guard wasInCase, toChildState.extract(state) == nil else { return childEffect.merge(with: parentEffect) }
    return childEffect.merge(with: .cancelNamespace(namespace)).merge(with: parentEffect)
  }
}

/// The namespace of one `ifCaseLet`'s child effects: where it is written, and the type of
/// the case it runs.
@usableFromInline
struct CaseNamespace: Hashable, Sendable {
  let location: IssueLocation
  let child: ObjectIdentifier

  @usableFromInline
  init(location: IssueLocation, child: ObjectIdentifier) {
    self.location = location
    self.child = child
  }
}

/// The case an enum value is in, as `.name`, for messages.
@usableFromInline
func caseName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return DumpNode.typeName(type(of: value)) }
  if let label = mirror.children.first?.label { return ".\(label)" }
  return ".\(value)"
}

// MARK: Given the case

extension Reducer {
  /// Runs a child reducer on one case of an enum state, named by the cases themselves
  /// (see the form that takes ``CasePath``s).
  ///
  /// ```swift
  /// EmptyReducer()
  ///   .ifCaseLet(State.edit, action: Action.edit) { Editor() }
  /// ```
  ///
  /// - Parameters:
  ///   - state: The case of this reducer's state that holds the child's.
  ///   - action: The case of this reducer's action that carries the child's.
  ///   - child: The child reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Child: Reducer>(
    _ state: @escaping @Sendable (CaseState) -> State,
    action: @escaping @Sendable (CaseAction) -> Action,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Child,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Child> where Child.State == CaseState, Child.Action == CaseAction {
    ifCaseLet(
      CasePath(state), action: CasePath(action), then: child, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}
