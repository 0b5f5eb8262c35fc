/// Work a reducer asks the store to perform after it has changed the state.
///
/// Effects are values: a reducer returns them, and the ``Store`` runs them. They can
/// send actions synchronously (``send(_:)``), do asynchronous work on Swift concurrency
/// (``run(priority:operation:catch:fileID:filePath:line:column:)``), be combined
/// (`merge`, `concatenate`), transformed (``map(_:)``) and cancelled
/// (``cancellable(id:cancelInFlight:)``, ``cancel(id:)``).
///
/// ```swift
/// case .appeared:
///   state.isLoading = true
///   return .run { send in
///     await send(.breedsResponse(Result { try await client.breeds() }))
///   }
///   .cancellable(id: CancelID.load, cancelInFlight: true)
/// ```
public struct Effect<Action> {
  @usableFromInline
  indirect enum Operation {
    case none
    case send(Action)
    case run(TaskPriority?, @Sendable (Send<Action>) async -> Void)
    case merge([Effect<Action>])
    case concatenate([Effect<Action>])
    case cancellable(id: EffectID, cancelInFlight: Bool, Effect<Action>)
    case cancel(id: EffectID)
    case namespace(EffectID, Effect<Action>)
    case cancelNamespace(EffectID)
    case dismiss
  }

  @usableFromInline
  let operation: Operation

