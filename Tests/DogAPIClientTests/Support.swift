import Core
import Foundation
import TestHTTPServer
import TestSupport
import Testing

@testable import DogAPIClient

enum Fixture {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")
  static let breedsJSON = try! String(
    contentsOf: directory.appendingPathComponent("breeds-list-all.json"), encoding: .utf8)
}

/// A fresh, empty cache folder under the temporary directory.
func temporaryCache() -> BreedListCache {
  BreedListCache(directory: ScratchFolder.path("cache"))
}

/// A live client pointed at `server`'s `/api`.
func liveClient(
  _ server: TestHTTPServer, _ transport: Transport = .platform, timeout: Duration = .seconds(5).scaled,
  cache: BreedListCache? = nil, usesBundledFallback: Bool = false, maxJSONBytes: Int = 1 << 20
) -> DogAPIClient {
  liveClient(
    DogAPIClient.Configuration(
      baseURL: server.baseURL.appendingPathComponent("api"), timeout: timeout,
      maxJSONBytes: maxJSONBytes, cache: cache, usesBundledFallback: usesBundledFallback), transport)
}

/// A live client with `configuration`, on `transport`.
func liveClient(_ configuration: DogAPIClient.Configuration, _ transport: Transport) -> DogAPIClient {
  var configuration = configuration
  configuration.usesURLSession = transport == .urlSession
  return .live(configuration)
}

/// How the live client fetches: what it uses on this platform (libcurl on Linux), or
/// URLSession, which other platforms use.
///
/// URLSession is left out where this process's environment names a proxy for the test
/// servers: corelibs-foundation sends even loopback requests through it (it leaves
/// proxies to libcurl's reading of the variables), so every one of its cases would fail on
/// the proxy, not on the client. `LiveClientTests.urlSessionIsLeftOutBehindAProxy` says so.
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case platform
  case urlSession

  var testDescription: String { rawValue }

  static var allCases: [Transport] { proxiesLoopback ? [.platform] : [.platform, .urlSession] }

  /// Whether libcurl, left to the environment, would send requests for 127.0.0.1 through
  /// a proxy.
  static var proxiesLoopback: Bool {
    let environment = ProcessInfo.processInfo.environment
    let proxy = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].contains {
      environment[$0]?.isEmpty == false
    }
    let direct = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    return proxy && !direct.contains("*") && !direct.contains("127.0.0.1")
  }
}

/// Runs `body` and returns the error it threw (every client endpoint throws `DogAPIError`).
func error<T>(_ body: () async throws -> T) async -> DogAPIError? {
  do {
    _ = try await body()
    return nil
  } catch {
    return error as? DogAPIError ?? .malformedResponse(detail: "unexpected error type: \(error)")
  }
}

/// The value of `task` if it ends within `bound`, else `nil` (the task is then left to
/// itself): for a test whose fault would wait forever.
func value<T: Sendable>(of task: Task<T, Never>, within bound: Duration) async -> T? {
  await withCheckedContinuation { continuation in
    let once = ResumeOnce(continuation)
    Task { once.resume(await task.value) }
    Task {
      try? await Task.sleep(for: bound)
      once.resume(nil)
    }
  }
}

/// A continuation resumed by the first value given; later ones are dropped.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<T, Never>?

  init(_ continuation: CheckedContinuation<T, Never>) {
    self.continuation = continuation
  }

  func resume(_ value: T) {
    let waiting: CheckedContinuation<T, Never>? = lock.withLock {
      defer { continuation = nil }
      return continuation
    }
    waiting?.resume(returning: value)
  }
}
