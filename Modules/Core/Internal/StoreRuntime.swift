/// The root of a store: owns the state, runs the reducer and interprets effects.
///
/// `Store` and `TestStore` both sit on this one runtime, so tests exercise exactly the
/// effect semantics the app runs with. It is `package`: CoreTesting builds on it, and
/// `Store` inlines its hot path; users see ``Store`` only.
///
/// This file holds the state and the sending of actions. The runtime's other concerns
/// each have a file of their own:
/// - `StoreRuntime+Effects.swift`: starting the effects a reducer returns;
/// - `StoreRuntime+Cancellation.swift`: the running effects, and cancelling them;
/// - `StoreRuntime+Observation.swift`: observers, and scoped stores' reads.
@MainActor
@usableFromInline
package final class StoreRuntime<State, Action> {
  // Only this main-actor class touches these, and never with overlapping accesses
  // (reducers are pure functions that cannot reach the runtime; observers are iterated
  // over a copy), so the dynamic exclusivity checks — two thirds of a flat send — are
  // skipped on the hot path.
  //
  // What every send reads comes first, before the state: a stored property after one of
  // generic size has an offset known only at run time, read from the class's metadata,
  // and on the hot path that chain of loads cost more than the reducer.
  @usableFromInline let reduce: ReduceFunction<State, Action>
  @exclusivity(unchecked) @usableFromInline var _didReduce: ((Action, State, ActionOrigin) -> Void)?
  /// Whether the reducer is running, and whether it sent (see ``sendFromReducer(_:)``).
  @exclusivity(unchecked) @usableFromInline var reducing = Reducing.no
  @exclusivity(unchecked) @usableFromInline var observers: [(id: Int, update: (State) -> Void)] = []
  @exclusivity(unchecked) @usableFromInline var _state: State

  /// The current state.
  @inlinable package var state: State { _state }

  /// Called after every action with the state it produced; `TestStore` records with it.
  package var didReduce: ((Action, State, ActionOrigin) -> Void)? {
    get { _didReduce }
    set { _didReduce = newValue }
  }
  @usableFromInline var sentFromReducer: [Action] = []

  /// One byte, checked on every send: `andSent` once a send came from inside the reducer.
  @usableFromInline
  enum Reducing: UInt8 {
    case no, yes, andSent
  }
  /// When set, the runtime remembers which action started each effect (for test messages).
  package var describeOrigin: ((Action) -> String)?
  /// Where a `TestStore`'s effects run, so that it knows when they are idle; `nil` for
  /// every other store, whose effects' tasks run on the main actor. When set, the effects'
  /// tasks run off the main actor on this executor and hop to the main actor to send.
  package var effectExecutor: (any TaskExecutor)?

  // Running effects and their cancellation (see `StoreRuntime+Cancellation.swift`).
  @usableFromInline var tasks: [Int: Task<Void, Never>] = [:]
  @usableFromInline var origins: [Int: String] = [:]
  @usableFromInline var keysByTask: [Int: [CancelKey]] = [:]
  @usableFromInline var tasksByKey: [CancelKey: Set<Int>] = [:]
  var nextTaskID = 0
  /// The ids of the `run` effects started on `effectExecutor` (those of concatenations
  /// left out: a concatenation waits only on its steps' runs). Pruned when read.
  var executorRunIDs: Set<Int> = []

  // Observers (see `StoreRuntime+Observation.swift`).
  var nextObserverID = 0
  /// Counts removals, so that a notification pass notices an observer removed by another.
  var observerRemovals = 0
  /// Set while observers are being called; a send made by one of them then asks for
  /// another pass instead of notifying from inside this one.
  var isNotifying = false
  var needsAnotherPass = false

  /// Creates a runtime; ``Store`` does this for you.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reduce: The compiled reducer.
  @inlinable
  package init(initialState: State, reduce: @escaping ReduceFunction<State, Action>) {
    self._state = initialState
    self.reduce = reduce
  }

  isolated deinit {
    for task in tasks.values { task.cancel() }
  }

  /// Runs `action` through the reducer, starts its effects and notifies observers once.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - origin: Who sent it.
  /// - Returns: The effects it started.
  @inlinable
  @discardableResult
  package func send(_ action: Action, origin: ActionOrigin = .external) -> StoreTask {
    if reducing != .no { return sendFromReducer(action) }
    var started: [Task<Void, Never>] = []
    process(action, origin: origin, started: &started)
    if !observers.isEmpty { notifyObservers() }
    return StoreTask(tasks: started)
  }

  @inlinable
  func process(
    _ action: Action, origin: ActionOrigin, started: inout [Task<Void, Never>]
  ) {
    let effect = apply(action, origin: origin)
    if effect.isNone { return }
    startEffect(effect, of: action, started: &started)
  }

  /// Runs the reducer on `action` and tells the test hook; returns the effect to start.
  @inlinable
  func apply(_ action: Action, origin: ActionOrigin) -> Effect<Action> {
    reducing = .yes
    var effect = reduce(&_state, action)
    if reducing == .andSent { effect = takeSentFromReducer(before: effect) }
    reducing = .no
    if let didReduce = _didReduce { didReduce(action, _state, origin) }
    return effect
  }

  /// A `send` made while the reducer runs: a reducer that reached a store (one captured
  /// in its closure, say). Reducing again there would change the state while the reducer
  /// is changing it, and one of the two changes would be lost; so the action waits until
  /// the reducer has returned, then runs as if the reducer had returned `.send(action)`
  /// first. Reported: reducers must not reach stores.
  @usableFromInline
  func sendFromReducer(_ action: Action) -> StoreTask {
    reportIssue(
      """
      A store was sent an action while its reducer was running (a reducer that reaches a \
      store, through a reference it captured):
      \(indentedDump(action))
      It runs once the reducer returns. Return 'Effect.send' from the reducer instead: a \
      reducer changes its state and returns effects, and does not send.
      """)
    sentFromReducer.append(action)
    reducing = .andSent
    return StoreTask(tasks: [])
  }

  /// The actions sent while the reducer ran, in order, then `effect`.
  @usableFromInline
  func takeSentFromReducer(before effect: Effect<Action>) -> Effect<Action> {
    let sent = sentFromReducer.map { Effect<Action>.send($0) }
    sentFromReducer.removeAll()
    return .merge(sent + [effect])
  }
}
