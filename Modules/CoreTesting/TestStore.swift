import Core
import Foundation

/// How strictly a ``TestStore`` checks a feature.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every running effect must be
  /// asserted. The default.
  case on
  /// Only what you assert is checked: unasserted state changes and received actions are
  /// allowed, `receive` skips actions until one matches, and effects still running at
  /// ``TestStore/finish(timeout:fileID:filePath:line:column:)`` are cancelled.
  case off
}

/// A store for tests that makes you prove everything a feature does.
///
/// Send actions and describe, in a trailing closure, how the state must change. Every
/// action an effect delivers must be received with `receive`,
/// and no effect may still run at the end. Anything not asserted fails the test with a
/// diff, under XCTest and under Swift Testing.
///
/// A complete example: a counter that fetches a fact about its number through a
/// dependency client, and a Swift Testing test of it (under XCTest, the same body works
/// in an `async` test method of a `@MainActor` `XCTestCase`).
///
/// ```swift
/// import Core
/// import CoreTesting
/// import Testing
///
/// struct FactClient: Sendable {
///   var fact: @Sendable (Int) async throws -> String
///
///   /// Tests start from this and replace the endpoints they expect to be called; a call
///   /// to any other fails the test with "unimplemented: FactClient.fact".
///   static let failing = FactClient { _ in
///     reportIssue("unimplemented: FactClient.fact")
///     throw CancellationError()
///   }
/// }
///
/// struct Counter: Reducer {
///   struct State: Equatable {
///     var count = 0
///     var fact: String?
///   }
///   enum Action: Equatable, Sendable {
///     case incrementTapped
///     case factTapped
///     case factResponse(String)
///   }
///   let client: FactClient
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .incrementTapped:
///       state.count += 1
///       state.fact = nil
///       return .none
///     case .factTapped:
///       return .run { [count = state.count, client] send in
///         await send(.factResponse(try await client.fact(count)))
///       }
///     case .factResponse(let fact):
///       state.fact = fact
///       return .none
///     }
///   }
/// }
///
/// @Test @MainActor
/// func factAboutTheCount() async {
///   var client = FactClient.failing
///   client.fact = { "\($0) is a good number." }
///   let store = TestStore(initialState: Counter.State()) { Counter(client: client) }
///
///   await store.send(.incrementTapped) { $0.count = 1 }
///   await store.send(.factTapped)  // changes no state, so there is nothing to assert
///   await store.receive(.factResponse("1 is a good number.")) {
///     $0.fact = "1 is a good number."
///   }
///   await store.finish()  // fails the test if an effect is still running
/// }
/// ```
///
/// Leave out the `receive` and the test fails with "The store received 1 unexpected
/// action"; write `$0.count = 2` and it fails with the diff of the state; leave out
/// `client.fact = …` and it fails with "unimplemented: FactClient.fact". To let effects
/// run on deliberately, see ``skipReceivedActions(strict:fileID:filePath:line:column:)``
/// and ``skipInFlightEffects(strict:fileID:filePath:line:column:)``.
///
/// Failure messages show what was expected (`-`) against what happened (`+`):
///
/// ```
/// A state change does not match expectation:
///
///   State(
/// -   status: .loaded
/// +   status: .failed("offline")
///     … (2 unchanged)
///   )
///
/// (Expected: -, Actual: +)
/// ```
///
/// Set ``exhaustivity`` to ``Exhaustivity/off`` to assert only what an integration test
/// cares about.
@MainActor
public final class TestStore<State: Equatable, Action> {
  /// How strictly this store checks; see ``Exhaustivity``.
  public var exhaustivity: Exhaustivity = .on
  /// How long `receive` and `finish` wait by default for running effects (one second).
  /// Neither waits longer than it must: both return as soon as the action arrives or the
  /// effects end, and at once when every running effect is asleep on a ``TestClock``. It
  /// bounds only the wait for work the store cannot see, outside its effects' tasks (see
  /// <doc:WhenEffectsAreIdle>): raise it for effects that wait for real work there.
  public var timeout: Duration = .seconds(1)

