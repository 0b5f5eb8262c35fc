import Core
import Foundation

/// A clock whose time moves only when a test says so.
///
/// Give it to a feature wherever the app gives a `ContinuousClock` (features take their
/// clock as `any Clock<Duration>`, like any other dependency), then move time with
/// ``advance(by:)`` or ``run(limit:)``: the sleepers whose deadlines are passed wake in the
/// order of their deadlines (those with the same deadline in the order they went to
/// sleep), each given the chance to run before the next wakes, and time stops at each
/// deadline on the way.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Search.State()) { Search(clock: clock) }
/// await store.send(.queryChanged("hou")) { $0.query = "hou" }
/// await clock.advance(by: .milliseconds(299))   // nothing yet
/// await clock.advance(by: .milliseconds(1))
/// await store.receive(.search)
/// ```
///
/// A sleeper whose task is cancelled wakes at once with `CancellationError`.
///
/// A ``TestStore`` knows which of its effects sleep on a test clock. When every effect it
/// runs is asleep on one, its `receive` and `finish()` do not wait for them on the wall
/// clock (only the test can wake them): they fail, or out of exhaustivity `finish()`
/// cancels, at once. The failure says until when the effect sleeps and how far to advance
/// the clock, or, for a timer the clock has woken before, to cancel it.
///
/// Moving time is asynchronous because the sleepers run when it wakes them. A sleeper that
/// runs on a ``TestExecutor`` (every effect of a ``TestStore`` does) runs until it waits
/// again, or ends, before the next one wakes: the clock waits until that executor is idle,
/// which takes no time of its own. Of a sleeper that runs elsewhere (a task the test
/// started on the global executor), the clock knows only that it has woken: it waits until
/// the task has resumed, and the task goes on at the same time as the test. Start such
/// tasks on a ``TestExecutor`` to give them the same guarantee as effects. A task started
/// from a test should be seen asleep (``sleeperCount``, or its executor's
/// ``TestExecutor/idle()``) before time moves: one that starts after would sleep from the
/// new time.
public final class TestClock: Clock, @unchecked Sendable {
  /// A point in a test clock's time: how far it is from the clock's start.
  public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
    /// The time since the clock's start.
    public var offset: Duration

