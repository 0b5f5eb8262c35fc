import Foundation

/// Everything that can go wrong talking to the Dog CEO API, in terms a UI can explain.
public enum DogAPIError: Error, Equatable, Hashable, Sendable, Codable {
  /// The host could not be reached: no network, or its name did not resolve. (A
  /// connection turned away is ``connectionRefused(server:)``; one made and then reset is
  /// ``connectionLost(host:)``.)
  case unreachable(host: String)
  /// The host's name resolved but nothing there took the connection: no server listens on
  /// that port, the host is down, or a firewall turned the connection away. `server` is
  /// the host and port connected to, as in an address (`127.0.0.1:8080`, `[::1]:80`).
  /// (With libcurl, a refused connection only: other failures to connect, such as no route
  /// to the host, are ``unreachable(host:)``. With URLSession, any failure to connect to a
  /// host whose name resolved.)
  case connectionRefused(server: String)
  /// The host answered but no secure connection could be made: the TLS handshake failed
  /// or the server's certificate was not trusted (a captive portal, an intercepting proxy,
  /// a wrong clock, or a server that does not speak TLS on that port).
  case secureConnectionFailed(host: String)
  /// The proxy server that requests go through could not be reached: its name did not
  /// resolve, or it refused the connection. `proxy` is its name, with the port where known
  /// (empty where the setting could not be read).
  /// (Reported where the client can tell, with libcurl on Linux; elsewhere such a failure
  /// reads as ``unreachable(host:)``.)
  case proxyUnreachable(proxy: String)
  /// The proxy server was reached but no secure connection to it could be made: an
  /// `https://` proxy whose TLS handshake failed or whose certificate was not trusted.
  /// `proxy` is its address and port (empty where not known).
  /// (Reported where the client can tell, with libcurl on Linux; elsewhere such a failure
  /// reads as ``secureConnectionFailed(host:)``.)
  case proxySecureConnectionFailed(proxy: String)
  /// The proxy server would not open a connection to `host`. `status` is the HTTP status it
  /// answered with (407: it wants a login; 403: the host is blocked; 502: it could not
  /// reach it); `nil` for a SOCKS proxy, which has no such statuses (it refused the host,
  /// rejected the login, or broke off the handshake).
  /// (Reported where the client can tell, with libcurl on Linux, for SOCKS.)
  case proxyRefused(host: String, status: Int?)
  /// The connection was made but ended before the whole answer arrived: closed or reset
  /// before or partway through it (a network that dropped, a server that stopped).
  case connectionLost(host: String)
  /// No complete answer arrived within the time limit.
  case timedOut(seconds: Double)
  /// The client was configured to work offline, so it made no request.
  case offline
  /// The API said the breed named in the request does not exist (a 404 in its error
  /// envelope), with its own message when it sent one. Only requests that name a breed
  /// get it: any other 404 (the breed list's, or one without the API's envelope, from an
  /// address that is not the API) is ``server(status:message:)``.
  case notFound(message: String?)
  /// The server reported an error: a non-2xx status, or a 200 whose body was not a
  /// success. `message` is the API's own message when it sent JSON.
  case server(status: Int, message: String?)
  /// The answer was not what the API documents (not JSON, wrong shape, wrong types).
  case malformedResponse(detail: String)
  /// The answer was larger than the client accepts.
  case responseTooLarge(limit: Int)
  /// A breed or sub-breed name was rejected before any request was made.
  case invalidBreedName(String)
  /// The image URL is not an `http`/`https` URL.
  case invalidURL(String)
  /// The request was cancelled (the screen that asked for it went away).
  case cancelled
  /// A `failing` client's endpoint was called in a test.
  case unimplemented(endpoint: String)

  /// The most characters of a server's own message shown with its status.
  static let longestReason = 60

  /// A server's message as a short reason, or `nil` where it is none: empty, longer than
  /// ``longestReason``, several lines, or carrying addresses, markup or quoted requests
  /// (the real API's 5xx messages quote the request it made and the status it got), which
  /// say nothing to a person and would fill the screen.
  static func shortReason(_ message: String?) -> String? {
    guard var reason = message?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
    while reason.hasSuffix(".") { reason.removeLast() }
    let noise = ["://", "`", "<", "\n", "\r"]
    guard !reason.isEmpty, reason.count <= longestReason, !noise.contains(where: reason.contains) else {
      return nil
    }
    return reason
  }

