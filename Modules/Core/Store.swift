/// The runtime of a feature: holds its state, runs its reducer for each action you send,
/// and runs the effects the reducer returns.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.incrementTapped)
/// store.state.count   // 1
/// ```
///
/// `send` is synchronous: when it returns, the state reflects the action and every
/// action it delivered synchronously (``Effect/send(_:)``). Asynchronous effects run on
/// Swift concurrency and send their actions back on the main actor.
///
/// ``scope(state:)`` derives a store for a child feature that a ``Scope`` or an `ifLet` runs;
/// ``scope(state:action:)`` for any part of the state with an action closure. A scoped
/// store owns nothing: it reads its state from the root (in place, where stored properties
/// lead there) and sends actions to it: through `scope(state:)`, embedded for the whole
/// path at once; through `scope(state:action:)`, forwarded once per level of scoping (two
/// small closure calls per level).
///
/// Once the root store and every store scoped from it are released, the effects still
/// running are cancelled (a scoped store keeps the root's state and effects alive; an
/// observation does not).
@MainActor
@dynamicMemberLookup
public final class Store<State, Action> {
  @usableFromInline let root: AnyObject
  @usableFromInline let readState: () -> State
  @usableFromInline let sendAction: (Action) -> StoreTask
  @usableFromInline let registerObserver: (@escaping (State) -> Void) -> Int
  @usableFromInline let unregisterObserver: (Int) -> Void
  /// Where the state lies in the root's, if stored properties lead there (then reading
  /// and observing it does not go through the parents).
  @usableFromInline let location: StateLocation?
  /// The root's `Scope`s, for ``scope(state:)``.
  @usableFromInline let routes: _ScopeRoutes
  /// The key paths from the root's state to this store's, when every scoping named only
  /// state (``scope(state:)``); `nil` once an action closure was given.
  @usableFromInline let route: [AnyKeyPath]?

