import AppFeature
import Core
import DogAPIClient
import DogsFeature
import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Benchmarks: run with `make bench` (release build). Prints a table of figures.
///
/// Each case runs `iterations` actions, five times; the median run is reported in
/// nanoseconds per action, next to a plain-Swift baseline doing the same state change.

func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Nanoseconds per iteration of one run of `body`.
func timePerIteration(_ iterations: Int, _ body: (Int) -> Void) -> Double {
  let start = now()
  body(iterations)
  return Double(now() - start) / Double(iterations)
}

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

/// Median nanoseconds per iteration over `runs` runs.
func measure(runs: Int = 5, iterations: Int, _ body: (Int) -> Void) -> Double {
  median((0..<runs).map { _ in timePerIteration(iterations, body) })
}

/// Like ``measure(runs:iterations:_:)`` for two things compared with each other: their
/// runs alternate, so a slow spell of this shared machine falls on both, not on one.
func measureAlternately(
  runs: Int = 7, iterations: Int, _ first: (Int) -> Void, _ second: (Int) -> Void
) -> (Double, Double) {
  let pairs = (0..<runs).map { _ in
    (timePerIteration(iterations, first), timePerIteration(iterations, second))
  }
  return (median(pairs.map(\.0)), median(pairs.map(\.1)))
}

@inline(never)
func blackHole<T>(_ value: T) {
  withUnsafePointer(to: value) { _ = $0 }
}

struct Row3 {
  var name: String
  var ns: Double
  var baseline: Double
  var goal: String
  /// The most `ns` may be for the goal to be met, where the goal is a number.
  var limit: Double? = nil

  /// "yes", "NO", or "-" where there is no number to meet.
  var met: String { limit.map { ns <= $0 ? "yes" : "NO" } ?? "-" }
}

/// Every row printed so far whose goal was missed.
var missedGoals: [Row3] = []

func format(_ value: Double) -> String {
  let rounded = (value * 10).rounded() / 10
  return rounded >= 100 ? String(Int(rounded)) : String(rounded)
}

@MainActor
func printTable(_ title: String, _ rows: [Row3], reference: String = "plain Swift ns") {
  printGrid(
    title, header: ["case", "ns per op", reference, "ratio", "goal", "met"],
    lines: rows.map { row in
      [
        row.name, format(row.ns), row.baseline > 0 ? format(row.baseline) : "-",
        row.baseline > 0 ? format(row.ns / row.baseline) + "×" : "-", row.goal, row.met,
      ]
    })
  missedGoals += rows.filter { $0.met == "NO" }
}

/// Prints a Markdown table with padded columns.
func printGrid(_ title: String, header: [String], lines body: [[String]]) {
  print("\n\(title)")
  let lines = [header] + body
  let widths = (0..<header.count).map { column in lines.map { $0[column].count }.max() ?? 0 }
  for (index, line) in lines.enumerated() {
    print(
      "| " + line.enumerated().map { $0.element.padding(to: widths[$0.offset]) }.joined(separator: " | ")
        + " |")
    if index == 0 {
      print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    }
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}

/// The least, middle and greatest of some timings.
struct Spread {
  var min: Double
  var median: Double
  var max: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    (min, median, max) = (sorted[0], sorted[sorted.count / 2], sorted[sorted.count - 1])
  }
}

/// Times each contender `runs` times, its runs alternating with the others' (so a slow
/// spell of this shared machine falls on all of them), after one untimed run each.
func compare(runs: Int = 7, iterations: Int, _ contenders: [(Int) -> Void]) -> [Spread] {
  for contender in contenders { contender(iterations / 10) }
  var samples = Array(repeating: [Double](), count: contenders.count)
  for _ in 0..<runs {
    for (index, contender) in contenders.enumerated() {
      samples[index].append(timePerIteration(iterations, contender))
    }
  }
  return samples.map(Spread.init)
}

/// One row of the Core table: a store's spread beside plain Swift's median.
struct CoreRow {
  var name: String
  var store: Spread
  var plain: Double
  var goal: String
  /// Whether the goal is met.
  var met: Bool

  var asRow: Row3 {
    Row3(name: name, ns: store.median, baseline: plain, goal: goal, limit: met ? .infinity : 0)
  }
}

