import Core
import Foundation

extension TestStore {
  /// Asserts that an effect delivered `expectedAction` next, and how it changed the state.
  ///
  /// Waits up to `timeout` for the action to arrive while an effect is running on
  /// something outside the test; fails at once when none is running, or when every one is
  /// asleep on a ``TestClock``, since nothing (or only the test) could send it then. (An effect that hands its work
  /// to an unstructured `Task` and returns has finished as far as the store can tell: await
  /// that work inside the effect, which also lets cancellation reach it.)
  ///
  /// - Parameters:
  ///   - expectedAction: The action that must arrive next.
  ///   - timeout: How long to wait; defaults to ``timeout``.
  ///   - updateStateToExpectedResult: Mutates the previous state into the expected one.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      description: dumpValue(expectedAction), expected: expectedAction,
      matching: { $0 == expectedAction }, timeout: timeout, update: updateStateToExpectedResult,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect delivered an action matching `isMatching` next.
  ///
  /// Use it for actions that are not `Equatable`, or to match loosely.
  ///
  /// - Parameters:
  ///   - isMatching: Returns `true` for the expected action.
  ///   - timeout: How long to wait; defaults to ``timeout``.
  ///   - updateStateToExpectedResult: Mutates the previous state into the expected one.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func receive(
    _ isMatching: (Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      description: "an action matching the predicate", expected: nil, matching: isMatching,
      timeout: timeout, update: updateStateToExpectedResult,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect delivered an action of the case `casePath` names next,
  /// whatever its payload.
  ///
  /// Given the case itself (`Feature.Action.response`), the form that takes the case makes
  /// the path; this one is for a path no single case makes, such as one through two
  /// levels of cases:
  ///
  /// ```swift
  /// let accountResponse = CasePath<App.Action, Account.Response>(
  ///   embed: { .settings(.account(.response($0))) },
  ///   extract: {
  ///     if case .settings(.account(.response(let response))) = $0 { response } else { nil }
  ///   })
  /// await store.receive(accountResponse) { $0.isLoading = false }
  /// ```
  ///
  /// - Parameters:
  ///   - casePath: The case the action must be.
  ///   - timeout: How long to wait; defaults to ``timeout``.
  ///   - updateStateToExpectedResult: Mutates the previous state into the expected one.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      description: "an action of the case path's case", expected: nil,
      matching: { casePath.extract($0) != nil }, timeout: timeout, update: updateStateToExpectedResult,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect delivered an action of the case `casePath` names next, with
  /// `payload` in it: a different payload fails with the diff of the two. (With
  /// ``exhaustivity`` off, actions are skipped until one has both the case and the payload.)
  ///
  /// ```swift
  /// await store.receive(accountResponse, .saved) { $0.isLoading = false }
  /// ```
  ///
  /// (`accountResponse` is a hand-written path through two levels of cases: see the form
  /// without a payload. Given a single case, pass the case itself.)
  ///
  /// - Parameters:
  ///   - casePath: The case the action must be.
  ///   - payload: What the case must carry.
  ///   - timeout: How long to wait; defaults to ``timeout``.
  ///   - updateStateToExpectedResult: Mutates the previous state into the expected one.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func receive<Value: Equatable>(
    _ casePath: CasePath<Action, Value>,
    _ payload: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receivePayload(
      casePath, payload, equal: { $0 == $1 }, timeout: timeout, update: updateStateToExpectedResult,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The `receive` of a case with a payload, however its payloads compare.
  func receivePayload<Value>(
    _ casePath: CasePath<Action, Value>, _ payload: Value, equal: (Value, Value) -> Bool,
    timeout: Duration?, update: ((inout State) throws -> Void)?, location: IssueLocation
  ) async {
    var received: Value?
    await receive(
      description: "an action of the case path's case", expected: nil,
      matching: { [exhaustivity] action in
        guard let value = casePath.extract(action) else { return false }
        received = value
        // Out of exhaustivity, actions of the case with another payload are skipped too.
        return exhaustivity == .on || equal(value, payload)
      }, timeout: timeout, update: update, location: location)
    if let received, !equal(received, payload) {
      let diff = diffValues(payload, received) ?? "  (values differ but print the same)"
      reportIssue(
        "The received action's payload does not match:\n\n\(diff)\n\n(Expected: -, Received: +)",
        at: location)
    }
  }

  func receive(
    description: String, expected: Action?, matching: (Action) -> Bool,
    timeout: Duration?, update: ((inout State) throws -> Void)?, location: IssueLocation
  ) async {
    let timeout = timeout ?? self.timeout
    func arrived() -> Bool {
      exhaustivity == .on ? !received.isEmpty : received.contains { matching($0.action) }
    }
    // Only a running effect can still deliver an action: with none, waiting is pointless.
    let waited = await wait(for: timeout) { arrived() || runtime.inFlightCount == 0 }
    guard arrived() else {
      let running = runtime.inFlightCount
      let outcome = received.isEmpty ? "received none" : "no received action matched"
      let effects = "\(running) effect\(running == 1 ? " is" : "s are")"
      let message =
        if running == 0 {
          "Expected to receive \(description), but \(outcome), and no effect is running that could send it."
        } else if waited == .asleepOnTestClocks {
          """
          Expected to receive \(description), but \(outcome), and nothing but the test can \
          change that: \(effects) running, every one asleep on a 'TestClock'.\(clockAdvice.map { "\n\n\($0)" } ?? "")
          """
        } else {
          """
          Expected to receive \(description), but \(outcome) after \(format(timeout)).

          \(effects) still running.\(clockAdvice.map { " \($0)" } ?? "")
          """
        }
      reportIssue(message, at: location)
      return
    }
    if exhaustivity == .off {
      while let first = received.first, !matching(first.action) {
        received.removeFirst()
      }
    }
    let (action, state) = received.removeFirst()
    if !matching(action) {
      let detail =
        expected.flatMap { diffValues($0, action) }
        .map { "\n\n\($0)\n\n(Expected: -, Received: +)" }
        ?? "\n\n\(indented(dumpValue(action)))"
      reportIssue("Received unexpected action:\(detail)", at: location)
    }
    checkState(before: assertedState, after: state, update: update, location: location)
    assertedState = state
    // An effect that just delivered its last action finishes returning.
    await executor.idle()
  }
}
