#if os(Linux)
  import Foundation
  import Glibc

  /// libcurl's easy interface, loaded at run time from the library FoundationNetworking
  /// itself uses (so it is there wherever URLSession is), for ``CurlFetcher``.
  ///
  /// Loaded rather than linked: the toolchain ships no libcurl headers, and a module map
  /// of our own would need them. `curl_easy_setopt` and `curl_easy_getinfo` are variadic;
  /// they are called through non-variadic pointer types, which pass their arguments as
  /// a variadic call does on Linux's x86-64 and arm64 calling conventions.
  struct Curl: @unchecked Sendable {
    typealias Handle = OpaquePointer
    let easyInit: @convention(c) () -> Handle?
    let setLong: @convention(c) (Handle?, Int32, Int) -> Int32
    let setPointer: @convention(c) (Handle?, Int32, UnsafeRawPointer?) -> Int32
    let setOffset: @convention(c) (Handle?, Int32, Int64) -> Int32
    let perform: @convention(c) (Handle?) -> Int32
    let getLong: @convention(c) (Handle?, Int32, UnsafeMutablePointer<Int>) -> Int32
    let getString: @convention(c) (Handle?, Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Int32
    let cleanup: @convention(c) (Handle?) -> Void
    let listAppend: @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?
    let listFree: @convention(c) (OpaquePointer?) -> Void

    /// The library, or `nil` where it cannot be loaded (then URLSession is used).
    static let shared: Curl? = {
      guard let library = dlopen("libcurl.so.4", RTLD_NOW) ?? dlopen("libcurl.so", RTLD_NOW) else {
        return nil
      }
      func symbol<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(library, name).map { unsafeBitCast($0, to: type) }
      }
      typealias GlobalInit = @convention(c) (Int) -> Int32
      guard let globalInit = symbol("curl_global_init", as: GlobalInit.self),
        let easyInit = symbol("curl_easy_init", as: (@convention(c) () -> Handle?).self),
        let setopt = dlsym(library, "curl_easy_setopt"),
        let perform = symbol("curl_easy_perform", as: (@convention(c) (Handle?) -> Int32).self),
        let getinfo = dlsym(library, "curl_easy_getinfo"),
        let cleanup = symbol("curl_easy_cleanup", as: (@convention(c) (Handle?) -> Void).self),
        let listAppend = symbol(
          "curl_slist_append",
          as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?).self),
        let listFree = symbol("curl_slist_free_all", as: (@convention(c) (OpaquePointer?) -> Void).self),
        globalInit(3) == 0  // CURL_GLOBAL_ALL; once, before any thread uses the library
      else { return nil }
      return Curl(
        easyInit: easyInit,
        setLong: unsafeBitCast(setopt, to: (@convention(c) (Handle?, Int32, Int) -> Int32).self),
        setPointer: unsafeBitCast(
          setopt, to: (@convention(c) (Handle?, Int32, UnsafeRawPointer?) -> Int32).self),
        setOffset: unsafeBitCast(setopt, to: (@convention(c) (Handle?, Int32, Int64) -> Int32).self),
        perform: perform,
        getLong: unsafeBitCast(
          getinfo, to: (@convention(c) (Handle?, Int32, UnsafeMutablePointer<Int>) -> Int32).self),
        getString: unsafeBitCast(
          getinfo,
          to: (@convention(c) (Handle?, Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Int32).self),
        cleanup: cleanup, listAppend: listAppend, listFree: listFree)
    }()

    // Option and info numbers from curl.h (a type's base plus the option's number).
    static let url: Int32 = 10002
    static let writeData: Int32 = 10001
    static let writeFunction: Int32 = 20011
    static let userAgent: Int32 = 10018
    static let httpHeader: Int32 = 10023
    static let noProgress: Int32 = 43
    static let followLocation: Int32 = 52
    static let maxRedirects: Int32 = 68
    static let noSignal: Int32 = 99
    static let timeoutMilliseconds: Int32 = 155
    static let progressData: Int32 = 10057
    static let progressFunction: Int32 = 20219  // CURLOPT_XFERINFOFUNCTION
    static let protocols: Int32 = 181
    static let maxFileSize: Int32 = 30117
    static let noProxy: Int32 = 10177
    static let errorBuffer: Int32 = 10010
    /// CURL_ERROR_SIZE: the error buffer libcurl writes into.
    static let errorBufferSize = 256
    static let responseCode: Int32 = 0x20_0002
    static let redirectCount: Int32 = 0x20_0014
    static let headerSize: Int32 = 0x20_000B
    static let proxyStatus: Int32 = 0x20_0016  // CURLINFO_HTTP_CONNECTCODE
    static let proxyError: Int32 = 0x20_003B  // CURLINFO_PROXY_ERROR (libcurl 7.73)
    static let proxyCertificateCheck: Int32 = 0x20_002F  // CURLINFO_PROXY_SSL_VERIFYRESULT (7.52)
    static let connectedAddress: Int32 = 0x10_0020  // CURLINFO_PRIMARY_IP
    static let connectedPort: Int32 = 0x20_0028  // CURLINFO_PRIMARY_PORT
    static let systemError: Int32 = 0x20_0019  // CURLINFO_OS_ERRNO
  }

  /// One GET on libcurl, with the same promises as ``HTTPFetcher``: an overall deadline,
  /// a size cap, ``HTTPFetcher/maxRedirects`` redirects at most, http and https only, and an answer as soon as
  /// any of them (or cancellation) ends the fetch; the transfer then stops at libcurl's next
  /// callback, on a thread of its own.
  ///
  /// Why not URLSession, on Linux: corelibs-foundation stops the process when a response
  /// ends inside its headers (`Transfer completed, but there's no response`), and its
  /// calls wait on a queue that a fast server keeps busy.
  enum CurlFetcher {

    static func get(
      _ curl: Curl, _ url: URL, accept: String, limit: Int, seconds: Double, userAgent: String
    ) async -> Result<HTTPResponse, DogAPIError> {
      let transfer = Transfer(
        limit: limit, host: HTTPFetcher.host(of: url), port: HTTPFetcher.port(of: url), seconds: seconds)
      // A transfer blocks its thread until it ends: on a serial queue of its own, which takes
      // a thread the system adds for it, not one of the global pool's few workers.
      return await transfer.answer.wait(
        starting: { transfer.run(curl, url: url.absoluteString, accept: accept, userAgent: userAgent) },
        on: DispatchQueue(label: "DogAPIClient.CurlFetcher.transfer"))
    }
  }

  /// One libcurl transfer. The body is behind `lock`.
  private final class Transfer: @unchecked Sendable {
    let answer: FetchAnswer
    private let lock = NSLock()
    private let limit: Int
    private let host: String
    private let port: Int
    private let seconds: Double
    private var body = Data()

    init(limit: Int, host: String, port: Int, seconds: Double) {
      self.limit = limit
      self.host = host
      self.port = port
      self.seconds = seconds
      self.answer = FetchAnswer(seconds: seconds)
    }

    private var isStopped: Bool { answer.stopReason != nil }

    /// Runs the transfer to its end on this thread (blocking), then answers, unless the
    /// fetch was answered already.
    func run(_ curl: Curl, url: String, accept: String, userAgent: String) {
      // The header list must outlive the handle (freed after it: defers run last first).
      let headers = curl.listAppend(nil, "Accept: \(accept)")
      defer { curl.listFree(headers) }
      // libcurl's words for a failure, which name the proxy it could not reach.
      let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Curl.errorBufferSize)
      errorText.initialize(repeating: 0, count: Curl.errorBufferSize)
      defer { errorText.deallocate() }
      guard !isStopped, let handle = curl.easyInit() else {
        return answer.stop(because: .unreachable(host: host))
      }
      defer { curl.cleanup(handle) }
      let context = Unmanaged.passUnretained(self).toOpaque()
      let onData: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        bytes, size, count, context in
        guard let context else { return 0 }
        return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().received(
          bytes, count: size * count)
      }
      let onProgress: @convention(c) (UnsafeMutableRawPointer?, Int64, Int64, Int64, Int64) -> Int32 = {
        context, _, _, _, _ in
        guard let context else { return 1 }
        return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().isStopped ? 1 : 0
      }
      // The deadline answers on time; libcurl's own, a second later, only ends the transfer.
      let backstop = Int((seconds + 1) * 1000)
      let web = 1 | 2  // CURLPROTO_HTTP | CURLPROTO_HTTPS
      var failed = false
      url.withCString { failed = failed || curl.setPointer(handle, Curl.url, $0) != 0 }
      userAgent.withCString { failed = failed || curl.setPointer(handle, Curl.userAgent, $0) != 0 }
      HTTPFetcher.directHosts.withCString {
        failed = failed || curl.setPointer(handle, Curl.noProxy, $0) != 0
      }
      for (option, value) in [
        // `protocols` holds for redirects too.
        (Curl.noSignal, 1), (Curl.followLocation, 1), (Curl.maxRedirects, HTTPFetcher.maxRedirects),
        (Curl.protocols, web),
        (Curl.timeoutMilliseconds, backstop), (Curl.noProgress, 0),
      ] {
        failed = failed || curl.setLong(handle, option, value) != 0
      }
      failed =
        failed
        || curl.setPointer(handle, Curl.httpHeader, UnsafeRawPointer(headers))
          != 0
        || curl.setPointer(handle, Curl.writeData, context) != 0
        || curl.setPointer(handle, Curl.writeFunction, unsafeBitCast(onData, to: UnsafeRawPointer.self)) != 0
        || curl.setPointer(handle, Curl.progressData, context) != 0
        || curl.setPointer(
          handle, Curl.progressFunction, unsafeBitCast(onProgress, to: UnsafeRawPointer.self)) != 0
        || curl.setOffset(handle, Curl.maxFileSize, Int64(limit)) != 0
        || curl.setPointer(handle, Curl.errorBuffer, errorText) != 0
      guard !failed else { return answer.stop(because: .unreachable(host: host)) }
      let code = withExtendedLifetime(self) { curl.perform(handle) }
      if code != 0 {
        var failure = CurlFailure(code: code, errorText: String(cString: errorText))
        _ = curl.getLong(handle, Curl.redirectCount, &failure.redirects)
        _ = curl.getLong(handle, Curl.headerSize, &failure.headerBytes)
        _ = curl.getLong(handle, Curl.proxyStatus, &failure.proxyStatus)
        _ = curl.getLong(handle, Curl.proxyError, &failure.proxyError)
        _ = curl.getLong(handle, Curl.proxyCertificateCheck, &failure.proxyCertificateCheck)
        _ = curl.getLong(handle, Curl.systemError, &failure.systemError)
        var address: UnsafePointer<CChar>? = nil
        var connectedPort = 0
        if curl.getString(handle, Curl.connectedAddress, &address) == 0, let address,
          curl.getLong(handle, Curl.connectedPort, &connectedPort) == 0, connectedPort > 0
        {
          failure.connectedTo = CurlFailure.address(String(cString: address), port: "\(connectedPort)")
        }
        failure.bodyBytes = lock.withLock { self.body.count }
        return answer.stop(because: failure.error(host: host, port: port, seconds: seconds, limit: limit))
      }
      var status = 0
      _ = curl.getLong(handle, Curl.responseCode, &status)
      let body = lock.withLock { self.body }
      answer.answer(.success(HTTPResponse(status: status, body: body)))
    }

    /// Takes a piece of the body; 0 (which makes libcurl stop) once stopped or past the cap.
    private func received(_ bytes: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
      guard !isStopped else { return 0 }
      let tooLarge: Bool = lock.withLock {
        if let bytes {
          body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
        }
        return body.count > limit
      }
      guard tooLarge else { return count }
      answer.stop(because: .responseTooLarge(limit: limit))
      return 0
    }
  }

  /// What libcurl says of a transfer that failed: its result code (curl.h), its words,
  /// and how far the transfer got.
  struct CurlFailure {
    var code: Int32
    var errorText: String
    var redirects = 0
    var headerBytes = 0
    var bodyBytes = 0
    /// The status a proxy answered the request for a tunnel with (0: none asked for).
    var proxyStatus = 0
    /// Why a SOCKS handshake failed (`CURLproxycode`; 0: it did not, or libcurl is older
    /// than 7.73 and does not say).
    var proxyError = 0
    /// The outcome of the check of an `https://` proxy's certificate (an OpenSSL
    /// `X509_V_*` code): 0 where there was no TLS with a proxy or it passed; not 0 where it
    /// failed or the handshake with the proxy did not get that far.
    var proxyCertificateCheck = 0
    /// The address and port the transfer was last connected to ("" where none): the
    /// proxy's, when one is used.
    var connectedTo = ""
    /// The system's error number for the last failed call, as `errno` (0: none).
    var systemError = 0

    /// The client's error for it, for a fetch from `host` (`port` as the address gives it,
    /// or its scheme's) within `seconds` and `limit`.
    func error(host: String, port: Int, seconds: Double, limit: Int) -> DogAPIError {
      // A proxy that answered the request for a tunnel with anything but 2xx refused it.
      if proxyStatus >= 300 { return .proxyRefused(host: host, status: proxyStatus) }
      if let proxy = unreachableProxy(host: host) { return .proxyUnreachable(proxy: proxy) }
      switch code {
      case 28: return .timedOut(seconds: seconds)
      case 42: return .cancelled
      case 63: return .responseTooLarge(limit: limit)
      case 47: return HTTPFetcher.tooManyRedirects
      // A SOCKS handshake failed: the proxy refused the host or the login, or broke off;
      // except where the host's name, resolved here (socks4, socks5), did not resolve (27).
      case 97 where proxyError == 27:
        return .unreachable(host: host)
      case 97:
        return .proxyRefused(host: host, status: nil)
      // An address that is not http(s): only a redirect can lead there (the first one was
      // checked); otherwise it is a reply in no HTTP version libcurl accepts.
      case 1 where redirects > 0:
        return HTTPFetcher.redirectOffTheWeb
      // No HTTP, a header past libcurl's limit (27), or a reply garbled.
      case 1, 8, 16, 27, 61, 92, 100:
        return HTTPFetcher.invalidHTTP
      // A failed receive after the headers and before any body is the answer's fault: a
      // header block past libcurl's limit ends so.
      case 56 where headerBytes > 0 && bodyBytes == 0:
        return HTTPFetcher.invalidHTTP
      // The connection was made, then ended before the answer did: nothing came (52),
      // sending or receiving failed on it (55, 56: a reset), or it closed short of the
      // answer's length or last chunk (18).
      case 18, 52, 55, 56:
        return .connectionLost(host: host)
      // The TLS handshake or the certificate check failed (SSL connect error, peer failed
      // verification, and the other SSL_* codes): the proxy's where libcurl has a failed
      // check of an https proxy's certificate on record (its words name neither side).
      case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98:
        if proxyCertificateCheck != 0 { return .proxySecureConnectionFailed(proxy: connectedTo) }
        return .secureConnectionFailed(host: host)
      // Nothing took the connection (refused: the port is closed, or a firewall said no),
      // named as libcurl tried it (after a redirect, maybe another server), else as asked.
      // Other failures to connect (no route, a network that is down) stay "unreachable".
      case 7 where systemError == Int(ECONNREFUSED):
        if let (name, port) = failedConnection {
          return .connectionRefused(server: Self.address(name, port: port))
        }
        return .connectionRefused(server: "\(host):\(port)")
      default: return .unreachable(host: host)
      }
    }

    /// The proxy libcurl could not reach, as its error text names it: one whose name did
    /// not resolve or whose setting it could not read (result 5: always the proxy's, in
    /// either resolver's words; "" where the text names none, as for a setting it cannot
    /// read, which may hold a password), a SOCKS proxy whose name did not resolve (6: libcurl reports it as a
    /// host's), or the other end of a connection that failed (7); for 6 and 7 only when the
    /// name is not the host asked for (nor one a redirect led to: then it cannot be told
    /// apart). `nil` when the failure was not the proxy's, or the text is not in libcurl's
    /// words (then the failure is reported as the host's, as it would be without this).
    func unreachableProxy(host: String) -> String? {
      func after(_ prefix: String) -> Substring? {
        errorText.hasPrefix(prefix) ? errorText.dropFirst(prefix.count) : nil
      }
      let asked = host.hasPrefix("[") && host.hasSuffix("]") ? host.dropFirst().dropLast() : Substring(host)
      func isElsewhere(_ name: Substring) -> Bool {
        redirects == 0 && !name.isEmpty && name.lowercased() != asked.lowercased()
      }
      switch code {
      // A SOCKS proxy's name that fails to resolve before libcurl first asks (a race on a
      // busy machine) comes as result 5 in the words of result 6: libcurl keeps the first
      // words it wrote, from the resolver, and returns the result of its own later check.
      case 5:
        return (after("Could not resolve proxy: ") ?? after("Could not resolve host: ")).map(String.init)
          ?? ""
      case 6:
        guard let name = after("Could not resolve host: "), isElsewhere(name) else { return nil }
        return String(name)
      case 7:
        guard let (name, port) = failedConnection, isElsewhere(Substring(name)) else { return nil }
        return Self.address(name, port: port)
      default:
        return nil
      }
    }

    /// The name and port of the connection that failed, as libcurl's words for result 7
    /// give them ("Failed to connect to dog.ceo port 443 after 3 ms: …"); `nil` where the
    /// words are not those.
    var failedConnection: (name: String, port: String)? {
      let prefix = "Failed to connect to "
      guard errorText.hasPrefix(prefix) else { return nil }
      let rest = errorText.dropFirst(prefix.count)
      guard let separator = rest.range(of: " port ") else { return nil }
      let name = rest[..<separator.lowerBound]
      let port = rest[separator.upperBound...].prefix { $0.isASCII && $0.isNumber }
      guard !name.isEmpty, !port.isEmpty else { return nil }
      return (String(name), String(port))
    }

    /// "name:port", an IPv6 address in brackets: a server as its address would name it.
    static func address(_ name: String, port: String) -> String {
      name.contains(":") ? "[\(name)]:\(port)" : "\(name):\(port)"
    }
  }
#endif