  /// One sentence for a person, with no hint of how to retry (the UI adds that).
  ///
  /// Text that came from the network is included as is; renderers sanitise it.
  public var message: String {
    switch self {
    case .unreachable(let host):
      return "Can't reach \(host): you may be offline."
    case .connectionRefused(let server):
      return "Can't connect to \(server): nothing is accepting connections there."
    case .secureConnectionFailed(let host):
      return "Can't make a secure connection to \(host): its certificate or encryption was not accepted."
    case .proxySecureConnectionFailed(let proxy):
      let named = proxy.isEmpty ? "" : " \(proxy)"
      return
        "Can't make a secure connection to the proxy server\(named): its certificate or encryption was not accepted."
    case .proxyUnreachable(let proxy) where proxy.isEmpty:
      return "Can't reach the proxy server: check the proxy settings."
    case .proxyUnreachable(let proxy):
      return "Can't reach the proxy server \(proxy): check the proxy settings."
    case .proxyRefused(let host, .some(407)):
      return "The proxy server wants a login to reach \(host) (HTTP 407)."
    case .proxyRefused(let host, .some(let status)):
      return "The proxy server would not connect to \(host) (HTTP \(status))."
    case .proxyRefused(let host, .none):
      return "The proxy server would not connect to \(host)."
    case .connectionLost(let host):
      return "The connection to \(host) was lost before the whole answer arrived."
    case .timedOut(let seconds):
      let limit = seconds == seconds.rounded() && abs(seconds) < 1e9 ? "\(Int(seconds))" : "\(seconds)"
      return "The server took longer than \(limit) s to answer."
    case .offline:
      return "Working offline: nothing is fetched from the network."
    case .notFound(let message):
      if let message, !message.isEmpty { return "Not found: \(message)." }
      return "The API has no such breed."
    case .server(429, let message) where message?.isEmpty ?? true:
      // Rate limited (RFC 6585): the wait, not the server, is what to expect.
      return "The server is getting too many requests (HTTP 429): wait a moment before trying again."
    case .server(let status, let message):
      // A server's own failure (5xx) is the server's business: said as such, with at most
      // a short reason (the real API's quotes its internal requests and status lines).
      let what = status >= 500 ? "The server had an error" : "The server reported an error"
      if let reason = Self.shortReason(message) { return "\(what) (HTTP \(status)): \(reason)." }
      return "\(what) (HTTP \(status))."
    case .malformedResponse:
      return "The server's answer could not be understood."
    case .responseTooLarge(let limit):
      return "The server's answer was larger than \(ByteCount(limit))."
    case .invalidBreedName(let name) where BreedName.isTooLong(name):
      return "“\(name)” is not a breed name: names have at most \(BreedName.maximumLength) letters."
    case .invalidBreedName(let name):
      return "“\(name)” is not a breed name: names are lowercase letters only."
    case .invalidURL(let url):
      return "“\(url)” is not a web address the app can load."
    case .cancelled:
      return "The request was cancelled."
    case .unimplemented(let endpoint):
      return "\(endpoint) is not implemented in this client."
    }
  }

  /// Whether retrying later may help (network trouble rather than a wrong request).
  public var isTransient: Bool {
    switch self {
    case .unreachable, .connectionRefused, .secureConnectionFailed, .proxyUnreachable,
      .proxySecureConnectionFailed,
      .connectionLost, .timedOut, .server,
      .malformedResponse, .responseTooLarge, .cancelled:
      return true
    case .proxyRefused(_, let status):
      // The proxy's own trouble may pass; a login it wants or a host it blocks will not. A
      // SOCKS proxy does not say which it is: trying again is offered.
      return status.map { $0 >= 500 } ?? true
    case .offline, .notFound, .invalidBreedName, .invalidURL, .unimplemented:
      return false
    }
  }
}

/// "1 MB", "512 KB": a size for messages.
struct ByteCount: CustomStringConvertible {
  let bytes: Int
  init(_ bytes: Int) { self.bytes = bytes }
  var description: String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
    return "\(bytes) bytes"
  }
}
