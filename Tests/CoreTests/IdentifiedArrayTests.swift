import Core
import Foundation
import Testing

private struct Item: Identifiable, Equatable, Codable {
  var id: String
  var value = 0
}

private final class Box {}

private struct Holder: Identifiable {
  var id: Int
  var box = Box()
  mutating func holdsItsBoxAlone() -> Bool { isKnownUniquelyReferenced(&box) }
}

private struct Tagged: Identifiable, Equatable {
  var id: Int
  var tags: [Int]
}

struct IdentifiedArrayTests {
  @Test func keepsOrderAndLooksUpByID() {
    let array: IdentifiedArrayOf<Item> = [Item(id: "b"), Item(id: "a"), Item(id: "c")]
    #expect(array.ids == ["b", "a", "c"])
    #expect(array[id: "a"] == Item(id: "a"))
    #expect(array[id: "z"] == nil)
    #expect(array.index(id: "c") == 2)
  }

  @Test func duplicateIDsReplaceInPlace() {
    let array = IdentifiedArray([Item(id: "a", value: 1), Item(id: "b"), Item(id: "a", value: 2)])
    #expect(array.ids == ["a", "b"])
    #expect(array[id: "a"]?.value == 2)
  }

  @Test func mutatingByIDIsInPlace() {
    var array: IdentifiedArrayOf<Item> = [Item(id: "a"), Item(id: "b")]
    array[id: "b"]?.value = 5
    array[0].value = 7
    #expect(array.map(\.value) == [7, 5])
  }

  /// A change through the id is made on the element where it is stored: what the element
  /// holds is referenced once while it changes, so appending to a list inside it does not
  /// copy the list first (through a copy of the element it would).
  @Test(arguments: [1, 3])
  func changingAnElementByIDDoesNotCopyWhatItHolds(count: Int) {
    var array = IdentifiedArray((0..<count).map { Holder(id: $0) })
    let alone = array[id: 0]?.holdsItsBoxAlone()
    // Alone in its array, the element is changed through a copy (see `putBack`).
    #expect(alone == (count > 1))
    #expect(array[id: count - 1]?.holdsItsBoxAlone() == (count > 1))
  }

