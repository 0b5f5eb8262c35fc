import Observation

/// Where an action came from, as seen by a runtime hook.
public enum ActionOrigin: Sendable {
  /// Sent from outside the reducer tree (`Store.send`, `TestStore.send`).
  case external
  /// Delivered by an effect (`Effect.send` or `send` inside `Effect.run`).
  case effect
}

/// The root of a store: owns the state, runs the reducer and interprets effects.
///
/// `Store` and `TestStore` both sit on this one runtime, so tests exercise exactly the
/// effect semantics the app runs with. It is public only so that both can inline its hot
/// path; use ``Store``.
@MainActor
public final class StoreRuntime<State, Action> {
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
  /// Whether a reader may be tracking the state with Observation (see ``trackAccess()``).
  @exclusivity(unchecked) @usableFromInline var isTracked = false
  @exclusivity(unchecked) @usableFromInline var observers: [(id: Int, update: (State) -> Void)] = []
  @exclusivity(unchecked) @usableFromInline var _state: State

  /// The current state.
  @inlinable public var state: State { _state }

  /// Called after every action with the state it produced; `TestStore` records with it.
  @_spi(Internals)
  public var didReduce: ((Action, State, ActionOrigin) -> Void)? {
    get { _didReduce }
    set { _didReduce = newValue }
  }
  @usableFromInline var sentFromReducer: [Action] = []
  /// The state as it was when ``isTracked`` was set.
  @usableFromInline var trackedState: State?
  @usableFromInline let registrar = ObservationRegistrar()

  /// One byte, checked on every send: `andSent` once a send came from inside the reducer.
  @usableFromInline
  enum Reducing: UInt8 {
    case no, yes, andSent
  }
  /// When set, the runtime remembers which action started each effect (for test messages).
  @_spi(Internals)
  public var describeOrigin: ((Action) -> String)?

  @usableFromInline var tasks: [Int: Task<Void, Never>] = [:]
  @usableFromInline var origins: [Int: String] = [:]
  @usableFromInline var keysByTask: [Int: [CancelKey]] = [:]
  @usableFromInline var tasksByKey: [CancelKey: Set<Int>] = [:]
  private var nextTaskID = 0
  private var nextObserverID = 0
  /// Counts removals, so that a notification pass notices an observer removed by another.
  private var observerRemovals = 0
  /// Set while observers are being called; a send made by one of them then asks for
  /// another pass instead of notifying from inside this one.
  private var isNotifying = false
  private var needsAnotherPass = false

  /// Creates a runtime; ``Store`` does this for you.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reduce: The compiled reducer.
  @inlinable
  public init(initialState: State, reduce: @escaping ReduceFunction<State, Action>) {
    self._state = initialState
    self.reduce = reduce
  }

  isolated deinit {
    for task in tasks.values { task.cancel() }
  }

  // MARK: Sending

  /// Runs `action` through the reducer, starts its effects and notifies observers once.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - origin: Who sent it.
  /// - Returns: The effects it started.
  @inlinable
  @discardableResult
  public func send(_ action: Action, origin: ActionOrigin = .external) -> StoreTask {
    if reducing != .no { return sendFromReducer(action) }
    var started: [Task<Void, Never>] = []
    process(action, origin: origin, started: &started)
    if isTracked || !observers.isEmpty { notifyObservers() }
    return StoreTask(tasks: started)
  }

