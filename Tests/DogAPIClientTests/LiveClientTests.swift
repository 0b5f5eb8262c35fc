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

  @Test(arguments: Transport.allCases) func aRefusedConnectionNamesTheServerAndPort(_ transport: Transport)
    async throws
  {
    // Not "you may be offline": the host was there, nothing listened on the port.
    let port = TestHTTPServer.refusedPort()
    let client = liveClient(
      .init(baseURL: URL(string: "http://127.0.0.1:\(port)/api")!, usesBundledFallback: false), transport)
    let failure = await error { try await client.randomImage("hound", nil) }
    #expect(failure == .connectionRefused(server: "127.0.0.1:\(port)"))
    #expect(failure?.isTransient == true)
    // After a redirect, the server that refused is the one it led to.
    let redirecting = try TestHTTPServer { _ in
      .raw(
        Array("HTTP/1.1 302 Found\r\nLocation: http://localhost:\(port)/x\r\nContent-Length: 0\r\n\r\n".utf8))
    }
    defer { redirecting.stop() }
    let redirected = await error { try await liveClient(redirecting, transport).randomImage("hound", nil) }
    if transport == .platform {
      // (By the name it led to, which is not the one asked for.)
      #expect(redirected == .connectionRefused(server: "localhost:\(port)"))
    } else {
      // URLSession does not say where it was: the address asked for is named.
      #expect(redirected == .connectionRefused(server: "127.0.0.1:\(redirecting.port)"))
    }
  }

  @Test(arguments: Transport.allCases) func a407IsTheProxysRefusal(_ transport: Transport) async throws {
    // Only a proxy answers 407, in the server's place for a plain-HTTP address: a
    // server error would hide that the proxy wants a login. The image, its bytes too.
    let server = try TestHTTPServer { _ in .text("Proxy Authentication Required", status: 407) }
    defer { server.stop() }
    let client = liveClient(
      .init(baseURL: server.baseURL.appendingPathComponent("api"), usesBundledFallback: false), transport)
    let refusal = DogAPIError.proxyRefused(host: "127.0.0.1", status: 407)
    #expect(await error { try await client.randomImage("hound", nil) } == refusal)
    #expect(
      await error { _ = try await client.imageData(server.baseURL.appendingPathComponent("x.jpg")) }
        == refusal)
  }

  @Test(
    .disabled(
      if: !Transport.proxiesLoopback,
      "runs only to say, where a proxy is set, that URLSession's half of this suite is left out"))
  func urlSessionIsLeftOutBehindAProxy() {
    #expect(Transport.allCases == [.platform])
  }

  @Test func loopbackIsAlwaysReachedWithoutAProxy() {
    let loopback = "localhost,127.0.0.1,::1"
    #expect(HTTPFetcher.directHosts(environment: [:]) == loopback)
    #expect(HTTPFetcher.directHosts(environment: ["no_proxy": ""]) == loopback)
    #expect(HTTPFetcher.directHosts(environment: ["no_proxy": "corp.example"]) == "corp.example," + loopback)
    // libcurl's order: the lower-case variable first.
    #expect(HTTPFetcher.directHosts(environment: ["NO_PROXY": "a.example"]) == "a.example," + loopback)
    #expect(
      HTTPFetcher.directHosts(environment: ["no_proxy": "b.example", "NO_PROXY": "a.example"])
        == "b.example," + loopback)
    // "*" alone is every host, and stays alone.
    #expect(HTTPFetcher.directHosts(environment: ["no_proxy": "*"]) == "*")
    #expect(HTTPFetcher.directHosts(environment: ["no_proxy": " * "]) == "*")
  }

  #if os(Linux)
    @Test func aProxyThatCannotBeReachedIsNamedFromLibcurlsWords() {
      // libcurl names the far end of a connection that failed: the proxy, when it is not
      // the host asked for. (The CLI's tests run real transfers through dead proxies.)
      func proxy(_ code: Int32, _ text: String, host: String = "dog.ceo", redirects: Int = 0) -> String? {
        CurlFailure(code: code, errorText: text, redirects: redirects).unreachableProxy(host: host)
      }
      let refused = "Failed to connect to 10.0.0.1 port 3128 after 0 ms: Couldn't connect to server"
      #expect(proxy(7, refused) == "10.0.0.1:3128")
      #expect(proxy(7, "Failed to connect to ::1 port 8080 after 3 ms: x") == "[::1]:8080")
      #expect(proxy(7, "Failed to connect to Proxy.Corp port 80 after 1 ms: x") == "Proxy.Corp:80")
      #expect(proxy(5, "Could not resolve proxy: proxy.corp") == "proxy.corp")
      // A SOCKS proxy's name whose resolving failed at once: result 5, a host's words.
      #expect(proxy(5, "Could not resolve host: proxy.corp") == "proxy.corp")
      // The host itself, in any case or brackets: not a proxy.
      #expect(proxy(7, "Failed to connect to dog.ceo port 443 after 9 ms: x") == nil)
      #expect(proxy(7, "Failed to connect to DOG.ceo port 443 after 9 ms: x") == nil)
      #expect(proxy(7, "Failed to connect to ::1 port 80 after 0 ms: x", host: "[::1]") == nil)
      // After a redirect the far end may be where it led; other results and other words
      // say nothing of a proxy.
      #expect(proxy(7, refused, redirects: 1) == nil)
      #expect(proxy(6, "Could not resolve host: dog.ceo") == nil)
      #expect(proxy(6, "Could not resolve host: DOG.CEO") == nil)
      #expect(proxy(6, "Could not resolve host: proxy.corp", redirects: 1) == nil)
      // A SOCKS proxy whose name does not resolve: libcurl's words are a host's.
      #expect(proxy(6, "Could not resolve host: proxy.corp") == "proxy.corp")
      #expect(proxy(6, "Could not resolve host: ") == nil)
      #expect(proxy(28, refused) == nil)
      #expect(proxy(7, "Connection refused") == nil)
      #expect(proxy(7, "Failed to connect to 10.0.0.1 port  after 0 ms") == nil)
      // A setting libcurl cannot read is still the proxy's; its text (which may hold a
      // password) is not repeated.
      #expect(proxy(5, "Unsupported proxy syntax in 'http://user:pw@proxy corp:1'") == "")
      #expect(proxy(5, "Could not resolve proxy: ") == "")
    }
  #endif

  @Test(arguments: Transport.allCases) func anAnswerCutShortIsALostConnection(_ transport: Transport)
    async throws
  {
    // Closed short of its length, or of its last chunk, or before any of the body: the
    // network or the server dropped it, which "could not be understood" would misname.
    for reply in [
      "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"message\"",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"mes",
      "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n",
    ] {
      let server = try TestHTTPServer { _ in .raw(Array(reply.utf8)) }
      defer { server.stop() }
      let failure = await error { try await liveClient(server, transport).randomImage("hound", nil) }
      #expect(failure == .connectionLost(host: "127.0.0.1"), "\(reply.debugDescription)")
      #expect(failure?.isTransient == true)
    }
    // Reset partway through a picture.
    let head = "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n"
    let partOfAPicture = Array(head.utf8) + [UInt8](repeating: 0xFF, count: 5000)
    let resetting = try TestHTTPServer { _ in .reset(partOfAPicture) }
    defer { resetting.stop() }
    let picture = resetting.baseURL.appendingPathComponent("dog.jpg")
    #expect(
      await error { _ = try await liveClient(resetting, transport).imageData(picture) }
        == .connectionLost(host: "127.0.0.1"))
    // Closed or reset before any answer: the server was reached, so not "unreachable".
    for reply in [TestHTTPServer.Reply.hangUp, .reset([])] {
      let server = try TestHTTPServer { _ in reply }
      defer { server.stop() }
      let failure = await error { try await liveClient(server, transport).randomImage("hound", nil) }
      #expect(failure == .connectionLost(host: "127.0.0.1"), "\(reply)")
    }
  }

  @Test func anErrorNamesTheServerAsItsAddressDoes() throws {
    // As in its address: "Can't reach [::1]:" not "Can't reach ::1:".
    #expect(HTTPFetcher.host(of: try #require(URL(string: "http://[::1]:8080/api"))) == "[::1]")
    #expect(HTTPFetcher.host(of: try #require(URL(string: "https://dog.ceo/api"))) == "dog.ceo")
    #expect(HTTPFetcher.host(of: try #require(URL(string: "https://127.0.0.1:8/api"))) == "127.0.0.1")
    // The port an error names: the address's own, or its scheme's.
    #expect(HTTPFetcher.port(of: try #require(URL(string: "https://dog.ceo/api"))) == 443)
    #expect(HTTPFetcher.port(of: try #require(URL(string: "HTTPS://dog.ceo/api"))) == 443)
    #expect(HTTPFetcher.port(of: try #require(URL(string: "http://dog.ceo/api"))) == 80)
    #expect(HTTPFetcher.port(of: try #require(URL(string: "https://[::1]:8443/api"))) == 8443)
  }

  #if os(Linux)
    @Test func libcurlsResultsAreTheClientsErrors() {
      func error(_ failure: CurlFailure) -> DogAPIError {
        failure.error(host: "dog.ceo", port: 443, seconds: 10, limit: 1 << 20)
      }
      // A reset once some of the body came, or before any answer, is a lost connection;
      // after the headers alone (more of them than libcurl takes), the answer's fault.
      #expect(
        error(CurlFailure(code: 56, errorText: "", headerBytes: 43, bodyBytes: 5000))
          == .connectionLost(host: "dog.ceo"))
      #expect(error(CurlFailure(code: 56, errorText: "", headerBytes: 307_201)) == HTTPFetcher.invalidHTTP)
      #expect(error(CurlFailure(code: 56, errorText: "")) == .connectionLost(host: "dog.ceo"))
      #expect(error(CurlFailure(code: 18, errorText: "")) == .connectionLost(host: "dog.ceo"))
      #expect(error(CurlFailure(code: 52, errorText: "")) == .connectionLost(host: "dog.ceo"))
      #expect(error(CurlFailure(code: 7, errorText: "")) == .unreachable(host: "dog.ceo"))
      #expect(error(CurlFailure(code: 6, errorText: "")) == .unreachable(host: "dog.ceo"))
      // A connection refused (ECONNREFUSED) names the server and port libcurl tried, else
      // the ones asked for; a network or host out of reach stays unreachable.
      let refused = "Failed to connect to dog.ceo port 8443 after 0 ms: Couldn't connect to server"
      #expect(
        error(CurlFailure(code: 7, errorText: refused, systemError: Int(ECONNREFUSED)))
          == .connectionRefused(server: "dog.ceo:8443"))
      #expect(
        CurlFailure(code: 7, errorText: "Failed to connect to ::1 port 80 after 1 ms: x", systemError: 111)
          .error(host: "[::1]", port: 80, seconds: 10, limit: 1) == .connectionRefused(server: "[::1]:80"))
      #expect(
        error(CurlFailure(code: 7, errorText: "", systemError: 111))
          == .connectionRefused(server: "dog.ceo:443"))
      #expect(
        error(CurlFailure(code: 7, errorText: "Failed to connect to  port 80", systemError: 111))
          == .connectionRefused(server: "dog.ceo:443"))
      for other in [ENETUNREACH, EHOSTUNREACH, ETIMEDOUT] {
        #expect(
          error(CurlFailure(code: 7, errorText: refused, systemError: Int(other)))
            == .unreachable(host: "dog.ceo"))
      }
      #expect(error(CurlFailure(code: 6, errorText: "", systemError: 111)) == .unreachable(host: "dog.ceo"))
      // A proxy that refused is the proxy's, as before.
      #expect(
        error(
          CurlFailure(
            code: 7, errorText: "Failed to connect to 10.0.0.1 port 3128 after 0 ms: x", systemError: 111))
          == .proxyUnreachable(proxy: "10.0.0.1:3128"))
      // A proxy's refusal of the tunnel comes first, whatever libcurl's result.
      #expect(
        error(CurlFailure(code: 56, errorText: "", headerBytes: 40, proxyStatus: 407))
          == .proxyRefused(host: "dog.ceo", status: 407))
      #expect(
        error(CurlFailure(code: 7, errorText: "Failed to connect to 10.0.0.1 port 3128 after 0 ms: x"))
          == .proxyUnreachable(proxy: "10.0.0.1:3128"))
      #expect(error(CurlFailure(code: 28, errorText: "")) == .timedOut(seconds: 10))
      #expect(error(CurlFailure(code: 60, errorText: "")) == .secureConnectionFailed(host: "dog.ceo"))
      // A TLS failure with a failed check of an https proxy's certificate on record is the
      // proxy's, named by the address connected to; any other failure stays as it was.
      for code: Int32 in [35, 60] {
        #expect(
          error(CurlFailure(code: code, errorText: "", proxyCertificateCheck: 18, connectedTo: "[::1]:3129"))
            == .proxySecureConnectionFailed(proxy: "[::1]:3129"), "\(code)")
      }
      #expect(
        error(CurlFailure(code: 7, errorText: "", proxyCertificateCheck: 1)) == .unreachable(host: "dog.ceo"))
      #expect(CurlFailure.address("::1", port: "3129") == "[::1]:3129")
      #expect(CurlFailure.address("2001:db8:1:2:3:4:5:6", port: "80") == "[2001:db8:1:2:3:4:5:6]:80")
      #expect(CurlFailure.address("10.0.0.1", port: "3129") == "10.0.0.1:3129")
      // A SOCKS handshake that failed is the proxy's refusal, whatever the reason it gives
      // (refused, a login rejected, 0 from a libcurl too old to say), except the host's own
      // name not resolving where libcurl resolves it (27).
      for reason in [0, 3, 12, 19, 33] {
        #expect(
          error(CurlFailure(code: 97, errorText: "", proxyError: reason))
            == .proxyRefused(host: "dog.ceo", status: nil), "\(reason)")
      }
      #expect(error(CurlFailure(code: 97, errorText: "", proxyError: 27)) == .unreachable(host: "dog.ceo"))
    }
  #endif

  @Test(arguments: Transport.allCases) func aFailedTLSHandshakeIsNotCalledUnreachable(_ transport: Transport)
    async throws
  {
    // A server that speaks plain HTTP where TLS was expected fails the handshake, as a
    // captive portal or an intercepting proxy does: the network works, so "you may be
    // offline" would mislead.
    let server = try TestHTTPServer { [imageJSON] _ in .json(imageJSON) }
    defer { server.stop() }
    let client = liveClient(
      .init(baseURL: URL(string: "https://127.0.0.1:\(server.port)/api")!, usesBundledFallback: false),
      transport)
    let failure = await error { try await client.randomImage("hound", nil) }
    #expect(failure == .secureConnectionFailed(host: "127.0.0.1"))
    #expect(failure?.isTransient == true)
  }

  @Test(arguments: Transport.allCases) func aServerThatAnswersWronglyIsNotCalledUnreachable(
    _ transport: Transport
  ) async throws {
    // Each of these reached the server; "you may be offline" would send the user to check
    // a network that works.
    let cases: [(name: String, reply: [UInt8], detail: String)] = [
      (
        "a redirect to itself",
        Array("HTTP/1.1 302 Found\r\nLocation: /again\r\nContent-Length: 0\r\n\r\n".utf8),
        "the server redirected too many times"
      ),
      ("no HTTP status line", Array("SPDY/9 hello\r\n\r\n".utf8), "the HTTP response was invalid"),
      (
        "40,000 header lines",
        Array(("HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: 40_000) + "\r\n").utf8),
        "the HTTP response was invalid"
      ),
      // libcurl takes it for an empty reply; corelibs' URLSession stopped the process.
      (
        "a reply that ends inside its headers", Array("HTTP/1.1 200 OK\r\nX-A: b\r\n".utf8),
        "the body is not a JSON object"
      ),
      (
        "a 300 KB header line",
        Array(("HTTP/1.1 200 OK\r\nX-Junk: " + String(repeating: "a", count: 300_000) + "\r\n\r\n").utf8),
        "the HTTP response was invalid"
      ),
    ]
    // URLSession stops the process on a reply that ends inside its headers, and takes
    // seconds over 40,000 header lines (and then accepts them).
    for (name, reply, detail) in cases
    where transport == .platform || name.first != "4" && !name.contains("inside its headers") {
      let server = try TestHTTPServer { _ in .raw(reply) }
      defer { server.stop() }
      let failure = await error { try await liveClient(server, transport).randomImage("hound", nil) }
      #expect(failure == .malformedResponse(detail: detail), "\(name)")
      #expect(server.requests.count <= 6, "\(name)")  // five redirects at most
    }
    let elsewhere = try TestHTTPServer { _ in
      .raw(Array("HTTP/1.1 302 Found\r\nLocation: ftp://127.0.0.1/x\r\nContent-Length: 0\r\n\r\n".utf8))
    }
    defer { elsewhere.stop() }
    let failure = await error { try await liveClient(elsewhere, transport).randomImage("hound", nil) }
    #expect(
      failure == .malformedResponse(detail: "the server redirected to an address that is not on the web"))
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
    #expect(ContinuousClock.now - start < Duration.seconds(3).scaled)
    // …and the transfer ends too: the client hangs up, long before its 30 s deadline.
    let bound = ContinuousClock.now + Duration.seconds(5).scaled
    while server.openConnections > 0, ContinuousClock.now < bound {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(server.openConnections == 0, "still open after \(ContinuousClock.now - start)")
  }
}

/// The API picks a breed's random picture by name prefix: only the breed's own folder
/// counts.
struct PictureFolderTests {
  @Test(arguments: [
    ("https://images.dog.ceo/breeds/pug/a.jpg", "pug", nil as String?, true),
    ("https://images.dog.ceo/breeds/puggle/a.jpg", "pug", nil, false),
    ("https://images.dog.ceo/breeds/hound-afghan/a.jpg", "hound", nil, true),
    ("https://images.dog.ceo/breeds/hound-afghan/a.jpg", "hound", "afghan", true),
    ("https://images.dog.ceo/breeds/pointer-germanlonghair/a.jpg", "pointer", "german", false),
    ("https://images.dog.ceo/breeds/pointer-german/a.jpg", "pointer", "german", true),
    ("https://images.dog.ceo/pug/a.jpg", "pug", nil, false),
  ])
  func aPictureIsTheBreedsByItsFolder(url: String, breed: String, subBreed: String?, expected: Bool) {
    #expect(ResponseDecoding.isPicture(URL(string: url)!, of: breed, subBreed: subBreed) == expected)
  }

  /// Another breed's picture is asked for again, then chosen from the breed's own list.
  @Test(arguments: Transport.allCases)
  func anotherBreedsPictureIsNeverTheAnswer(_ transport: Transport) async throws {
    let server = try TestHTTPServer { request in
      request.path.hasSuffix("/random")
        ? .json(#"{"message":"https:\/\/images.dog.ceo\/breeds\/puggle\/1.jpg","status":"success"}"#)
        : .json(
          #"{"message":["https:\/\/images.dog.ceo\/breeds\/puggle\/1.jpg","https:\/\/images.dog.ceo\/breeds\/pug\/2.jpg"],"status":"success"}"#
        )
    }
    defer { server.stop() }
    let url = try await liveClient(server, transport).randomImage("pug", nil)
    #expect(url.absoluteString == "https://images.dog.ceo/breeds/pug/2.jpg")
    #expect(
      server.requests.map(\.path) == Array(repeating: "/api/breed/pug/images/random", count: 3) + [
        "/api/breed/pug/images"
      ])
  }

  @Test func aBreedWithNoPictureOfItsOwnSaysSo() async throws {
    let server = try TestHTTPServer { request in
      request.path.hasSuffix("/random")
        ? .json(#"{"message":"https:\/\/images.dog.ceo\/breeds\/puggle\/1.jpg","status":"success"}"#)
        : .json(#"{"message":["https:\/\/images.dog.ceo\/breeds\/puggle\/1.jpg"],"status":"success"}"#)
    }
    defer { server.stop() }
    await #expect(throws: DogAPIError.notFound(message: "the API lists no picture of pug")) {
      try await liveClient(server).randomImage("pug", nil)
    }
  }
}
