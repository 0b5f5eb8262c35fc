import Foundation
import TestHTTPServer
import TestSupport
import Testing

@testable import DogAPIClient

extension LiveClientTests {
  @Test(arguments: Transport.allCases) func aBodyOverTheCapIsRejected(_ transport: Transport) async throws {
    let big = #"{"message":""# + String(repeating: "x", count: 5000) + #"","status":"success"}"#
    let server = try TestHTTPServer { _ in .json(big) }
    defer { server.stop() }
    let failure = await error {
      try await liveClient(server, transport, maxJSONBytes: 1024).randomImage("hound", nil)
    }
    #expect(failure == .responseTooLarge(limit: 1024))
  }

  @Test(arguments: Transport.allCases) func aBodyPromisedOverTheCapIsRefusedBeforeItArrives(
    _ transport: Transport
  ) async throws {
    // The head announces 10 MB; the server sends a little and waits. The client must not
    // wait for the rest (that would end in a timeout, after 5 s).
    let server = try TestHTTPServer { _ in .promising(length: 10_000_000, body: Array(#"{"message":""#.utf8))
    }
    defer { server.stop() }
    let start = ContinuousClock.now
    let failure = await error {
      try await liveClient(server, transport, maxJSONBytes: 1024).randomImage("hound", nil)
    }
    #expect(failure == .responseTooLarge(limit: 1024))
    // Well before the 5 s timeout, with room for a machine far busier than its cores.
    #expect(ContinuousClock.now - start < Duration.seconds(4).scaled)
  }

  @Test(arguments: Transport.allCases) func aChunkedBodyOverTheCapIsRejected(_ transport: Transport)
    async throws
  {
    // Chunked: no length is announced, so only counting what arrives can catch it.
    let big = #"{"message":""# + String(repeating: "x", count: 5000) + #"","status":"success"}"#
    let server = try TestHTTPServer { _ in .chunked(status: 200, body: Array(big.utf8), chunkSize: 512) }
    defer { server.stop() }
    let failure = await error {
      try await liveClient(server, transport, maxJSONBytes: 1024).randomImage("hound", nil)
    }
    #expect(failure == .responseTooLarge(limit: 1024))
    // …and a chunked answer under the cap is read whole.
    let fine = try TestHTTPServer { [imageJSON] _ in
      .chunked(status: 200, body: Array(imageJSON.utf8), chunkSize: 7)
    }
    defer { fine.stop() }
    #expect(await error { try await liveClient(fine, transport).randomImage("hound", nil) } == nil)
  }

  /// The cap is the most bytes taken: an answer of exactly that many is read whole, with its
  /// length announced or chunked; one byte more is refused.
  @Test(arguments: Transport.allCases) func anAnswerOfExactlyTheCapIsRead(_ transport: Transport) async throws
  {
    let bytes = Array(imageJSON.utf8)
    for chunked in [false, true] {
      let server = try TestHTTPServer { _ in
        chunked
          ? .chunked(status: 200, body: bytes, chunkSize: 100)
          : .bytes(bytes, contentType: "application/json")
      }
      defer { server.stop() }
      let exact = await error {
        try await liveClient(server, transport, maxJSONBytes: bytes.count).randomImage("hound", nil)
      }
      #expect(exact == nil, "chunked: \(chunked)")
      let short = await error {
        try await liveClient(server, transport, maxJSONBytes: bytes.count - 1).randomImage("hound", nil)
      }
      #expect(short == .responseTooLarge(limit: bytes.count - 1), "chunked: \(chunked)")
    }
  }

  @Test(arguments: Transport.allCases) func anEndlessBodySentFlatOutIsRefusedAtOnce(_ transport: Transport)
    async throws
  {
    // Over loopback the server can send faster than the client reads; the answer must
    // still come as soon as the body passes the cap, and the transfer stop there, long
    // before the 256 MB flood is over. (URLSession's cancel waited for a queue that such a
    // flood kept busy: answers came after up to 28 s and gigabytes read.) Paced to
    // 64 MB/s at most, so that a loaded machine's reader can keep up.
    let server = try TestHTTPServer { _ in .flood(bytes: 256 << 20, pause: .milliseconds(1)) }
    defer { server.stop() }
    let client = liveClient(
      .init(
        baseURL: server.baseURL.appendingPathComponent("api"), maxImageBytes: 1 << 20,
        usesBundledFallback: false), transport)
    let failure = await error { try await client.imageData(server.baseURL.appendingPathComponent("x.jpg")) }
    #expect(failure == .responseTooLarge(limit: 1 << 20))
    #expect(server.floodsSentWhole == 0)
  }

  /// A picture has its own cap, not the JSON answers': one past the second, within the
  /// first, is taken; one past the first is refused with it.
  @Test(arguments: Transport.allCases) func aPictureIsCappedByThePictureLimit(_ transport: Transport)
    async throws
  {
    let picture = [UInt8](repeating: 7, count: 3_000)
    let server = try TestHTTPServer { _ in .bytes(picture) }
    defer { server.stop() }
    func fetch(imageLimit: Int) async -> Result<Data, DogAPIError> {
      let client = liveClient(
        .init(
          baseURL: server.baseURL.appendingPathComponent("api"), maxJSONBytes: 1_000,
          maxImageBytes: imageLimit,
          usesBundledFallback: false), transport)
      do throws(DogAPIError) {
        return .success(try await client.imageData(server.baseURL.appendingPathComponent("x.jpg")))
      } catch {
        return .failure(error)
      }
    }
    #expect(await fetch(imageLimit: 5_000) == .success(Data(picture)))
    #expect(await fetch(imageLimit: 2_000) == .failure(.responseTooLarge(limit: 2_000)))
  }

  @Test(arguments: Transport.allCases) func aStallingServerTimesOutWithinTheLimit(_ transport: Transport)
    async throws
  {
    let server = try TestHTTPServer { _ in .stall }
    defer { server.stop() }
    let start = ContinuousClock.now
    let failure = await error {
      try await liveClient(server, transport, timeout: .milliseconds(500)).randomImage("hound", nil)
    }
    let elapsed = ContinuousClock.now - start
    #expect(failure == .timedOut(seconds: 0.5))  // the limit given, not rounded up
    // Neither late nor early: corelibs URLSession truncates sub-second timeouts to 0.
    #expect(elapsed >= .milliseconds(450), "took \(elapsed)")
    // Late by seconds only on a machine far busier than its cores (the slow drip below
    // once took 2.1 s on one).
    #expect(elapsed < Duration.seconds(4).scaled, "took \(elapsed)")
  }

  /// Each request a silent server holds ends at its own deadline, however many wait at
  /// once: more than the machine has cores (`show` asks for the list and a picture
  /// together), each transfer holding a thread, must not hold the deadlines back (a
  /// deadline waiting for a free worker fired a second late).
  @Test(arguments: Transport.allCases) func requestsStalledTogetherEachEndAtTheirDeadline(
    _ transport: Transport
  ) async throws {
    let server = try TestHTTPServer { _ in .stall }
    defer { server.stop() }
    let client = liveClient(server, transport, timeout: .milliseconds(500))
    let start = ContinuousClock.now
    let failures = await withTaskGroup(of: DogAPIError?.self) { group in
      for _ in 0..<ProcessInfo.processInfo.activeProcessorCount + 2 {
        group.addTask { await error { try await client.randomImage("hound", nil) } }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    let elapsed = ContinuousClock.now - start
    #expect(failures.allSatisfy { $0 == .timedOut(seconds: 0.5) }, "\(failures)")
    #expect(elapsed < .milliseconds(500) + Duration.milliseconds(800).scaled, "took \(elapsed)")
  }

  @Test(arguments: Transport.allCases) func aSlowDripPastTheDeadlineTimesOut(_ transport: Transport)
    async throws
  {
    // The answer would take 6 s (four bytes every quarter second), each byte resetting a
    // timeout that counts idle time: the deadline is the whole request's.
    let server = try TestHTTPServer { [imageJSON] _ in
      .drip(status: 200, body: Array(imageJSON.utf8), bytesPerChunk: 4, pause: .milliseconds(250))
    }
    defer { server.stop() }
    let start = ContinuousClock.now
    let failure = await error {
      try await liveClient(server, transport, timeout: .milliseconds(700)).randomImage("hound", nil)
    }
    #expect(failure == .timedOut(seconds: 0.7))
    // Well before the answer's end, with room for a machine far busier than its cores.
    let elapsed = ContinuousClock.now - start
    #expect(elapsed < Duration.seconds(4).scaled, "took \(elapsed)")
  }
}
