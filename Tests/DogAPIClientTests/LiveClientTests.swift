import Foundation
import TestHTTPServer
import TestSupport
import Testing

@testable import DogAPIClient

/// The live client against a real HTTP server on 127.0.0.1.
@Suite(.serialized)
struct LiveClientTests {
  let imageJSON =
    #"{"message":"https:\/\/images.dog.ceo\/breeds\/hound-afghan\/n02088094_1003.jpg","status":"success"}"#

  @Test(arguments: Transport.allCases) func fetchesTheBreedListFromTheNetworkAndCachesIt(
    _ transport: Transport
  ) async throws {
    let server = try TestHTTPServer { _ in .json(Fixture.breedsJSON) }
    defer { server.stop() }
    let cache = temporaryCache()
    let list = try await liveClient(server, transport, cache: cache).breeds()
    #expect(list.source == .network)
    #expect(list.breeds.count == 108)
    #expect(list.fallbackReason == nil)
    #expect(server.requests.map(\.path) == ["/api/breeds/list/all"])
    #expect(server.requests.first?.headers["user-agent"]?.hasPrefix("DogBreeds/") == true)
    #expect(cache.load()?.breeds == list.breeds)
  }

  /// Names that are not breed names are left out of the list (and of what is saved), and
  /// counted: a breed's with its sub-breeds.
  @Test func namesThatAreNotBreedNamesAreLeftOutAndCounted() async throws {
    let answer =
      #"{"message":{"../../tmp/evil":["a"],"hound":["afghan","x\u001b[2J"],"pug":[],"Pug":[]},"status":"success"}"#
    let server = try TestHTTPServer { _ in .json(answer) }
    defer { server.stop() }
    let cache = temporaryCache()
    let list = try await liveClient(server, cache: cache).breeds()
    #expect(list.breeds == [Breed(name: "hound", subBreeds: ["afghan"]), Breed(name: "pug")])
    #expect(list.leftOutNames == 4)
    #expect(cache.load()?.breeds == list.breeds)
  }

