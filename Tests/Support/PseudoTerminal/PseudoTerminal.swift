import CPseudoTerminal
import Foundation
import TestSupport
import TextRendering
import VirtualTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program in a pseudo-terminal for end-to-end tests: type keys, resize, signal it,
/// and read its screen through a ``VirtualTerminal``.
///
/// The child becomes a session leader and opens the slave itself, so the pty is its
/// controlling terminal (`/dev/tty` works, SIGWINCH arrives). Output is drained
/// continuously on a thread: a pty holds only ~20 KB, and an undrained one would block
/// the app mid-frame.
public final class PseudoTerminalProcess: @unchecked Sendable {
  public let pid: pid_t
  private let master: Int32
  private let slave: Int32
  /// What the drain thread shares with the tests (not `self`, so that a test's last
  /// reference going away ends the process and the thread).
  private let capture: Capture
  private var exitStatus: Int32?
  /// The terminal modes before the program started.
  public let initialModes: termios
  /// The terminal's device (`/dev/pts/N`), for another program to write to.
  public let path: String
  private var masterOpen = true

  /// Starts `executable` with `arguments` and exactly `environment`. With
  /// `controlling: false` the pty is not the program's controlling terminal: it gets no
  /// SIGHUP or SIGWINCH from it, only its input and output. The terminal answers the
  /// program's requests (where the cursor is) as a real one does, after `replyDelay` (a
  /// slow link's), or not at all where it is `nil` (a test then answers for it). With
  /// `ambiguousWide` it draws East Asian Ambiguous characters two columns wide, as a
  /// terminal set up for Chinese, Japanese or Korean may. `typedAhead` is typed before the
  /// program starts, waiting for it to read; `typedWithAnswers` is typed when the program
  /// first asks what the terminal is (`CSI c`, a probe's last question): in the same write
  /// as the answers, or alone for a terminal that does not answer. (At once, from the
  /// thread that reads the program's output: a test that waited to see the question and
  /// typed then could come later than a program waiting half a second, in a loaded run.)
  /// With `reportsSize: false` the terminal says it is 0 × 0 (as a serial line, or some
  /// container tools' terminals at first, do), while the screen is `columns` × `rows`.
  /// With `cellPixels` it reports the window's size in pixels too, as cells that large;
  /// with `answersCellPixels` it leaves the window's pixels at zero and answers a question
  /// for a cell's size (`CSI 16 t`) with that one; with `background`, it answers a question
  /// for its background colour with that one; with `drawsDirectColor`, it answers a question
  /// for its graphic rendition (DECRQSS) as a terminal that does (or does not) draw 24-bit
  /// colour; with `answersAttributes`, it answers a question for its attributes (`CSI c`) with
  /// those (``VirtualTerminal/attributes``).
  public init(
    executable: String, arguments: [String], environment: [String: String], columns: Int = 80, rows: Int = 24,
    controlling: Bool = true, replyDelay: Duration? = .zero, ambiguousWide: Bool = false,
    typedAhead: String = "", typedWithAnswers: String = "", reportsSize: Bool = true,
    cellPixels: (width: Int, height: Int)? = nil, answersCellPixels: (width: Int, height: Int)? = nil,
    background: (red: Int, green: Int, blue: Int)? = nil, drawsDirectColor: Bool? = nil,
    answersAttributes: String? = nil
  ) throws {
    var name = [CChar](repeating: 0, count: 256)
    let master = dogbreeds_open_pty(&name, name.count)
    guard master >= 0 else { throw POSIXError(.ENODEV) }
    let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // The parent keeps the slave open too, to read its modes after the child exits.
    let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    // The window's size in pixels too, where the test gives a cell's (0: not said, as many
    // terminals do).
    var size = winsize(
      ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(columns * (cellPixels?.width ?? 0)),
      ws_ypixel: UInt16(rows * (cellPixels?.height ?? 0)))
    if reportsSize { _ = ioctl(master, UInt(TIOCSWINSZ), &size) }
    var modes = termios()
    tcgetattr(slave, &modes)
    initialModes = modes
    _ = Array(typedAhead.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR | (controlling ? 0 : O_NOCTTY), 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    // Nothing else the test process has open goes with it: a pipe another test reads from
    // (a command's output) left open in this app would never end while the app runs.
    dogbreeds_spawn_close_from(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(0x80))  // POSIX_SPAWN_SETSID (glibc)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var child: pid_t = 0
    let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    guard result == 0 else {
      close(master)
      close(slave)
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO)
    }
    self.pid = child
    self.path = path
    self.master = master
    self.slave = slave
    var screen = VirtualTerminal(width: columns, height: rows)
    screen.background = background
    screen.drawsDirectColor = drawsDirectColor
    screen.cellSize = answersCellPixels
    if let answersAttributes { screen.attributes = answersAttributes }
    if ambiguousWide { screen.columns = VirtualTerminal.ambiguousWide }
    let capture = Capture(screen: screen, replyDelay: replyDelay, typedWithAnswers: typedWithAnswers)
    self.capture = capture
    Thread { capture.drain(master) }.start()
  }

  deinit {
    if exitStatus == nil { kill(pid, SIGKILL) }
    if masterOpen { hangUp() }
    close(slave)
  }

  /// Closes the terminal's master side, as closing a terminal window does: the program's
  /// reads then end, and (unless blocked) it gets SIGHUP.
  public func hangUp() {
    guard masterOpen else { return }
    masterOpen = false
    capture.stop()
    close(master)
  }

