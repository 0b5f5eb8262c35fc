/// Builds a reducer from the reducers listed in a `body`, running them top to bottom.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  /// An empty `body` builds a reducer that does nothing.
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  /// Accepts any reducer of the body's state and action.
  @inlinable
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action { reducer }

  /// A single reducer stands for itself.
  @inlinable
  public static func buildPartialBlock<R: Reducer>(first: R) -> R
  where R.State == State, R.Action == Action { first }

  /// Appends a reducer to those listed above it; they run top to bottom.
  @inlinable
  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
    accumulated: R0, next: R1
  ) -> _SequenceReducer<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    _SequenceReducer(first: accumulated, second: next)
  }

  /// An `if` without `else`: the reducer runs only when the condition held.
  @inlinable
  public static func buildOptional<R: Reducer>(_ reducer: R?) -> _OptionalReducer<R>
  where R.State == State, R.Action == Action { _OptionalReducer(wrapped: reducer) }

  /// The `if` branch of an `if`/`else`.
  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(first: R0) -> _EitherReducer<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    .first(first)
  }

  /// The `else` branch of an `if`/`else`.
  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(second: R1) -> _EitherReducer<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    .second(second)
  }
}

/// Two reducers run one after the other; built by ``ReducerBuilder``.
public struct _SequenceReducer<R0: Reducer, R1: Reducer>: Reducer
where R0.State == R1.State, R0.Action == R1.Action {
  @usableFromInline let first: R0
  @usableFromInline let second: R1

  @usableFromInline
  init(first: R0, second: R1) {
    self.first = first
    self.second = second
  }

  /// Runs the first reducer, then the second, and merges their effects.
  @inlinable @inline(__always)
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    first.reduce(into: &state, action: action).merge(with: second.reduce(into: &state, action: action))
  }
}

/// A reducer included only when a builder condition held; built by ``ReducerBuilder``.
public struct _OptionalReducer<Wrapped: Reducer>: Reducer {
  @usableFromInline let wrapped: Wrapped?

  @usableFromInline
  init(wrapped: Wrapped?) { self.wrapped = wrapped }

  /// Runs the wrapped reducer if there is one.
  @inlinable @inline(__always)
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<Wrapped.Action> {
    wrapped?.reduce(into: &state, action: action) ?? .none
  }
}

/// One of two reducers chosen by a builder `if`/`else`; built by ``ReducerBuilder``.
public enum _EitherReducer<R0: Reducer, R1: Reducer>: Reducer
where R0.State == R1.State, R0.Action == R1.Action {
  case first(R0)
  case second(R1)

  /// Runs the reducer of the branch that was built.
  @inlinable @inline(__always)
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    switch self {
    case .first(let reducer): reducer.reduce(into: &state, action: action)
    case .second(let reducer): reducer.reduce(into: &state, action: action)
    }
  }
}
