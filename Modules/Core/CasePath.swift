/// How a child's action sits inside its parent's action enum: a way in and a way out.
///
/// No reflection and no macros: you write both directions once, next to the action.
///
/// ```swift
/// enum Action {
///   case dogs(DogsFeature.Action)
///   static let dogsPath = CasePath(embed: Action.dogs) {
///     if case .dogs(let action) = $0 { action } else { nil }
///   }
/// }
/// ```
public struct CasePath<Root, Value>: Sendable {
  /// Wraps a child value in the parent case.
  public let embed: @Sendable (Value) -> Root
  /// Unwraps the child value if `root` is that case.
  public let extract: @Sendable (Root) -> Value?

  /// Creates a case path.
  ///
  /// - Parameters:
  ///   - embed: Usually the case constructor, such as `Action.dogs`.
  ///   - extract: Returns the payload if the value is that case, else `nil`.
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }
}
