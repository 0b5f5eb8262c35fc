import Observation

/// How a store takes part in Swift's Observation.
///
/// A read of ``Store/state`` registers with the store's own registrar and, if the store
/// is not watching already, starts watching: it keeps the state it read and adds an
/// observer to the root's runtime, which calls it after every send with this store's
/// state. The first time that state's bytes differ from those read, the store tells
/// Observation (which calls each tracked reader's change handler once) and stops
/// watching until the next read.
extension Store {
  /// Registers a read of `state` with Observation, and starts watching for a change of it.
  @usableFromInline
  func trackRead(of state: State) {
    registrar.access(self, keyPath: \.state)
    guard tracked == nil else { return }
    // Weak: the root's runtime keeps the observer, and must not keep this store.
    let observer = registerObserver { [weak self] state in self?.stateChanged(to: state) }
    tracked = (observer, state)
  }

  /// Tells Observation of a change if `state` is not the state read.
  private func stateChanged(to state: State) {
    guard let tracked, !Self.sameBytes(tracked.read, state) else { return }
    self.tracked = nil
    unregisterObserver(tracked.observer)
    registrar.withMutation(of: self, keyPath: \.state) {}
  }

  /// Whether two states are the same bytes: "not changed" without `Equatable`. A change
  /// to a value type inside (an array, a string) gives other bytes, the kept copy having
  /// made the change copy the buffer.
  private nonisolated static func sameBytes(_ lhs: State, _ rhs: State) -> Bool {
    withUnsafeBytes(of: lhs) { lhs in withUnsafeBytes(of: rhs) { lhs.elementsEqual($0) } }
  }
}
