extension Reducer {
  /// Reacts when a value of the state changes: after this reducer has run an action,
  /// `react` is called with the value before and after if they differ.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: \.favourites) { old, new, state in
  ///     state.savedCount = new.count
  ///     return .run { _ in try await store.save(new) }
  ///       .cancellable(id: CancelID.save, cancelInFlight: true)
  ///   }
  /// ```
  ///
  /// Whichever action made the change, the reaction is written once, next to the value.
  /// `react` may change the state too (that does not call it again) and returns an
  /// effect, merged after this reducer's. The value is compared once per action, so
  /// whatever an action changes and changes back is no change.
  ///
  /// - Parameters:
  ///   - value: The value to watch.
  ///   - react: Called with the old value, the new one and the state, when they differ.
  /// - Returns: The reducer with the reaction.
  @inlinable
  public func onChange<Value: Equatable>(
    of value: KeyPath<State, Value>,
    _ react: @escaping (_ old: Value, _ new: Value, _ state: inout State) -> Effect<Action>
  ) -> _OnChangeReducer<Self, Value> {
    _OnChangeReducer(base: self, value: value, react: react)
  }
}

/// The reducer ``Reducer/onChange(of:_:)`` builds.
public struct _OnChangeReducer<Base: Reducer, Value: Equatable>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let value: KeyPath<Base.State, Value>
  @usableFromInline let react: (Value, Value, inout Base.State) -> Effect<Base.Action>

  @usableFromInline
  init(
    base: Base, value: KeyPath<Base.State, Value>,
    react: @escaping (Value, Value, inout Base.State) -> Effect<Base.Action>
  ) {
    self.base = base
    self.value = value
    self.react = react
  }

  /// Runs the base reducer, then the reaction if the value changed.
  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let old = state[keyPath: value]
    let effect = base.reduce(into: &state, action: action)
    let new = state[keyPath: value]
    guard old != new else { return effect }
    return effect.merge(with: react(old, new, &state))
  }
}