    /// An instant this far from the clock's start.
    ///
    /// - Parameter offset: The time since the start.
    public init(offset: Duration = .zero) { self.offset = offset }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    /// The time from this instant to `other`.
    public func duration(to other: Self) -> Duration { other.offset - offset }
    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
    /// The offset, as `Duration` prints it.
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let wake: CheckedContinuation<Void, any Error>
    /// The test store whose effect sleeps here, if one does (see ``EffectOwner``).
    let owner: ObjectIdentifier?
    /// The test executor the sleeping task runs on, if it runs on one.
    let executor: TestExecutor?
    /// The `run` effect of `owner` whose task sleeps here (see ``RunningEffect``).
    let effect: Int?
  }

  /// An effect of a test store: the store, and the effect's id in it.
  private struct EffectKey: Hashable {
    let owner: ObjectIdentifier
    let effect: Int
  }

  // Guarded by `lock`.
  private let lock = NSLock()
  private var current = Instant()
  private var sleepers: [Sleeper] = []
  private var nextID = 0
  /// The sleepers woken whose tasks have not run since.
  private var waking: Set<Int> = []
  /// Who waits for a woken sleeper's task to run, by the sleeper's id.
  private var wakingWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
  /// How many times the clock has woken each effect of a test store that slept on it.
  private var wakes: [EffectKey: Int] = [:]

  /// Creates a clock at its start.
  public init() {
    LiveTestClocks.shared.add(self)
  }

  /// The clock's current time.
  public var now: Instant { lock.withLock { current } }

  /// The effects of the test store `owner` asleep here: each effect's id, the deadline it
  /// sleeps until, and how many times the clock woke it before (a timer that sleeps in a
  /// loop has been woken before); with the clock's time.
  func sleeps(of owner: ObjectIdentifier) -> [ClockSleep] {
    lock.withLock {
      sleepers.filter { $0.owner == owner }.map { sleeper in
        ClockSleep(
          effect: sleeper.effect, deadline: sleeper.deadline.offset, now: current.offset,
          wakes: sleeper.effect.map { wakes[EffectKey(owner: owner, effect: $0)] ?? 0 } ?? 0)
      }
    }
  }

  /// The smallest step: none, since time moves only when told.
  public var minimumResolution: Duration { .zero }

  /// How many tasks are asleep on this clock.
  public var sleeperCount: Int { lock.withLock { sleepers.count } }

  /// Suspends until the clock reaches `deadline` (at once if it has).
  ///
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored: a test clock is exact.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id: Int? = lock.withLock {
      guard deadline > current else { return nil }
      nextID += 1
      return nextID
    }
    guard let id else { return }
    let owner = EffectOwner.store
    let executor = TestExecutor.current
    let effect = RunningEffect.id
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let woken: Bool = lock.withLock {
          // Time may have been moved, or the task cancelled, while getting here.
          guard deadline > current, !Task.isCancelled else { return true }
          sleepers.append(
            Sleeper(
              id: id, deadline: deadline, wake: continuation, owner: owner, executor: executor,
              effect: effect))
          return false
        }
        if woken { continuation.resume() }
      }
    } onCancel: {
      let sleeper = lock.withLock { () -> Sleeper? in
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index)
      }
      sleeper?.wake.resume(throwing: CancellationError())
    }
    let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      waking.remove(id)
      return wakingWaiters.removeValue(forKey: id)
    }
    waiter?.resume()
    try Task.checkCancellation()
  }

  /// Moves time forward by `duration`, waking in order every sleeper whose deadline it
  /// passes, and letting each run before the next wakes.
  ///
  /// - Parameter duration: How far to move.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline` (never backwards), as ``advance(by:)`` does.
  ///
  /// - Parameter deadline: Where time stops.
  public func advance(to deadline: Instant) async {
    // One at a time: sleepers due together would otherwise run at once, in whatever order
    // the threads take them.
    while let next = takeNextSleeper(until: deadline) {
      next.wake.resume()
      await settle(next)
    }
    lock.withLock { current = max(current, deadline) }
  }

  /// Moves time forward until no task sleeps on the clock (at most `limit` ahead of now:
  /// an effect that sleeps in a loop would otherwise never let it end).
  ///
  /// - Parameter limit: How far time may move at most.
  public func run(limit: Duration = .seconds(60 * 60 * 24)) async {
    let end = now.advanced(by: limit)
    while let deadline = lock.withLock({ sleepers.map(\.deadline).min() }), deadline <= end {
      await advance(to: deadline)
    }
  }

  /// The sleeper with the earliest deadline at or before `deadline` (of those, the first
  /// to go to sleep), removed, with time moved to that deadline; `nil` if none is due.
  private func takeNextSleeper(until deadline: Instant) -> Sleeper? {
    lock.withLock {
      guard
        let index = sleepers.indices.min(by: {
          (sleepers[$0].deadline, sleepers[$0].id) < (sleepers[$1].deadline, sleepers[$1].id)
        }), sleepers[index].deadline <= deadline
      else { return nil }
      let due = sleepers.remove(at: index)
      current = max(current, due.deadline)
      waking.insert(due.id)
      if let owner = due.owner, let effect = due.effect {
        wakes[EffectKey(owner: owner, effect: effect), default: 0] += 1
      }
      return due
    }
  }

  /// Lets the task of the sleeper just woken run: until its executor is idle if it runs
  /// on a test executor (it has waited again, or ended), else until it has resumed.
  private func settle(_ sleeper: Sleeper) async {
    if let executor = sleeper.executor {
      await executor.idle()
      return
    }
    await withCheckedContinuation { continuation in
      let resumed: Bool = lock.withLock {
        guard waking.contains(sleeper.id) else { return true }
        wakingWaiters[sleeper.id] = continuation
        return false
      }
      if resumed { continuation.resume() }
    }
  }
}

/// One effect of a test store asleep on a test clock (see `TestClock.sleeps(of:)`).
struct ClockSleep {
  /// The effect's id in its store's runtime.
  let effect: Int?
  /// When it wakes, and the clock's time now, from the clock's start.
  let deadline: Duration
  let now: Duration
  /// How many times the clock has woken this effect before.
  let wakes: Int
}

/// The test store whose effects run in the current task: a ``TestStore`` binds it while it
/// sends, and the tasks of the effects it starts inherit it, so a ``TestClock`` knows
/// whose effect sleeps on it.
enum EffectOwner {
  @TaskLocal static var store: ObjectIdentifier?
}

/// Every test clock alive, for a test store to find those its effects sleep on.
final class LiveTestClocks: @unchecked Sendable {
  static let shared = LiveTestClocks()

  private struct Entry {
    weak var clock: TestClock?
  }
  // Guarded by `lock`.
  private let lock = NSLock()
  private var entries: [Entry] = []

  func add(_ clock: TestClock) {
    lock.withLock {
      entries.removeAll { $0.clock == nil }
      entries.append(Entry(clock: clock))
    }
  }

  /// The clocks alive now.
  var clocks: [TestClock] { lock.withLock { entries.compactMap(\.clock) } }
}

/// A clock on which every sleep ends at once, moving its time to the deadline: for tests
/// (and previews) that do not care how long a feature waits, only that it goes on.
public final class ImmediateClock: Clock, @unchecked Sendable {
  /// A test clock's instant serves here too.
  public typealias Instant = TestClock.Instant

  private let lock = NSLock()
  private var current = Instant()

  /// Creates a clock at its start.
  public init() {}

  /// The clock's current time: the latest deadline slept until.
  public var now: Instant { lock.withLock { current } }

  /// The smallest step: none.
  public var minimumResolution: Duration { .zero }

  /// Returns at once (after a yield), with time moved to `deadline`; throws if the task
  /// is cancelled.
  ///
  /// - Parameters:
  ///   - deadline: The time to move to.
  ///   - tolerance: Ignored.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    lock.withLock { current = max(current, deadline) }
    await Task.yield()
    try Task.checkCancellation()
  }
}