  @Test(arguments: Transport.allCases) func requestsARandomImageForABreedAndASubBreed(_ transport: Transport)
    async throws
  {
    let server = try TestHTTPServer { [imageJSON] _ in .json(imageJSON) }
    defer { server.stop() }
    let client = liveClient(server, transport)
    let url = try await client.randomImage("hound", nil)
    _ = try await client.randomImage("hound", "afghan")
    #expect(url.absoluteString == "https://images.dog.ceo/breeds/hound-afghan/n02088094_1003.jpg")
    #expect(
      server.requests.map(\.path) == [
        "/api/breed/hound/images/random", "/api/breed/hound/afghan/images/random",
      ])
  }

  /// A base URL written with a trailing slash (`--base-url http://host/api/`) is the same
  /// root: no empty path segment, which a server may refuse or route elsewhere.
  @Test(arguments: Transport.allCases) func aBaseURLWithATrailingSlashIsTheSameRoot(_ transport: Transport)
    async throws
  {
    let server = try TestHTTPServer { [imageJSON] request in
      .json(request.path.hasSuffix("/random") ? imageJSON : Fixture.breedsJSON)
    }
    defer { server.stop() }
    let base = URL(string: server.baseURL.appendingPathComponent("api").absoluteString + "/")!
    let client = liveClient(.init(baseURL: base, usesBundledFallback: false), transport)
    #expect(try await client.breeds().source == .network)
    _ = try await client.randomImage("hound", "afghan")
    #expect(server.requests.map(\.path) == ["/api/breeds/list/all", "/api/breed/hound/afghan/images/random"])
  }

  @Test(arguments: Transport.allCases) func a404BreedIsNotFound(_ transport: Transport) async throws {
    let server = try TestHTTPServer { _ in
      .json(
        #"{"status":"error","message":"Breed not found (master breed does not exist)","code":404}"#,
        status: 404)
    }
    defer { server.stop() }
    let failure = await error { try await liveClient(server, transport).randomImage("nosuchbreed", nil) }
    #expect(failure == .notFound(message: "Breed not found (master breed does not exist)"))
  }

  @Test(arguments: Transport.allCases) func aStatusWithHTMLIsAServerErrorWithoutMessage(
    _ transport: Transport
  )
    async throws
  {
    let server = try TestHTTPServer { _ in
      .text("<html><h1>500</h1></html>", status: 500, contentType: "text/html")
    }
    defer { server.stop() }
    let failure = await error { try await liveClient(server, transport).randomImage("hound", nil) }
    #expect(failure == .server(status: 500, message: nil))
    // A rate limit's page (a CDN's HTML) is the same, and says what it is.
    let limiting = try TestHTTPServer { _ in
      .text("<html><h1>Too Many Requests</h1></html>", status: 429, contentType: "text/html")
    }
    defer { limiting.stop() }
    let limited = await error { try await liveClient(limiting, transport).breeds() }
    #expect(limited == .server(status: 429, message: nil))
    #expect(limited?.message.contains("too many requests (HTTP 429)") == true)
  }

  @Test(arguments: Transport.allCases) func invalidNamesAreRejectedBeforeAnyRequest(_ transport: Transport)
    async throws
  {
    let server = try TestHTTPServer { [imageJSON] _ in .json(imageJSON) }
    defer { server.stop() }
    let client = liveClient(server, transport)
    let cases: [(String, String?)] = [
      ("../etc", nil), ("hound", "../../x"), ("hou\u{1B}[2Jnd", nil), ("Hound", nil), ("hound%2F..", nil),
    ]
    for (breed, sub) in cases {
      let failure = await error { try await client.randomImage(breed, sub) }
      #expect(failure == .invalidBreedName(sub ?? breed))
    }
    #expect(server.requests.isEmpty)
  }

  @Test(arguments: Transport.allCases) func downloadsImageBytesAndReportsImageErrors(_ transport: Transport)
    async throws
  {
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
    let server = try TestHTTPServer { request in
      request.path == "/ok.jpg" ? .bytes(jpeg) : .text("gone", status: 404)
    }
    defer { server.stop() }
    let client = liveClient(server, transport)
    let data = try await client.imageData(server.baseURL.appendingPathComponent("ok.jpg"))
    #expect(Array(data) == jpeg)
    let missing = await error {
      try await client.imageData(server.baseURL.appendingPathComponent("missing.jpg"))
    }
    #expect(missing == .server(status: 404, message: nil))
    let notWeb = await error { try await client.imageData(URL(string: "file:///etc/passwd")!) }
    #expect(notWeb == .invalidURL("file:///etc/passwd"))
  }

  /// The last pictures downloaded are kept: the one on screen, decoded again at a new
  /// size, is not downloaded again; an older one, pushed out, is.
  @Test func theLastPicturesAreKeptNotDownloadedAgain() async throws {
    let server = try TestHTTPServer { request in .bytes(Array(request.path.utf8)) }
    defer { server.stop() }
    let client = liveClient(server, .platform)
    let first = server.baseURL.appendingPathComponent("1.jpg")
    for _ in 0..<3 { #expect(Array(try await client.imageData(first)) == Array("/1.jpg".utf8)) }
    #expect(server.requests.count == 1)
    for name in ["2.jpg", "3.jpg"] {
      _ = try await client.imageData(server.baseURL.appendingPathComponent(name))
    }
    _ = try await client.imageData(first)
    #expect(server.requests.map(\.path) == ["/1.jpg", "/2.jpg", "/3.jpg", "/1.jpg"])
  }

  /// Schemes are case-insensitive; corelibs' URLSession takes only lower case, and said
  /// "you may be offline" for `HTTP://`.
  @Test(arguments: Transport.allCases) func aSchemeInCapitalsIsTheSameScheme(_ transport: Transport)
    async throws
  {
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
    let server = try TestHTTPServer { request in
      request.path == "/ok.jpg" ? .bytes(jpeg) : .json(Fixture.breedsJSON)
    }
    defer { server.stop() }
    let shouted = URL(string: "HTTP://127.0.0.1:\(server.port)/api")!
    let list = try await liveClient(.init(baseURL: shouted, usesBundledFallback: false), transport).breeds()
    #expect(list.source == .network && list.breeds.count == 108)
    let image = URL(string: "Http://127.0.0.1:\(server.port)/ok.jpg")!
    #expect(Array(try await liveClient(server, transport).imageData(image)) == jpeg)
    // Not HTTP at all: refused at once, not after the timeout.
    let other = URL(string: "ftp://127.0.0.1:\(server.port)/api")!
    let refused = await error {
      try await liveClient(.init(baseURL: other, usesBundledFallback: false), transport).breeds()
    }
    #expect(refused == .invalidURL("ftp://127.0.0.1:\(server.port)/api/breeds/list/all"))
  }

  /// A request made from a task already cancelled ends at once as cancelled, making no
  /// request (the stop comes before there is anyone to answer; the answer must still come).
  @Test(arguments: Transport.allCases) func aRequestFromACancelledTaskEndsAtOnce(_ transport: Transport)
    async throws
  {
    let server = try TestHTTPServer { _ in .stall }
    defer { server.stop() }
    let client = liveClient(server, transport, timeout: .seconds(2))
    let task = Task { () async -> DogAPIError? in
      withUnsafeCurrentTask { $0?.cancel() }
      return await error { try await client.randomImage("hound", nil) }
    }
    #expect(await value(of: task, within: .seconds(10).scaled) == .some(.cancelled))
    #expect(server.requests.isEmpty)
  }

  @Test(arguments: Transport.allCases) func cancellingARequestStopsItPromptly(_ transport: Transport)
    async throws
  {
    let server = try TestHTTPServer { _ in .stall }
    defer { server.stop() }
    let client = liveClient(server, transport, timeout: .seconds(30))
    let start = ContinuousClock.now
    let task = Task { await error { try await client.randomImage("hound", nil) } }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    #expect(await task.value == .cancelled)
    // Long before the 30 s deadline, with room for a machine under load.
    #expect(ContinuousClock.now - start < Duration.seconds(10).scaled)
    // …and the transfer ends too: the client hangs up, long before its 30 s deadline.
    let bound = ContinuousClock.now + Duration.seconds(5).scaled
    while server.openConnections > 0, ContinuousClock.now < bound {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(server.openConnections == 0, "still open after \(ContinuousClock.now - start)")
  }
}
