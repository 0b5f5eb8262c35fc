import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// The `DogBreedsCLI` these tests run: `DOGBREEDS_CLI` where it is set (`.ci/run` points
/// it at the optimised, installed binary, so that what people install is what is tested),
/// else the one built beside this test binary.
let executable: String = {
  if let chosen = ProcessInfo.processInfo.environment["DOGBREEDS_CLI"], !chosen.isEmpty {
    precondition(
      FileManager.default.isExecutableFile(atPath: chosen), "DOGBREEDS_CLI=\(chosen) is not a program")
    return chosen
  }
  let candidates = [
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
      "DogBreedsCLI"),
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/DogBreedsCLI"),
  ]
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
    ?? candidates[1].path
}()

struct Run {
  var status: Int32
  var stdout: String
  var stderr: String
  var elapsed: Duration
}

/// A clean environment: nothing from the developer's shell leaks in.
func cleanEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
  let cache = ScratchFolder.path("cache").path
  let data = ScratchFolder.path("data").path
  var environment = [
    "PATH": "/usr/bin:/bin", "HOME": ScratchFolder.root.path, "DOGBREEDS_CACHE_DIR": cache,
    "DOGBREEDS_DATA_DIR": data, "LANG": "C.UTF-8", "TERMINFO": TerminfoFixtures.folder,
  ]
  // Sanitizer runs set these for every process they start; coverage runs, where the
  // profile goes (so that the app's own lines are counted: `make coverage`).
  for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "LLVM_PROFILE_FILE"] {
    if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
  }
  // Under AddressSanitizer, LeakSanitizer would flag libcurl's own allocations (behind
  // URLSession) at exit and turn exit codes into 1; other builds ignore the variable.
  if !(environment["ASAN_OPTIONS"] ?? "").contains("detect_leaks") {
    environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "detect_leaks=0"
  }
  return environment.merging(extra) { $1 }
}

/// Runs the CLI (or another `program`, such as a shell around it) with piped
/// stdin/stdout/stderr and a hard time limit.
///
/// The waiting happens on a Dispatch thread while the test is suspended: a test blocked in
/// it would hold one of the cooperative pool's two threads (on two cores) for the whole
/// run, and with both held, other tests' effects could not start for seconds. No more runs
/// than the machine has cores go at once (``runSlots``): the suites that run the CLI would
/// otherwise start five debug builds together, and each would take seconds longer than
/// the durations some tests bound.
func runCLI(
  _ arguments: [String], environment: [String: String] = cleanEnvironment(),
  limit: Duration = Duration.seconds(20).scaled,
  program: String = executable
) async throws -> Run {
  await runSlots.acquire()
  let result = await withCheckedContinuation { continuation in
    DispatchQueue.global().async {
      continuation.resume(
        returning: Result { try runBlocking(program, arguments, environment: environment, limit: limit) })
    }
  }
  await runSlots.release()
  return try result.get()
}

/// How many `runCLI` processes may run at once: one per core.
let runSlots = Slots(ProcessInfo.processInfo.activeProcessorCount)

/// A counting semaphore for async code: `acquire` suspends while all slots are taken.
actor Slots {
  private var free: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(_ count: Int) { free = max(1, count) }

  func acquire() async {
    if free > 0 {
      free -= 1
    } else {
      await withCheckedContinuation { waiting.append($0) }
    }
  }

  func release() {
    if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
  }
}

private func runBlocking(
  _ program: String, _ arguments: [String], environment: [String: String], limit: Duration
) throws -> Run {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  process.environment = environment
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  let start = ContinuousClock.now
  try process.run()
  // Read both pipes concurrently so a chatty child never blocks.
  nonisolated(unsafe) var outData = Data()
  nonisolated(unsafe) var errData = Data()
  let group = DispatchGroup()
  group.enter()
  DispatchQueue.global().async {
    outData = out.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  group.enter()
  DispatchQueue.global().async {
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let seconds = Double(limit.components.seconds)
  if group.wait(timeout: .now() + seconds) == .timedOut {
    process.terminate()
    group.wait()
  }
  process.waitUntilExit()
  return Run(
    status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self), elapsed: ContinuousClock.now - start)
}

/// Whether text carries anything a terminal would interpret (C0 except newline, DEL, C1).
/// A server whose list has one breed, Hound (with `subBreeds`), and whose every picture,
/// at an address on the same server, is `picture`, answered with `status`.
func pictureServer(_ picture: [UInt8], status: Int = 200, subBreeds: [String] = []) throws -> TestHTTPServer {
  try pictureServer(picture, status: { status }, subBreeds: subBreeds)
}

/// A server as above whose pictures are answered with the status `status` gives at the time.
func pictureServer(
  _ picture: [UInt8], status: @escaping @Sendable () -> Int, subBreeds: [String] = []
) throws -> TestHTTPServer {
  // The image URL must point back at this server: the port is patched into the answer.
  let holder = PortHolder()
  let names = subBreeds.map { "\"\($0)\"" }.joined(separator: ",")
  let server = try TestHTTPServer { request in
    if request.path.hasPrefix("/breeds/") { return .bytes(picture, status: status()) }
    if request.path.contains("images/random") {
      let folder = pictureFolder(request.path)
      return .json(
        #"{"message":"http:\/\/127.0.0.1:\#(holder.port)\/breeds\/\#(folder)\/dog.jpg","status":"success"}"#)
    }
    return .json(#"{"message":{"hound":[\#(names)]},"status":"success"}"#)
  }
  holder.port = Int(server.port)
  return server
}

func hasRawControls(_ text: String) -> Bool {
  text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
}

extension PseudoTerminalProcess {
  /// Waits until the screen satisfies `condition`; if it never does, the test fails with
  /// the screen as it was, so the failure says what the app showed instead.
  func expectScreen(
    timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: (VirtualTerminal) -> Bool
  ) async {
    guard !(await waitForScreen(timeout: timeout, condition)) else { return }
    Issue.record(
      "The screen never matched within \(timeout.scaled). It shows:\n\(currentScreen.text)",
      sourceLocation: sourceLocation)
  }
}

/// Counts calls across threads (a test server's handler runs on its own).
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// The number of calls before this one.
  func next() -> Int {
    lock.withLock {
      defer { count += 1 }
      return count
    }
  }
}

/// The folder the real API keeps a breed's pictures in, for a request for one
/// (`/api/breed/hound/afghan/images/random`: `hound-afghan`), as the app expects it.
func pictureFolder(_ requestPath: String) -> String {
  let parts = requestPath.split(separator: "/")
  guard let start = parts.firstIndex(of: "breed"), let end = parts.firstIndex(of: "images") else {
    return "none"
  }
  return parts[(start + 1)..<end].joined(separator: "-")
}

/// The port a test server listens on, for answers that must name it.
final class PortHolder: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  var port: Int {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}
