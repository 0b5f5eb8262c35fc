import Foundation
import TestHTTPServer
import TestSupport
import Testing

@testable import DogAPIClient

extension LiveClientTests {
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
}
