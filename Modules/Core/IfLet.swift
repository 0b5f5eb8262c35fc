extension Reducer {
  /// Runs a child reducer on optional child state while it is present.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.breed, action: Action.breedPath) { BreedFeature(client: client) }
  /// ```
  ///
  /// The child runs first for its actions, then this reducer. When this reducer sets the
  /// child state to `nil`, every effect the child still has in flight is cancelled, so a
  /// late answer can never reach a screen that is gone. A child action that arrives while
  /// the state is `nil` is reported as an issue (a test failure in tests) and ignored.
  ///
  /// - Parameters:
  ///   - state: The optional child state.
  ///   - action: How the child's actions embed into this reducer's.
  ///   - child: The child reducer.
  /// - Returns: The combined reducer.
  @inlinable @inline(__always)
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?>,
    action: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where Child.State == ChildState, Child.Action == ChildAction {
    _IfLetReducer(
      parent: self, child: child(), toChildState: state, toChildAction: action,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` builds.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>
  @usableFromInline let location: IssueLocation

  @usableFromInline @inline(__always)
  init(
    parent: Parent, child: Child, toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CasePath<Parent.Action, Child.Action>, location: IssueLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
  }

  /// Runs the child reducer while the child state exists, then the parent reducer; cancels the
  /// child's effects when the child state becomes `nil`.
  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let toChildState = StatePath(self.toChildState)
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(action) {
      if toChildState.get(&state) != nil {
        let effect = toChildState.modify(&state) { child.reduce(into: &$0!, action: childAction) }
        if case .none = effect.operation {
        } else {
          childEffect = effect.map(toChildAction.embed).namespaced(KeyPathID(self.toChildState))
        }
      } else {
        reportIssue(
          """
          An 'ifLet' received a child action while its child state was nil:
          \(indentedDump(childAction))
          The action was ignored. Usually a late effect of a dismissed screen, or a \
          child action sent after the parent cleared the state.
          """, at: location)
      }
    }
    let wasPresent = toChildState.get(&state) != nil
    let parentEffect = parent.reduce(into: &state, action: action)
    let effect = childEffect.merge(with: parentEffect)
    if wasPresent && toChildState.get(&state) == nil {
      return effect.merge(with: .cancelNamespace(KeyPathID(self.toChildState)))
    }
    return effect
  }
}

/// A key path used as an effect namespace. Key paths are immutable values.
@usableFromInline
struct KeyPathID: Hashable, @unchecked Sendable {
  @usableFromInline let keyPath: AnyKeyPath
  @usableFromInline init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}

/// A key path plus an element id, the namespace of one `forEach` element.
@usableFromInline
struct ElementID<ID: Hashable & Sendable>: Hashable, @unchecked Sendable {
  @usableFromInline let keyPath: AnyKeyPath
  @usableFromInline let id: ID
  @usableFromInline init(keyPath: AnyKeyPath, id: ID) {
    self.keyPath = keyPath
    self.id = id
  }
}
