/// Collects the `Scope`s of a store's root reducer for ``Store/scope(state:)``, with a
/// send for each that embeds the child's action all the way to the root in one function.
/// Not for use outside Core.
///
/// Each send walks down from the root reducer to its `Scope` with the child's action,
/// looking for the `Scope` whose child has exactly that action type: the walk is
/// generic over the root's type and the action's, so the optimiser, which knows both, keeps
/// only the path that can match and compiles it into the case paths' embeds, one after the
/// other. Where several `Scope`s have children of the same action type, the walk counts
/// them in the order this collector met them and stops at the one it was built for.
@MainActor
public final class _ScopeCollector<Root: Reducer> {
  @usableFromInline let root: Root
  @usableFromInline let runtime: StoreRuntime<Root.State, Root.Action>
  @usableFromInline let routes: _ScopeRoutes
  /// How many `Scope`s with a child of each action type were met so far.
  @usableFromInline var met: [ObjectIdentifier: Int] = [:]

  @inlinable
  init(root: Root, runtime: StoreRuntime<Root.State, Root.Action>, into routes: _ScopeRoutes) {
    self.root = root
    self.runtime = runtime
    self.routes = routes
  }

  /// Records the child a `Scope` runs at `route` (the key paths from the root's state),
  /// with a send that embeds its actions as the reducers between it and the root do.
  @inlinable
  public func add<ChildState, ChildAction>(
    _ route: [AnyKeyPath], state: ChildState.Type, action: ChildAction.Type
  ) {
    let occurrence = met[ObjectIdentifier(ChildAction.self), default: 0]
    met[ObjectIdentifier(ChildAction.self)] = occurrence + 1
    let root = self.root
    let runtime = self.runtime
    routes.add(
      route,
      .child(
        RoutedChild<ChildState, ChildAction> { action in
          var skip = occurrence
          guard let rootAction = root._embed(action, skipping: &skip) else {
            reportIssue("Core: no 'Scope' of the root reducer embeds \(ChildAction.self) any more.")
            return StoreTask(tasks: [])
          }
          return runtime.send(rootAction)
        }, action: ChildAction.self))
  }

  /// Records that a `forEach` runs the collection at `route`: not a child with a store of
  /// its own, but a place that ``Store/scope(state:)`` can say how to reach.
  @inlinable
  public func addElements(_ route: [AnyKeyPath]) {
    routes.add(route, .elements)
  }
}

extension _ScopeCollector {
  /// Records `child`, which runs at `route` on state of type `state` (the child's own, or
  /// an optional of it), then the `Scope`s inside it.
  @inlinable @inline(__always)
  func add<Child: Reducer, ChildState>(_ child: Child, state: ChildState.Type, at route: [AnyKeyPath]) {
    add(route, state: ChildState.self, action: Child.Action.self)
    child._collectScopes(into: self, route: route)
  }
}

/// Embeds `action` for a reducer with one child (a `Scope`'s, an `ifLet`'s): with `embed`
/// if it is the child's own action and not to be skipped, else what the child embeds it
/// into, then `embed`.
@inlinable @inline(__always)
func embed<A, Child: Reducer, ParentAction>(
  _ action: A, inChild child: Child, with embed: (Child.Action) -> ParentAction, skipping: inout Int
) -> ParentAction? {
  if let childAction = exactly(action, as: Child.Action.self) {
    if skipping == 0 { return embed(childAction) }
    skipping -= 1
  }
  guard let childAction = child._embed(action, skipping: &skipping) else { return nil }
  return embed(childAction)
}

/// `value` as `Target` if its type is exactly `Target` (an `as?` alone would also wrap a
/// value in an optional, or upcast a class). Two instances of one generic struct cast to
/// each other only when their type arguments are the same, and where both are known the
/// optimiser decides that at compile time.
@inlinable @inline(__always)
func exactly<Value, Target>(_ value: Value, as _: Target.Type) -> Target? {
  guard SameType<Value>() is SameType<Target> else { return nil }
  return value as? Target
}

@usableFromInline
struct SameType<T> {
  @inlinable init() {}
}

/// A child store's way of sending, found by its key paths from the root.
@usableFromInline
struct RoutedChild<State, Action> {
  @usableFromInline let send: (Action) -> StoreTask
  @usableFromInline init(send: @escaping (Action) -> StoreTask) { self.send = send }
}

/// The `Scope`s of a store's reducer tree by the key paths that lead from the root's state to
/// each child's: what `Store.scope(state:)` looks up. Built the first time it is asked.
@MainActor
public final class _ScopeRoutes {
  @usableFromInline enum Entry {
    /// The child's `RoutedChild`, and the type of its actions.
    case child(Any, action: Any.Type)
    /// More than one `Scope` reduces the same state at the same place.
    case ambiguous
    /// The collection a `forEach` runs: its elements' stores are scoped by id.
    case elements
  }
  @usableFromInline var entries: [[AnyKeyPath]: Entry] = [:]
  @usableFromInline var build: ((_ScopeRoutes) -> Void)?

  @inlinable init(build: @escaping (_ScopeRoutes) -> Void) {
    self.build = build
  }

  /// Records what runs at `route`.
  @usableFromInline
  func add(_ route: [AnyKeyPath], _ entry: Entry) {
    entries[route] = entries[route] == nil ? entry : .ambiguous
  }

  @usableFromInline
  func lookUp(_ route: [AnyKeyPath]) -> Entry? {
    if let build {
      self.build = nil
      build(self)
    }
    return entries[route]
  }
}
