import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A status and body, already capped in size.
struct HTTPResponse: Sendable {
  var status: Int
  var body: Data
}

/// One GET with a hard deadline and a size cap: on Linux on libcurl (``CurlFetcher``),
/// elsewhere on URLSession.
///
/// URLSession's own timeouts are idle timeouts (a slow drip resets them), and
/// `data(for:)` buffers whatever arrives; both transports enforce an overall deadline and
/// stop reading as soon as the body passes `limit` (``FetchAnswer``).
enum HTTPFetcher {
  /// Where URLSession is called: each of its calls can wait for a session's work queue,
  /// and a server that sends faster than libcurl reads (an endless body or endless headers
  /// over loopback) keeps that queue, and then other sessions' calls, busy for seconds.
  /// Waiting here, they hold neither the caller (whose deadline has a timer of its own),
  /// nor the delegate's queue, nor the main actor, nor a global queue's threads, which
  /// Swift tasks run on too (on two cores, waiting there held answers back by a second).
  static let opening = DispatchQueue(label: "DogAPIClient.HTTPFetcher.opening", attributes: .concurrent)
  /// Where a fetch lets go of its session, once the caller has its answer.
  static let closing = DispatchQueue(label: "DogAPIClient.HTTPFetcher.closing", attributes: .concurrent)

  /// The most redirects a fetch follows (the Dog CEO API needs none).
  static let maxRedirects = 5

  /// The hosts reached without a proxy: those `no_proxy` (else `NO_PROXY`) names, as
  /// libcurl reads them, and always this machine's loopback names and addresses, as Go
  /// and browsers do (a proxy elsewhere cannot reach this machine's servers).
  ///
  /// For libcurl, whose `CURLOPT_NOPROXY` replaces the variables rather than adding to
  /// them. URLSession cannot be told: on Linux it leaves proxies to libcurl's reading of
  /// the environment, on Apple platforms to the system's settings.
  static func directHosts(environment: [String: String]) -> String {
    let named = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
    // "*" alone means every host; in a list libcurl would read it as a name.
    if named.trimmingCharacters(in: .whitespaces) == "*" { return "*" }
    return ([named] + ["localhost", "127.0.0.1", "::1"]).filter { !$0.isEmpty }.joined(separator: ",")
  }

  /// ``directHosts(environment:)`` for this process.
  static let directHosts = directHosts(environment: ProcessInfo.processInfo.environment)

  /// The name an error gives for `url`'s server: its host (an IPv6 address in brackets, as
  /// in an address), or the whole address.
  static func host(of url: URL) -> String {
    guard let host = url.host else { return url.absoluteString }
    return host.contains(":") ? "[\(host)]" : host
  }

  /// The port a request to `url` connects to: the address's own, or its scheme's.
  static func port(of url: URL) -> Int {
    url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
  }

  /// Why a fetch failed, where both transports can tell.
  static let tooManyRedirects = DogAPIError.malformedResponse(detail: "the server redirected too many times")
  static let redirectOffTheWeb = DogAPIError.malformedResponse(
    detail: "the server redirected to an address that is not on the web")
  static let invalidHTTP = DogAPIError.malformedResponse(detail: "the HTTP response was invalid")

  static func get(
    _ url: URL, accept: String, limit: Int, timeout: Duration, userAgent: String, usesURLSession: Bool = false
  ) async throws(DogAPIError) -> HTTPResponse {
    let response = try await fetch(
      url, accept: accept, limit: limit, timeout: timeout, userAgent: userAgent,
      usesURLSession: usesURLSession)
    // Only a proxy answers 407 (RFC 9110, 15.5.8), here in the server's place (a plain-HTTP
    // address). For https it refuses the tunnel instead, which libcurl reports (CurlFetcher).
    if response.status == 407 { throw .proxyRefused(host: host(of: url), status: 407) }
    return response
  }