  let runtime: StoreRuntime<State, Action>
  /// Where the effects run, and how the store knows they are idle.
  let executor = TestExecutor()
  /// The state as of the last asserted action.
  var assertedState: State
  var received: [(action: Action, state: State)] = []
  private var stateAfterSentAction: State?
  /// Whether ``finish()`` has checked everything since the last action was sent.
  private var isFinished = false
  private let creationLocation: IssueLocation

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature under test; its dependencies should start from `failing`.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public convenience init<R: Reducer>(
    initialState: State, @ReducerBuilder<State, Action> reducer: () -> R,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) where R.State == State, R.Action == Action {
    self.init(
      initialState: initialState, reducer: reducer(), fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature under test.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public init<R: Reducer>(
    initialState: State, reducer: R,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) where R.State == State, R.Action == Action {
    _ = mainQueueKey
    creationLocation = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    runtime = StoreRuntime(initialState: initialState, reduce: { reducer.reduce(into: &$0, action: $1) })
    assertedState = initialState
    runtime.describeOrigin = { dumpValue($0) }
    runtime.effectExecutor = executor
    runtime.didReduce = { [unowned self] action, state, origin in
      switch origin {
      case .external: self.stateAfterSentAction = state
      case .immediate, .effect: self.received.append((action, state))
      }
    }
  }

  // Not `isolated`: an isolated deinit runs without the test's task-local values, so an
  // issue it reports would not reach the running test. Test stores are released on the
  // main actor by the test that made them; check there, in place.
  deinit {
    guard DispatchQueue.getSpecific(key: mainQueueKey) != nil else { return }
    MainActor.assumeIsolated {
      if !isFinished && exhaustivity == .on {
        checkNothingLeft(location: creationLocation, waited: nil)
      }
      runtime.cancelAll()
    }
  }

  /// The current state of the feature (including actions not asserted yet).
  public var state: State { runtime.state }

  /// Sends an action and asserts how it changes the state.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - updateStateToExpectedResult: Mutates the previous state into the state you
  ///     expect after the action. Omit it when the action must not change the state.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: A handle on the effects the action started.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async -> TestStoreTask {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    takeUnhandledReceivedActions(before: "sending an action", location: location)
    let before = assertedState
    stateAfterSentAction = nil
    // What this action starts is checked again, by another `finish()` or at release.
    isFinished = false
    // The effects' tasks inherit the owner: a test clock they sleep on knows they are ours.
    let task = EffectOwner.$store.withValue(ObjectIdentifier(self)) { runtime.send(action) }
    let after = stateAfterSentAction ?? runtime.state
    checkState(
      before: before, after: after, update: updateStateToExpectedResult, location: location)
    assertedState = after
    // The effects the action started run until they wait (or end) before the test goes on.
    await executor.idle()
    return TestStoreTask(task: task, executor: executor)
  }

  /// Asserts the state as it is now, without sending an action.
  ///
  /// `updateStateToExpectedResult` mutates the last asserted state into the state you
  /// expect; a mismatch fails with the diff, as in ``send(_:assert:fileID:filePath:line:column:)``.
  /// Mostly for non-exhaustive tests, where it checks only what the closure sets (after
  /// actions that `receive` skipped, say).
  /// Exhaustive tests must have received every action that arrived first; there the
  /// closure may also change nothing, to state that nothing changed. Like every step of a
  /// test store, it lets the effects run as far as they can first, and is awaited:
  ///
  /// ```swift
  /// await store.skipReceivedActions()
  /// await store.assert { $0.count = 3 }
  /// ```
  ///
  /// - Parameters:
  ///   - updateStateToExpectedResult: Mutates the last asserted state into the expected one.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func assert(
    _ updateStateToExpectedResult: (inout State) throws -> Void,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    // As every other step: what the effects can still do now is done first.
    await executor.idle()
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    takeUnhandledReceivedActions(before: "asserting the state", location: location)
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      checkState(
        before: assertedState, after: runtime.state, update: update, mayBeUnchanged: true, location: location)
    }
    assertedState = runtime.state
  }

  /// Drops the received actions nobody asserted (a failure in exhaustive mode), taking
  /// the state they left as the asserted one.
  func takeUnhandledReceivedActions(before what: String, location: IssueLocation) {
    guard !received.isEmpty else { return }
    if exhaustivity == .on {
      let count = received.count
      reportIssue(
        """
        Must handle \(count) received \(count == 1 ? "action" : "actions") before \(what):

        Unhandled actions:
        \(listed(received.map(\.action)))

        \(unhandledActionsAdvice)
        """, at: location)
    }
    dropReceivedActions()
  }

  /// Forgets the actions received so far, taking the state they left as the asserted one
  /// (so the next assertion starts from where the feature is).
  func dropReceivedActions() {
    guard let last = received.last else { return }
    assertedState = last.state
    received.removeAll()
  }

  /// Drops the actions received so far without asserting them.
  ///
  /// - Parameters:
  ///   - strict: Report an issue if there were none to skip.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func skipReceivedActions(
    strict: Bool = true, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await executor.idle()
    if received.isEmpty {
      if strict {
        reportIssue(
          "There were no received actions to skip.",
          at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
      }
      return
    }
    dropReceivedActions()
  }

  /// Cancels every effect still running, deliberately, without failing.
  ///
  /// - Parameters:
  ///   - strict: Report an issue if no effect was running: a test that expects
  ///   one and finds none has a mistake in it (or in the feature).
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func skipInFlightEffects(
    strict: Bool = true, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await executor.idle()
    if strict, runtime.inFlightCount == 0 {
      reportIssue(
        "There were no in-flight effects to skip.",
        at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    runtime.cancelAll()
    // The cancelled effects unwind.
    await executor.idle()
  }

  /// Waits for every effect to finish, then checks nothing is left unasserted.
  ///
  /// Fails if an effect is still running after `timeout` (naming the action that
  /// started it) or if received actions were not asserted. In non-exhaustive mode,
  /// effects still running are cancelled instead. Effects all asleep on a ``TestClock``
  /// are not waited for: only the test can wake them. A test may go on afterwards: the next
  /// assertion starts from the state the feature is in (received actions reported or
  /// skipped here included).
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; defaults to ``timeout``.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let timeout = timeout ?? self.timeout
    let waited = await wait(for: timeout) { runtime.inFlightCount == 0 }
    if exhaustivity == .on {
      checkNothingLeft(location: location, waited: waited == .timedOut ? timeout : nil)
    } else {
      dropReceivedActions()
    }
    runtime.cancelAll()
    isFinished = true
  }
}

/// Marks the main queue, so a deinit can tell it runs on the main actor without trapping.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// The effects started by one `TestStore.send`.
public struct TestStoreTask: Sendable {
  let task: StoreTask
  let executor: TestExecutor

  /// Cancels the effects, and lets them unwind.
  public func cancel() async {
    task.cancel()
    await executor.idle()
  }

  /// Waits for the effects to finish.
  public func finish() async {
    await task.finish()
  }

  /// Whether the action started no asynchronous work.
  public var isEmpty: Bool { task.isEmpty }
}
