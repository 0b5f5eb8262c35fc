#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one reader of a terminal's input: it waits for bytes, decodes them (``KeyDecoder``)
/// and hands back what they were, keys, the mouse, pastes and the terminal's replies alike.
///
/// The full-screen app reads with it on its input thread, the replay viewer in its loop
/// (with the signal pipe beside it), and the terminal probe one byte at a time, so that
/// nothing typed after the last answer is taken from the keyboard's queue. A lone Esc waits
/// `escapeDelay` for the rest of a sequence; a paste whose end marker has not come waits a
/// second (or it would swallow every key after it, Ctrl-C included).
public struct InputReader: Sendable {
  /// What one ``read(until:also:)`` found.
  public enum Read: Equatable, Sendable {
    /// Input, decoded (possibly nothing yet: a sequence not ended).
    case events([InputEvent])
    /// The deadline passed with no input.
    case timedOut
    /// Another of the descriptors asked about is ready to read; no input was read.
    case ready([Int32])
    /// The input ended (a closed terminal reads end of file) or can no longer be read
    /// (EIO, as a background process in an orphaned group reads it): `failed` for the
    /// latter.
    case ended(failed: Bool)
  }

  /// The descriptor read.
  public let fd: Int32
  private var decoder = KeyDecoder()
  private let escapeDelay: Duration?
  private var buffer: [UInt8]

  /// A reader of `fd`; `oneByteAtATime` for a reader that must leave whatever follows
  /// what it waits for in the queue. Without an `escapeDelay`, a sequence begun is waited
  /// for until the deadline (the terminal's answers, which come whole or not at all).
  public init(fd: Int32, escapeDelay: Duration? = .milliseconds(50), oneByteAtATime: Bool = false) {
    self.fd = fd
    self.escapeDelay = escapeDelay
    buffer = [UInt8](repeating: 0, count: oneByteAtATime ? 1 : 4096)
  }

  /// Waits for input until `deadline` (for ever without one), or until one of `also` can
  /// be read, and returns what came.
  public mutating func read(until deadline: ContinuousClock.Instant? = nil, also: [Int32] = []) -> Read {
    while true {
      var descriptors = ([fd] + also).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let ready = poll(&descriptors, nfds_t(descriptors.count), timeout(until: deadline))
      if ready < 0 {
        if errno == EINTR { continue }
        return .ended(failed: true)
      }
      if ready == 0 {
        if decoder.hasPendingInput || decoder.isInPaste { return .events(decoder.flush()) }
        return .timedOut
      }
      guard descriptors[0].revents != 0 else {
        return .ready(descriptors.dropFirst().filter { $0.revents != 0 }.map(\.fd))
      }
      let count = readBytes(fd, &buffer)
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return .ended(failed: true)
      }
      if count == 0 { return .ended(failed: false) }
      return .events(decoder.feed(buffer[0..<count]))
    }
  }

  /// How long to wait, in milliseconds (-1: for ever): a paste's second or a lone Esc's
  /// delay while the decoder holds part of a sequence, and never past `deadline`.
  private func timeout(until deadline: ContinuousClock.Instant?) -> Int32 {
    var wait: Duration? =
      decoder.isInPaste ? .seconds(1) : decoder.hasPendingInput ? escapeDelay : nil
    if let deadline {
      let left = max(.zero, ContinuousClock.now.duration(to: deadline))
      wait = min(wait ?? left, left)
    }
    guard let wait else { return -1 }
    // Rounded up, so a wait never ends just before its deadline.
    return Int32(min(wait / .milliseconds(1), 86_400_000).rounded(.up))
  }
}

/// `read(2)`, by a name the reader's own `read` does not hide.
private func readBytes(_ fd: Int32, _ buffer: inout [UInt8]) -> Int {
  read(fd, &buffer, buffer.count)
}