  /// Every way a change through the id can end: the same id, another id (new or taken),
  /// or nothing; in the middle, at either end, and alone.
  @Test func everyChangeThroughTheIDEndsAsTheSetterWould() {
    func clear(_ element: inout Tagged?) { element = nil }
    func renumber(_ element: inout Tagged?, to id: Int) { element?.id = id }
    func create(_ element: inout Tagged?, id: Int) { element = Tagged(id: id, tags: [id]) }
    for count in 1...4 {
      let start = (0..<count).map { Tagged(id: $0, tags: [$0]) }
      for target in 0..<count {
        for change in 0..<4 {
          var array = IdentifiedArray(start)
          var expected = IdentifiedArray(start)
          switch change {
          case 0:
            clear(&array[id: target])
            expected[id: target] = nil
          case 1:
            renumber(&array[id: target], to: 10)
            expected[id: target] = Tagged(id: 10, tags: [target])
          case 2:
            let other = (target + 1) % count
            renumber(&array[id: target], to: other)
            expected[id: target] = Tagged(id: other, tags: [target])
          default:
            array[id: target]?.tags.append(99)
            expected[id: target] = Tagged(id: target, tags: [target, 99])
          }
          #expect(array == expected, "\(count) elements, change \(change) of \(target)")
          #expect(array.ids == expected.map(\.id))
          for (offset, element) in array.enumerated() { #expect(array.index(id: element.id) == offset) }
        }
      }
      var absent = IdentifiedArray(start)
      create(&absent[id: 7], id: 7)
      absent[id: 8]?.tags.append(1)
      #expect(absent.ids == Array(0..<count) + [7])
    }
  }

  @Test func settingNilRemovesAndSettingNewAppends() {
    var array: IdentifiedArrayOf<Item> = [Item(id: "a"), Item(id: "b")]
    array[id: "a"] = nil
    array[id: "c"] = Item(id: "c")
    #expect(array.ids == ["b", "c"])
    #expect(array.index(id: "c") == 1)
  }

  @Test func insertRemoveAndSortKeepTheIndexConsistent() {
    var array: IdentifiedArrayOf<Item> = [Item(id: "b"), Item(id: "d")]
    let inserted = array.insert(Item(id: "a"), at: 0)
    let insertedAgain = array.insert(Item(id: "a"), at: 1)
    let appended = array.append(Item(id: "c"))
    let appendedAgain = array.append(Item(id: "c"))
    #expect(inserted && !insertedAgain && appended && !appendedAgain)
    array.sort { $0.id < $1.id }
    #expect(array.ids == ["a", "b", "c", "d"])
    #expect(array.index(id: "c") == 2 && array[id: "d"]?.id == "d" && array.index(id: "d") == 3)
    let removed = array.remove(id: "b")
    let removedAgain = array.remove(id: "b")
    #expect(removed?.id == "b" && removedAgain == nil)
    #expect(array.ids == ["a", "c", "d"])
    for (offset, id) in array.ids.enumerated() { #expect(array.index(id: id) == offset) }
    array.removeAll { $0.id == "c" }
    #expect(array.ids == ["a", "d"])
    #expect(array.index(id: "d") == 1)
  }

  @Test func changingAnElementsIDThroughTheIndexReindexes() {
    var array: IdentifiedArrayOf<Item> = [Item(id: "a"), Item(id: "b")]
    array[1].id = "z"
    #expect(array.ids == ["a", "z"])
    #expect(array[id: "z"] != nil)
    #expect(array[id: "b"] == nil)
  }

  @Test func settingAnElementWithAnotherIDThroughTheIDSubscriptReplacesTheOld() {
    var array: IdentifiedArrayOf<Item> = [Item(id: "a"), Item(id: "b")]
    array[id: "a"] = Item(id: "c", value: 3)
    #expect(array.ids == ["b", "c"])
    #expect(array[id: "a"] == nil)
    #expect(array[id: "c"]?.value == 3)
  }

  /// A later element takes an earlier one's id, and the other way round: the changed
  /// element stays (with its value) where it was, the other goes.
  @Test(arguments: [(2, "a", ["b", "a"], 3), (0, "c", ["c", "b"], 1)])
  func changingAnIDToAnotherElementsIDKeepsTheChangedElement(
    position: Int, newID: String, ids: [String], value: Int
  ) {
    var array: IdentifiedArrayOf<Item> = [Item(id: "a", value: 1), Item(id: "b"), Item(id: "c", value: 3)]
    array[position].id = newID
    #expect(array.ids == ids)
    #expect(array.map(\.id) == ids)
    #expect(array[id: newID]?.value == value)
    for (offset, id) in array.ids.enumerated() { #expect(array.index(id: id) == offset) }
  }

  @Test func equalityIsByElementsInOrder() {
    let lhs: IdentifiedArrayOf<Item> = [Item(id: "a"), Item(id: "b")]
    let rhs: IdentifiedArrayOf<Item> = [Item(id: "b"), Item(id: "a")]
    #expect(lhs != rhs)
    #expect(lhs == [Item(id: "a"), Item(id: "b")])
  }

  @Test func containsElementsAndDescriptionSeeTheElementsInOrder() {
    let array: IdentifiedArrayOf<Item> = [Item(id: "b", value: 1), Item(id: "a", value: 2)]
    #expect(array.contains(id: "a") && !array.contains(id: "z"))
    #expect(array.elements == [Item(id: "b", value: 1), Item(id: "a", value: 2)])
    #expect(array.description == array.elements.description)
  }

  @Test func removeAllWithNoMatchKeepsEverythingAndItsIndex() {
    var array: IdentifiedArrayOf<Item> = [Item(id: "a"), Item(id: "b"), Item(id: "c")]
    array.removeAll { $0.value > 0 }
    #expect(array.ids == ["a", "b", "c"])
    array[id: "b"]?.value = 1
    array.removeAll { $0.value > 0 }
    #expect(array.ids == ["a", "c"])
    #expect(array.index(id: "c") == 1 && array[id: "c"] == Item(id: "c"))
  }

  @Test func hashingFollowsEquality() {
    let lhs: IdentifiedArrayOf<HashableItem> = [HashableItem(id: 1), HashableItem(id: 2)]
    let same: IdentifiedArrayOf<HashableItem> = [HashableItem(id: 1), HashableItem(id: 2)]
    let reversed: IdentifiedArrayOf<HashableItem> = [HashableItem(id: 2), HashableItem(id: 1)]
    #expect(lhs.hashValue == same.hashValue)
    #expect(lhs.hashValue == lhs.elements.hashValue)
    #expect(Set([lhs, same, reversed]).count == 2)
  }

  @Test func encodesAsAPlainArrayAndDecodesBack() throws {
    let array: IdentifiedArrayOf<Item> = [Item(id: "b", value: 2), Item(id: "a", value: 1)]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(array)
    #expect(String(decoding: data, as: UTF8.self) == #"[{"id":"b","value":2},{"id":"a","value":1}]"#)
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data)
    #expect(decoded == array)
    #expect(decoded[id: "a"]?.value == 1)
  }

  @Test func decodingTwoElementsWithOneIDIsAnError() {
    let data = Data(#"[{"id":"a","value":1},{"id":"b","value":2},{"id":"a","value":3}]"#.utf8)
    #expect {
      try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription == "Element 2 has the id a of an earlier element."
    }
  }
}

private struct HashableItem: Identifiable, Hashable { var id: Int }
