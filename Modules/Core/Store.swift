import Observation

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
/// `scope(state:action:)` derives the store of a child feature: the key path to its
/// state and the case path (or closure) that embeds its actions, the same two values the
/// parent's ``Scope`` names. A scoped store owns nothing: it reads its state from the root
/// (in place, where stored properties lead there) and sends to the root, its action
/// embedded on the way by each level's embed, so the root reduces it once. An optional
/// child's store, or one case of an enum's, is ``unwrapped()`` from the store of the
/// optional.
///
/// A store is `Observable` (Swift's Observation): reading ``state`` inside
/// `withObservationTracking` registers the read, and the next send that changes this
/// store's state calls the change handler once (see ``state``). A scoped store's handler
/// runs only when its own part of the state changed.
///
/// Once the root store and every store scoped from it are released, the effects still
/// running are cancelled (a scoped store keeps the root's state and effects alive; an
/// observation does not).
@MainActor
@dynamicMemberLookup
public final class Store<State, Action>: Observable {
  /// The root's runtime, kept alive by every store scoped from it.
  @usableFromInline let root: AnyObject
  @usableFromInline let readState: () -> State
  @usableFromInline let sendAction: (Action) -> StoreTask
  @usableFromInline let registerObserver: (@escaping (State) -> Void) -> Int
  @usableFromInline let unregisterObserver: (Int) -> Void
  /// Where the state lies in the root's, if stored properties lead there (then reading
  /// and observing it does not go through the parents).
  @usableFromInline let location: StateLocation?
  /// Whether this is the root store, which owns the runtime (only a root records).
  @usableFromInline let isRoot: Bool
  /// Observation's record of the reads of ``state`` (see `Store+Observation.swift`).
  let registrar = ObservationRegistrar()
  /// While a read of ``state`` may be tracked: the root's observer that watches this
  /// store's state, and the state as it was read.
  var tracked: (observer: Int, read: State)?

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

  /// Creates a root store of a reducer with a `body`, which it builds once: a body is a
  /// pure description of the reducer, and building it for each action would make every
  /// send create and destroy the reducers in it (a `forEach`'s, say) again.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State, @ReducerBuilder<State, Action> reducer: () -> R
  ) where R.State == State, R.Action == Action, R.Body: Reducer<State, Action> {
    self.init(initialState: initialState, reducer: reducer().body)
  }

  /// Creates a root store of a reducer with a `body`, which it builds once (see the
  /// builder's form).
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  @inlinable
  public convenience init<R: Reducer>(initialState: State, reducer: R)
  where R.State == State, R.Action == Action, R.Body: Reducer<State, Action> {
    self.init(initialState: initialState, reducer: reducer.body)
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
    self.isRoot = true
  }

  @usableFromInline
  init(
    root: AnyObject,
    readState: @escaping () -> State,
    sendAction: @escaping (Action) -> StoreTask,
    registerObserver: @escaping (@escaping (State) -> Void) -> Int,
    unregisterObserver: @escaping (Int) -> Void,
    location: StateLocation?
  ) {
    self.isRoot = false
    self.root = root
    self.readState = readState
    self.sendAction = sendAction
    self.registerObserver = registerObserver
    self.unregisterObserver = unregisterObserver
    self.location = location
  }

  isolated deinit {
    if let tracked { unregisterObserver(tracked.observer) }
  }

  /// The current state.
  ///
  /// Read inside `withObservationTracking`, it registers with Swift's Observation: the
  /// next send whose actions leave this store's state different from what was read calls
  /// the change handler, once (a send that changes nothing calls nothing). For a scoped
  /// store that is its own part of the state: a change elsewhere in the root's calls
  /// nothing.
  ///
  /// ```swift
  /// withObservationTracking {
  ///   render(store.state)
  /// } onChange: {
  ///   Task { @MainActor in scheduleRender() }
  /// }
  /// ```
  ///
  /// "Different" is decided by the state's bytes, without `Equatable`: a state that holds a
  /// class instance it changes in place is not seen to change. Until the change is told,
  /// the store keeps the state that was read, so the first change to an array in it after
  /// a tracked read copies that array once (as any kept copy of a value does).
  @inlinable
  public var state: State {
    let state = readState()
    trackRead(of: state)
    return state
  }

  /// Reads one value of the current state (registering with Observation as ``state`` does).
  ///
  /// - Parameter keyPath: The value to read.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
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

  /// Derives the store of a child feature, by the key path to its state and the case
  /// path of its actions: the values the parent's ``Scope`` (or `ifLet`, `forEach`) names.
  ///
  /// ```swift
  /// let dogs = appStore.scope(state: \.dogs, action: AppFeature.Action.dogs)
  /// let account = appStore.scope(state: \.settings, action: App.Action.settings)
  ///   .scope(state: \.account, action: Settings.Action.account)
  /// ```
  ///
  /// A send through the result embeds the action into this store's and hands it on; a
  /// store scoped ten times embeds ten times (a closure call each) and the root reduces
  /// the action once. Reading the result's state (``state``, observers) costs the same at
  /// any depth while every key path from the root names stored properties: the store reads
  /// in place from the root's state. A computed property on the way (a projection) makes
  /// it read through this store instead.
  ///
  /// Scoping sees only the values you give it, never the reducer: it works the same
  /// whatever wraps the parent's reducer (`_printChanges()`, your own reducers).
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in this store's state (it may be a
  ///     computed property, such as a projection, or an optional for ``unwrapped()``).
  ///   - action: The case of this store's action that carries the child's actions.
  /// - Returns: A store that reads from this one and sends into it.
  @inlinable @inline(__always)
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: state, action: action.embed)
  }

  /// Derives the store of a child feature whose actions this closure embeds: for a place
  /// no single case path names, such as one element of a `forEach`
  /// (`{ .rows(id: id, action: $0) }`) or a path through several levels at once
  /// (`{ .settings(.account($0)) }`). Otherwise the same as the case path's form.
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in this store's state.
  ///   - action: Embeds a child action into this store's action.
  /// - Returns: A store that reads from this one and sends into it.
  @inlinable @inline(__always)
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let sendAction = self.sendAction
    return scoped(state: state) { sendAction(action($0)) }
  }

  /// A child store that reads `state` from this one and sends with `send`.
  @inlinable @inline(__always)
  func scoped<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
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
        unregisterObserver: unregisterObserver, location: location
      )
    }
    let readState = self.readState
    let registerObserver = self.registerObserver
    return Store<ChildState, ChildAction>(
      root: root,
      readState: { readState()[keyPath: state] },
      sendAction: sendAction,
      registerObserver: { update in registerObserver { update($0[keyPath: state]) } },
      unregisterObserver: unregisterObserver, location: nil
    )
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
  /// - Returns: A token; observation stops when it is cancelled or released. Keep it in a
  ///   property for as long as you observe: an optimised build may release a local that is
  ///   not used again at once (`_ = token` is no use), which ends the observation.
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
  /// reads and observes that one: it is a view of the place, not of one child.
  ///
  /// For one case of an enum state, scope with the case itself, which unwraps too:
  /// ``scope(state:case:action:)-(KeyPath<State,Enum?>,_,_)``.
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
      unregisterObserver: unregisterObserver, location: nil)
  }
}