  private static func fetch(
    _ url: URL, accept: String, limit: Int, timeout: Duration, userAgent: String, usesURLSession: Bool
  ) async throws(DogAPIError) -> HTTPResponse {
    // An HTTP fetcher: anything else (an `ftp:` base URL, say) would wait out the timeout.
    guard ResponseDecoding.webURL(url.absoluteString) != nil else { throw .invalidURL(url.absoluteString) }
    let url = lowercasingScheme(url)
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    #if os(Linux)
      if !usesURLSession, let curl = Curl.shared {
        return try await CurlFetcher.get(
          curl, url, accept: accept, limit: limit, seconds: seconds, userAgent: userAgent
        ).get()
      }
    #endif
    let configuration = URLSessionConfiguration.ephemeral
    // Our own deadline (below) enforces `timeout`. URLSession's timeouts are idle timers
    // that corelibs-foundation truncates to whole seconds (0.5 s fires at once), so they
    // only back it up.
    let backstop = seconds.rounded(.up) + 1
    configuration.timeoutIntervalForRequest = backstop
    configuration.timeoutIntervalForResource = backstop
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpAdditionalHeaders = ["User-Agent": userAgent, "Accept": accept]
    var request = URLRequest(url: url, timeoutInterval: backstop)
    request.httpMethod = "GET"
    let fetch = Fetch(
      limit: limit, host: host(of: url), port: port(of: url), seconds: seconds, configuration: configuration,
      request: request)
    let result = await fetch.answer.wait(starting: { fetch.open() }, on: opening)
    closing.async { fetch.close() }
    return try result.get()
  }

  /// `url` with its scheme in lower case: schemes are case-insensitive, but corelibs'
  /// URLSession refuses `HTTP://` as an unsupported URL.
  static func lowercasingScheme(_ url: URL) -> URL {
    guard let scheme = url.scheme, scheme != scheme.lowercased(),
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return url }
    components.scheme = scheme.lowercased()
    return components.url ?? url
  }
}