  /// Types text (or raw key bytes).
  public func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Resizes the terminal; the child gets SIGWINCH.
  public func resize(columns: Int, rows: Int) {
    capture.lock.withLock { capture.screen.resize(width: columns, height: rows) }
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  /// Sends a signal to the child.
  public func signal(_ number: Int32) { kill(pid, number) }

  /// The virtual screen as it is now.
  public var currentScreen: VirtualTerminal { capture.lock.withLock { capture.screen } }

  /// Everything the program wrote.
  public var allOutput: [UInt8] { capture.lock.withLock { capture.output } }

  /// The terminal's modes now (compare with ``initialModes`` after the program exits).
  public var currentModes: termios {
    var modes = termios()
    tcgetattr(slave, &modes)
    return modes
  }

  /// Waits (polling every 20 ms, at most `timeout` times the run's `timeScale`) until
  /// `condition` holds for the screen.
  /// It suspends rather than blocks, so a test waiting on a slow screen leaves the
  /// cooperative pool's threads (two on a two-core machine) to the other tests' effects.
  @discardableResult
  public func waitForScreen(
    timeout: Duration = .seconds(10), _ condition: (VirtualTerminal) -> Bool
  ) async -> Bool {
    let deadline = ContinuousClock.now + timeout.scaled
    while ContinuousClock.now < deadline {
      if condition(currentScreen) { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return condition(currentScreen)
  }

  /// Waits for the child to exit (at most `timeout` times the run's `timeScale`); its exit
  /// code, 128+signal if killed, or nil on timeout.
  public func waitForExit(timeout: Duration = .seconds(10)) async -> Int32? {
    if let exitStatus { return exitStatus }
    let deadline = ContinuousClock.now + timeout.scaled
    while ContinuousClock.now < deadline {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid {
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exitStatus = code
        // The drain thread reads what the program wrote last: waited for until the terminal
        // holds nothing unread and the thread is not taking a read (a fixed wait here lost
        // output on a loaded machine), two seconds at most.
        let drained = ContinuousClock.now + Duration.seconds(2).scaled
        while capture.isBusy(master), ContinuousClock.now < drained {
          try? await Task.sleep(for: .milliseconds(5))
        }
        return code
      }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return nil
  }
}

/// The program's output as it arrives, read on a thread of its own.
private final class Capture: @unchecked Sendable {
  let lock = NSLock()
  var screen: VirtualTerminal
  var output: [UInt8] = []
  private var draining = true
  private let drained = DispatchSemaphore(value: 0)
  /// Whether ``drain(_:)`` is between a read and taking what it read.
  private var reading = false

  /// Whether output is still on its way in: unread on `master`, or read and not yet taken.
  func isBusy(_ master: Int32) -> Bool {
    if lock.withLock({ reading }) { return true }
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) > 0 || lock.withLock { reading }
  }
  /// How long the terminal takes to answer; `nil`: it never does.
  private let replyDelay: Duration?
  /// Typed when `CSI c` is first asked (only the draining thread reads it).
  private var typedWithAnswers: [UInt8]

  init(screen: VirtualTerminal, replyDelay: Duration?, typedWithAnswers: String) {
    self.screen = screen
    self.replyDelay = replyDelay
    self.typedWithAnswers = Array(typedWithAnswers.utf8)
  }

  /// Reads `master` until ``stop()`` (polling, so it notices within 20 ms).
  func drain(_ master: Int32) {
    defer { drained.signal() }
    var buffer = [UInt8](repeating: 0, count: 8192)
    while lock.withLock({ draining }) {
      var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, 20)
      if ready == 0 || (ready < 0 && errno == EINTR) { continue }
      lock.withLock { reading = true }
      let count = read(master, &buffer, buffer.count)
      if count <= 0 { lock.withLock { reading = false } }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return }
      // An answer due at once is written before the lock is let go: a test that sees the
      // screen that asked the question then types after the answer, as at a terminal
      // (written after, a key typed meanwhile went in first, and a paste swallowed the answer).
      let pending: [UInt8]? = lock.withLock {
        reading = false
        output += buffer[0..<count]
        screen.apply(Array(buffer[0..<count]))
        let replies = screen.takeReplies()
        guard !replies.isEmpty else { return nil }
        let isAttributesAnswer = { (reply: String) in reply.hasPrefix("\u{1B}[?") && reply.hasSuffix("c") }
        let typed = replies.contains(where: isAttributesAnswer) ? typedWithAnswers : []
        if !typed.isEmpty { typedWithAnswers = [] }
        let bytes = (replyDelay == nil ? [] : Array(replies.joined().utf8)) + typed
        guard !bytes.isEmpty else { return nil }
        // At once from this thread, or later from a thread of its own: not from Dispatch's
        // threads, which may all be busy in a loaded run (an answer then came a second late).
        guard let replyDelay, replyDelay != .zero else {
          _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
          return nil
        }
        return bytes
      }
      guard let bytes = pending, let replyDelay else { continue }
      Thread {
        Thread.sleep(forTimeInterval: Double(replyDelay / .microseconds(1)) / 1_000_000)
        // Under the lock, and only while draining: once `stop()` has returned the master
        // may be closed, and its number given to another file.
        self.lock.withLock {
          guard self.draining else { return }
          _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
      }.start()
    }
  }

  /// Ends ``drain(_:)`` and waits until it has.
  func stop() {
    lock.withLock { draining = false }
    drained.wait()
  }
}

/// Whether two sets of terminal modes are the same (flags and control characters).
public func sameModes(_ a: termios, _ b: termios) -> Bool {
  var a = a
  var b = b
  let ccEqual = withUnsafeBytes(of: &a.c_cc) { x in withUnsafeBytes(of: &b.c_cc) { y in x.elementsEqual(y) } }
  return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
    && ccEqual
}
