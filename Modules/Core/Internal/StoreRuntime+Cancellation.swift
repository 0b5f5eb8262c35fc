/// The running effects: each task under an id, the cancel ids it runs under, and
/// cancelling them.
///
/// A task counts as running from the moment it is started until it finishes or is
/// cancelled: a cancelled effect stops counting at once, even if its task takes a moment
/// to notice.
extension StoreRuntime {
  /// What a running effect can be cancelled by: its own cancel id (inside the namespaces
  /// it runs in), or one of those namespaces.
  @usableFromInline
  enum CancelKey: Hashable {
    case id(path: [EffectID], id: EffectID)
    case namespace([EffectID])
  }

  func makeTaskID() -> Int {
    nextTaskID &+= 1
    return nextTaskID
  }

  func register(_ task: Task<Void, Never>, id: Int, keys: [CancelKey], origin: String?) {
    tasks[id] = task
    if let origin { origins[id] = origin }
    guard !keys.isEmpty else { return }
    keysByTask[id] = keys
    for key in keys { tasksByKey[key, default: []].insert(id) }
  }

  func finished(_ id: Int) {
    guard tasks.removeValue(forKey: id) != nil else { return }
    origins[id] = nil
    guard let keys = keysByTask.removeValue(forKey: id) else { return }
    for key in keys {
      tasksByKey[key]?.remove(id)
      if tasksByKey[key]?.isEmpty == true { tasksByKey[key] = nil }
    }
  }

  /// Cancels the tasks registered under `key`; they stop counting as in flight at once.
  func cancel(_ key: CancelKey) {
    guard let ids = tasksByKey[key] else { return }
    for id in ids {
      tasks[id]?.cancel()
      finished(id)
    }
  }

  // MARK: Test support

  /// Number of effects still running.
  package var inFlightCount: Int { tasks.count }

  /// For each running effect, the description of the action that started it.
  package var inFlightOrigins: [String] {
    tasks.keys.sorted().map { origins[$0] ?? "an action" }
  }

  /// The ids of the `run` effects still running on the `effectExecutor`, as
  /// ``RunningEffect/id`` gives them inside their tasks.
  package var inFlightRunIDs: Set<Int> {
    executorRunIDs.formIntersection(tasks.keys)
    return executorRunIDs
  }

  /// Cancels every running effect.
  package func cancelAll() {
    for id in Array(tasks.keys) {
      tasks[id]?.cancel()
      finished(id)
    }
  }
}

/// The `run` effect whose task (or child task) runs now, in a store whose effects run on
/// an executor (a test store's): its id in that store's runtime. A test clock notes it for
/// each sleeper, so the store can tell when all its effects sleep on test clocks.
package enum RunningEffect {
  @TaskLocal package static var id: Int?
}
