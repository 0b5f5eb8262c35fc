/// The effects started by one `send`, which you can await or cancel.
///
/// ```swift
/// let task = store.send(.appeared)
/// await task.finish()   // waits for the load the action started
/// ```
public struct StoreTask: Sendable {
  @usableFromInline let tasks: [Task<Void, Never>]

  @inlinable
  init(tasks: [Task<Void, Never>]) {
    self.tasks = tasks
  }

  /// Whether the action started no asynchronous work at all.
  public var isEmpty: Bool { tasks.isEmpty }

  /// Cancels the effects. Actions they send afterwards are dropped.
  public func cancel() {
    for task in tasks { task.cancel() }
  }

  /// Waits until every effect has finished. Cancelling the waiting task cancels them.
  public func finish() async {
    let tasks = tasks
    await withTaskCancellationHandler {
      for task in tasks { await task.value }
    } onCancel: {
      for task in tasks { task.cancel() }
    }
  }

  /// Whether ``cancel()`` was called (or the effects were cancelled by the store).
  public var isCancelled: Bool {
    !tasks.isEmpty && tasks.allSatisfy(\.isCancelled)
  }
}
