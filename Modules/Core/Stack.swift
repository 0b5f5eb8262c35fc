/// The screens a feature has pushed, in order, each with an id of its own: the state of
/// stack navigation.
///
/// Each element gets a ``StackElementID`` when it is pushed: the first element of a stack
/// is `0`, the next `1`, and so on, and an id is never given again in that stack, even
/// after its element is popped. An element keeps its id while other elements come and go,
/// so an action or an effect addressed to it by id reaches it, or nothing.
///
/// ```swift
/// var path = Stack<Path.State>()
/// path.push(.breed(Breed.State(name: "hound")))      // id 0
/// path.push(.subBreed(SubBreed.State(name: "afghan")))  // id 1
/// path[id: 1]                                          // the sub-breed
/// path.popLast()                                       // back to the breed
/// ```
///
/// Two stacks are equal when they hold equal elements under the same ids, in the same
/// order. See <doc:StackNavigation> for a whole feature built on one.
public struct Stack<Element> {
  /// The ids of the elements, bottom first.
  public private(set) var ids: [StackElementID]
  @usableFromInline var elements: [Element]
  /// The id the next pushed element gets.
  private var nextID: Int

  /// Creates an empty stack.
  public init() {
    ids = []
    elements = []
    nextID = 0
  }

  /// Creates a stack of `elements`, bottom first, with the ids `0`, `1`, … in order.
  ///
  /// - Parameter elements: The elements, bottom first.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { push(element) }
  }

  /// Puts `element` on top, under a new id.
  ///
  /// - Parameter element: The element.
  /// - Returns: Its id.
  @discardableResult
  public mutating func push(_ element: Element) -> StackElementID {
    let id = StackElementID(nextID)
    nextID += 1
    ids.append(id)
    elements.append(element)
    return id
  }

  /// Removes the top element, if there is one.
  ///
  /// - Returns: The element removed, or `nil` if the stack was empty.
  @discardableResult
  public mutating func popLast() -> Element? {
    guard !elements.isEmpty else { return nil }
    ids.removeLast()
    return elements.removeLast()
  }

  /// Removes the element `id` and every element above it; does nothing if no element has
  /// that id.
  ///
  /// - Parameter id: The lowest element to remove.
  public mutating func pop(from id: StackElementID) {
    guard let index = ids.firstIndex(of: id) else { return }
    ids.removeSubrange(index...)
    elements.removeSubrange(index...)
  }

  /// Removes every element above the element `id`, which stays on top; does nothing if no
  /// element has that id.
  ///
  /// - Parameter id: The element to go back to.
  public mutating func pop(to id: StackElementID) {
    guard let index = ids.firstIndex(of: id) else { return }
    ids.removeSubrange((index + 1)...)
    elements.removeSubrange((index + 1)...)
  }

  /// Removes every element. Ids already given are not given again.
  public mutating func removeAll() {
    ids.removeAll()
    elements.removeAll()
  }

  /// The element `id`, to read or change in place; `nil` if no element has that id.
  /// Setting `nil` pops the element and every element above it (``pop(from:)``); setting
  /// an element for an id that is not there changes nothing.
  ///
  /// A `TestStore` assertion reaches one element, and one case of an enum element,
  /// through it:
  ///
  /// ```swift
  /// $0.path[id: 1][case: Path.State.subBreed]?.images = ["afghan.jpg"]
  /// ```
  ///
  /// - Parameter id: The element's id.
  public subscript(id id: StackElementID) -> Element? {
    get { ids.firstIndex(of: id).map { elements[$0] } }
    set {
      guard let index = ids.firstIndex(of: id) else { return }
      if let newValue {
        elements[index] = newValue
      } else {
        pop(from: id)
      }
    }
  }

  /// The element `id` and its position, for the stack reducer.
  @usableFromInline
  func index(of id: StackElementID) -> Int? { ids.firstIndex(of: id) }
}

