import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests, with fault injection.
///
/// Each connection carries one request and is closed after the reply. The handler runs on
/// the connection's thread. Nothing here reaches beyond the loopback interface.
///
/// ```swift
/// let server = try TestHTTPServer { request in
///   request.path == "/api/breeds/list/all" ? .json(#"{"message":{},"status":"success"}"#) : .status(404)
/// }
/// defer { server.stop() }
/// let base = server.baseURL.appendingPathComponent("api")
/// ```
public final class TestHTTPServer: @unchecked Sendable {
  /// What the server received.
  public struct Request: Sendable, Equatable {
    public var method: String
    public var path: String
    public var headers: [String: String]
  }

  /// How the server answers.
  public enum Reply: Sendable {
    /// A complete response.
    case response(status: Int, contentType: String, body: [UInt8])
    /// Accept the request and never answer (until the server stops).
    case stall
    /// Send the headers, then the body a few bytes at a time with pauses in between.
    case drip(status: Int, body: [UInt8], bytesPerChunk: Int, pause: Duration)
    /// Send a head whose `Content-Length` promises `length` bytes, then `body`, then wait
    /// (until the server stops) without sending the rest.
    case promising(length: Int, body: [UInt8])
    /// Send the body in chunked transfer encoding (no `Content-Length`), `chunkSize` bytes a
    /// chunk.
    case chunked(status: Int, body: [UInt8], chunkSize: Int)
    /// Send the headers (no length: the body ends when the connection closes), then `bytes`
    /// zeros as fast as the connection takes them (or until the client hangs up), waiting
    /// `pause` after each 64 KB.
    case flood(bytes: Int, pause: Duration = .zero)
    /// Send these bytes as they are (no head is added), then close the connection.
    case raw([UInt8])
    /// Send these bytes as they are, then reset the connection (a TCP RST, as a dropped
    /// network or a crashing server's host sends).
    case reset([UInt8])
    /// Close the connection without a response.
    case hangUp
    /// Wait, then give the reply.
    indirect case delayed(Duration, Reply)

    /// A JSON response.
    public static func json(_ text: String, status: Int = 200) -> Reply {
      .response(status: status, contentType: "application/json", body: Array(text.utf8))
    }

    /// A plain-text or HTML response.
    public static func text(_ text: String, status: Int, contentType: String = "text/plain") -> Reply {
      .response(status: status, contentType: contentType, body: Array(text.utf8))
    }

    /// Raw bytes.
    public static func bytes(_ bytes: [UInt8], status: Int = 200, contentType: String = "image/jpeg") -> Reply
    {
      .response(status: status, contentType: contentType, body: bytes)
    }
  }

  /// The port the server listens on.
  public let port: UInt16
  private let listener: Int32
  private let handler: @Sendable (Request) -> Reply
  private let socksReply: UInt8?
  private let lock = NSLock()
  private var stopped = false
  private var connections: Set<Int32> = []
  private var received: [Request] = []
  private var floodsSent = 0

  /// `http://127.0.0.1:<port>`
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Every request received so far, in order.
  public var requests: [Request] { lock.withLock { received } }

  /// How many connections are open now (a `.stall` keeps its own open until the client
  /// hangs up).
  public var openConnections: Int { lock.withLock { connections.count } }

  /// How many `.flood` replies have been sent whole (the client did not hang up first).
  public var floodsSentWhole: Int { lock.withLock { floodsSent } }

  /// Starts listening on an ephemeral port.
  ///
  /// - Parameter handler: Chooses the reply for each request.
  public convenience init(handler: @escaping @Sendable (Request) -> Reply) throws {
    try self.init(handler: handler, socksReply: nil)
  }

  /// A SOCKS5 proxy that takes no login and refuses every connection with `reply` (RFC
  /// 1928: 1 a general failure, 2 not allowed, 5 refused…). Each request is recorded as
  /// method `CONNECT` with the path `host:port` asked for.
  public convenience init(refusingSOCKSWith reply: UInt8) throws {
    try self.init(handler: { _ in .hangUp }, socksReply: reply)
  }

  private init(handler: @escaping @Sendable (Request) -> Reply, socksReply: UInt8?) throws {
    self.handler = handler
    self.socksReply = socksReply
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
    }
    self.listener = fd
    self.port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  /// Stops listening and ends every open connection (stalled ones included).
  ///
  /// Sockets are shut down here, under the lock, and closed only by the thread that uses
  /// each (a connection's, with its removal from the set, under the same lock; the
  /// listener's, when its accept loop ends). Closed here, a number could be reused at once
  /// by another test's socket in this process, which this server would then cut (a
  /// shutdown of a connection already closed) or rob (an accept on a listener already
  /// closed): that client's request would end as a lost connection.
  public func stop() {
    lock.withLock {
      guard !stopped else { return }
      stopped = true
      shutdown(listener, Int32(SHUT_RDWR))
      for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }
  }

