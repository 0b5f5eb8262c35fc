/// A description of how a feature's state evolves when an action happens.
///
/// Conform either by implementing ``reduce(into:action:)`` directly, or by composing other
/// reducers in ``body``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementTapped }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .incrementTapped:
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// `body` is a pure description of the composition, not a place for work: a root store
/// builds its reducer's body once, and the bodies of the features inside it are built for
/// each action that reaches them, like a SwiftUI view's `body`. Because every combinator is
/// a concrete generic type, the optimiser sees the whole tree of a feature and compiles it
/// into straight-line code.
public protocol Reducer<State, Action> {
  /// The state this reducer mutates.
  associatedtype State
  /// The actions this reducer handles.
  associatedtype Action
  /// The type of ``body``; `Never` for reducers that implement ``reduce(into:action:)``.
  associatedtype Body

  /// Evolves `state` for `action` and returns the effect to run afterwards.
  ///
  /// - Parameters:
  ///   - state: The current state, mutated in place.
  ///   - action: What happened.
  /// - Returns: Work to perform after the mutation, or ``Effect/none``.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this reducer is composed of, run in order for every action.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

/// A reducer compiled into a single function, as stores run it.
@usableFromInline
package typealias ReduceFunction<State, Action> = (inout State, Action) -> Effect<Action>

extension Reducer where Body == Never {
  /// Reducers that implement ``reduce(into:action:)`` have no body.
  public var body: Never {
    fatalError("'\(Self.self)' has no body: it implements reduce(into:action:) directly.")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body``.
  @inlinable @inline(__always)
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer made from a closure, the usual building block inside a `body`.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Reduce { state, action in
///     switch action { … }
///   }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let run: ReduceFunction<State, Action>

  /// Creates a reducer from a closure.
  ///
  /// - Parameter reduce: Mutates the state for an action and returns an effect.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.run = reduce
  }

  /// Type-erases any reducer with the same state and action.
  ///
  /// - Parameter reducer: The reducer to wrap.
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.run = { reducer.reduce(into: &$0, action: $1) }
  }

  /// Calls the closure.
  @inlinable @inline(__always)
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    run(&state, action)
  }
}

/// A reducer that does nothing; what an empty `body` builds.
public struct EmptyReducer<State, Action>: Reducer {
  /// Creates a reducer that never changes state and never returns an effect.
  @inlinable
  public init() {}

  /// Returns ``Effect/none`` and leaves the state alone.
  @inlinable @inline(__always)
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// Runs several reducers in order on the same state, merging their effects.
///
/// Useful to group reducers where a single reducer value is expected.
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  @usableFromInline
  let reducers: Reducers

  /// Combines the reducers the builder produces.
  ///
  /// - Parameter build: The reducers, run top to bottom.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  /// Runs the combined reducers in order.
  @inlinable @inline(__always)
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
