import Core
import Foundation
import TestSupport
import Testing

/// Where a runtime runs its effects' tasks: with no task executor for every `Store` (the
/// app's), on the executor it is given otherwise (what a `TestStore` does).
@MainActor
struct EffectExecutorTests {
  /// Whether the task running now prefers a task executor.
  nonisolated static func prefersAnExecutor() -> Bool {
    withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil }
  }

  /// A reducer that answers 0 with a run effect and a concatenation of two run effects,
  /// each logging whether its task prefers an executor and sending 1.
  static func reduce(log: Log<Bool>) -> ReduceFunction<Int, Int> {
    { state, action in
      guard action == 0 else {
        state += action
        return .none
      }
      let step = Effect<Int>.run { send in
        log.append(prefersAnExecutor())
        await send(1)
      }
      return .merge(step, .concatenate(step, step))
    }
  }

  @Test func aStoresEffectsPreferNoExecutor() async {
    let log = Log<Bool>()
    let store = Store(initialState: 0) { Reduce(Self.reduce(log: log)) }
    await store.send(0).finish()
    #expect(store.state == 3)
    #expect(log.values == [false, false, false])
  }

  @Test func aRuntimeWithAnExecutorRunsItsEffectsOnIt() async {
    let log = Log<Bool>()
    let executor = CountingExecutor()
    let runtime = StoreRuntime(initialState: 0, reduce: Self.reduce(log: log))
    runtime.effectExecutor = executor
    await runtime.send(0).finish()
    #expect(runtime.state == 3)
    #expect(log.values == [true, true, true])
    #expect(executor.jobs > 0)
    #expect(runtime.inFlightCount == 0)
  }
}

/// A task executor that runs jobs on a global queue and counts them.
private final class CountingExecutor: TaskExecutor, @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// How many jobs it was given.
  var jobs: Int { lock.withLock { count } }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    lock.withLock { count += 1 }
    DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
