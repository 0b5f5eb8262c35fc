/// How a child's action sits inside its parent's action enum: a way in and a way out.
///
/// Made from the case alone, ``init(_:)`` works out the way out itself:
///
/// ```swift
/// enum Action {
///   case dogs(DogsFeature.Action)
/// }
/// let dogsPath = CasePath(Action.dogs)
/// dogsPath.extract(.dogs(.appeared))   // .appeared
/// ```
///
/// For a path no single case makes (through several levels, or computed), write both
/// directions with ``init(embed:extract:)``:
///
/// ```swift
/// static let accountPath = CasePath<Action, Account.Action>(embed: { .settings(.account($0)) }) {
///   if case .settings(.account(let action)) = $0 { action } else { nil }
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

extension CasePath {
  /// A case path of one case of an enum, from the case alone: `CasePath(Action.child)`.
  ///
  /// Extracting reads the value's case and payload through the runtime's metadata of the
  /// enum, as a compiled `switch` does: no macro, no hand-written `extract`. The case is
  /// recognised from the first value of it extracted (through `Mirror`, once); from then
  /// on, a value of another case costs a comparison and one of this case a copy of its
  /// payload. A case with several values (`rows(id:action:)`) gives a path to the tuple of
  /// them. Swift drops the labels from the case's function type, so the tuple is
  /// unlabelled unless the path's type names them; naming them keeps them:
  ///
  /// ```swift
  /// let rows = CasePath<Action, (id: Row.State.ID, action: Row.Action)>(Action.rows)
  /// rows.extract(action)?.id       // the row's id
  /// rows.extract(action)?.action   // its action
  /// ```
  ///
  /// A case with one labelled value (`loaded(name:)`) gives a path to the value.
  ///
  /// `embed` must be a case of `Root` itself, such as `Action.child`, not a closure that
  /// builds the value further (`{ .settings(.account($0)) }`): for those, use
  /// ``init(embed:extract:)``.
  ///
  /// - Parameter embed: The case, such as `Action.child`.
  @inlinable
  public init(_ embed: @escaping @Sendable (Value) -> Root) {
    let extractor = EnumCaseExtractor(embed)
    self.init(embed: embed, extract: { extractor.extract(from: $0) })
  }
}

extension Optional {
  /// The payload of the case `embed` of the wrapped enum, to read or change in place:
  /// `nil` while the value is `nil` or another case. Setting a payload makes the value that
  /// case; setting `nil` changes nothing.
  ///
  /// Asserting through a case of an optional enum state needs no hand-written computed
  /// property:
  ///
  /// ```swift
  /// await store.send(.destination(.presented(.edit(.nameChanged("Ada"))))) {
  ///   $0.destination[case: Destination.State.edit]?.name = "Ada"
  /// }
  /// ```
  ///
  /// - Parameter embed: The case, such as `Destination.State.edit`.
  public subscript<Value>(case embed: @escaping @Sendable (Value) -> Wrapped) -> Value? {
    get { flatMap { CasePath(embed).extract($0) } }
    set {
      if let newValue { self = embed(newValue) }
    }
  }
}