/// The delegate of one URLSession fetch. Its transfer state is behind `lock`; the
/// caller's side is ``answer``.
private final class Fetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private let limit: Int
  private let host: String
  private let port: Int
  private let seconds: Double
  let answer: FetchAnswer
  private var body = Data()
  private var status = 0
  private let configuration: URLSessionConfiguration
  private let request: URLRequest
  private var session: URLSession?
  private var task: URLSessionDataTask?
  private var closed = false
  private var redirects = 0

  init(
    limit: Int, host: String, port: Int, seconds: Double, configuration: URLSessionConfiguration,
    request: URLRequest
  ) {
    self.limit = limit
    self.host = host
    self.port = port
    self.seconds = seconds
    self.configuration = configuration
    self.request = request
    self.answer = FetchAnswer(seconds: seconds)
  }

  /// Creates the session and its task and starts the transfer, unless the fetch has
  /// already ended (on ``HTTPFetcher/opening``).
  func open() {
    guard answer.stopReason == nil, !lock.withLock({ closed }) else { return }
    let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    let task = session.dataTask(with: request)
    let wanted = lock.withLock {
      guard !closed, answer.stopReason == nil else { return false }
      (self.session, self.task) = (session, task)
      return true
    }
    if wanted {
      task.resume()
    } else {
      Self.end(task, of: session)
    }
  }

  /// Ends the transfer, if it began, and lets go of the session (on ``HTTPFetcher/closing``,
  /// once the caller has its answer).
  func close() {
    let (session, task): (URLSession?, URLSessionDataTask?) = lock.withLock {
      closed = true
      return (self.session, self.task)
    }
    if let session, let task { Self.end(task, of: session) }
  }

  /// Not `invalidateAndCancel()`: corelibs-foundation reads its task list there off the
  /// session's queue, racing the removal of the task that just finished, and now and then
  /// traps (seen once in a CI-like run). Cancelling the task (a no-op once it finished)
  /// and then invalidating, both on that queue, ends the same way: the session lets go of
  /// its delegate when the task is gone.
  private static func end(_ task: URLSessionDataTask, of session: URLSession) {
    task.cancel()
    session.finishTasksAndInvalidate()
  }

  /// Stops the fetch: see ``FetchAnswer``; whatever still arrives is dropped.
  func stop(because reason: DogAPIError) { answer.stop(because: reason) }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let http = response as? HTTPURLResponse
    lock.withLock { status = http?.statusCode ?? 0 }
    if response.expectedContentLength > Int64(limit) {
      stop(because: .responseTooLarge(limit: limit))
      completionHandler(.cancel)
      return
    }
    completionHandler(.allow)
  }

  /// Follows up to ``HTTPFetcher/maxRedirects`` redirects, to web addresses only (a loop
  /// ends there, not after libcurl's fifty).
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let count = lock.withLock {
      redirects += 1
      return redirects
    }
    let refusal: DogAPIError? =
      if count > HTTPFetcher.maxRedirects {
        HTTPFetcher.tooManyRedirects
      } else if let url = request.url, ResponseDecoding.webURL(url.absoluteString) == nil {
        HTTPFetcher.redirectOffTheWeb
      } else {
        nil
      }
    guard let refusal else { return completionHandler(request) }
    // In this order: the reason first (the task may complete with the redirect's own
    // response as soon as it is refused), then the refusal, then the answer (after which
    // the fetch may be closed: corelibs traps on a refusal that comes after a cancel).
    let stopped = answer.markStopped(because: refusal)
    completionHandler(nil)
    if stopped { answer.answer(.failure(refusal)) }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let tooLarge = lock.withLock {
      // Once stopped, what is still on its way is dropped, not kept.
      guard answer.stopReason == nil else { return false }
      body.append(data)
      return body.count > limit
    }
    if tooLarge { stop(because: .responseTooLarge(limit: limit)) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    let outcome: Result<HTTPResponse, DogAPIError>? = lock.withLock {
      if let stopReason = answer.stopReason { return .failure(stopReason) }
      if error == nil { return .success(HTTPResponse(status: self.status, body: self.body)) }
      return nil
    }
    answer.answer(outcome ?? .failure(map(error!)))
  }

  private func map(_ error: Error) -> DogAPIError {
    let nsError = error as NSError
    guard nsError.domain == NSURLErrorDomain else { return .unreachable(host: host) }
    switch nsError.code {
    // corelibs-foundation reports libcurl's TLS failures as unknown errors carrying the TLS
    // library's own text ("OpenSSL/3.0: … SSL routines …"); Apple's reports them below.
    case NSURLErrorUnknown where nsError.localizedDescription.contains("SSL"):
      return .secureConnectionFailed(host: host)
    // A connection that ended before the answer did. corelibs passes libcurl's words on:
    // "transfer closed with 990 bytes remaining to read" (an unknown error), "Empty reply
    // from server" (a bad response).
    case NSURLErrorNetworkConnectionLost,
      NSURLErrorUnknown where nsError.localizedDescription.contains("transfer closed"),
      NSURLErrorBadServerResponse where nsError.localizedDescription.contains("Empty reply"):
      return .connectionLost(host: host)
    // The name resolved but the host did not take the connection (URLSession does not
    // say whether it refused it or could not be reached).
    case NSURLErrorCannotConnectToHost: return .connectionRefused(server: "\(host):\(port)")
    case NSURLErrorTimedOut: return .timedOut(seconds: seconds)
    case NSURLErrorCancelled: return .cancelled
    case NSURLErrorDataLengthExceedsMaximum: return .responseTooLarge(limit: limit)
    case NSURLErrorHTTPTooManyRedirects:
      return HTTPFetcher.tooManyRedirects
    // The server answered, but not in HTTP that libcurl accepts: no status line (the
    // address was checked before the request, so "unsupported URL" means that) or a
    // header past libcurl's limit (reported as an unknown error).
    case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse, NSURLErrorZeroByteResource,
      NSURLErrorUnsupportedURL, NSURLErrorUnknown:
      return HTTPFetcher.invalidHTTP
    case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate,
      NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
      NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
      NSURLErrorClientCertificateRequired:
      return .secureConnectionFailed(host: host)
    default: return .unreachable(host: host)
    }
  }
}
