#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One action a root store reduced, as a recording keeps it: the action, who sent it and
/// when, counted from the start of the recording.
///
/// Every change of a store's state is an action, and every answer from outside (a key, a
/// network response, a failed save) reaches the reducer as one. So the actions a root store
/// reduced, in order, describe the whole session: folding them through the same reducer
/// from the same initial state (``Reducer/states(replaying:from:)``), with effects not run,
/// arrives at the same states, step by step. See <doc:RecordingAndReplaying>.
public struct RecordedAction<Action> {
  /// The action.
  public var action: Action
  /// Who sent it.
  public var origin: ActionOrigin
  /// When the store reduced it, counted from the start of the recording.
  public var offset: Duration

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - origin: Who sent it.
  ///   - offset: When the store reduced it, counted from the start of the recording.
  public init(_ action: Action, origin: ActionOrigin, offset: Duration) {
    self.action = action
    self.origin = origin
    self.offset = offset
  }
}

/// Who sent an action a store reduced (see ``RecordedAction``).
public enum ActionOrigin: String, Sendable, Codable {
  /// Sent to the store from outside the reducers: `Store.send`, by the app for a key the
  /// user pressed, say (or `TestStore.send`).
  case external
  /// Returned by a reducer as ``Effect/send(_:)``, and reduced by the store at once, in
  /// the same send.
  case immediate
  /// Delivered later by a running effect (the `send` an `Effect.run` operation is given).
  case effect
}

extension RecordedAction: Equatable where Action: Equatable {}
extension RecordedAction: Sendable where Action: Sendable {}

extension RecordedAction: Codable where Action: Codable {
  enum CodingKeys: String, CodingKey {
    case action, origin, offset
  }

  /// Decodes an entry (`offset` in whole nanoseconds).
  ///
  /// - Parameter decoder: The decoder.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    action = try container.decode(Action.self, forKey: .action)
    origin = try container.decode(ActionOrigin.self, forKey: .origin)
    offset = .nanoseconds(try container.decode(Int64.self, forKey: .offset))
  }

  /// Encodes an entry, `offset` as whole nanoseconds (exact, and easy to read at a glance).
  ///
  /// - Parameter encoder: The encoder.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(action, forKey: .action)
    try container.encode(origin, forKey: .origin)
    try container.encode(offset.wholeNanoseconds, forKey: .offset)
  }
}

extension Duration {
  /// The duration in whole nanoseconds (saturating).
  @usableFromInline
  var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    return product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
  }
}

extension Store {
  /// Calls `record` after every action this root store reduces, with the entry and the
  /// state the action produced, until ``stopRecording()``.
  ///
  /// Every action is there, in the order the store reduced it: those sent to the store,
  /// those its reducers returned with ``Effect/send(_:)`` (``ActionOrigin/immediate``),
  /// and those effects delivered later (``ActionOrigin/effect``). Actions sent through a
  /// scoped store arrive embedded, as the root reduced them.
  ///
  /// ```swift
  /// var log: [RecordedAction<Counter.Action>] = []
  /// store.startRecording { entry, _ in log.append(entry) }
  /// ```
  ///
  /// Recording costs one reading of a coarse clock (offsets are exact to the kernel's tick,
  /// 1 to 4 ms, on Linux) and a call of `record` per action; off, nothing.
  /// Only a root store records (a scoped store's actions are its root's), and one
  /// recording at a time: a second replaces the first.
  ///
  /// - Parameter record: Called on the main actor right after each action is reduced, before
  ///   its effects start.
  @inlinable
  public func startRecording(_ record: @escaping (RecordedAction<Action>, State) -> Void) {
    guard isRoot, let runtime = root as? StoreRuntime<State, Action> else {
      reportIssue(
        """
        'startRecording' was called on a scoped store of \(State.self). Record from the \
        root store: the actions a scoped store sends reach the root embedded, and the root \
        reduces them.
        """)
      return
    }
    let start = RecordingClock.nanoseconds()
    runtime._didReduce = { action, state, origin in
      record(
        RecordedAction(action, origin: origin, offset: .nanoseconds(RecordingClock.nanoseconds() &- start)),
        state)
    }
  }

