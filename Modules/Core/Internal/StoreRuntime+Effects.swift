/// The effect interpreter: how the runtime starts the effect a reducer returns.
///
/// An effect is a tree of values (``Effect/Operation``); starting one walks the tree,
/// reducing the actions it sends at once, starting a task for each `run`, and handing
/// a concatenation's later steps to a task of its own. What runs is registered with the
/// cancellation bookkeeping (`StoreRuntime+Cancellation.swift`).
extension StoreRuntime {
  /// Starts the effect an action returned (the slow path: only for non-`none` effects).
  @usableFromInline
  func startEffect(_ effect: Effect<Action>, of action: Action, started: inout [Task<Void, Never>]) {
    start(effect, in: .root, origin: describeOrigin?(action), started: &started)
  }

  private struct Context {
    var path: [EffectID]
    var keys: [CancelKey]
    static var root: Context { Context(path: [], keys: []) }
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
    /// Where the concatenation sits, and the action that led to it.
    let context: Context
    let origin: String?
    var next = 0
    var running: [(id: Int, task: Task<Void, Never>)] = []
    var task: Task<Void, Never>?

    init(id: Int, steps: [Effect<Action>], context: Context, origin: String?) {
      self.id = id
      self.steps = steps
      self.context = context
      self.origin = origin
    }

    /// The tasks of the step started last.
    var runningTasks: [Task<Void, Never>] { running.map(\.task) }

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
      let effect = apply(action, origin: .immediate)
      if effect.isNone { return }
      pending.append(
        Pending(
          work: .effect(effect), context: .root, origin: describeOrigin?(action), depth: item.depth + 1,
          sink: .caller))

    case .run(let priority, let operation):
      let id = makeTaskID()
      let send = Send<Action> { [weak self] action in self?.deliver(action, fromEffect: id) }
      let task: Task<Void, Never>
      if let executor = effectExecutor {
        task = runTask(on: executor, priority: priority, id: id) { await operation(send) }
      } else {
        task = Task(priority: priority) { [weak self] in
          await operation(send)
          self?.finished(id)
        }
      }
      register(task, id: id, keys: context.keys, origin: origin)
      collect(task, id: id)

    case .merge(let effects):
      for effect in effects.reversed() { later(effect, in: context) }

    case .concatenate(let effects):
      let id = makeTaskID()
      let concatenation = Concatenation(id: id, steps: effects, context: context, origin: origin)
      let task: Task<Void, Never>
      if let executor = effectExecutor {
        task = concatenationTask(on: executor, for: concatenation)
      } else {
        // Runs once the steps that finish at once have been started (it is on the main
        // actor, which is busy with them until then).
        task = Task { [weak self] in
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
    if !observers.isEmpty { notifyObservers() }
  }

  // MARK: On a test executor

  /// The task of a `run` effect when the runtime has an `effectExecutor`: off the main
  /// actor, on that executor, so that every resumption of the effect is one of the
  /// executor's jobs (it hops to the main actor to send, and to say it finished).
  private func runTask(
    on executor: any TaskExecutor, priority: TaskPriority?, id: Int,
    _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    executorRunIDs.insert(id)
    return Task(executorPreference: executor, priority: priority) { [weak self] in
      await RunningEffect.$id.withValue(id) { await operation() }
      await self?.finished(id)
    }
  }

  /// The task of a concatenation when the runtime has an `effectExecutor`: the loop of
  /// the main-actor one, off the main actor on that executor, reading the steps through
  /// the main actor (busy starting the steps that finish at once until then).
  private func concatenationTask(
    on executor: any TaskExecutor, for concatenation: Concatenation
  ) -> Task<Void, Never> {
    let id = concatenation.id
    return Task(executorPreference: executor) { [weak self] in
      while true {
        let step = await concatenation.runningTasks
        await withTaskCancellationHandler {
          for task in step { await task.value }
        } onCancel: {
          for task in step { task.cancel() }
        }
        guard let self, await self.startNextStep(of: concatenation) else { break }
      }
      await self?.finished(id)
    }
  }

  /// Starts the next step of `concatenation` from its task, if there is one and the
  /// concatenation was not cancelled; returns whether it did.
  private func startNextStep(of concatenation: Concatenation) -> Bool {
    guard let next = concatenation.takeNext() else { return false }
    startStep(next, of: concatenation, in: concatenation.context, origin: concatenation.origin)
    return true
  }
}