  @inlinable
  func process(
    _ action: Action, origin: ActionOrigin, started: inout [Task<Void, Never>]
  ) {
    let effect = apply(action, origin: origin)
    if case .none = effect.operation { return }
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

  /// Starts the effect an action returned (the slow path: only for non-`none` effects).
  @usableFromInline
  func startEffect(_ effect: Effect<Action>, of action: Action, started: inout [Task<Void, Never>]) {
    start(effect, in: .root, origin: describeOrigin?(action), started: &started)
  }

  // MARK: Effects

  private struct Context {
    var path: [EffectID]
    var keys: [CancelKey]
    static var root: Context { Context(path: [], keys: []) }
  }

  @usableFromInline
  enum CancelKey: Hashable {
    case id(path: [EffectID], id: EffectID)
    case namespace([EffectID])
  }

  /// An effect still to start, where it sits, and the action that led to it.
  private struct Pending {
    var work: Work
    var context: Context
    var origin: String?
    /// How many synchronous sends led here, each action's effect sending the next.
    var depth = 0
    /// Where the tasks this starts are collected.
    var sink = Sink.caller

    enum Work {
      /// Start this effect.
      case effect(Effect<Action>)
      /// The step before has been started: go on with the next one if none of its tasks
      /// still runs (it finished at once), else leave the rest to the concatenation's task.
      case nextStep(Concatenation)
    }
  }

  /// Where the tasks an effect starts are collected.
  private enum Sink {
    /// The caller's list (`started`).
    case caller
    /// The step of a concatenation they belong to.
    case step(Concatenation)
  }

  /// A concatenation under way: the steps, which one comes next, and the tasks of the one
  /// started last. Its steps start at once, one after the other, while each finishes at
  /// once (sends, cancellations, concatenations of those); from the first that leaves a
  /// task running, the concatenation's own task waits for each step and starts the next.
  @MainActor
  private final class Concatenation {
    /// The concatenation's id among the runtime's effects.
    let id: Int
    let steps: [Effect<Action>]
    var next = 0
    var running: [(id: Int, task: Task<Void, Never>)] = []
    var task: Task<Void, Never>?

    init(id: Int, steps: [Effect<Action>]) {
      self.id = id
      self.steps = steps
    }

    /// The next step, if there is one and the concatenation was not cancelled.
    func takeNext() -> Effect<Action>? {
      guard next < steps.count, task?.isCancelled != true else { return nil }
      next += 1
      running = []
      return steps[next - 1]
    }
  }

  /// How long a chain of synchronous sends may grow, each action's effect sending the
  /// next, before the runtime takes it for an endless loop.
  static var maximumSendChain: Int { 100_000 }

  /// Starts `effect` and everything it sends synchronously, depth first and in order (an
  /// action sent by ``Effect/send(_:)`` is reduced, and its own effect started, before
  /// the next part of a merge or step of a concatenation), keeping the work still to do in
  /// a list rather than on the call stack: a long chain of sends cannot overflow the stack.
  ///
  /// `sink` says where the tasks this starts go: `started`, unless they belong to a
  /// concatenation's step. Those of the effects of actions it sends go to `started`: a
  /// `send` answers for everything it led to, while a step of a concatenation is over once
  /// its actions are reduced (what they start is theirs).
  private func start(
    _ effect: Effect<Action>, in context: Context, origin: String?, sink: Sink = .caller,
    started: inout [Task<Void, Never>]
  ) {
    var pending = [Pending(work: .effect(effect), context: context, origin: origin, sink: sink)]
    while let next = pending.popLast() {
      if next.depth == Self.maximumSendChain, case .effect(let effect) = next.work,
        case .send(let action) = effect.operation
      {
        // Every endless loop of sends makes an endless chain: each effect is finite.
        reportIssue(
          """
          A chain of \(Self.maximumSendChain) actions sent synchronously, each by the \
          effect of the one before, did not end; the rest were dropped. A reducer probably \
          answers an action by sending it (or one that leads back to it) again. The last:
          \(indentedDump(action))
          """)
        return
      }
      start(next, pending: &pending, started: &started)
    }
  }

  /// Starts one piece of an effect; what it is made of, and the effect of an action it
  /// sends, go on `pending` (last out first).
  private func start(
    _ item: Pending, pending: inout [Pending], started: inout [Task<Void, Never>]
  ) {
    let (context, origin) = (item.context, item.origin)
    func later(_ effect: Effect<Action>, in context: Context, sink: Sink? = nil) {
      pending.append(
        Pending(
          work: .effect(effect), context: context, origin: origin, depth: item.depth,
          sink: sink ?? item.sink))
    }
    func collect(_ task: Task<Void, Never>, id: Int) {
      switch item.sink {
      case .caller: started.append(task)
      case .step(let concatenation): concatenation.running.append((id, task))
      }
    }
    let effect: Effect<Action>
    switch item.work {
    case .effect(let next):
      effect = next
    case .nextStep(let concatenation):
      guard concatenation.running.allSatisfy({ tasks[$0.id] == nil }) else {
        // A task of the last step still runs: the concatenation's task takes over, and
        // only now counts as started.
        if let task = concatenation.task { collect(task, id: concatenation.id) }
        return
      }
      guard let step = concatenation.takeNext() else {
        // Every step finished at once, and so has the concatenation.
        finished(concatenation.id)
        return
      }
      pending.append(
        Pending(
          work: .nextStep(concatenation), context: context, origin: origin, depth: item.depth,
          sink: item.sink))
      later(step, in: context, sink: .step(concatenation))
      return
    }
    switch effect.operation {
    case .none:
      return

    case .send(let action):
      let effect = apply(action, origin: .effect)
      if case .none = effect.operation { return }
      pending.append(
        Pending(
          work: .effect(effect), context: .root, origin: describeOrigin?(action), depth: item.depth + 1,
          sink: .caller))

    case .run(let priority, let operation):
      let id = makeTaskID()
      let send = Send<Action> { [weak self] action in self?.deliver(action, fromEffect: id) }
      let task = Task(priority: priority) { [weak self] in
        await operation(send)
        self?.finished(id)
      }
      register(task, id: id, keys: context.keys, origin: origin)
      collect(task, id: id)

    case .merge(let effects):
      for effect in effects.reversed() { later(effect, in: context) }

    case .concatenate(let effects):
      let id = makeTaskID()
      let concatenation = Concatenation(id: id, steps: effects)
      // Runs once the steps that finish at once have been started (it is on the main
      // actor, which is busy with them until then).
      let task = Task { [weak self] in
        while true {
          let step = concatenation.running.map(\.task)
          await withTaskCancellationHandler {
            for task in step { await task.value }
          } onCancel: {
            for task in step { task.cancel() }
          }
          guard let self, let next = concatenation.takeNext() else { break }
          self.startStep(next, of: concatenation, in: context, origin: origin)
        }
        self?.finished(id)
      }
      concatenation.task = task
      register(task, id: id, keys: context.keys, origin: origin)
      pending.append(
        Pending(
          work: .nextStep(concatenation), context: context, origin: origin, depth: item.depth,
          sink: item.sink))

    case .cancellable(let id, let cancelInFlight, let effect):
      let key = CancelKey.id(path: context.path, id: id)
      if cancelInFlight { cancel(key) }
      var inner = context
      inner.keys.append(key)
      later(effect, in: inner)

    case .cancel(let id):
      cancel(.id(path: context.path, id: id))

    case .namespace(let id, let effect):
      var inner = context
      inner.path.append(id)
      inner.keys.append(.namespace(inner.path))
      later(effect, in: inner)

    case .cancelNamespace(let id):
      cancel(.namespace(context.path + [id]))

    case .dismiss:
      // A presenting `ifLet` turns its child's `dismiss` into its own `.dismiss` action;
      // one that gets here was returned by a feature that nothing presents.
      reportIssue(
        """
        'Effect.dismiss' was returned by a feature that nothing presents (no 'ifLet' with a \
        'PresentationAction' runs it); it was ignored.
        """)
    }
  }

  /// Sends an action from the effect `id` while that effect runs. A `send` used after its
  /// effect ended (from work the effect did not await, such as an unstructured `Task`,
  /// which cancelling the effect cannot reach) is a mistake: reported, and dropped, so a
  /// cancelled effect stays silent. (Sends from the effect's own task after it was
  /// cancelled never get here: ``Send`` drops them.)
  private func deliver(_ action: Action, fromEffect id: Int) {
    guard tasks[id] != nil else {
      reportIssue(
        """
        An effect sent an action after it had ended (finished or cancelled); it was dropped:
        \(indentedDump(action))
        The effect's 'send' was used from work the effect did not await (an unstructured \
        'Task', say). Await that work inside the effect, so that cancelling the effect \
        reaches it too.
        """)
      return
    }
    send(action, origin: .effect)
  }

  /// Starts one step of `concatenation` from its task; the step's tasks go to
  /// `concatenation.running`, and those of the actions it sends are theirs (nobody keeps
  /// the list they are collected in).
  private func startStep(
    _ effect: Effect<Action>, of concatenation: Concatenation, in context: Context, origin: String?
  ) {
    var theirs: [Task<Void, Never>] = []
    start(effect, in: context, origin: origin, sink: .step(concatenation), started: &theirs)
    if isTracked || !observers.isEmpty { notifyObservers() }
  }

  private func makeTaskID() -> Int {
    nextTaskID &+= 1
    return nextTaskID
  }

  private func register(_ task: Task<Void, Never>, id: Int, keys: [CancelKey], origin: String?) {
    tasks[id] = task
    if let origin { origins[id] = origin }
    guard !keys.isEmpty else { return }
    keysByTask[id] = keys
    for key in keys { tasksByKey[key, default: []].insert(id) }
  }

  private func finished(_ id: Int) {
    guard tasks.removeValue(forKey: id) != nil else { return }
    origins[id] = nil
    guard let keys = keysByTask.removeValue(forKey: id) else { return }
    for key in keys {
      tasksByKey[key]?.remove(id)
      if tasksByKey[key]?.isEmpty == true { tasksByKey[key] = nil }
    }
  }

  /// Cancels the tasks registered under `key`; they stop counting as in flight at once.
  private func cancel(_ key: CancelKey) {
    guard let ids = tasksByKey[key] else { return }
    for id in ids {
      tasks[id]?.cancel()
      finished(id)
    }
  }

  // MARK: Test support

  /// Number of effects still running.
  @_spi(Internals)
  public var inFlightCount: Int { tasks.count }

  /// For each running effect, the description of the action that started it.
  @_spi(Internals)
  public var inFlightOrigins: [String] {
    tasks.keys.sorted().map { origins[$0] ?? "an action" }
  }

  /// Cancels every running effect.
  @_spi(Internals)
  public func cancelAll() {
    for id in Array(tasks.keys) {
      tasks[id]?.cancel()
      finished(id)
    }
  }

  // MARK: Observation

  @usableFromInline
  func addObserver(_ update: @escaping (State) -> Void) -> Int {
    nextObserverID += 1
    observers.append((nextObserverID, update))
    return nextObserverID
  }

  @usableFromInline
  func removeObserver(_ id: Int) {
    observers.removeAll { $0.id == id }
    observerRemovals &+= 1
  }

  /// How many rounds of notifications one send may cause before the runtime gives up.
  static var maximumNotificationRounds: Int { 1_000 }

  /// Calls every observer with the state as it is when that observer is called.
  ///
  /// Observers may send actions and start or stop observations. Notifications never nest:
  /// a send from inside an observer changes the state and marks the pass stale, and once
  /// the pass ends every observer is called again with the newest state, so none is left
  /// with an older state than another, nor sees the states out of order. An observer
  /// removed during a pass is not called after its removal.
  @usableFromInline
  func notifyObservers() {
    if isTracked { tellObservationIfChanged() }
    if isNotifying {
      needsAnotherPass = true
      return
    }
    isNotifying = true
    defer { isNotifying = false }
    var rounds = 0
    repeat {
      rounds += 1
      if rounds > Self.maximumNotificationRounds {
        // Observers that answer every change with another change would go round forever.
        reportIssue(
          """
          Observers changed the state in each of \(Self.maximumNotificationRounds) rounds of \
          notifications after one send; stopped notifying. An observer probably sends an \
          action that changes the state whenever the state changes.
          """)
        break
      }
      needsAnotherPass = false
      let removals = observerRemovals
      for observer in observers {
        if observerRemovals != removals, !observers.contains(where: { $0.id == observer.id }) {
          continue
        }
        let current = _state
        observer.update(current)
      }
    } while needsAnotherPass
  }
}

extension StoreRuntime: Observable, ObservedRoot {
  /// Registers a read of the state with Observation, and remembers the state read (once,
  /// until it changes) so that a send can tell whether it changed.
  @usableFromInline
  func trackAccess() {
    registrar.access(self, keyPath: \.state)
    guard !isTracked else { return }
    isTracked = true
    trackedState = _state
  }

