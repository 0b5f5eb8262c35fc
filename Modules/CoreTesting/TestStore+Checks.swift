import Core

/// What a ``TestStore`` checks and how it reports: the messages of its failures.
extension TestStore {
  func checkNothingLeft(location: IssueLocation, waited: Duration?) {
    if !received.isEmpty {
      let count = received.count
      reportIssue(
        """
        The store received \(count) unexpected \(count == 1 ? "action" : "actions") by the \
        end of this test:

        Unhandled actions:
        \(listed(received.map(\.action)))

        \(unhandledActionsAdvice)
        """, at: location)
      dropReceivedActions()
    }
    let advice = clockAdvice.map { "\n\n\($0)" } ?? ""
    for origin in runtime.inFlightOrigins {
      reportIssue(
        """
        An effect returned for this action is still running. It must complete before the \
        end of the test:

        \(indented(origin))

        \(waited.map { "Waited \(format($0)). " } ?? "")Make the effect finish (a client \
        that returns), receive its actions, cancel it from the feature, or call \
        'skipInFlightEffects()' if it is meant to outlive the test.\(advice)
        """, at: location)
    }
  }

  /// The sleeps of this store's effects on every live ``TestClock``.
  var clockSleeps: [ClockSleep] {
    LiveTestClocks.shared.clocks.flatMap { $0.sleeps(of: ObjectIdentifier(self)) }
  }

  /// Whether every running effect is asleep on a ``TestClock``: then nothing but the test
  /// moves them on, and waiting on the wall clock is pointless.
  var effectsAwaitOnlyTestClocks: Bool {
    let running = runtime.inFlightRunIDs
    guard !running.isEmpty else { return false }
    return running.isSubset(of: Set(clockSleeps.compactMap(\.effect)))
  }

  /// What to do when an effect of this store sleeps on a ``TestClock``, whose time moves
  /// only when the test moves it: `nil` when none does. An effect the clock has woken
  /// before and that sleeps again is a timer, which advancing does not end: the advice is
  /// to cancel it.
  var clockAdvice: String? {
    let sleeps = clockSleeps
    guard let first = sleeps.min(by: { $0.deadline - $0.now < $1.deadline - $1.now }) else { return nil }
    let asleep = """
      An effect is asleep on a 'TestClock' until \(format(first.deadline)) (the clock is at \
      \(format(first.now))): a test clock's time moves only when the test moves it.
      """
    if let timer = sleeps.filter({ $0.wakes > 0 }).max(by: { $0.wakes < $1.wakes }) {
      return """
        \(asleep) It has woken \(timer.wakes) \(timer.wakes == 1 ? "time" : "times") and slept \
        again: a timer, which no advance ends. Stop it: send the action that cancels it, \
        or call 'skipInFlightEffects()' if it is meant to run on.
        """
    }
    return """
      \(asleep) Advance it, with 'await clock.advance(by: \(literal(first.deadline - first.now)))' \
      or 'await clock.run()'.
      """
  }

  /// `duration` as Swift source, such as `.seconds(1)` or `.milliseconds(300)`.
  func literal(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return ".seconds(\(seconds))" }
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    if nanoseconds % 1_000_000 == 0 { return ".milliseconds(\(nanoseconds / 1_000_000))" }
    if nanoseconds % 1_000 == 0 { return ".microseconds(\(nanoseconds / 1_000))" }
    return ".nanoseconds(\(nanoseconds))"
  }

  /// Reports where `update` applied to the asserted state (to `after`, in non-exhaustive
  /// mode) does not give `after`. A closure that changes nothing is reported too, as a
  /// sign of a mistaken test, unless `mayBeUnchanged` (an assertion of the current state).
  func checkState(
    before: State, after: State, update: ((inout State) throws -> Void)?,
    mayBeUnchanged: Bool = false, location: IssueLocation
  ) {
    var expected = exhaustivity == .on ? before : after
    do {
      try update?(&expected)
    } catch {
      reportIssue("The assertion closure threw an error: \(error)", at: location)
      return
    }
    if expected != after {
      let diff = diffValues(expected, after) ?? "  (values differ but print the same)"
      let headline =
        update == nil
        ? "State was not expected to change, but a change occurred:"
        : "A state change does not match expectation:"
      reportIssue("\(headline)\n\n\(diff)\n\n(Expected: -, Actual: +)", at: location)
    } else if update != nil, !mayBeUnchanged, exhaustivity == .on, expected == before {
      reportIssue(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to the state. If no change \
        to state is expected, omit the trailing closure.
        """, at: location)
    }
  }

  /// Lets effects run until `condition` holds, every running effect is asleep on a
  /// ``TestClock``, or `timeout` has passed, whichever is first; returns which.
  ///
  /// The effects run until they are idle. If `condition` does not hold then and every
  /// running effect sleeps on a test clock, only the test can move them on: the wait ends
  /// at once. Otherwise only the outside world can (an answer that resumes an effect),
  /// and the store sleeps until a job of an effect is enqueued again, or until the timeout.
  @discardableResult
  func wait(for timeout: Duration, until condition: () -> Bool) async -> WaitOutcome {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while true {
      let jobs = executor.jobsEnqueued
      await executor.idle()
      if condition() { return .done }
      if effectsAwaitOnlyTestClocks { return .asleepOnTestClocks }
      guard ContinuousClock.now < deadline else { return .timedOut }
      // A job that came while the effects settled: look again at once.
      if executor.jobsEnqueued != jobs { continue }
      // Otherwise wait for one, looking again every so often: an effect's going to sleep
      // on a test clock may trail the executor's idling (a loaded machine, a sanitizer),
      // and brings no job of its own to wake this wait.
      let look = min(deadline, ContinuousClock.now.advanced(by: .milliseconds(20)))
      if await !executor.nextJob(after: jobs, until: look), ContinuousClock.now >= deadline {
        return .timedOut
      }
    }
  }

  func format(_ duration: Duration) -> String {
    let seconds =
      Double(duration.components.seconds)
      + Double(duration.components.attoseconds) / 1e18
    if seconds == 1 { return "1 second" }
    return seconds == seconds.rounded() ? "\(Int(seconds)) seconds" : "\(seconds) seconds"
  }
}

/// How a ``TestStore/wait(for:until:)`` ended.
enum WaitOutcome {
  /// The condition holds.
  case done
  /// Every running effect is asleep on a test clock: only the test can move them on.
  case asleepOnTestClocks
  /// The timeout passed, with effects waiting on something outside the test.
  case timedOut
}

/// What to do about received actions nobody asserted.
let unhandledActionsAdvice = """
  Assert each with 'receive', drop them with 'skipReceivedActions()', or set 'exhaustivity' \
  to '.off' to check only what the test asserts.
  """

/// `actions` dumped one by one and indented, the first ten at most, then how many more: a
/// runaway chain of thousands of actions is a count, not a megabyte of output.
func listed(_ actions: [some Any]) -> String {
  let shown = actions.prefix(10).map { indented(dumpValue($0)) }
  let more = actions.count - shown.count
  return (shown + (more > 0 ? ["  … and \(more) more"] : [])).joined(separator: "\n")
}

/// `text` with every line indented by two spaces.
func indented(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
}