/// The Core rows: a flat send, a leaf's send through stores scoped level by level at
/// depths 1, 5 and 10, and a send to 1 of 1,000 elements of a `forEach`, each beside the
/// same change in plain Swift; then what removing every element of a `forEach` costs.
@MainActor
func coreBenchmarks() -> [CoreRow] {
  let iterations = Int(String(cString: getenv("BENCH_ITERATIONS") ?? strdup("1000000"))) ?? 1_000_000
  var rows: [CoreRow] = []

  // Flat.
  let flatStore = Store(initialState: Counter.State()) { Counter() }
  var plainCounter = PlainCounter()
  let flat = compare(
    iterations: iterations,
    [
      { n in for _ in 0..<n { flatStore.send(.increment) } },
      { n in for _ in 0..<n { plainReduce(&plainCounter, .increment) } },
    ])
  blackHole(plainCounter)
  rows.append(
    CoreRow(
      name: "flat Store.send", store: flat[0], plain: flat[1].median, goal: "≤ 6× plain",
      met: flat[0].median <= 6 * flat[1].median))

  // Flat, recording every action to memory, beside the same store not recording.
  let recordingStore = Store(initialState: Counter.State()) { Counter() }
  var log: [RecordedAction<Counter.Action>] = []
  log.reserveCapacity(iterations)
  recordingStore.startRecording { entry, _ in log.append(entry) }
  let recording = compare(
    iterations: iterations,
    [
      { n in
        log.removeAll(keepingCapacity: true)
        for _ in 0..<n { recordingStore.send(.increment) }
      },
      { n in for _ in 0..<n { flatStore.send(.increment) } },
    ])
  precondition(log.count == iterations && log.last?.action == .increment, "the recording missed actions")
  rows.append(
    CoreRow(
      name: "flat Store.send, recording to memory", store: recording[0], plain: recording[1].median,
      goal: "≤ 1.2× not recording", met: recording[0].median <= 1.2 * recording[1].median))

  // A leaf at depths 1, 5 and 10, measured together, alternating.
  let store1 = Store(initialState: Level1.State()) { Level1() }
  let store5 = Store(initialState: Level5.State()) { Level5() }
  let store10 = Store(initialState: Level10.State()) { Level10() }
  let (leaf1, leaf5, leaf10) = (leafStore(store1), leafStore(store5), leafStore(store10))
  var (plain1, plain5, plain10) = (PlainLevel1(), PlainLevel5(), PlainLevel10())
  let depths = compare(
    iterations: iterations,
    [
      { n in for _ in 0..<n { leaf1.send(.increment) } },
      { n in for _ in 0..<n { leaf5.send(.increment) } },
      { n in for _ in 0..<n { leaf10.send(.increment) } },
      { n in for _ in 0..<n { plainLeafReduce(&plain1) } },
      { n in for _ in 0..<n { plainLeafReduce(&plain5) } },
      { n in for _ in 0..<n { plainLeafReduce(&plain10) } },
    ])
  blackHole((plain1, plain5, plain10))
  precondition(
    leaf1.state.count == leaf10.state.count && leaf10.state.count > 0, "a send did not reach the leaf")
  let depth1 = depths[0].median
  rows += [
    CoreRow(name: "leaf at depth 1", store: depths[0], plain: depths[3].median, goal: "-", met: true),
    CoreRow(name: "leaf at depth 5", store: depths[1], plain: depths[4].median, goal: "-", met: true),
    CoreRow(
      name: "leaf at depth 10", store: depths[2], plain: depths[5].median,
      goal: "≤ 40 ns and ≤ 5× depth 1 (\(format(5 * depth1)) ns)",
      met: depths[2].median <= 40 && depths[2].median <= 5 * depth1),
  ]

  // forEach: 1 of 1,000.
  let elements = (0..<1_000).map { Row.State(id: $0) }
  let rowsStore = Store(initialState: Rows.State(rows: IdentifiedArray(elements))) { Rows() }
  var plainRows = PlainRows(
    rows: elements, index: Dictionary(uniqueKeysWithValues: elements.map { ($0.id, $0.id) }))
  let forEach = compare(
    iterations: iterations,
    [
      { n in for i in 0..<n { rowsStore.send(.row(i % 1_000, .increment)) } },
      { n in for i in 0..<n { plainRowsReduce(&plainRows, id: i % 1_000) } },
    ])
  blackHole(plainRows)
  precondition(rowsStore.state.rows[id: 7]!.count > 0, "rows did not update")
  rows.append(
    CoreRow(
      name: "forEach, 1 of 1,000", store: forEach[0], plain: forEach[1].median, goal: "≤ 5× plain",
      met: forEach[0].median <= 5 * forEach[1].median))

  // A case path made from the case alone, beside the hand-written one (an `if case` in a
  // closure) in the baseline column: extracting from actions half of which are the case.
  let actions: [ParentAction] = (0..<64).map { $0 % 2 == 0 ? .child(.increment) : .other }
  let fromCase = CasePath(ParentAction.child)
  var found = 0
  let extraction = compare(
    iterations: iterations,
    [
      { n in for i in 0..<n where fromCase.extract(actions[i & 63]) != nil { found &+= 1 } },
      { n in for i in 0..<n where ParentAction.childPath.extract(actions[i & 63]) != nil { found &+= 1 } },
    ])
  blackHole(found)
  rows.append(
    CoreRow(
      name: "CasePath(Action.child) extract", store: extraction[0], plain: extraction[1].median,
      goal: "≤ 2× hand-written", met: extraction[0].median <= 2 * extraction[1].median))

  // forEach: every element removed by one action; what removing one costs must not grow
  // with how many go at once (each removed element's effects are cancelled). No plain
  // baseline: freeing an array takes too little per element to time.
  func removingAll(_ count: Int) -> Spread {
    let elements = (0..<count).map { Row.State(id: $0) }
    return Spread(
      (0..<7).map { _ in
        let store = Store(initialState: Rows.State(rows: IdentifiedArray(elements))) { Rows() }
        let ns = timePerIteration(count) { _ in store.send(.removeAll) }
        precondition(store.state.rows.isEmpty, "the elements were not removed")
        return ns
      })
  }
  let few = removingAll(1_000)
  let many = removingAll(10_000)
  rows += [
    CoreRow(name: "forEach, removing all 1,000 (per element)", store: few, plain: 0, goal: "-", met: true),
    CoreRow(
      name: "forEach, removing all 10,000 (per element)", store: many, plain: 0,
      goal: "≤ 2× all 1,000 (\(format(2 * few.median)) ns)", met: many.median <= 2 * few.median),
  ]
  return rows
}