extension Stack: RandomAccessCollection {
  /// The position of the bottom element (always 0).
  public var startIndex: Int { 0 }
  /// The position after the top element.
  public var endIndex: Int { elements.count }

  /// The element at `position`, counted from the bottom.
  ///
  /// - Parameter position: A valid index.
  public subscript(position: Int) -> Element {
    get { elements[position] }
    set { elements[position] = newValue }
  }
}

extension Stack: ExpressibleByArrayLiteral {
  /// A stack of these elements, bottom first, with the ids `0`, `1`, … in order.
  ///
  /// - Parameter elements: The elements, bottom first.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension Stack: Equatable where Element: Equatable {
  /// Whether both hold equal elements under the same ids, in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.elements == rhs.elements
  }
}

extension Stack: Hashable where Element: Hashable {
  /// Hashes the ids and the elements.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ids)
    hasher.combine(elements)
  }
}

extension Stack: Sendable where Element: Sendable {}

extension Stack: CustomReflectable {
  /// Mirrors as the elements labelled by their ids (`#0`, `#1`, …), so a diff matches
  /// elements by id.
  public var customMirror: Mirror {
    Mirror(
      self, children: zip(ids, elements).map { Mirror.Child(label: "#\($0.rawValue)", value: $1) },
      displayStyle: .struct)
  }
}

/// The id of one element of a ``Stack``: `0` for the first element pushed, then `1`, and
/// so on. An integer literal is one, so tests write `.element(id: 0, action: …)`.
public struct StackElementID: Hashable, Comparable, Sendable, Codable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  // Underscored, so that dumps and diffs print the id as its description, `#0`.
  private let _rawValue: Int

  /// The number of the element in its stack's order of pushes.
  public var rawValue: Int { _rawValue }

  /// The id numbered `rawValue`.
  ///
  /// - Parameter rawValue: The number.
  public init(_ rawValue: Int) { self._rawValue = rawValue }

  /// The id numbered `value`.
  ///
  /// - Parameter value: The number.
  public init(integerLiteral value: Int) { self.init(value) }

  /// Whether `lhs` was pushed before `rhs`.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `#` and the number, as in diffs.
  public var description: String { "#\(rawValue)" }

  /// Decodes the id from its number alone.
  ///
  /// - Parameter decoder: The decoder.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(Int.self))
  }

  /// Encodes the id as its number alone.
  ///
  /// - Parameter encoder: The encoder.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// The actions of a stack of features, as their parent receives them: one element's own
/// action, addressed by its id, or the popping of an element.
public enum StackAction<ElementAction> {
  /// An action of the element `id`.
  case element(id: StackElementID, action: ElementAction)
  /// The element `id`, and every element above it, are to go: sent by whatever shows the
  /// stack (a back key), by the parent's effects, or made by the stack's `forEach` from an
  /// element's ``Effect/dismiss`` (or its effect's `send.dismiss()`). The parent's reducer
  /// sees it while the elements are still there; then they are popped and their effects
  /// cancelled.
  case popFrom(id: StackElementID)
}

extension StackAction: Equatable where ElementAction: Equatable {}
extension StackAction: Hashable where ElementAction: Hashable {}
extension StackAction: Sendable where ElementAction: Sendable {}
extension StackAction: Codable where ElementAction: Codable {}