  /// Tells Observation of a change if the state's bytes differ from those read; the next
  /// read starts tracking again (Observation's change handlers run once).
  func tellObservationIfChanged() {
    guard let read = trackedState, !Self.sameBytes(read, _state) else { return }
    isTracked = false
    trackedState = nil
    registrar.withMutation(of: self, keyPath: \.state) {}
  }

  private nonisolated static func sameBytes(_ lhs: State, _ rhs: State) -> Bool {
    withUnsafeBytes(of: lhs) { lhs in withUnsafeBytes(of: rhs) { lhs.elementsEqual($0) } }
  }
}

/// A root store's runtime, as every store scoped from it sees it for Observation.
@MainActor
@usableFromInline
protocol ObservedRoot: AnyObject {
  /// Registers a read of the root's state.
  func trackAccess()
}

extension StoreRuntime: RootStateStorage {
  /// Calls `body` with the address of the state, for a scoped store that knows where its
  /// part lies (see `StateLocation`). Main actor only, and never while `reduce` runs (a
  /// reducer cannot reach a store).
  @usableFromInline
  func withStateBytes(_ body: (UnsafeRawPointer) -> Void) {
    Self.withBytes(of: &_state, body)
  }

  // Nonisolated so that the closure handed to `withUnsafeBytes` is formed outside the main
  // actor: formed inside it, Swift 6 checks the executor on every call (~30 ns, measured).
  private nonisolated static func withBytes(of state: inout State, _ body: (UnsafeRawPointer) -> Void) {
    withUnsafeBytes(of: &state) { body($0.baseAddress!) }
  }

  @usableFromInline
  func addChangeObserver(_ update: @escaping (any RootStateStorage) -> Void) -> Int {
    // Unowned: the closure lives in this runtime's own list of observers.
    addObserver { [unowned self] _ in update(self) }
  }
}
