extension Reducer {
  /// Runs an element reducer on one element of an identified collection, for actions
  /// addressed to that element by id.
  ///
  /// ```swift
  /// enum Action {
  ///   case rows(id: Row.State.ID, action: Row.Action)
  /// }
  ///
  /// Reduce { state, action in … }
  ///   .forEach(\.rows, action: Action.rows) { Row() }
  /// ```
  ///
  /// Each element's effects live in their own namespace: cancel ids do not collide
  /// between elements, and removing an element cancels its effects. An action for an id
  /// that is not in the collection is reported as an issue and ignored.
  ///
  /// An element's own store, for a row's view:
  ///
  /// ```swift
  /// store.scope(state: \.rows[id: id], action: { .rows(id: id, action: $0) }).unwrapped()
  /// ```
  ///
  /// - Parameters:
  ///   - elements: The collection of element states.
  ///   - action: How an `(id, element action)` pair embeds into this reducer's action.
  ///   - element: The element reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable @inline(__always)
  public func forEach<ElementState: Identifiable, ElementAction, Element: Reducer>(
    _ elements: WritableKeyPath<State, IdentifiedArray<ElementState>>,
    action: CasePath<Action, (ElementState.ID, ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _ForEachReducer<Self, Element>
  where
    Element.State == ElementState, Element.Action == ElementAction,
    ElementState.ID: Sendable
  {
    _ForEachReducer(
      parent: self, element: element(), toElements: elements, toElementAction: action,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)-(_,(ElementState.ID,ElementAction)->Action,_,_,_,_,_)`` builds.
public struct _ForEachReducer<Parent: Reducer, Element: Reducer>: Reducer
where Element.State: Identifiable, Element.State.ID: Sendable {
  /// The identifier type of the elements.
  public typealias ID = Element.State.ID
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toElements: WritableKeyPath<Parent.State, IdentifiedArray<Element.State>>
  /// `toElements`, with its offset looked up once.
  @usableFromInline let elementsPath: StatePath<Parent.State, IdentifiedArray<Element.State>>
  @usableFromInline let toElementAction: CasePath<Parent.Action, (ID, Element.Action)>
  @usableFromInline let location: IssueLocation

  @usableFromInline @inline(__always)
  init(
    parent: Parent, element: Element,
    toElements: WritableKeyPath<Parent.State, IdentifiedArray<Element.State>>,
    toElementAction: CasePath<Parent.Action, (ID, Element.Action)>, location: IssueLocation
  ) {
    self.parent = parent
    self.element = element
    self.toElements = toElements
    self.elementsPath = StatePath(toElements)
    self.toElementAction = toElementAction
    self.location = location
  }

  /// Runs the element reducer for an element action (reporting an unknown id), then the parent
  /// reducer; cancels the effects of elements that the action removed.
  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let toElements = elementsPath
    var elementEffect = Effect<Parent.Action>.none
    if let (id, elementAction) = toElementAction.extract(action) {
      let effect = toElements.modify(&state) { elements -> Effect<Element.Action>? in
        guard let index = elements.index(id: id) else { return nil }
        return element.reduce(into: &elements[index], action: elementAction)
      }
      if let effect {
        if !effect.isNone {
          let embed = toElementAction.embed
          elementEffect = effect.map { embed((id, $0)) }
            .namespaced(ElementID(keyPath: self.toElements, id: id))
        }
      } else {
        reportIssue(
          """
          A 'forEach' received an action for an element that is not in the collection:
            id: \(dumpValue(id))
          \(indentedDump(elementAction))
          The action was ignored. Usually a late effect of a removed element.
          """, at: location)
      }
    }
    // The ids alone (not the whole collection): one array kept, and usually the same one
    // after, which compares at once.
    let idsBefore = toElements.modify(&state) { $0.ids }
    let parentEffect = parent.reduce(into: &state, action: action)
    let idsAfter = toElements.modify(&state) { $0.ids }
    guard idsBefore != idsAfter else { return elementEffect.merge(with: parentEffect) }
    let remaining = Set(idsAfter)
    let elements: AnyKeyPath = self.toElements
    let teardown = idsBefore.lazy.filter { !remaining.contains($0) }.map {
      Effect<Parent.Action>.cancelNamespace(ElementID(keyPath: elements, id: $0))
    }
    // Before the parent's effects: an element they add again at once keeps its own.
    return elementEffect.merge(with: .merge(teardown)).merge(with: parentEffect)
  }
}

// MARK: Given the case

extension Reducer {
  /// Runs an element reducer on every element of a collection, its actions the case
  /// `action` of this reducer's, with the element's id (see the form that takes a
  /// ``CasePath``).
  ///
  /// ```swift
  /// enum Action { case rows(id: Row.ID, action: Row.Action) }
  /// // …
  /// .forEach(\.rows, action: Action.rows) { Row() }
  /// ```
  ///
  /// - Parameters:
  ///   - elements: The collection.
  ///   - action: The case of this reducer's action that carries an element's id and action.
  ///   - element: The element reducer.
  ///   - fileID: The caller's file, for issues this reports (the default is the caller's).
  ///   - filePath: The caller's file path, likewise.
  ///   - line: The caller's line, likewise.
  ///   - column: The caller's column, likewise.
  /// - Returns: The combined reducer.
  @inlinable
  public func forEach<ElementState: Identifiable, ElementAction, Element: Reducer>(
    _ elements: WritableKeyPath<State, IdentifiedArray<ElementState>>,
    action: @escaping @Sendable (ElementState.ID, ElementAction) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> _ForEachReducer<Self, Element>
  where
    Element.State == ElementState, Element.Action == ElementAction,
    ElementState.ID: Sendable
  {
    forEach(
      elements, action: CasePath(action), element: element, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}