extension Store {
  /// The store of one case of an optional enum state (a destination) while the state is in
  /// that case; `nil` otherwise. Named by the case alone: no computed property per case.
  ///
  /// ```swift
  /// if let addStore = store.scope(
  ///   state: \.destination, case: Destination.State.add,
  ///   action: { .destination(.presented(.add($0))) })
  /// {
  ///   AddContactView(store: addStore)
  /// }
  /// ```
  ///
  /// The action is a closure because it goes through two cases at once (the presentation
  /// and the destination's). The result behaves as ``unwrapped()``'s does once the state
  /// leaves the case.
  ///
  /// - Parameters:
  ///   - state: Where the optional enum state lives in this store's state.
  ///   - case: The case of the enum, such as `Destination.State.add`.
  ///   - action: Embeds the case's action into this store's action.
  /// - Returns: A store that reads the case's payload and sends into this store, or `nil`.
  public func scope<Enum, CaseState, CaseAction>(
    state: KeyPath<State, Enum?>,
    case: @escaping @Sendable (CaseState) -> Enum,
    action: @escaping (CaseAction) -> Action
  ) -> Store<CaseState, CaseAction>? {
    let path = CasePath(`case`)
    return scope(state: state, action: action).projecting { $0.flatMap(path.extract) }.unwrapped()
  }

  /// The store of one case of an enum state while the state is in that case; `nil`
  /// otherwise. The same as the optional enum's form.
  ///
  /// ```swift
  /// if let signIn = store.scope(state: \.session, case: Session.State.signedOut, action: { .signIn($0) }) {
  ///   SignInView(store: signIn)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - state: Where the enum state lives in this store's state.
  ///   - case: The case of the enum, such as `Session.State.signedOut`.
  ///   - action: Embeds the case's action into this store's action.
  /// - Returns: A store that reads the case's payload and sends into this store, or `nil`.
  public func scope<Enum, CaseState, CaseAction>(
    state: KeyPath<State, Enum>,
    case: @escaping @Sendable (CaseState) -> Enum,
    action: @escaping (CaseAction) -> Action
  ) -> Store<CaseState, CaseAction>? {
    let path = CasePath(`case`)
    return scope(state: state, action: action).projecting { path.extract($0) }.unwrapped()
  }

  /// A store that reads `transform` of this one's state and sends into this one.
  func projecting<Value>(_ transform: @escaping (State) -> Value) -> Store<Value, Action> {
    let readState = self.readState
    let registerObserver = self.registerObserver
    return Store<Value, Action>(
      root: root,
      readState: { transform(readState()) },
      sendAction: sendAction,
      registerObserver: { update in registerObserver { update(transform($0)) } },
      unregisterObserver: unregisterObserver, location: nil)
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
  /// - Returns: A token; observation stops when it is cancelled or released. Keep it in a
  ///   property for as long as you observe: an optimised build may release a local that is
  ///   not used again at once (`_ = token` is no use), which ends the observation.
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
