/// An ordered collection of identifiable elements with fast access by id.
///
/// Reading, replacing or mutating an element by id is a dictionary lookup plus an
/// in-place array access; order is kept. Ids are unique: adding an element whose id is
/// already present replaces that element in place. It is `Codable` as a plain array when
/// its elements are.
///
/// ```swift
/// var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
/// rows[id: 2]?.isSelected = true
/// rows.remove(id: 1)
/// ```
public struct IdentifiedArray<Element: Identifiable>: RandomAccessCollection {
  /// The type of the elements' identifiers.
  public typealias ID = Element.ID

  @usableFromInline var storage: [Element]
  @usableFromInline var positions: [ID: Int]
  /// The ids, in order.
  public internal(set) var ids: [ID]

  /// Creates an empty array.
  public init() {
    self.storage = []
    self.positions = [:]
    self.ids = []
  }

  /// Creates an array from elements; a later element with an id already seen replaces
  /// the earlier one in its position.
  ///
  /// - Parameter elements: The elements, in order.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { updateOrAppend(element) }
  }

  /// The position of the first element (always 0).
  public var startIndex: Int { 0 }
  /// The position after the last element.
  public var endIndex: Int { storage.count }

  /// The element at `position`, which must be a valid index.
  @inlinable
  public subscript(position: Int) -> Element {
    get { storage[position] }
    _modify {
      let id = storage[position].id
      yield &storage[position]
      if storage[position].id != id { reindexAfterIDChange(at: position, from: id) }
    }
  }

  /// The index of the element with `id`, if present.
  ///
  /// - Parameter id: An element id.
  @inlinable
  public func index(id: ID) -> Int? { positions[id] }

  /// Whether an element with `id` is present.
  ///
  /// - Parameter id: An element id.
  public func contains(id: ID) -> Bool { positions[id] != nil }

  /// The element with `id`. Setting `nil` removes it; setting a value for an absent id
  /// appends it; setting one with another id removes this one and puts that one in.
  ///
  /// Changing the element through it (`rows[id: 2]?.tags.append("new")`) works on the
  /// element where it is stored, not on a copy: the tags are not copied to be appended to.
  ///
  /// - Parameter id: An element id.
  public subscript(id id: ID) -> Element? {
    get { positions[id].map { storage[$0] } }
    set { replace(id: id, with: newValue) }
    _modify {
      guard let index = positions[id], storage.count > 1 else {
        // Absent, or alone (see `putBack`): through a copy.
        var element = self[id: id]
        defer { replace(id: id, with: element) }
        yield &element
        return
      }
      // Moved out, so that it is the only reference to what it holds while it changes.
      var element: Element? = storage.withUnsafeMutableBufferPointer { ($0.baseAddress! + index).move() }
      defer { putBack(element, movedOutOf: index, id: id) }
      yield &element
    }
  }

  private mutating func replace(id: ID, with element: Element?) {
    if let element {
      if positions[id] != nil, element.id != id { remove(id: id) }
      updateOrAppend(element)
    } else {
      remove(id: id)
    }
  }

  /// Ends a change made through `subscript(id:)`: `element`, taken out of position `index`
  /// (that slot of `storage` holds nothing now), goes back there if it still has `id`;
  /// otherwise the slot is closed up and the change is made as by the setter.
  private mutating func putBack(_ element: Element?, movedOutOf index: Int, id: ID) {
    if let element, element.id == id {
      storage.withUnsafeMutableBufferPointer { ($0.baseAddress! + index).initialize(to: element) }
      return
    }
    // The empty slot gets a copy of a neighbour (there are at least two elements) for
    // the removal to drop.
    storage.withUnsafeMutableBufferPointer { buffer in
      (buffer.baseAddress! + index).initialize(to: buffer[index == 0 ? 1 : 0])
    }
    storage.remove(at: index)
    forget(id, at: index)
    if let element { updateOrAppend(element) }
  }

  /// Updates the ids and positions for the element with `id` removed from `index`.
  private mutating func forget(_ id: ID, at index: Int) {
    ids.remove(at: index)
    positions[id] = nil
    reindex(from: index)
  }

  /// Appends `element`, or replaces the element with the same id where it stands.
  ///
  /// - Parameter element: The element.
  /// - Returns: The element it replaced, if any.
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    if let index = positions[element.id] {
      let old = storage[index]
      storage[index] = element
      return old
    }
    positions[element.id] = storage.count
    ids.append(element.id)
    storage.append(element)
    return nil
  }

  /// Appends `element` if its id is not present yet.
  ///
  /// - Parameter element: The element.
  /// - Returns: Whether it was appended.
  @discardableResult
  public mutating func append(_ element: Element) -> Bool {
    guard positions[element.id] == nil else { return false }
    updateOrAppend(element)
    return true
  }

  /// Inserts `element` at `index` if its id is not present yet.
  ///
  /// - Parameters:
  ///   - element: The element.
  ///   - index: Where to insert it.
  /// - Returns: Whether it was inserted.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> Bool {
    guard positions[element.id] == nil else { return false }
    storage.insert(element, at: index)
    ids.insert(element.id, at: index)
    reindex(from: index)
    return true
  }

  /// Removes the element with `id`.
  ///
  /// - Parameter id: An element id.
  /// - Returns: The removed element, if it was present.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let index = positions[id] else { return nil }
    return remove(at: index)
  }

  /// Removes the element at `index`.
  ///
  /// - Parameter index: A valid index.
  /// - Returns: The removed element.
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let element = storage.remove(at: index)
    forget(element.id, at: index)
    return element
  }

  /// Removes every element that matches.
  ///
  /// - Parameter shouldRemove: Returns `true` for elements to remove.
  public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
    let kept = try storage.filter { try !shouldRemove($0) }
    guard kept.count != storage.count else { return }
    self = IdentifiedArray(kept)
  }

  /// Sorts the elements in place.
  ///
  /// - Parameter areInIncreasingOrder: The ordering.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try storage.sort(by: areInIncreasingOrder)
    ids = storage.map(\.id)
    reindex(from: 0)
  }

  /// The elements as a plain array.
  public var elements: [Element] { storage }

  @usableFromInline
  mutating func reindexAfterIDChange(at position: Int, from oldID: ID) {
    let newID = storage[position].id
    positions[oldID] = nil
    if let other = positions[newID] {
      // The element now duplicates another id: the mutated one wins, the other goes.
      storage.remove(at: other)
      ids.remove(at: other)
      ids[position > other ? position - 1 : position] = newID
      positions = [:]
      reindex(from: 0)
    } else {
      ids[position] = newID
      positions[newID] = position
    }
  }

  private mutating func reindex(from start: Int) {
    for index in start..<storage.count { positions[storage[index].id] = index }
  }
}

/// An identified array of `Element`, the usual spelling.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element>

extension IdentifiedArray: ExpressibleByArrayLiteral {
  /// Creates an array from a literal; later duplicates of an id replace earlier ones.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Two arrays are equal when they hold equal elements in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage == rhs.storage
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage)
  }
}

extension IdentifiedArray: Sendable where Element: Sendable, Element.ID: Sendable {}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as a plain array, in order.
  public func encode(to encoder: any Encoder) throws {
    try storage.encode(to: encoder)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  /// Decodes a plain array of elements. Two elements with the same id are an error
  /// (saved data that breaks the array's rule), not a silent loss of one of them.
  public init(from decoder: any Decoder) throws {
    let elements = try [Element](from: decoder)
    self.init(elements)
    guard count == elements.count else {
      let duplicate = elements.indices.first { index(id: elements[$0].id) != $0 }!
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "Element \(duplicate) has the id \(elements[duplicate].id) of an earlier element."
        ))
    }
  }
}

extension IdentifiedArray: CustomReflectable {
  /// Mirrors as the plain array of elements, so diffs show elements rather than storage.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: storage, displayStyle: .collection)
  }
}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, printed like an array.
  public var description: String { storage.description }
}