  /// A loopback port with nothing listening on it, for "connection refused".
  public static func refusedPort() -> UInt16 {
    guard let server = try? TestHTTPServer(handler: { _ in .hangUp }) else { return 9 }
    let port = server.port
    server.stop()
    return port
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  private func acceptLoop() {
    defer { close(listener) }
    while !isStopped {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        // A connection given up before it was taken is no reason to stop listening.
        if errno == EINTR || errno == ECONNABORTED { continue }
        return
      }
      var noSigPipe: Int32 = 1
      setsockopt(connection, SOL_SOCKET, SO_KEEPALIVE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
      let accepted: Bool = lock.withLock {
        guard !stopped else { return false }
        connections.insert(connection)
        return true
      }
      guard accepted else {
        close(connection)
        return
      }
      Thread { [self] in
        serve(connection)
        lock.withLock {
          connections.remove(connection)
          close(connection)
        }
      }.start()
    }
  }

  private func serve(_ connection: Int32) {
    if let socksReply {
      return refuseSOCKS(connection, reply: socksReply)
    }
    guard let request = readRequest(connection) else { return }
    lock.withLock { received.append(request) }
    reply(handler(request), on: connection)
  }

  private func reply(_ reply: Reply, on connection: Int32) {
    switch reply {
    case .delayed(let delay, let inner):
      Self.sleep(for: delay)
      if !isStopped { self.reply(inner, on: connection) }
    case .response(let status, let contentType, let body):
      send(connection, head(status: status, contentType: contentType, length: body.count) + body)
    case .stall:
      var byte: UInt8 = 0
      while !isStopped, recv(connection, &byte, 1, 0) > 0 {}
    case .drip(let status, let body, let bytesPerChunk, let pause):
      guard send(connection, head(status: status, contentType: "application/json", length: body.count)) else {
        return
      }
      var offset = 0
      while offset < body.count, !isStopped {
        let end = min(body.count, offset + max(1, bytesPerChunk))
        guard send(connection, Array(body[offset..<end])) else { return }
        offset = end
        Self.sleep(for: pause)
      }
    case .promising(let length, let body):
      guard send(connection, head(status: 200, contentType: "application/json", length: length) + body) else {
        return
      }
      var byte: UInt8 = 0
      while !isStopped, recv(connection, &byte, 1, 0) > 0 {}
    case .chunked(let status, let body, let chunkSize):
      guard send(connection, head(status: status, contentType: "application/json", length: nil)) else {
        return
      }
      var offset = 0
      while offset < body.count {
        let end = min(body.count, offset + max(1, chunkSize))
        let chunk = Array(String(end - offset, radix: 16).utf8) + [13, 10] + body[offset..<end] + [13, 10]
        guard send(connection, chunk) else { return }
        offset = end
      }
      send(connection, Array("0\r\n\r\n".utf8))
    case .flood(let bytes, let pause):
      let head = "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nConnection: close\r\n\r\n"
      guard send(connection, Array(head.utf8)) else { return }
      let filler = [UInt8](repeating: 0, count: 1 << 16)
      var sent = 0
      while sent < bytes, !isStopped, send(connection, filler) {
        sent += filler.count
        if pause > .zero {
          Self.sleep(for: pause)
        }
      }
      if sent >= bytes { lock.withLock { floodsSent += 1 } }
    case .raw(let bytes):
      send(connection, bytes)
    case .reset(let bytes):
      send(connection, bytes)
      // A zero linger time makes the close that follows send a reset, not a FIN.
      var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
      setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    case .hangUp:
      return
    }
  }

  /// Blocks this connection's thread for `duration`.
  private static func sleep(for duration: Duration) {
    Thread.sleep(
      forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
  }

  /// A response head; without a length, the body is chunked.
  private func head(status: Int, contentType: String, length: Int?) -> [UInt8] {
    let framing = length.map { "Content-Length: \($0)" } ?? "Transfer-Encoding: chunked"
    return Array(
      "HTTP/1.1 \(status) \(status < 400 ? "OK" : "Error")\r\nContent-Type: \(contentType)\r\n\(framing)\r\nConnection: close\r\n\r\n"
        .utf8)
  }

  @discardableResult
  private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 && errno == EINTR { continue }
      if sent <= 0 { return false }
      offset += sent
    }
    return true
  }

  /// `count` bytes from `connection`, or nil if it closes first.
  private func read(_ connection: Int32, count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var offset = 0
    while offset < count {
      let got = bytes[offset...].withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return nil }
      offset += got
    }
    return bytes
  }

  /// A SOCKS5 handshake that ends in `reply`: no login asked for, then the request for a
  /// connection read, recorded and refused.
  private func refuseSOCKS(_ connection: Int32, reply: UInt8) {
    guard let greeting = read(connection, count: 2), greeting[0] == 5,
      read(connection, count: Int(greeting[1])) != nil, send(connection, [5, 0]),
      let head = read(connection, count: 4), head[0] == 5
    else { return }
    let host: String
    switch head[3] {
    case 1:
      guard let address = read(connection, count: 4) else { return }
      host = address.map(String.init).joined(separator: ".")
    case 3:
      guard let length = read(connection, count: 1), let name = read(connection, count: Int(length[0])) else {
        return
      }
      host = String(decoding: name, as: UTF8.self)
    default:
      guard read(connection, count: 16) != nil else { return }
      host = "(IPv6)"
    }
    guard let port = read(connection, count: 2) else { return }
    let request = Request(
      method: "CONNECT", path: "\(host):\(Int(port[0]) << 8 | Int(port[1]))", headers: [:])
    lock.withLock { received.append(request) }
    send(connection, [5, reply, 0, 1, 0, 0, 0, 0, 0, 0])
  }

  private func readRequest(_ connection: Int32) -> Request? {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while buffer.count < 64 * 1024 {
      let count = recv(connection, &chunk, chunk.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer += chunk[0..<count]
      // A request line starts with a method in capitals; anything else (a TLS handshake
      // sent to this plain-HTTP port, say) gets the 400 a real server would send.
      guard let first = buffer.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else {
        _ = send(connection, Array("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n".utf8))
        return nil
      }
      if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
        let text = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let parts = lines.removeFirst().split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
          guard let colon = line.firstIndex(of: ":") else { continue }
          headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
            .trimmingCharacters(in: .whitespaces)
        }
        return Request(method: String(parts[0]), path: String(parts[1]), headers: headers)
      }
    }
    return nil
  }
}
