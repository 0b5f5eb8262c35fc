/// Runs a child reducer on part of the parent's state, for the child's actions.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.dogs, action: Action.dogs) { DogsFeature(client: client) }
///   Reduce { state, action in … }
/// }
/// ```
///
/// The child's effects are mapped back into parent actions. Actions that are not the
/// child's pass through untouched (and cost one `extract` call).
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: StatePath<ParentState, Child.State>
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Creates a scope.
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives; a computed, writable property (a
  ///     projection) works too.
  ///   - action: How the child's actions embed into the parent's.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState>,
    action: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = StatePath(state)
    self.toChildAction = action
    self.child = child()
  }

  /// Runs the child reducer on the child state if `action` is a child action, and maps its effect
  /// back into parent actions.
  @inlinable @inline(__always)
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    let effect = toChildState.modify(&state) { child.reduce(into: &$0, action: childAction) }
    if effect.isNone { return .none }
    return effect.map(toChildAction.embed)
  }
}

// MARK: Given the case

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
