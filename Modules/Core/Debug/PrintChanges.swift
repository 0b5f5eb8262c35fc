extension Reducer {
  /// Logs every action this reducer receives and the state change it caused, as a diff.
  ///
  /// ```
  /// received action:
  ///   .dogs(.filterTextChanged("ho"))
  ///   State(
  /// -   filter: "h"
  /// +   filter: "ho"
  ///   )
  /// ```
  ///
  /// The diff is only computed while logging is on, so leaving `_printChanges()` out
  /// costs nothing. The app's `--trace` flag uses this.
  ///
  /// - Parameter log: Receives each entry; defaults to standard error.
  /// - Returns: The logging reducer.
  public func _printChanges(
    to log: @escaping @Sendable (String) -> Void = { StandardErrorIssueReporter.write($0) }
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, log: log)
  }
}

/// The reducer ``Reducer/_printChanges(to:)`` builds.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let log: @Sendable (String) -> Void

  /// Runs the wrapped reducer, then prints the action and the state change it made.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let before = state
    let effect = base.reduce(into: &state, action: action)
    var entry = "received action:\n"
    entry += dumpValue(action).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
    entry += "\n"
    if let diff = diffValues(before, state) {
      entry += diff + "\n"
    } else {
      entry += "  (no state changes)\n"
    }
    log(entry)
    return effect
  }
}
