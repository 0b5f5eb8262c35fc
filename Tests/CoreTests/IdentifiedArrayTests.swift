import Core
import Foundation
import Testing

private struct Item: Identifiable, Equatable, Codable {
  var id: String
  var value = 0
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