if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "rss-of" {
  printPeakRSSOfOneRun(Array(CommandLine.arguments.dropFirst(2)))
  exit(0)
}
let arguments = Set(CommandLine.arguments.dropFirst())
if arguments.contains("debug-keystroke") {
  MainActor.assumeIsolated {
    let store = Store(
      initialState: AppFeature.State(breeds: DogAPIClient.bundledBreedList, dogsStatus: .loaded)
    ) {
      AppFeature(client: .failing)
    }
    var previous = AppView.render(AppFeature.ViewState(store.state), display: Display(columns: 80, rows: 24))
    for prefix in ["h", "ho", "hou"] {
      store.send(.dogs(.filterChanged(prefix)))
      let frame = AppView.render(AppFeature.ViewState(store.state), display: Display(columns: 80, rows: 24))
      let update = ScreenDiffer.update(from: previous, to: frame, colorMode: .ansi256)
      print(prefix, update.count, String(decoding: update, as: UTF8.self).debugDescription)
      previous = frame
    }
  }
  exit(0)
}
if arguments.contains("profile-jpeg") {
  let bytes = [UInt8](
    FileManager.default.contents(
      atPath: "Tests/ImageDecodingTests/Fixtures/jpeg/"
        + (arguments.contains("progressive")
          ? "synthetic-500x333-progressive.jpg" : "synthetic-500x375-baseline.jpg"))!)
  let scale: JPEGDecoder.Scale = arguments.contains("eighth") ? .eighth : .full
  let repeats = Int(ProcessInfo.processInfo.environment["PROFILE_REPEATS"] ?? "20") ?? 20
  for _ in 0..<repeats { blackHole(try? JPEGDecoder.decode(bytes, scale: scale)) }
  exit(0)
}
if arguments.contains("profile-png") {
  let bytes = [UInt8](
    FileManager.default.contents(atPath: "Tests/ImageDecodingTests/Fixtures/png/photo-500x375.png")!)
  let repeats = Int(ProcessInfo.processInfo.environment["PROFILE_REPEATS"] ?? "20") ?? 20
  for _ in 0..<repeats { blackHole(try? PNGDecoder.decode(bytes)) }
  exit(0)
}
if arguments.contains("profile-deflate") {
  let bytes = [UInt8](
    FileManager.default.contents(atPath: "Tests/TextRenderingTests/Fixtures/photos/chelsea-360x240.jpg")!)
  let pixels = try! JPEGDecoder.decode(bytes).pixels
  let repeats = Int(ProcessInfo.processInfo.environment["PROFILE_REPEATS"] ?? "200") ?? 200
  for _ in 0..<repeats { blackHole(Deflate.zlib(pixels)) }
  exit(0)
}
if arguments.contains("profile-webp") {
  let bytes = [UInt8](
    FileManager.default.contents(
      atPath: "Tests/ImageDecodingTests/Fixtures/webp/"
        + (arguments.contains("lossless") ? "photo-lossless-500x375.webp" : "photo-500x375.webp"))!)
  let repeats = Int(ProcessInfo.processInfo.environment["PROFILE_REPEATS"] ?? "20") ?? 20
  for _ in 0..<repeats { blackHole(try? WEBPDecoder.decode(bytes)) }
  exit(0)
}
if arguments.contains("profile-foreach") {
  MainActor.assumeIsolated {
    let store = Store(
      initialState: Rows.State(rows: IdentifiedArray((0..<1000).map { Row.State(id: $0) })), reducer: Rows())
    for i in 0..<2_000_000 { store.send(.row(i % 1000, .increment)) }
    print(store.state.rows.count)
  }
  exit(0)
}
if arguments.contains("profile-remove-all") {
  MainActor.assumeIsolated {
    let elements = (0..<10_000).map { Row.State(id: $0) }
    for _ in 0..<20 {
      let store = Store(initialState: Rows.State(rows: IdentifiedArray(elements))) { Rows() }
      store.send(.removeAll)
      precondition(store.state.rows.isEmpty)
    }
  }
  exit(0)
}
if arguments.contains("profile-flat") {
  MainActor.assumeIsolated {
    let store = Store(initialState: Counter.State()) { Counter() }
    for _ in 0..<20_000_000 { store.send(.increment) }
    print(store.state.count)
  }
  exit(0)
}
if arguments.contains("profile-animation") {
  MainActor.assumeIsolated { for _ in 0..<20 { blackHole(animationBenchmarks()) } }
  exit(0)
}
if arguments.contains("profile-depth10") {
  MainActor.assumeIsolated {
    let leaf = leafStore(Store(initialState: Level10.State()) { Level10() })
    for _ in 0..<2_000_000 { leaf.send(.increment) }
    print(leaf.state.count)
  }
  exit(0)
}
let all = arguments.isEmpty
if all || arguments.contains("core") {
  let core = MainActor.assumeIsolated { coreBenchmarks() }
  printGrid(
    "Core (ns per action: 1,000,000 actions a run, 7 runs alternating with plain Swift after a warm-up)",
    header: ["case", "min", "median", "max", "plain Swift (median)", "ratio", "goal", "met"],
    lines: core.map { row in
      [
        row.name, format(row.store.min), format(row.store.median), format(row.store.max),
        row.plain > 0 ? format(row.plain) : "-",
        row.plain > 0 ? format(row.store.median / row.plain) + "×" : "-",
        row.goal, row.goal == "-" ? "-" : row.met ? "yes" : "NO",
      ]
    })
  missedGoals += core.filter { !$0.met }.map(\.asRow)
}
if all || arguments.contains("features") {
  printTable("Features (200 conversions per run, median of 5 runs)", featureBenchmarks())
}
if all || arguments.contains("cli") {
  printTable(
    "CLI (median of 5 runs; cold start: median of 15 processes)",
    MainActor.assumeIsolated { keystrokeBenchmarks() } + processBenchmarks())
}
if all || arguments.contains("animation") {
  printTable(
    "Animation (ns per frame shown on the Breed screen, median of 5 runs)",
    MainActor.assumeIsolated { animationBenchmarks() }, reference: "cells fitted ns")
}
if all || arguments.contains("jpeg") {
  let jpeg = jpegBenchmarks()
  printTable(
    "JPEG (ns per decode, median of 7 runs alternating with libjpeg-turbo)", jpeg.rows,
    reference: jpeg.reference)
}
if all || arguments.contains("png") {
  printTable(
    "PNG (ns per decode, median of 7 runs alternating with libpng)", pngBenchmarks(), reference: "libpng ns")
}
if all || arguments.contains("webp") {
  printTable(
    "WEBP (ns per decode, median of 7 runs alternating with libwebp)", webpBenchmarks(),
    reference: "libwebp ns")
}
if all || arguments.contains("pictures") {
  printTable(
    "Pictures (ns per picture drawn and written, median of 5 runs)", pictureBenchmarks(),
    reference: "half blocks ns")
}
if all || arguments.contains("show") {
  printTable(
    "show's picture (ns per picture decoded, fitted and written; median of 7 runs alternating)",
    showPictureBenchmarks(), reference: "decode alone ns")
}
if all || arguments.contains("kitty") {
  printTable(
    "Kitty (ns per picture written, or per compression; median of 5 runs, zlib's alternating)",
    kittyBenchmarks(), reference: "plain or zlib")
}
if !missedGoals.isEmpty {
  print(
    "\nGoals missed: "
      + missedGoals.map { "\($0.name): \(format($0.ns)), goal \($0.goal)" }.joined(separator: "; ")
      + ". Docs/Performance.md says why.")
}
