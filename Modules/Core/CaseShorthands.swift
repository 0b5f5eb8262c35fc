/// The composition APIs given the enum case itself (`action: Action.child`) in place of a
/// ``CasePath``: each makes the path with ``CasePath/init(_:)`` and is otherwise the form
/// that takes one.
extension Scope {
  /// Creates a scope whose child's actions are the case `action` of the parent's.
  ///
  /// ```swift
  /// Scope(state: \.dogs, action: Action.dogs) { DogsFeature(client: client) }
  /// ```
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives.
  ///   - action: The case of the parent's action that carries the child's.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState>,
    action: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: state, action: CasePath(action), child: child)
  }
}

extension Reducer {
  /// Runs a child reducer on optional child state while it is present, its actions the
  /// case `action` of this reducer's (see the form that takes a ``CasePath``).
  ///
  /// - Parameters:
  ///   - state: The optional child state.
  ///   - action: The case of this reducer's action that carries the child's.
  ///   - child: The child reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?>,
    action: @escaping @Sendable (ChildAction) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where Child.State == ChildState, Child.Action == ChildAction {
    ifLet(
      state, action: CasePath(action), then: child, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Runs a child reducer on optional, identifiable child state while it is present, its
  /// actions the case `action` of this reducer's (see the form that takes a ``CasePath``).
  ///
  /// - Parameters:
  ///   - state: The optional child state.
  ///   - action: The case of this reducer's action that carries the child's.
  ///   - child: The child reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func ifLet<ChildState: Identifiable, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?>,
    action: @escaping @Sendable (ChildAction) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where Child.State == ChildState, Child.Action == ChildAction, ChildState.ID: Sendable {
    ifLet(
      state, action: CasePath(action), then: child, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

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

  /// Runs an element reducer on every element of a collection, its actions the case
  /// `action` of this reducer's, with the element's id (see the form that takes a
  /// ``CasePath``).
  ///
  /// ```swift
  /// enum Action { case rows(id: Row.ID, action: Row.Action) }
  /// // …
  /// .forEach(\.rows, action: Action.rows) { Row() }
  /// ```
  ///
  /// - Parameters:
  ///   - elements: The collection.
  ///   - action: The case of this reducer's action that carries an element's id and action.
  ///   - element: The element reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func forEach<ElementState: Identifiable, ElementAction, Element: Reducer>(
    _ elements: WritableKeyPath<State, IdentifiedArray<ElementState>>,
    action: @escaping @Sendable (ElementState.ID, ElementAction) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _ForEachReducer<Self, Element>
  where
    Element.State == ElementState, Element.Action == ElementAction,
    ElementState.ID: Sendable
  {
    forEach(
      elements, action: CasePath(action), element: element, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}
