extension Reducer {
  /// Runs a child reducer on optional child state while it is present.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.breed, action: Action.breed) { BreedFeature(client: client) }
  /// ```
  ///
  /// The child runs first for its actions, then this reducer. When this reducer sets the
  /// child state to `nil`, every effect the child still has in flight is cancelled, so a
  /// late answer can never reach a screen that is gone. A child state that is
  /// `Identifiable` is also a new child when its id changes: replacing one with another
  /// (the next item's screen in place of this one's) cancels the old one's effects too.
  /// Other child states are the same child for as long as they are present.
  ///
  /// A child action that arrives while the state is `nil` is reported as an issue (a test
  /// failure in tests) and ignored.
  ///
  /// - Parameters:
  ///   - state: The optional child state.
  ///   - action: How the child's actions embed into this reducer's.
  ///   - child: The child reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
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
      parent: self, child: child(), toChildState: state, toChildAction: action, identify: nil,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs a child reducer on optional, identifiable child state while it is present; a
  /// child whose id changes is a new child.
  ///
  /// As the other `ifLet(_:action:then:)`, and when this
  /// reducer replaces the child by one with another id, the effects the old one still
  /// has in flight are cancelled: its late answers never reach the new one. The child's
  /// cancel ids live under its id: a child that changes its own id can no longer cancel
  /// by id what it started before (that still ends when the child state becomes `nil`).
  ///
  /// - Parameters:
  ///   - state: The optional child state.
  ///   - action: How the child's actions embed into this reducer's.
  ///   - child: The child reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable @inline(__always)
  public func ifLet<ChildState: Identifiable, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?>,
    action: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _IfLetReducer<Self, Child>
  where Child.State == ChildState, Child.Action == ChildAction, ChildState.ID: Sendable {
    _IfLetReducer(
      parent: self, child: child(), toChildState: state, toChildAction: action,
      identify: { EffectID($0.id) },
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer `ifLet(_:action:then:)` builds.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>
  /// The child's identity, for an `Identifiable` child (and a presented one).
  @usableFromInline let identify: ((Child.State) -> EffectID)?
  /// What the child's ``Effect/dismiss`` (and `send.dismiss()`) becomes, where the child is
  /// presented.
  @usableFromInline let dismissal: (@Sendable () -> Parent.Action)?
  @usableFromInline let location: IssueLocation

  @usableFromInline @inline(__always)
  init(
    parent: Parent, child: Child, toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CasePath<Parent.Action, Child.Action>,
    identify: ((Child.State) -> EffectID)?, dismissal: (@Sendable () -> Parent.Action)? = nil,
    location: IssueLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.identify = identify
    self.dismissal = dismissal
    self.location = location
  }

  /// Runs the child reducer while the child state exists, then the parent reducer; cancels the
  /// child's effects when the child state becomes `nil` or another child (another id).
  ///
  /// The child's effects run in a namespace named by the key path and, for an identifiable
  /// child, inside it one named by the child's id. The cancellation goes between the
  /// child's effects and the parent's, so a new child that the parent's effects start at
  /// once (`.send(.child(.appeared))`) keeps its own.
  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let toChildState = StatePath(self.toChildState)
    let namespace = KeyPathID(self.toChildState)
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(action) {
      if toChildState.get(&state) != nil {
        let effect = toChildState.modify(&state) { child.reduce(into: &$0!, action: childAction) }
        if !effect.isNone {
          childEffect = effect.map(toChildAction.embed)
          if let dismissal { childEffect = childEffect.replacingDismiss(with: dismissal) }
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
    let before = identity(toChildState, in: &state)
    if case .identified(let id) = before { childEffect = childEffect.namespaced(id) }
    childEffect = childEffect.namespaced(namespace)
    let parentEffect = parent.reduce(into: &state, action: action)
    if before == .absent { return childEffect.merge(with: parentEffect) }
    let after = identity(toChildState, in: &state)
    if before == after { return childEffect.merge(with: parentEffect) }
    let teardown: Effect<Parent.Action>
    if after != .absent, case .identified(let id) = before {
      teardown = Effect.cancelNamespace(id).namespaced(namespace)
    } else {
      // Gone: everything in the child's namespace, whichever ids the child has had.
      teardown = .cancelNamespace(namespace)
    }
    return childEffect.merge(with: teardown).merge(with: parentEffect)
  }

  @inlinable @inline(__always)
  func identity(
    _ toChildState: StatePath<Parent.State, Child.State?>, in state: inout Parent.State
  ) -> ChildIdentity {
    let identify = self.identify
    return toChildState.modify(&state) { child in
      guard let child else { return .absent }
      guard let identify else { return .present }
      return .identified(identify(child))
    }
  }
}

/// Whether an `ifLet` child is there, and which one.
@usableFromInline
enum ChildIdentity: Equatable {
  case absent
  /// A child that is not `Identifiable`.
  case present
  case identified(EffectID)
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

// MARK: Given the case

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
}
