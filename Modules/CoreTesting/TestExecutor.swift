import Foundation

/// The executor a ``TestStore`` runs its effects on, which knows when they are idle.
///
/// A task that prefers it (`Task(executorPreference:)`) runs every part of its work that
/// is not isolated to an actor here, and so do the child tasks it starts. The executor
/// runs that work on the main actor's queue, one job at a time, in the order it arrives,
/// in line with the main actor's own jobs; each job runs as if on the main actor, so a hop
/// to the main actor inside it (an effect's `send`) goes on without waiting.
///
/// It counts the jobs waiting to run. Effects are idle when no job of theirs waits and a
/// whole turn of the main actor's queue has gone by without one running: they are
/// finished, or suspended on something that only the test or the outside world can
/// resume (a ``TestClock`` sleep, a gate, a network answer). ``idle()`` lets them run
/// until then. It measures no time: it waits exactly as long as there is work.
///
/// Every ``TestStore`` has one of its own and waits on it after each `send`, `receive`,
/// skip and cancellation; a ``TestClock`` waits on it after waking a sleeper of the store's
/// effects, so that the sleeper runs until it waits again before the next one wakes. A test
/// that starts tasks of its own that sleep on a test clock starts them on an executor like
/// this, for the same guarantee:
///
/// ```swift
/// let executor = TestExecutor()
/// let clock = TestClock()
/// let task = Task(executorPreference: executor) {
///   try await clock.sleep(for: .seconds(1))
///   log.append("woke")
/// }
/// await executor.idle()                  // the task is asleep
/// await clock.advance(by: .seconds(1))   // it has logged before this returns
/// ```
///
/// What it cannot see: work that leaves its tasks, such as an unstructured `Task` started
/// inside an effect, an actor already busy on another thread, or a callback from another
/// thread (a URL session's, a `DispatchQueue`'s). Such work is in the outside world until
/// it resumes one of the executor's tasks, which makes that task's job wait here again.
/// <doc:WhenEffectsAreIdle> tells the whole story.
public final class TestExecutor: TaskExecutor, @unchecked Sendable {
  // Guarded by `lock`.
  private let lock = NSLock()
  /// Jobs enqueued and not yet run.
  private var pending = 0
  /// Jobs run so far.
  private var ran = 0
  /// Jobs enqueued so far.
  private var enqueued = 0
  /// Those waiting for the next job (see ``nextJob(after:until:)``), by id.
  private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextWaiter = 0

  /// Creates an executor with nothing to run.
  public init() {}

  /// Queues `job` to run on the main actor's queue, after what is already there.
  ///
  /// - Parameter job: The job.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let woken = lock.withLock {
      pending += 1
      enqueued += 1
      defer { waiters = [:] }
      return waiters.values
    }
    DispatchQueue.main.async { [self] in
      Self.setRunning(self)
      job.runSynchronously(
        isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: asUnownedTaskExecutor())
      Self.setRunning(nil)
      lock.withLock {
        pending -= 1
        ran += 1
      }
    }
    // After the job is in line: a waiter resumed now runs after it.
    for waiter in woken { waiter.resume() }
  }

  // Guarded by `runningLock`: the executor whose job runs now, and on which thread (the
  // one that drains the main actor's queue, not always the process's first thread).
  private static let runningLock = NSLock()
  nonisolated(unsafe) private static var running: (thread: pthread_t, executor: TestExecutor)?

  private static func setRunning(_ executor: TestExecutor?) {
    runningLock.withLock { running = executor.map { (pthread_self(), $0) } }
  }

  /// The test executor running the current job, if the caller runs on one.
  static var current: TestExecutor? {
    runningLock.withLock {
      guard let running, pthread_equal(running.thread, pthread_self()) != 0 else { return nil }
      return running.executor
    }
  }

  /// Lets the work on this executor run until it is idle: no job waiting, and none run
  /// during a whole turn of the main actor's queue (in which the main actor's jobs that
  /// were in line, those of the effects included, have run too).
  ///
  /// An effect that never stops working (a loop that only yields) would keep it going
  /// forever; it gives up after a hundred thousand turns, and the checks that follow
  /// report the effect as still running.
  @MainActor
  public func idle() async {
    for _ in 0..<Self.maximumTurns {
      let before = lock.withLock { (pending, ran) }
      await Task.yield()
      let after = lock.withLock { (pending, ran) }
      if before.0 == 0, after.0 == 0, before.1 == after.1 { return }
    }
  }

  /// How many turns of the main actor's queue ``idle()`` lets the work take at most.
  static var maximumTurns: Int { 100_000 }

  /// How many jobs have been enqueued so far: pass it to ``nextJob(after:until:)``.
  var jobsEnqueued: Int { lock.withLock { enqueued } }

  /// Returns once a job is enqueued after the `count`th (at once if one was), or at
  /// `deadline`, whichever comes first; returns whether a job came. For waiting on the
  /// outside world, where an idle executor can only be woken by a job from outside.
  @MainActor
  func nextJob(after count: Int, until deadline: ContinuousClock.Instant) async -> Bool {
    let id = lock.withLock {
      nextWaiter += 1
      return nextWaiter
    }
    let timer = Task { [self] in
      try? await Task.sleep(until: deadline, clock: .continuous)
      lock.withLock { waiters.removeValue(forKey: id) }?.resume()
    }
    await withCheckedContinuation { continuation in
      let now: Bool = lock.withLock {
        guard enqueued == count, ContinuousClock.now < deadline else { return true }
        waiters[id] = continuation
        return false
      }
      if now { continuation.resume() }
    }
    timer.cancel()
    return lock.withLock { enqueued != count }
  }
}
