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
    var previous = AppView.render(
      AppFeature.ViewState(store.state), display: Display(columns: width, rows: height))
    var bytes = 0
    var keystrokes = 0
    let ns =
      measure(iterations: 20) { n in
        for _ in 0..<n {
          for prefix in (1...query.count).map({ String(query.prefix($0)) }) + [""] {
            store.send(.dogs(.filterChanged(prefix)))
            let frame = AppView.render(
              AppFeature.ViewState(store.state), display: Display(columns: width, rows: height))
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
      AppFeature.ViewState(AppFeature.State(breeds: DogAPIClient.bundledBreedList, dogsStatus: .loaded)),
      display: Display(columns: 80, rows: 24)), colorMode: .ansi256
  ).count
  rows.append(
    Row3(
      name: "bytes per filter keystroke (typing “hou”), 80×24", ns: real.bytes, baseline: Double(full),
      goal: "≤ 400 (full repaint = baseline)", limit: 400))
  return rows + favouritesBenchmarks(list: many)
}

/// Starring on the list, and opening the Favourites tab, with 1,000 favourites among
/// `list`'s breeds.
@MainActor
func favouritesBenchmarks(list: BreedList) -> [Row3] {
  let favourites = Set(
    list.breeds.prefix(2_000).enumerated().filter { $0.offset % 2 == 0 }.map(\.element.name))
  // Thumbnails on, from an API that fails at once: the tab's first frame starts their
  // loads; what they bring arrives later and is not counted.
  var offline = DogAPIClient.failing
  offline.randomImage = { (_, _) async throws(DogAPIError) -> URL in throw .offline }
  let store = Store(
    initialState: AppFeature.State(
      breeds: list, dogsStatus: .loaded, dogsHighlighted: list.breeds[1].name, favourites: favourites)
  ) {
    AppFeature(client: offline, pictureSize: { (80, 48) })
  }
  func frame() -> Frame {
    AppView.render(AppFeature.ViewState(store.state), display: Display(columns: 80, rows: 24))
  }
  var previous = frame()
  var bytes = 0
  var keystrokes = 0
  let star = measure(iterations: 20) { n in
    for _ in 0..<n {
      // Ctrl-F stars the highlighted breed, and again un-stars it.
      store.send(.dogs(.favouriteToggled))
      let next = frame()
      bytes += ScreenDiffer.update(from: previous, to: next, colorMode: .ansi256).count
      keystrokes += 1
      previous = next
    }
  }
  var tabBytes = 0
  let open = measure(iterations: 20) { n in
    for _ in 0..<n {
      store.send(.tabSelected(.favourites))
      store.send(.favourites(.appeared))
      let shown = frame()
      tabBytes += ScreenDiffer.update(from: previous, to: shown, colorMode: .ansi256).count
      blackHole(tabBytes)
      // Back to the list, uncounted.
      store.send(.tabSelected(.breeds))
      previous = frame()
    }
  }
  return [
    Row3(
      name: "^F star → frame, 10,000 breeds, 1,000 favourites", ns: star, baseline: 0, goal: "≤ 2,000,000 ns",
      limit: 2_000_000),
    Row3(
      name: "bytes per ^F star, 80×24", ns: Double(bytes) / Double(keystrokes), baseline: 0, goal: "≤ 400",
      limit: 400),
    Row3(
      name: "Favourites tab → first frame, 1,000 favourites", ns: open, baseline: 0, goal: "≤ 5,000,000 ns",
      limit: 5_000_000),
  ]
}

/// Runs `binary` with `arguments` (standard output to `output`, else /dev/null) and waits
/// for it; returns the nanoseconds it took, NaN where it could not be started.
func spawnAndWait(_ binary: String, _ arguments: [String], output: Int32? = nil) -> Double {
  var pid: pid_t = 0
  let argv = ([binary] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  if let output {
    posix_spawn_file_actions_adddup2(&actions, output, 1)
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  }
  defer { posix_spawn_file_actions_destroy(&actions) }
  let start = now()
  guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else { return .nan }
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  return Double(now() - start)
}

/// `DogBreedsBench rss-of BINARY ARGUMENTS…`: runs the binary once (standard output to
/// /dev/null) and prints the peak resident memory of that run, in KB.
///
/// Linux carries the peak of the memory a process leaves at exec into its own figure. A
/// child of posix_spawn (vfork) leaves its parent's memory, so a child of the benchmark,
/// which holds ~30 MB of lists and frames by then, reported that; a child of fork leaves a
/// copy of its parent's private pages only. So the benchmark starts this launcher afresh,
/// and it forks: what a run reports is then at least the launcher's few private pages,
/// which `/bin/true` run the same way measures.
func printPeakRSSOfOneRun(_ command: [String]) {
  let argv = command.map { strdup($0) } + [nil]
  let null = open("/dev/null", O_WRONLY)
  let pid = fork()
  guard pid >= 0 else { return }
  if pid == 0 {
    dup2(null, 1)
    execv(command[0], argv)
    _exit(127)
  }
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  var children = rusage()
  getrusage(RUSAGE_CHILDREN.rawValue, &children)
  print(children.ru_maxrss)
}

/// Cold start and peak memory of the release binary, as separate processes.
func processBenchmarks() -> [Row3] {
  let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("DogBreedsCLI").path
  guard FileManager.default.isExecutableFile(atPath: binary) else {
    print("(skipping process benchmarks: build DogBreedsCLI in release first: make bench does)")
    return []
  }
  let commands = [["list", "--api", "fake"], ["show", "hound", "--api", "fake"]]
  var rows: [Row3] = []
  for arguments in commands {
    let samples = (0..<15).map { _ in spawnAndWait(binary, arguments) }
    rows.append(
      Row3(
        name: "cold start: \(arguments.joined(separator: " "))", ns: median(samples), baseline: 0,
        goal: "≤ 30,000,000 ns", limit: 30_000_000))
  }
  // Each command three times through the launcher; the largest peak of the app's runs.
  func peakRSS(_ command: [String]) -> Int? {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { return nil }
    _ = spawnAndWait(CommandLine.arguments[0], ["rss-of"] + command, output: pipe[1])
    close(pipe[1])
    let handle = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true)
    return Int(String(decoding: handle.readDataToEndOfFile(), as: UTF8.self).filter(\.isNumber))
  }
  let peak = commands.flatMap { arguments in (0..<3).compactMap { _ in peakRSS([binary] + arguments) } }.max()
  let floor = peakRSS(["/bin/true"]).map { "; /bin/true \($0)" } ?? ""
  rows.append(
    Row3(
      // No reading is no figure (NaN meets no goal), not a zero that would meet it.
      name: "peak RSS of those runs (KB\(floor))", ns: peak.map(Double.init) ?? .nan, baseline: 0,
      goal: "≤ 30,720 KB", limit: 30_720))
  return rows
}
