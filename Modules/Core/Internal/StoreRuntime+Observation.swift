/// Observers, and what a scoped store reads its state through.
///
/// After a send, the runtime calls its observers once with the new state. Everything that
/// watches a store is one of them: ``Store/observe(_:onChange:)``, and a store whose state
/// was read under Swift's Observation (see ``Store/state``), which compares its own part
/// of the state.
extension StoreRuntime {
  @usableFromInline
  func addObserver(_ update: @escaping (State) -> Void) -> Int {
    nextObserverID += 1
    observers.append((nextObserverID, update))
    return nextObserverID
  }

  @usableFromInline
  func removeObserver(_ id: Int) {
    // Taken out before it is released: releasing it may end another store, whose deinit
    // removes its own observer from this list while the list is being changed.
    guard let index = observers.firstIndex(where: { $0.id == id }) else { return }
    let removed = observers.remove(at: index)
    withExtendedLifetime(removed) {}
    observerRemovals &+= 1
  }

  /// How many rounds of notifications one send may cause before the runtime gives up.
  static var maximumNotificationRounds: Int { 1_000 }

  /// Calls every observer with the state as it is when that observer is called.
  ///
  /// Observers may send actions and start or stop observations. Notifications never nest:
  /// a send from inside an observer changes the state and marks the pass stale, and once
  /// the pass ends every observer is called again with the newest state, so none is left
  /// with an older state than another, nor sees the states out of order. An observer
  /// removed during a pass is not called after its removal.
  @usableFromInline
  func notifyObservers() {
    if isNotifying {
      needsAnotherPass = true
      return
    }
    isNotifying = true
    defer { isNotifying = false }
    var rounds = 0
    repeat {
      rounds += 1
      if rounds > Self.maximumNotificationRounds {
        // Observers that answer every change with another change would go round forever.
        reportIssue(
          """
          Observers changed the state in each of \(Self.maximumNotificationRounds) rounds of \
          notifications after one send; stopped notifying. An observer probably sends an \
          action that changes the state whenever the state changes.
          """)
        break
      }
      needsAnotherPass = false
      let removals = observerRemovals
      for observer in observers {
        if observerRemovals != removals, !observers.contains(where: { $0.id == observer.id }) {
          continue
        }
        let current = _state
        observer.update(current)
      }
    } while needsAnotherPass
  }
}

extension StoreRuntime: RootStateStorage {
  /// Calls `body` with the address of the state, for a scoped store that knows where its
  /// part lies (see `StateLocation`). Main actor only, and never while `reduce` runs (a
  /// reducer cannot reach a store).
  @usableFromInline
  func withStateBytes(_ body: (UnsafeRawPointer) -> Void) {
    Self.withBytes(of: &_state, body)
  }

  // Nonisolated so that the closure handed to `withUnsafeBytes` is formed outside the main
  // actor: formed inside it, Swift 6 checks the executor on every call (~30 ns, measured).
  private nonisolated static func withBytes(of state: inout State, _ body: (UnsafeRawPointer) -> Void) {
    withUnsafeBytes(of: &state) { body($0.baseAddress!) }
  }

  @usableFromInline
  func addChangeObserver(_ update: @escaping (any RootStateStorage) -> Void) -> Int {
    // Unowned: the closure lives in this runtime's own list of observers.
    addObserver { [unowned self] _ in update(self) }
  }
}
