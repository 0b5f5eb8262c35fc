import AppFeature
import DogAPIClient
import Foundation
import Testing

@testable import SessionRecording

/// The Swift source `replay --test` writes for values, and the failures it answers with.
struct SwiftSourceTests {
  @Test func valuesAreWrittenAsSwiftSource() {
    #expect(SwiftSource.literal("a \"b\"\n\u{1b}") == #""a \"b\"\n\u{1b}""#)
    #expect(
      SwiftSource.literal(AppFeature.Action.dogs(.filterChanged("hou"))) == #".dogs(.filterChanged("hou"))"#)
    #expect(SwiftSource.literal(AppFeature.Action.helpScrolled(to: 3)) == ".helpScrolled(to: 3)")
    #expect(SwiftSource.literal(AppFeature.Action.quitRequested) == ".quitRequested")
    #expect(SwiftSource.literal(Set(["pug", "hound"])) == #"["hound", "pug"]"#)
    #expect(SwiftSource.literal(Optional<Int>.none as Any) == "nil")
    #expect(
      SwiftSource.literal(Date(timeIntervalSinceReferenceDate: 12.5))
        == "Date(timeIntervalSinceReferenceDate: 12.5)")
    // What it cannot write, it asks for.
    let list = BreedList(breeds: [Breed(name: "pug")], source: .network)
    #expect(SwiftSource.literal(list) == nil)
    #expect(
      SwiftSource.literal(AppFeature.Action.dogs(.savedBreedsLoaded(list))) { _ in "recorded.payload(of: 3)" }
        == ".dogs(.savedBreedsLoaded(recorded.payload(of: 3)))")
    #expect(SwiftSource.literal(String(repeating: "x", count: 500)) == nil)
  }

  @Test(arguments: [
    DogAPIError.server(status: 503, message: "Service unavailable"), .server(status: 404, message: nil),
    .notFound(message: "the API lists no picture of pug"), .offline,
    .connectionRefused(server: "127.0.0.1:9"),
    .unreachable(host: "dog.ceo"), .timedOut(seconds: 10),
  ])
  func aFailureIsFoundAgainFromItsMessage(error: DogAPIError) {
    #expect(RecordedAnswers.error(saying: error.message).message == error.message)
  }
}