  /// Creates a root store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State, @ReducerBuilder<State, Action> reducer: () -> R
  ) where R.State == State, R.Action == Action {
    self.init(initialState: initialState, reducer: reducer())
  }

  /// Creates a root store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  @inlinable
  public init<R: Reducer>(initialState: State, reducer: R)
  where R.State == State, R.Action == Action {
    let runtime = StoreRuntime(initialState: initialState, reduce: { reducer.reduce(into: &$0, action: $1) })
    self.root = runtime
    self.readState = { runtime.state }
    self.sendAction = { runtime.send($0) }
    self.registerObserver = { runtime.addObserver($0) }
    // Weak: an observation token outliving every store must not keep the runtime (and
    // its effects) alive; with the runtime gone there is nothing to unregister from.
    self.unregisterObserver = { [weak runtime] in runtime?.removeObserver($0) }
    self.location = .root(of: runtime)
    self.routes = _ScopeRoutes { routes in
      reducer._collectScopes(
        into: _ScopeCollector(root: reducer, runtime: runtime, into: routes), route: [])
    }
    self.route = []
  }

  @usableFromInline
  init(
    root: AnyObject,
    readState: @escaping () -> State,
    sendAction: @escaping (Action) -> StoreTask,
    registerObserver: @escaping (@escaping (State) -> Void) -> Int,
    unregisterObserver: @escaping (Int) -> Void,
    location: StateLocation?,
    routes: _ScopeRoutes,
    route: [AnyKeyPath]?
  ) {
    self.root = root
    self.readState = readState
    self.sendAction = sendAction
    self.registerObserver = registerObserver
    self.unregisterObserver = unregisterObserver
    self.location = location
    self.routes = routes
    self.route = route
  }

  /// The current state.
  @inlinable
  public var state: State { readState() }

  /// Reads one value of the current state.
  ///
  /// - Parameter keyPath: The value to read.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    readState()[keyPath: keyPath]
  }

  /// Runs `action` through the reducer now and starts the effects it returns.
  ///
  /// Not from inside a reducer (through a store it captured): such a send is reported as
  /// an issue, and its action runs once the reducer has returned, as if the reducer had
  /// returned ``Effect/send(_:)``. Return that instead.
  ///
  /// - Parameter action: What happened.
  /// - Returns: A handle on the effects started by this action (and by the actions it
  ///   sent synchronously): await ``StoreTask/finish()`` or call ``StoreTask/cancel()``.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    sendAction(action)
  }

  /// Derives a store for a child feature.
  ///
  /// ```swift
  /// let dogsStore = appStore.scope(state: \.dogs, action: AppFeature.Action.dogs)
  /// ```
  ///
  /// Each send through the result forwards to this store: a store scoped ten times
  /// forwards ten times. For the child of a ``Scope``, ``scope(state:)`` costs the same
  /// at any depth. Here, where you know the whole path, scope once with it; that costs
  /// one level however deep it goes:
  ///
  /// ```swift
  /// let accountStore = appStore.scope(state: \.settings.account, action: { .settings(.account($0)) })
  /// ```
  ///
  /// Reading the result's state (``state``, observers) costs the same at any depth while
  /// every key path from the root names stored properties: the store reads in place from
  /// the root's state. A computed property on the way (a projection) makes it read through
  /// this store instead.
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in this store's state (it may be a
  ///     computed property, such as a projection).
  ///   - action: Embeds a child action into this store's action.
  /// - Returns: A store that reads from and sends into this one.
  @inlinable @inline(__always)
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let sendAction = self.sendAction
    return scoped(state: state, route: nil) { sendAction(action($0)) }
  }

  /// Derives the store of the child that a ``Scope`` (or an `ifLet`) in this store's reducer
  /// runs on `state`; its actions are embedded as that `Scope`'s case path embeds them.
  ///
  /// ```swift
  /// DogsView(store: appStore.scope(state: \.dogs))
  /// let account: Store<Account.State, Account.Action> = appStore.scope(state: \.settings)
  ///   .scope(state: \.account)
  /// ```
  ///
  /// The child's action type comes from where the store goes (a view's initialiser, a
  /// function's parameter) or from an annotation.
  ///
  /// A send costs the same however deep the store is scoped, besides what the reducers on
  /// the way do with the action: the root store embeds the action for the whole path at
  /// once, in one function compiled for its reducer (~9–11 ns at 1 level and at 10 on the
  /// benchmark machine), where ``scope(state:action:)`` forwards once per level. Scope every
  /// level this way: a store scoped with an action closure no longer knows its place in the
  /// root's reducer.
  ///
  /// The child of an ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` is
  /// found the same way, by its key path; its store's state is the optional, and
  /// ``unwrapped()`` gives the child's own store while it is there:
  ///
  /// ```swift
  /// let breed: Store<BreedFeature.State?, BreedFeature.Action> = appStore.scope(state: \.breed)
  /// if let breedStore = breed.unwrapped() { BreedView(store: breedStore) }
  /// ```
  ///
  /// `state` must be the key path the `Scope` (or `ifLet`) names, from this store's state.
  /// It is found through bodies, builder blocks, ``CombineReducers``, `ifLet` (both sides)
  /// and the parent side of `forEach`; not inside an `if` of a builder, a type-erased
  /// ``Reduce``, or a reducer that implements ``Reducer/reduce(into:action:)`` itself. Where
  /// no single `Scope` or `ifLet` runs that state with those types, the problem is reported
  /// as an issue (see ``IssueReporting``), once here and once per send, and the store's
  /// sends do nothing: use ``scope(state:action:)`` there. (For a `forEach`'s collection the
  /// issue says how to scope to one element.)
  ///
  /// - Parameter state: Where the child's state lives in this store's state, as the
  ///   `Scope` names it.
  /// - Returns: A store that reads from this one and sends to the root.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>
  ) -> Store<ChildState, ChildAction> {
    let childRoute = route.map { $0 + [state] }
    switch childRoute.flatMap(routes.lookUp) {
    case .child(let child as RoutedChild<ChildState, ChildAction>, _):
      return scoped(state: state, route: childRoute, send: child.send)
    case let entry:
      let problem = unroutable(entry, state: state, action: ChildAction.self)
      reportIssue(problem)
      return scoped(state: state, route: nil) { action in
        reportIssue(problem)
        return StoreTask(tasks: [])
      }
    }
  }

  /// Why ``scope(state:)`` found no child to send to.
  @usableFromInline
  func unroutable(_ entry: _ScopeRoutes.Entry?, state: AnyKeyPath, action: Any.Type) -> String {
    let call = "'scope(state: \(state))' on a store of \(DumpNode.typeName(State.self))"
    switch (route, entry) {
    case (nil, _):
      return """
        \(call): 'scope(state:)' needs a store scoped only by state from the root; this one \
        was scoped with an action closure. Use 'scope(state:action:)'.
        """
    case (_, .elements?):
      return """
        \(call): a 'forEach' runs that collection; an element's store is \
        'scope(state: \(state)[id: id], action: …).unwrapped()'.
        """
    case (_, .ambiguous?):
      return """
        \(call): more than one 'Scope' or 'ifLet' runs that state; use 'scope(state:action:)' to \
        say which.
        """
    case (_, .child(_, let scoped)?):
      return """
        \(call): the child there takes actions of type \(DumpNode.typeName(scoped)), not \
        \(DumpNode.typeName(action)).
        """
    case (_, nil):
      return "\(call): no 'Scope' or 'ifLet' in its reducer runs that state; use 'scope(state:action:)'."
    }
  }

  /// A child store that reads `state` from this one and sends with `send`.
  @inlinable @inline(__always)
  func scoped<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>, route: [AnyKeyPath]?,
    send sendAction: @escaping (ChildAction) -> StoreTask
  ) -> Store<ChildState, ChildAction> {
    // Where stored properties lead from the root, the child reads its state in place
    // there; otherwise (a computed projection) it reads through this store.
    if let location = location?.appending(state) {
      return Store<ChildState, ChildAction>(
        root: root,
        readState: { location.read(ChildState.self) },
        sendAction: sendAction,
        registerObserver: { update in
          // The observer is kept by the root's runtime: it must not hold the runtime too
          // (an observation outliving every store would keep it and its effects alive).
          let offset = location.offset
          return location.storage.addChangeObserver { storage in
            update(StateLocation(storage: storage, offset: offset).read(ChildState.self))
          }
        },
        unregisterObserver: unregisterObserver, location: location, routes: routes, route: route
      )
    }
    let readState = self.readState
    let registerObserver = self.registerObserver
    return Store<ChildState, ChildAction>(
      root: root,
      readState: { readState()[keyPath: state] },
      sendAction: sendAction,
      registerObserver: { update in registerObserver { update($0[keyPath: state]) } },
      unregisterObserver: unregisterObserver, location: nil, routes: routes, route: route
    )
  }

  /// Derives a store for a child feature, embedding its actions with the case path the
  /// parent's ``Scope`` reducer uses, so one value names the child's place for both.
  ///
  /// ```swift
  /// let dogsStore = appStore.scope(state: \.dogs, action: AppFeature.Action.dogsPath)
  /// ```
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in this store's state.
  ///   - action: The case of this store's action that carries the child's actions.
  /// - Returns: A store that reads from and sends into this one.
  @inlinable @inline(__always)
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: state, action: action.embed)
  }

  /// Calls `onChange` with the value each time it changes.
  ///
  /// After every `send` (once, however many actions that send caused), the store
  /// recomputes `value` and calls `onChange` if it differs from the last value seen.
  /// `onChange` is not called for the current value when you subscribe. It may itself send
  /// actions, or start and stop observations: the store then goes round its observers
  /// again with the new state once each has been called for this one, so every observer
  /// sees the states in order and ends on the newest.
  ///
  /// ```swift
  /// let observation = store.observe(DogsView.State.init) { view in render(view) }
  /// ```
  ///
  /// - Parameters:
  ///   - value: Derives what you care about from the state.
  ///   - onChange: Called on the main actor with each new value.
  /// - Returns: A token; observation stops when it is cancelled or released.
  public func observe<Value: Equatable>(
    _ value: @escaping (State) -> Value,
    onChange: @escaping (Value) -> Void
  ) -> StoreObservation {
    var last = value(readState())
    let id = registerObserver { state in
      let next = value(state)
      guard next != last else { return }
      last = next
      onChange(next)
    }
    let unregister = unregisterObserver
    return StoreObservation { unregister(id) }
  }
}

