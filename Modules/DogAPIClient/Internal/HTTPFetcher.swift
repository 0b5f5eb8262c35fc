import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A status and body, already capped in size.
struct HTTPResponse: Sendable {
  var status: Int
  var body: Data
}

/// One GET with a hard deadline and a size cap, on URLSession.
///
/// URLSession's own timeouts are idle timeouts (a slow drip resets them), and
/// `data(for:)` buffers whatever arrives; this delegate enforces an overall deadline and
/// stops reading as soon as the body passes `limit`.
enum HTTPFetcher {
  /// Where URLSession's calls that wait for a session's work queue (`cancel`,
  /// `finishTasksAndInvalidate`) run. A serial queue of our own gets a thread of its own;
  /// waiting on a global queue, these calls held threads that Swift tasks run on too (on
  /// two cores, the answer then took a second to reach the app).
  static let cleanup = DispatchQueue(label: "DogAPIClient.HTTPFetcher.cleanup")

  static func get(
    _ url: URL, accept: String, limit: Int, timeout: Duration, userAgent: String
  ) async throws(DogAPIError) -> HTTPResponse {
    // An HTTP fetcher: anything else (an `ftp:` base URL, say) would wait out the timeout.
    guard ResponseDecoding.webURL(url.absoluteString) != nil else { throw .invalidURL(url.absoluteString) }
    let url = lowercasingScheme(url)
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
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
    let fetch = Fetch(limit: limit, host: url.host ?? url.absoluteString, seconds: seconds)
    let session = URLSession(configuration: configuration, delegate: fetch, delegateQueue: nil)
    var request = URLRequest(url: url, timeoutInterval: backstop)
    request.httpMethod = "GET"
    let task = session.dataTask(with: request)
    // Not `invalidateAndCancel()`: corelibs-foundation reads its task list there off the
    // session's queue, racing the removal of the task that just finished, and now and then
    // traps (seen once in a CI-like run). Cancelling the task (a no-op once it finished)
    // and then invalidating, both on that queue, ends the same way: the session lets go of
    // its delegate when the task is gone. Off this thread: both wait for the session's
    // work queue (see `Fetch.stop`).
    defer {
      cleanup.async {
        task.cancel()
        session.finishTasksAndInvalidate()
      }
    }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        fetch.start(task, deadline: .now() + seconds, continuation: continuation)
      }
    } onCancel: {
      fetch.stop(because: .cancelled)
    }
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

/// The delegate of one fetch. All state is behind `lock`.
private final class Fetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private let limit: Int
  private let host: String
  private let seconds: Double
  private var body = Data()
  private var status = 0
  private var stopReason: DogAPIError?
  private var task: URLSessionDataTask?
  private var continuation: CheckedContinuation<Result<HTTPResponse, DogAPIError>, Never>?
  private var finished = false

  init(limit: Int, host: String, seconds: Double) {
    self.limit = limit
    self.host = host
    self.seconds = seconds
  }

  func start(
    _ task: URLSessionDataTask, deadline: DispatchTime,
    continuation: CheckedContinuation<Result<HTTPResponse, DogAPIError>, Never>
  ) {
    let stoppedEarly: DogAPIError? = lock.withLock {
      self.task = task
      self.continuation = continuation
      return stopReason
    }
    if let stoppedEarly {
      finish(.failure(stoppedEarly))
      return
    }
    DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
      guard let self else { return }
      self.stop(because: .timedOut(seconds: self.seconds))
    }
    task.resume()
  }

  /// Stops the transfer; the first reason given is the one reported, at once.
  ///
  /// URLSession's `cancel()` waits for the session's work queue, and a server that sends
  /// faster than libcurl reads (an endless body over loopback) can keep that queue busy for
  /// seconds, all the while reading on. So the caller is answered here, and the cancel
  /// waits elsewhere (``HTTPFetcher/cleanup``): not on the delegate's queue, which
  /// meanwhile drops what keeps arriving, nor on whichever thread cancelled the Swift task
  /// (the main actor, say).
  func stop(because reason: DogAPIError) {
    let task: URLSessionDataTask? = lock.withLock {
      guard !finished, stopReason == nil else { return nil }
      stopReason = reason
      return self.task
    }
    // Not started yet: `start` sees the reason and finishes.
    guard let task else { return }
    finish(.failure(reason))
    HTTPFetcher.cleanup.async { task.cancel() }
  }

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

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let tooLarge = lock.withLock {
      // Once stopped, what is still on its way is dropped, not kept.
      guard stopReason == nil else { return false }
      body.append(data)
      return body.count > limit
    }
    if tooLarge { stop(because: .responseTooLarge(limit: limit)) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    let outcome: Result<HTTPResponse, DogAPIError>? = lock.withLock {
      if let stopReason { return .failure(stopReason) }
      if error == nil { return .success(HTTPResponse(status: self.status, body: self.body)) }
      return nil
    }
    finish(outcome ?? .failure(map(error!)))
  }

  private func finish(_ result: Result<HTTPResponse, DogAPIError>) {
    let continuation: CheckedContinuation<Result<HTTPResponse, DogAPIError>, Never>? = lock.withLock {
      guard !finished else { return nil }
      finished = true
      defer { self.continuation = nil }
      return self.continuation
    }
    continuation?.resume(returning: result)
  }

  private func map(_ error: Error) -> DogAPIError {
    let nsError = error as NSError
    guard nsError.domain == NSURLErrorDomain else { return .unreachable(host: host) }
    switch nsError.code {
    case NSURLErrorTimedOut: return .timedOut(seconds: seconds)
    case NSURLErrorCancelled: return .cancelled
    case NSURLErrorDataLengthExceedsMaximum: return .responseTooLarge(limit: limit)
    case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse, NSURLErrorZeroByteResource:
      return .malformedResponse(detail: "the HTTP response was invalid")
    default: return .unreachable(host: host)
    }
  }
}