extension Reducer {
  /// Runs an element reducer on each element of a stack, for the actions addressed to it
  /// by id, and pops elements on ``StackAction/popFrom(id:)``.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: Action.path) { Path() }
  /// ```
  ///
  /// The parent pushes and pops by changing the ``Stack`` in its reducer; an element pops
  /// itself (and those above it) by returning ``Effect/dismiss``, or from inside a running
  /// effect with ``Send/dismiss(fileID:filePath:line:column:)``: the parent receives
  /// `.popFrom(id:)` for it. Each element's effects run in a namespace of their own: cancel
  /// ids do not collide between elements, and popping an element, however it goes,
  /// cancels its effects. An action for an id that is not in the stack (a late effect of a
  /// popped element) is reported as an issue and ignored.
  ///
  /// - Parameters:
  ///   - stack: The stack of element states.
  ///   - action: The case of this reducer's action that carries the stack's actions.
  ///   - element: The element reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ stack: WritableKeyPath<State, Stack<ElementState>>,
    action: @escaping @Sendable (StackAction<ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _StackReducer<Self, Element> where Element.State == ElementState, Element.Action == ElementAction {
    forEach(
      stack, action: CasePath(action), element: element, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Runs an element reducer on each element of a stack, its actions the case path
  /// `action` names (see the form that takes the case itself).
  ///
  /// - Parameters:
  ///   - stack: The stack of element states.
  ///   - action: How the stack's actions embed into this reducer's.
  ///   - element: The element reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ stack: WritableKeyPath<State, Stack<ElementState>>,
    action: CasePath<Action, StackAction<ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _StackReducer<Self, Element> where Element.State == ElementState, Element.Action == ElementAction {
    _StackReducer(
      parent: self, element: element(), toStack: stack, toStackAction: action,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer a `forEach` over a ``Stack`` builds.
public struct _StackReducer<Parent: Reducer, Element: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toStack: WritableKeyPath<Parent.State, Stack<Element.State>>
  @usableFromInline let toStackAction: CasePath<Parent.Action, StackAction<Element.Action>>
  @usableFromInline let location: IssueLocation

  @usableFromInline
  init(
    parent: Parent, element: Element, toStack: WritableKeyPath<Parent.State, Stack<Element.State>>,
    toStackAction: CasePath<Parent.Action, StackAction<Element.Action>>, location: IssueLocation
  ) {
    self.parent = parent
    self.element = element
    self.toStack = toStack
    self.toStackAction = toStackAction
    self.location = location
  }

  /// Runs the element reducer for an element's action (reporting an unknown id), then the
  /// parent; pops on `.popFrom`, and cancels the effects of every element that went.
  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let stackAction = toStackAction.extract(action)
    var elementEffect = Effect<Parent.Action>.none
    switch stackAction {
    case .element(let id, let elementAction)?:
      if let index = state[keyPath: toStack].index(of: id) {
        let effect = element.reduce(into: &state[keyPath: toStack][index], action: elementAction)
        if !effect.isNone {
          let embed = toStackAction.embed
          elementEffect = effect.map { embed(.element(id: id, action: $0)) }
            .replacingDismiss(with: { embed(.popFrom(id: id)) })
            .namespaced(ElementID(keyPath: toStack, id: id))
        }
      } else {
        reportIssue(
          """
          A stack's 'forEach' received an action for an element that is not in the stack:
            id: \(id)
          \(indentedDump(elementAction))
          The action was ignored. Usually a late effect of a popped element.
          """, at: location)
      }
    case .popFrom(let id)?:
      if state[keyPath: toStack].index(of: id) == nil {
        reportIssue(
          """
          A stack's 'forEach' received '.popFrom(id: \(id))' for an element that is not in \
          the stack; it was ignored. Usually a second pop of the same element.
          """, at: location)
      }
    case nil:
      break
    }
    let idsBefore = state[keyPath: toStack].ids
    let parentEffect = parent.reduce(into: &state, action: action)
    if case .popFrom(let id)? = stackAction { state[keyPath: toStack].pop(from: id) }
    let idsAfter = state[keyPath: toStack].ids
    guard idsBefore != idsAfter else { return elementEffect.merge(with: parentEffect) }
    let remaining = Set(idsAfter)
    let stack: AnyKeyPath = toStack
    let teardown = idsBefore.filter { !remaining.contains($0) }.map {
      Effect<Parent.Action>.cancelNamespace(ElementID(keyPath: stack, id: $0))
    }
    // Before the parent's effects: an element they push at once keeps its own.
    return elementEffect.merge(with: .merge(teardown)).merge(with: parentEffect)
  }
}