extension Store {
  /// The store of an optional child while it is there; `nil` while the state is `nil`.
  ///
  /// ```swift
  /// if let breedStore = appStore.scope(state: \.breed, action: AppFeature.Action.breed).unwrapped() {
  ///   BreedView(store: breedStore)
  /// }
  /// ```
  ///
  /// Once the state becomes `nil` again, the store goes on reading the last child state it
  /// saw (a screen on its way out still has something to draw), its observers are no
  /// longer called, and its sends still go to the parent, whose `ifLet` reports them as
  /// issues and ignores them. If a child state comes back (the same or another), the store
  /// reads and observes that one: it is a view of the place, not of one child. Further
  /// scoping works as from this store: by state alone (``scope(state:)``) if this store was
  /// scoped that way.
  ///
  /// - Returns: A store that reads the child state from this one and sends to it.
  public func unwrapped<Wrapped>() -> Store<Wrapped, Action>? where State == Wrapped? {
    guard let first = readState() else { return nil }
    let last = LastPresent(first)
    let readState = self.readState
    let registerObserver = self.registerObserver
    return Store<Wrapped, Action>(
      root: root,
      readState: { last.seen(readState()) },
      sendAction: sendAction,
      registerObserver: { update in
        registerObserver { state in
          if let state { update(last.seen(state)) }
        }
      },
      unregisterObserver: unregisterObserver, location: nil, routes: routes, route: route)
  }
}

/// The last value an optional had while it was not `nil`.
@MainActor
final class LastPresent<Wrapped> {
  private var value: Wrapped
  init(_ value: Wrapped) { self.value = value }

  /// `current` if there is one (remembered), else the last one seen.
  func seen(_ current: Wrapped?) -> Wrapped {
    if let current { value = current }
    return value
  }
}

extension Store where State: Equatable {
  /// Calls `onChange` with the whole state each time it changes.
  ///
  /// - Parameter onChange: Called on the main actor with each new state.
  /// - Returns: A token; observation stops when it is cancelled or released.
  public func observe(_ onChange: @escaping (State) -> Void) -> StoreObservation {
    observe({ $0 }, onChange: onChange)
  }
}

/// A running observation of a store. Cancel it, or release it, to stop observing.
@MainActor
public final class StoreObservation {
  private var stop: (() -> Void)?

  init(stop: @escaping () -> Void) {
    self.stop = stop
  }

  /// Stops the observation. Calling it again does nothing.
  public func cancel() {
    stop?()
    stop = nil
  }

  isolated deinit {
    stop?()
  }
}
