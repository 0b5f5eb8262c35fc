import Core

/// `receive` given the enum case itself (`Feature.Action.response`) in place of a
/// `CasePath`: each makes the path with `CasePath(_:)` and is otherwise the form that takes
/// one.
extension TestStore {
  /// Asserts that an effect delivered an action of the case `case` next, whatever its
  /// payload.
  ///
  /// ```swift
  /// await store.receive(Feature.Action.response) { $0.isLoading = false }
  /// ```
  ///
  /// - Parameters:
  ///   - case: The case the action must be, such as `Feature.Action.response`.
  ///   - timeout: How long to wait; defaults to ``timeout``.
  ///   - updateStateToExpectedResult: Mutates the previous state into the expected one.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func receive<Value>(
    _ case: @escaping @Sendable (Value) -> Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      CasePath(`case`), timeout: timeout, assert: updateStateToExpectedResult, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Asserts that an effect delivered an action of the case `case` next, with `payload` in
  /// it: a different payload fails with the diff of the two.
  ///
  /// ```swift
  /// await store.receive(Feature.Action.response, .success(["pug"])) { $0.breeds = ["pug"] }
  /// ```
  ///
  /// - Parameters:
  ///   - case: The case the action must be, such as `Feature.Action.response`.
  ///   - payload: What the case must carry.
  ///   - timeout: How long to wait; defaults to ``timeout``.
  ///   - updateStateToExpectedResult: Mutates the previous state into the expected one.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func receive<Value: Equatable>(
    _ case: @escaping @Sendable (Value) -> Action,
    _ payload: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      CasePath(`case`), payload, timeout: timeout, assert: updateStateToExpectedResult, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Asserts that an effect delivered an action of the case `case`, one with several
  /// values such as `rows(id:action:)`, next, with the values `payload`: a different
  /// payload fails with the diff of the two.
  ///
  /// ```swift
  /// await store.receive(List.Action.rows, (id: 1, action: .loaded("pug"))) {
  ///   $0.rows[id: 1]?.name = "pug"
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - case: The case the action must be, such as `List.Action.rows`.
  ///   - payload: The values the case must carry, labelled as in the case or not.
  ///   - timeout: How long to wait; defaults to ``timeout``.
  ///   - updateStateToExpectedResult: Mutates the previous state into the expected one.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func receive<each Value: Equatable & SendableMetatype>(
    _ case: @escaping @Sendable (repeat each Value) -> Action,
    _ payload: (repeat each Value),
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receivePayload(
      tuplePath(`case`), payload, equal: valuesEqual, timeout: timeout,
      update: updateStateToExpectedResult,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// Whether two tuples of equatable values are equal, value by value.
func valuesEqual<each Value: Equatable>(_ lhs: (repeat each Value), _ rhs: (repeat each Value)) -> Bool {
  for (left, right) in repeat (each lhs, each rhs) {
    if left != right { return false }
  }
  return true
}

/// The path of a case with several values, to the tuple of them.
nonisolated func tuplePath<Root, each Value: SendableMetatype>(
  _ case: @escaping @Sendable (repeat each Value) -> Root
) -> CasePath<Root, (repeat each Value)> {
  CasePath { @Sendable (values: (repeat each Value)) in `case`(repeat each values) }
}
