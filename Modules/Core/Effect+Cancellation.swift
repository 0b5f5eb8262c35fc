/// A hashable, sendable identifier for cancelling effects.
///
/// You rarely create one: ``Effect/cancellable(id:cancelInFlight:)`` and
/// ``Effect/cancel(id:)`` accept any `Hashable & Sendable` value, typically a case of a
/// private enum:
///
/// ```swift
/// private enum CancelID { case load }
/// ```
public struct EffectID: Hashable, @unchecked Sendable, CustomStringConvertible {
  // Only ever built from `Hashable & Sendable` values, so the box is safe to share.
  @usableFromInline let base: AnyHashable

  /// Wraps an identifier.
  ///
  /// - Parameter id: Any sendable, hashable value.
  @inlinable
  public init(_ id: some Hashable & Sendable) {
    if let id = id as? EffectID {
      self = id
    } else {
      self.base = AnyHashable(id)
    }
  }

  /// The wrapped identifier, as text (used in test failure messages).
  public var description: String { "\(base)" }
}

extension Effect {
  /// Makes this effect cancellable with ``cancel(id:)``.
  ///
  /// Ids are scoped: effects of one element of a `forEach`, or of an `ifLet` child, only
  /// see the ids used inside that element or child, so two rows cancelling
  /// `CancelID.load` never cancel each other.
  ///
  /// - Parameters:
  ///   - id: The identifier.
  ///   - cancelInFlight: Cancel any effect already running under `id` before starting
  ///     this one, even when this one is ``none``. Use it for "latest request wins".
  /// - Returns: The cancellable effect.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if isNone, !cancelInFlight { return self }
    return Self(operation: .cancellable(id: EffectID(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every running effect marked with `id`.
  ///
  /// Cancelling an id that has no running effect, or whose effect already finished, does
  /// nothing.
  ///
  /// - Parameter id: The identifier given to ``cancellable(id:cancelInFlight:)``.
  /// - Returns: The cancelling effect.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: EffectID(id)))
  }

  /// Places this effect in a child namespace: its cancel ids are private to it, and
  /// ``cancelNamespace(_:)`` with the same id tears all of it down. Used by `ifLet` and
  /// `forEach`; available for custom containers.
  ///
  /// - Parameter id: The namespace, unique among its siblings.
  /// - Returns: The namespaced effect.
  @inlinable
  public func namespaced(_ id: some Hashable & Sendable) -> Self {
    if isNone { return self }
    return Self(operation: .namespace(EffectID(id), self))
  }

  /// An effect that cancels everything running inside the namespace `id`.
  ///
  /// - Parameter id: The namespace given to ``namespaced(_:)``.
  /// - Returns: The cancelling effect.
  @inlinable
  public static func cancelNamespace(_ id: some Hashable & Sendable) -> Self {
    Self(operation: .cancelNamespace(EffectID(id)))
  }
}