  @inlinable
  init(operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing. Returning it costs the store nothing.
  @inlinable
  public static var none: Self { Self(operation: .none) }

  /// Whether this effect is ``none``: the one check for an effect to skip. Inlined, it costs
  /// what matching the case does.
  @inlinable
  public var isNone: Bool {
    if case .none = operation { return true }
    return false
  }

  /// An effect that feeds `action` back into the store immediately, before the store's
  /// `send` returns.
  ///
  /// Prefer calling a shared helper method over sending an action to share logic; use
  /// this to deliver a delegate action or to start another feature's flow.
  ///
  /// - Parameter action: The action to send.
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(action))
  }

  /// An effect that runs asynchronous work and may send actions back to the store.
  ///
  /// The operation runs off the main actor. Actions sent after the effect was cancelled
  /// are dropped, so a cancelled request can never deliver a late answer. Await all the
  /// work that sends: `send` used after the operation returned (from an unstructured
  /// `Task`, which cancellation cannot reach) is reported as an issue and dropped.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The work. Use `send` to deliver actions to the store.
  ///   - handler: Called with any error the operation throws other than cancellation.
  ///     Without a handler such an error is reported as an issue (a test failure in
  ///     tests).
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The effect.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    Self(
      operation: .run(priority) { send in
        do {
          try await operation(send)
        } catch is CancellationError {
          return
        } catch {
          if let handler {
            await handler(error, send)
          } else if !Task.isCancelled {
            reportIssue(
              """
              An 'Effect.run' threw an error it did not handle: \(error)

              Handle errors inside the operation, or pass a 'catch' handler.
              """, fileID: fileID, filePath: filePath, line: line, column: column)
          }
        }
      })
  }

  /// Runs the effects at the same time.
  ///
  /// Synchronous parts (``send(_:)``) run in the order given.
  ///
  /// - Parameter effects: The effects to merge.
  /// - Returns: One effect that runs them all.
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// Runs the effects at the same time.
  ///
  /// - Parameter effects: The effects to merge.
  /// - Returns: One effect that runs them all.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    flattened(effects, into: { .merge($0) }) {
      if case .merge(let parts) = $0.operation { parts } else { nil }
    }
  }

  /// Runs this effect and `other` at the same time.
  ///
  /// Each call copies the parts merged so far: to combine many effects, pass them all to
  /// `Effect.merge(_:)` at once.
  ///
  /// - Parameter other: Another effect.
  /// - Returns: The merged effect; `none` parts are dropped.
  @inlinable
  public func merge(with other: Self) -> Self {
    if other.isNone { return self }
    if isNone { return other }
    return _merge(with: other)
  }

  @usableFromInline
  func _merge(with other: Self) -> Self {
    // Both sides are work: `merge(with:)` has already dropped a `none`.
    switch (operation, other.operation) {
    case (.merge(let lhs), .merge(let rhs)): return Self(operation: .merge(lhs + rhs))
    case (.merge(let lhs), _): return Self(operation: .merge(lhs + [other]))
    case (_, .merge(let rhs)): return Self(operation: .merge([self] + rhs))
    default: return Self(operation: .merge([self, other]))
    }
  }

  /// Runs the effects one after the other: each starts when the previous one finished.
  ///
  /// Steps that finish at once, such as ``send(_:)``, run at once: the store delivers
  /// their actions before its `send` returns, as for a merge. A step that sends an action
  /// is over once the action is reduced: the effects that action returns are its own, as
  /// when a `run` sends it. The next step does not wait for them, and cancelling the
  /// concatenation does not cancel them.
  ///
  /// - Parameter effects: The effects, in order.
  /// - Returns: One effect that runs them in sequence.
  public static func concatenate(_ effects: Self...) -> Self {
    concatenate(effects)
  }

  /// Runs the effects one after the other: each starts when the previous one finished.
  /// Steps that finish at once run at once; what an action sent by a step starts is that
  /// action's own (see the variadic form).
  ///
  /// - Parameter effects: The effects, in order.
  /// - Returns: One effect that runs them in sequence.
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    flattened(effects, into: { .concatenate($0) }) {
      if case .concatenate(let steps) = $0.operation { steps } else { nil }
    }
  }

  /// Combines `effects` into one, dropping `none`s and taking the parts of those already
  /// combined the same way (`parts`) in their place, in one pass: folding them in pairs
  /// copied the growing list at each step (merging 10,000 effects took half a second).
  private static func flattened(
    _ effects: some Sequence<Self>, into combined: ([Self]) -> Operation, parts: (Self) -> [Self]?
  ) -> Self {
    var all: [Self] = []
    for effect in effects {
      if effect.isNone { continue }
      if let inner = parts(effect) { all += inner } else { all.append(effect) }
    }
    switch all.count {
    case 0: return .none
    case 1: return all[0]
    default: return Self(operation: combined(all))
    }
  }

  /// Runs `other` after this effect has finished.
  ///
  /// Each call copies the steps so far: to chain many effects, pass them all to
  /// `Effect.concatenate(_:)` at once.
  ///
  /// - Parameter other: The effect to run next.
  /// - Returns: The concatenated effect.
  public func concatenate(with other: Self) -> Self {
    if other.isNone { return self }
    if isNone { return other }
    switch (operation, other.operation) {
    case (.concatenate(let lhs), .concatenate(let rhs)): return Self(operation: .concatenate(lhs + rhs))
    case (.concatenate(let lhs), _): return Self(operation: .concatenate(lhs + [other]))
    case (_, .concatenate(let rhs)): return Self(operation: .concatenate([self] + rhs))
    default: return Self(operation: .concatenate([self, other]))
    }
  }

  /// Transforms the actions this effect sends, typically to embed a child feature's
  /// actions into its parent's.
  ///
  /// - Parameter transform: Turns each action into the parent's action.
  /// - Returns: An effect of the new action type, with the same cancellation.
  @inlinable
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    Effect<NewAction>(operation: operation.map(transform))
  }
}

extension Effect {
  /// An effect that dismisses the feature returning it, where a parent presents it (an
  /// `ifLet` with a ``PresentationAction``): the parent receives `.dismiss` for it, and
  /// the feature's state goes, with its effects. A child never reaches up to do this: it
  /// returns the effect, and the nearest presenting parent carries it out.
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .concatenate(.run { _ in try await client.save() }, .dismiss)
  /// ```
  ///
  /// To dismiss from inside a running effect (after its work, and only if it decides to),
  /// use ``Send/dismiss(fileID:filePath:line:column:)``.
  ///
  /// Returned by a feature that nothing presents, it is reported as an issue.
  public static var dismiss: Self { Self(operation: .dismiss) }

