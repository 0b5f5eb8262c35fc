import Core
import DogAPIClient
import Foundation
import TestSupport
import Testing

struct FakeClientTests {
  @Test func fakeIsDeterministicAndShapedLikeTheAPI() async throws {
    let client = DogAPIClient.fake()
    let list = try await client.breeds()
    #expect(list.breeds.count == 108)
    let first = try await client.randomImage("hound", "afghan")
    let second = try await client.randomImage("hound", nil)
    #expect(first.absoluteString == "https://images.dog.ceo/breeds/hound-afghan/fake_1.jpg")
    #expect(second.absoluteString == "https://images.dog.ceo/breeds/hound/fake_2.jpg")
    let bytes = try await client.imageData(first)
    #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
  }

  @Test func fakeRejectsUnknownAndInvalidBreeds() async {
    let client = DogAPIClient.fake()
    #expect(
      await error { try await client.randomImage("unicorn", nil) }
        == .notFound(message: "Breed not found (main breed does not exist)"))
    #expect(await error { try await client.randomImage("../x", nil) } == .invalidBreedName("../x"))
    #expect(
      await error { try await client.randomImage("hound", "golden") }
        == .notFound(message: "Breed not found (sub breed does not exist)"))
    #expect(await error { try await client.randomImage("hound", "a/b") } == .invalidBreedName("a/b"))
  }

  @Test func fakePicturesAlternateBetweenABaselineAndAProgressiveJPEG() async throws {
    let client = DogAPIClient.fake()
    func isProgressive(_ bytes: Data) -> Bool {
      // A start-of-frame marker: C0 baseline, C2 progressive.
      let bytes = [UInt8](bytes)
      return zip(bytes, bytes.dropFirst()).contains { $0 == 0xFF && $1 == 0xC2 }
    }
    let odd = try await client.imageData(URL(string: "https://images.dog.ceo/breeds/pug/fake_1.jpg")!)
    let even = try await client.imageData(URL(string: "https://images.dog.ceo/breeds/pug/fake_2.jpg")!)
    #expect(!isProgressive(odd) && isProgressive(even))
    // Decoded from the base64 compiled in, byte for byte the test fixture it was made from.
    #expect([UInt8](odd) == JPEGFixture.bytes("synthetic-500x375-baseline.jpg"))
  }

  @Test func fakeLatencyDelaysEveryAnswerAndCancellationEndsTheWait() async throws {
    let client = DogAPIClient.fake(latency: .milliseconds(100))
    let clock = ContinuousClock()
    let start = clock.now
    _ = try await client.breeds()
    #expect(clock.now - start >= .milliseconds(100))
    let slow = DogAPIClient.fake(latency: .seconds(60))
    let task = Task { await error { try await slow.randomImage("hound", nil) } }
    task.cancel()
    #expect(await task.value == .cancelled)
  }
}

struct FailingClientTests {
  @Test func everyEndpointReportsItsNameAndThrows() async {
    let collector = IssueCollector()
    let errors: [DogAPIError?] = await withIssueReporter(collector) {
      [
        await error { try await DogAPIClient.failing.breeds() },
        await error { try await DogAPIClient.failing.randomImage("hound", nil) },
        await error { try await DogAPIClient.failing.imageData(URL(string: "https://x/y.jpg")!) },
      ]
    }
    #expect(
      collector.messages == [
        "unimplemented: DogAPIClient.breeds", "unimplemented: DogAPIClient.randomImage",
        "unimplemented: DogAPIClient.imageData",
      ])
    #expect(
      errors == [
        .unimplemented(endpoint: "DogAPIClient.breeds"), .unimplemented(endpoint: "DogAPIClient.randomImage"),
        .unimplemented(endpoint: "DogAPIClient.imageData"),
      ])
  }

  @Test func theFailingClientFailsTheRunningTest() async {
    await withKnownIssue {
      _ = try? await DogAPIClient.failing.breeds()
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "unimplemented: DogAPIClient.breeds" }
    }
  }
}
