import Core
import Foundation

/// Waits (bounded) until `condition` holds on the main actor. The bound only matters when
/// the condition never holds, so it is generous. Past it, the wait still takes a few more
/// turns on the main actor before giving up: another test that held the main actor past
/// the deadline (a long synchronous loop) also held back the very job that would have made
/// the condition true, and that job runs before those turns.
@MainActor
func eventually(
  _ timeout: Duration = .seconds(30), _ condition: () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout.scaled
  var turnsAfterDeadline = 50
  while !condition() {
    if ContinuousClock.now > deadline {
      guard turnsAfterDeadline > 0 else { return false }
      turnsAfterDeadline -= 1
    }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Sendable { case increment, decrement, set(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case .set(let value): state.count = value
    }
    return .none
  }
}

/// A parent with a child counter, a projected child, and an optional child.
struct Parent: Reducer {
  struct State: Equatable {
    var child = Counter.State()
    var log: [String] = []
    var optional: Counter.State?
  }
  enum Action: Equatable, Sendable {
    case child(Counter.Action)
    case optional(Counter.Action)
    case dismiss
    case present
  }
  static let childPath = CasePath<Action, Counter.Action>(embed: Action.child) {
    if case .child(let action) = $0 { action } else { nil }
  }
  static let optionalPath = CasePath<Action, Counter.Action>(embed: Action.optional) {
    if case .optional(let action) = $0 { action } else { nil }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Self.childPath) { Counter() }
    Reduce { state, action in
      switch action {
      case .child(let action): state.log.append("child \(action)")
      case .optional: break
      case .dismiss: state.optional = nil
      case .present: state.optional = Counter.State()
      }
      return .none
    }
    .ifLet(\.optional, action: Self.optionalPath) { Counter() }
  }
}
