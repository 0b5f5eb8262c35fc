import AppFeature
import Core
import DogAPIClient
import Foundation
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Keystroke → frame: filter change, view state, layout and diff, as the app does per key.
@MainActor
func keystrokeBenchmarks() -> [Row3] {
  var rows: [Row3] = []
  /// Types `query` one character at a time, then clears it; bytes count only the typing.
  func typing(list: BreedList, query: String, width: Int, height: Int) -> (ns: Double, bytes: Double) {
    let store = Store(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
      AppFeature(client: .failing)
    }
    var previous = AppView.render(AppView.ViewState(store.state), width: width, height: height)
    var bytes = 0
    var keystrokes = 0
    let ns =
      measure(iterations: 20) { n in
        for _ in 0..<n {
          for prefix in (1...query.count).map({ String(query.prefix($0)) }) + [""] {
            store.send(.dogs(.filterChanged(prefix)))
            let frame = AppView.render(AppView.ViewState(store.state), width: width, height: height)
            let update = ScreenDiffer.update(from: previous, to: frame, colorMode: .ansi256)
            if !prefix.isEmpty {
              bytes += update.count
              keystrokes += 1
            }
            previous = frame
          }
        }
      } / Double(query.count + 1)
    return (ns, Double(bytes) / Double(keystrokes))
  }
  let many = BreedList(
    breeds: (0..<10_000).map {
      Breed(
        name:
          "breed\(String($0, radix: 26).map { Character(Unicode.Scalar(UInt8(($0.asciiValue! % 26) + 97))) }.map(String.init).joined())"
      )
    },
    source: .network)
  let big = typing(list: many, query: "bre", width: 80, height: 24)
  rows.append(
    Row3(
      name: "keystroke → frame, 10,000 breeds", ns: big.ns, baseline: 0, goal: "≤ 5,000,000 ns",
      limit: 5_000_000))
  let real = typing(list: DogAPIClient.bundledBreedList, query: "hou", width: 80, height: 24)
  rows.append(Row3(name: "keystroke → frame, 108 breeds", ns: real.ns, baseline: 0, goal: "-"))
  // Offline, from the cache: the list's note carries the day it was saved.
  let saved = BreedList(
    breeds: DogAPIClient.bundledBreedList.breeds, source: .cache,
    fetchedAt: Date(timeIntervalSince1970: 1.8e9))
  let cached = typing(list: saved, query: "hou", width: 80, height: 24)
  rows.append(
    Row3(name: "keystroke → frame, 108 breeds from the cache", ns: cached.ns, baseline: 0, goal: "-"))
  let full = ScreenDiffer.update(
    from: nil,
    to: AppView.render(
      AppView.ViewState(AppFeature.State(breeds: DogAPIClient.bundledBreedList, dogsStatus: .loaded)),
      width: 80,
      height: 24), colorMode: .ansi256
  ).count
  rows.append(
    Row3(
      name: "bytes per filter keystroke (typing “hou”), 80×24", ns: real.bytes, baseline: Double(full),
      goal: "≤ 400 (full repaint = baseline)", limit: 400))
  return rows
}

/// Cold start and peak memory of the release binary, as separate processes.
func processBenchmarks() -> [Row3] {
  let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("DogBreedsCLI").path
  guard FileManager.default.isExecutableFile(atPath: binary) else {
    print("(skipping process benchmarks: build DogBreedsCLI in release first: make bench does)")
    return []
  }
  func run(_ arguments: [String]) -> Double {
    var pid: pid_t = 0
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let start = now()
    guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else { return .nan }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return Double(now() - start)
  }
  var rows: [Row3] = []
  for arguments in [["list", "--api", "fake"], ["show", "hound", "--api", "fake"]] {
    let samples = (0..<15).map { _ in run(arguments) }
    rows.append(
      Row3(
        name: "cold start: \(arguments.joined(separator: " "))", ns: median(samples), baseline: 0,
        goal: "≤ 30,000,000 ns", limit: 30_000_000))
  }
  var usage = rusage()
  getrusage(RUSAGE_CHILDREN.rawValue, &usage)
  rows.append(
    Row3(
      name: "peak RSS of those runs (KB)", ns: Double(usage.ru_maxrss), baseline: 0, goal: "≤ 30,720 KB",
      limit: 30_720))
  return rows
}