  /// Stops the recording ``startRecording(_:)`` started; `record` is not called again.
  /// Like starting, only the root store stops a recording: called on a scoped store, it
  /// reports an issue and the recording goes on.
  public func stopRecording() {
    guard isRoot, let runtime = root as? StoreRuntime<State, Action> else {
      reportIssue(
        """
        'stopRecording' was called on a scoped store of \(State.self). Stop the recording \
        where it started, on the root store.
        """)
      return
    }
    runtime.didReduce = nil
  }
}

/// The clock a recording's offsets are read from: the monotonic clock at the kernel's tick
/// (1 to 4 ms) where there is one to read cheaply (`CLOCK_MONOTONIC_COARSE` on Linux, a few
/// nanoseconds a reading against about a hundred for `ContinuousClock.now` on a virtual
/// machine), which is all a replay's timing needs; `ContinuousClock` elsewhere.
@usableFromInline
enum RecordingClock {
  @inlinable
  static func nanoseconds() -> Int64 {
    #if canImport(Glibc) || canImport(Musl)
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #else
      return ContinuousClock.now.duration(to: origin).wholeNanoseconds &* -1
    #endif
  }

  #if !(canImport(Glibc) || canImport(Musl))
    @usableFromInline static let origin = ContinuousClock.now
  #endif
}

extension Reducer {
  /// The state after each of `actions`, reduced in order from `initialState` with their
  /// effects not run: a recording replayed.
  ///
  /// The actions effects delivered are in a recording as actions of their own, so a
  /// recording folded through the reducer that made it arrives at the same states. It
  /// does while the reducer is pure: reading only its state and the action. Whatever it
  /// needs from outside (the time a request failed, a random choice) is worked out in an
  /// effect and comes back in an action.
  ///
  /// ```swift
  /// for (step, state) in Counter().states(replaying: log.map(\.action), from: .init()).enumerated() {
  ///   print(step, state.count)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actions: The actions, in the order the store reduced them.
  ///   - initialState: The state the recording started from.
  /// - Returns: A lazy sequence of the state after each action.
  public func states<Actions: Sequence<Action>>(
    replaying actions: Actions, from initialState: State
  ) -> ReplayedStates<State, Action, Actions> {
    // A reducer with a body has its body built once, as a root store builds it, not once
    // per action (`reduce(into:action:)` builds it for each call).
    if Body.self != Never.self, let body = body as? any Reducer<State, Action> {
      return ReplayedStates(actions: actions, initialState: initialState) {
        body.reduce(into: &$0, action: $1)
      }
    }
    return ReplayedStates(actions: actions, initialState: initialState) { reduce(into: &$0, action: $1) }
  }
}

/// The states a recording passes through, one after each action
/// (``Reducer/states(replaying:from:)``): computed as the sequence is iterated.
public struct ReplayedStates<State, Action, Actions: Sequence<Action>>: Sequence {
  let actions: Actions
  let initialState: State
  let reduce: (inout State, Action) -> Effect<Action>

  /// Iterates the states.
  public struct Iterator: IteratorProtocol {
    var actions: Actions.Iterator
    var state: State
    let reduce: (inout State, Action) -> Effect<Action>

    /// The state after the next action, or `nil` after the last.
    public mutating func next() -> State? {
      guard let action = actions.next() else { return nil }
      _ = reduce(&state, action)
      return state
    }
  }

  /// Starts from the initial state.
  public func makeIterator() -> Iterator {
    Iterator(actions: actions.makeIterator(), state: initialState, reduce: reduce)
  }
}

/// A short, stable summary of a value: the 64-bit FNV-1a hash of its ``dumpValue(_:)``.
///
/// Two values with the same dump have the same fingerprint, in every run of every
/// process (Swift's `Hasher` is seeded anew per process, so `hashValue` cannot serve).
/// A recording can keep the fingerprint of the state after each step, and a replay prove
/// it arrives at the same states without keeping the states.
public struct Fingerprint: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The hash.
  public var value: UInt64

  /// The fingerprint of `value`.
  ///
  /// - Parameter value: Any value; its dump is what is hashed.
  public init(of value: Any) {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in dumpValue(value).utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    self.value = hash
  }

  /// Sixteen hexadecimal digits.
  public var description: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Decodes the sixteen hexadecimal digits ``description`` writes.
  ///
  /// - Parameter decoder: The decoder.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard text.count == 16, let value = UInt64(text, radix: 16) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "A fingerprint is 16 hexadecimal digits, not '\(text)'."))
    }
    self.value = value
  }

  /// Encodes the sixteen hexadecimal digits.
  ///
  /// - Parameter encoder: The encoder.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
