import Core
import Foundation
import Testing

/// `Stack`'s own behaviour, without a store: ids, pushes and pops, reading by id.
struct StackTests {
  @Test func pushedElementsGetIdsInOrderThatAreNeverGivenAgain() {
    var stack = Stack<String>()
    #expect(stack.push("hound") == 0)
    #expect(stack.push("afghan") == 1)
    stack.popLast()
    #expect(stack.push("basset") == 2)
    #expect(stack.ids == [0, 2])
    #expect(Array(stack) == ["hound", "basset"])
  }

  @Test func popFromRemovesTheElementAndThoseAboveIt() {
    var stack: Stack = ["a", "b", "c", "d"]
    stack.pop(from: 2)
    #expect(stack.ids == [0, 1])
    stack.pop(from: 7)  // not there: nothing happens
    #expect(Array(stack) == ["a", "b"])
  }

  @Test func popToKeepsTheElementOnTop() {
    var stack: Stack = ["a", "b", "c", "d"]
    stack.pop(to: 1)
    #expect(stack.ids == [0, 1])
    #expect(stack.last == "b")
    stack.pop(to: 9)
    #expect(stack.count == 2)
  }

  @Test func anElementIsReadAndChangedByIdAndSettingNilPopsFromIt() {
    var stack: Stack = ["a", "b", "c"]
    #expect(stack[id: 1] == "b")
    #expect(stack[id: 5] == nil)
    stack[id: 1]? += "!"
    #expect(Array(stack) == ["a", "b!", "c"])
    stack[id: 5] = "z"  // not there: nothing happens
    #expect(stack.count == 3)
    stack[id: 1] = nil
    #expect(Array(stack) == ["a"])
  }

  @Test func removeAllKeepsCountingIds() {
    var stack: Stack = ["a", "b"]
    stack.removeAll()
    #expect(stack.isEmpty)
    #expect(stack.push("c") == 2)
  }

  @Test func equalityIsByIdsAndElementsInOrder() {
    var pushedAndPopped: Stack = ["a", "b"]
    pushedAndPopped.popLast()
    #expect(pushedAndPopped == ["a"])
    var other = Stack<String>()
    other.push("x")
    other.push("a")
    other.pop(from: 0)
    other.push("a")  // id 2
    #expect(other != ["a"])
    #expect(other.ids == [2])
  }

  @Test func aDiffNamesElementsByTheirIds() {
    var after: Stack = ["hound", "afghan"]
    after[id: 1] = "basset"
    let diff = diffValues(Stack(["hound", "afghan"]), after)
    #expect(
      diff == """
          Stack<String>(
            … (1 unchanged)
        -   #1: "afghan"
        +   #1: "basset"
          )
        """)
  }

  @Test func anIdPrintsWithAHashAndOrdersByPush() {
    #expect("\(StackElementID(3))" == "#3")
    #expect(StackElementID(1) < 2)
  }

  @Test func anActionAddressedByIdCodesTheIdAsItsNumber() throws {
    enum Action: Equatable, Codable { case tap }
    let action = StackAction<Action>.element(id: 3, action: .tap)
    // Keys sorted: an encoder's order of keys is otherwise its own.
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(action)
    #expect(String(decoding: data, as: UTF8.self) == #"{"element":{"action":{"tap":{}},"id":3}}"#)
    #expect(try JSONDecoder().decode(StackAction<Action>.self, from: data) == action)
  }
}
