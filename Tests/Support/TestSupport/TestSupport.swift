import Core
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Collects the issues raised inside `withIssueReporter`, so tests can assert on the exact
/// messages.
public final class IssueCollector: IssueReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []

  public init() {}

  /// Every message reported so far, in order.
  public var messages: [String] { lock.withLock { storage } }

  public func report(_ message: String, at location: IssueLocation) {
    lock.withLock { storage.append(message) }
  }
}

/// Runs `body` and returns the issues it raised.
@MainActor
public func collectingIssues(_ body: @MainActor () async -> Void) async -> [String] {
  let collector = IssueCollector()
  await withIssueReporter(collector) { await body() }
  return collector.messages
}

/// A thread-safe, append-only log, for tests of the order things happen in.
public final class Log<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Element] = []
  /// What was appended so far, in order.
  public var values: [Element] { lock.withLock { storage } }
  /// Creates an empty log.
  public init() {}
  /// Appends `value`.
  public func append(_ value: Element) { lock.withLock { storage.append(value) } }
}

/// A gate effects wait at until the test opens it: ordering without sleeps.
public actor Gate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  public init() {}

  /// Returns once the gate is open.
  public func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Opens the gate for everyone waiting and everyone to come.
  public func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }
}

/// How much slower than normal this run is allowed to be: `DOGBREEDS_TIME_SCALE` (the
/// sanitizer targets set 10), else 1. Tests that bound a duration multiply by it.
public let timeScale: Double = Double(ProcessInfo.processInfo.environment["DOGBREEDS_TIME_SCALE"] ?? "") ?? 1

/// Whether this process runs under ThreadSanitizer (and so the app, built with it): its
/// runtime faults (a bus error) under a small file size limit (`ulimit -f`).
public let isThreadSanitized: Bool = {
  #if canImport(Glibc)
    return dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil
  #else
    return false
  #endif
}()

extension Duration {
  /// This duration stretched by ``timeScale``.
  public var scaled: Duration { self * timeScale }
}