  /// This effect with every ``dismiss`` in it replaced by sending the action `dismissal`
  /// makes, and the `send` of each `run` in it able to dismiss likewise
  /// (``Send/dismiss(fileID:filePath:line:column:)``).
  @usableFromInline
  func replacingDismiss(with dismissal: @escaping @Sendable () -> Action) -> Self {
    switch operation {
    case .dismiss:
      return .send(dismissal())
    case .run(let priority, let operation):
      return Self(
        operation: .run(priority) { send in
          await operation(Send(send: send.deliver, dismiss: { send.deliver(dismissal()) }))
        })
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.replacingDismiss(with: dismissal) }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.replacingDismiss(with: dismissal) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        operation: .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect.replacingDismiss(with: dismissal)))
    case .namespace(let id, let effect):
      return Self(operation: .namespace(id, effect.replacingDismiss(with: dismissal)))
    case .none, .send, .cancel, .cancelNamespace:
      return self
    }
  }
}

extension Effect.Operation {
  @inlinable
  func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction>.Operation {
    switch self {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let priority, let operation):
      return .run(priority) { send in
        // The child's `send` dismisses what the parent's dismisses.
        await operation(Send(send: { action in send(transform(action)) }, dismiss: send.dismissal))
      }
    case .merge(let effects):
      return .merge(effects.map { $0.map(transform) })
    case .concatenate(let effects):
      return .concatenate(effects.map { $0.map(transform) })
    case .cancellable(let id, let cancelInFlight, let effect):
      return .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform))
    case .cancel(let id):
      return .cancel(id: id)
    case .namespace(let id, let effect):
      return .namespace(id, effect.map(transform))
    case .cancelNamespace(let id):
      return .cancelNamespace(id)
    case .dismiss:
      return .dismiss
    }
  }
}

/// Delivers actions from an effect back to the store.
///
/// Call it like a function: `await send(.response(value))`. After the effect has been
/// cancelled, sends are ignored; after it ended, they are reported and ignored.
///
/// In the effect of a presented feature, ``dismiss(fileID:filePath:line:column:)``
/// dismisses that feature, as returning ``Effect/dismiss`` would.
@MainActor
public struct Send<Action>: Sendable {
  @usableFromInline let deliver: @MainActor (Action) -> Void
  /// Sends the dismissal of the nearest feature that is presented and whose effect this
  /// is; `nil` where nothing presents it.
  @usableFromInline let dismissal: (@MainActor () -> Void)?

  /// Creates a sender from a closure; the store makes these, tests rarely need to.
  ///
  /// - Parameter send: Called with each action on the main actor.
  @inlinable
  public init(send: @escaping @MainActor (Action) -> Void) {
    self.init(send: send, dismiss: nil)
  }

  /// A sender that can also dismiss the feature whose effect it serves.
  @usableFromInline
  init(send: @escaping @MainActor (Action) -> Void, dismiss: (@MainActor () -> Void)?) {
    self.deliver = send
    self.dismissal = dismiss
  }

  /// Sends `action` to the store, unless the current task has been cancelled.
  ///
  /// - Parameter action: The action to deliver.
  @inlinable
  public func callAsFunction(_ action: sending Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }

  /// Dismisses the presented feature whose effect this is, from inside the effect: after
  /// work it awaited, and only if it decides to.
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .run { [text = state.text] send in
  ///     if try await client.save(text) {
  ///       await send.dismiss()
  ///     } else {
  ///       await send(.saveFailed)
  ///     }
  ///   }
  /// ```
  ///
  /// The nearest presenting parent (an `ifLet` with a ``PresentationAction``) receives
  /// `.dismiss` for the feature, as for ``Effect/dismiss``; the feature's state goes, and
  /// its effects are cancelled, this one included: what it sends afterwards is dropped.
  /// The `send` of a feature inside the presented one (through ``Scope``, `ifCaseLet`,
  /// `forEach`) dismisses the presented one. Does nothing once the effect is cancelled;
  /// in the effect of a feature that nothing presents, it is reported as an issue.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  public func dismiss(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    guard !Task.isCancelled else { return }
    guard let dismissal else {
      reportIssue(
        """
        'send.dismiss()' was called in an effect of a feature that nothing presents (no \
        'ifLet' with a 'PresentationAction' runs it); it was ignored.
        """, fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    dismissal()
  }
}
