import AppFeature
import Core
import DogAPIClient
import DogsFeature
import Foundation
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

/// The Core rows, the lines of the table that splits a scoped send (see `scoped`), and those
/// of the table of what the leaf's action layout costs.
@MainActor
func coreBenchmarks() -> (rows: [Row3], depth: [[String]], layout: [[String]]) {
  let iterations = Int(String(cString: getenv("BENCH_ITERATIONS") ?? strdup("1000000"))) ?? 1_000_000
  var rows: [Row3] = []

  // (a) flat
  let flatStore = Store(initialState: Counter.State()) { Counter() }
  let flat = measure(iterations: iterations) { n in
    for _ in 0..<n { flatStore.send(.increment) }
  }
  var plainState = PlainCounter()
  let plainFlat = measure(iterations: iterations) { n in
    for _ in 0..<n { plainReduce(&plainState, .increment) }
  }
  blackHole(plainState)
  rows.append(Row3(name: "(a) flat Store.send", ns: flat, baseline: plainFlat, goal: "≤ 200 ns", limit: 200))

  // What the reducers of a leaf send cost: the leaf's action embedded beforehand and sent
  // to a root store; and plain Swift's `switch` per level doing the same.
  func reducersShare<R: Nestable>(_: R.Type) -> (store: Double, plain: Double)
  where R.LeafAction: LeafIncrementing {
    let store = Store(initialState: R.initial(), reducer: R.make())
    let embedded = R.embedLeaf(.increment)
    let ns = measure(iterations: iterations) { n in
      for _ in 0..<n { store.send(embedded) }
    }
    precondition(store.state[keyPath: R.leafState].count == 5 * iterations, "a send did not reach the leaf")
    var plain = R.Plain()
    let action = R.Plain.leafIncrement()
    let plainNs = measure(iterations: iterations) { n in
      for _ in 0..<n { plainNestedReduce(&plain, action) }
    }
    blackHole(plain)
    return (ns, plainNs)
  }

  // A leaf store scoped with an action closure at each level (`scope(state:action:)`,
  // which forwards once per level).
  func forwardingSend<R: LeafScopable>(_: R.Type) -> Double where R.LeafAction: LeafIncrementing {
    let store = Store(initialState: R.initial(), reducer: R.make())
    let leaf = R.forwardingLeaf(store)
    let ns = measure(iterations: iterations) { n in
      for _ in 0..<n { leaf.send(.increment) }
    }
    precondition(leaf.state.count == 5 * iterations, "a send did not reach the leaf")
    return ns
  }

  // (b) scoped 1, 5, 10 levels, each level with `scope(state:)`
  // Besides the row, where the time of that scoped send goes: the same action embedded
  // beforehand and sent to the root store (the reducers' share); the leaf scoped with an
  // action closure at each level (`scope(state:action:)`, which forwards once per level);
  // a chain of as many closures that only forward (the least that forwarding through
  // separately created stores can cost); a leaf store scoped once from the root with the
  // whole path (`\.child.child…`, `{ .child(.child(…)) }`); and reading the leaf store's
  // state.
  func scoped<R: LeafScopable>(
    _: R.Type, depth: Int, goal: String, limit: Double?
  ) -> (Row3, [String], Store<Counter.State, Counter.Action>)
  where R.LeafAction == Counter.Action {
    let store = Store(initialState: R.initial(), reducer: R.make())
    let leaf = R.leaf(store)
    let ns = measure(iterations: iterations) { n in
      for _ in 0..<n { leaf.send(.increment) }
    }
    let (rootNs, baseline) = reducersShare(R.self)
    let forwardingStoreNs = forwardingSend(R.self)
    let direct = store.scope(state: R.leafState) { R.embedLeaf($0) }
    let directNs = measure(iterations: iterations) { n in
      for _ in 0..<n { direct.send(.increment) }
    }
    precondition(leaf.state.count == 2 * 5 * iterations, "a send did not reach the leaf")
    var total = 0
    let readNs = measure(iterations: iterations) { n in
      for _ in 0..<n { total &+= leaf.state.count }
    }
    precondition(total == 5 * 2 * 5 * iterations * iterations, "a read did not see the leaf's state")
    let counter = ForwardingCounter()
    let forward = forwardingChain(levels: depth, into: counter)
    let forwardingNs = measure(iterations: iterations) { n in
      for _ in 0..<n { forward(1) }
    }
    precondition(counter.count == 5 * iterations, "the forwarding chain did not run")
    return (
      Row3(name: "(b) scoped \(depth) deep", ns: ns, baseline: baseline, goal: goal, limit: limit),
      [
        String(depth), format(ns), format(rootNs), format(forwardingStoreNs), format(forwardingNs),
        format(directNs), format(readNs),
      ],
      leaf
    )
  }
  var (depth1, split1, leaf1Store) = scoped(Depth1.self, depth: 1, goal: "-", limit: nil)
  let (depth5, split5, _) = scoped(Depth5.self, depth: 5, goal: "≤ 400 ns", limit: 400)
  var (depth10, split10, leaf10Store) = scoped(Depth10.self, depth: 10, goal: "", limit: nil)
  // The goal compares two figures: they are measured again, alternately, so that a slow
  // spell of the machine does not fall on one of them only.
  let (leaf1, leaf10) = (leaf1Store, leaf10Store)
  (depth1.ns, depth10.ns) = measureAlternately(
    iterations: iterations, { n in for _ in 0..<n { leaf1.send(.increment) } },
    { n in for _ in 0..<n { leaf10.send(.increment) } })
  (split1[1], split10[1]) = (format(depth1.ns), format(depth10.ns))
  (depth10.goal, depth10.limit) = ("≤ 1.5× depth 1 (\(format(depth1.ns * 1.5)) ns)", depth1.ns * 1.5)
  rows += [depth1, depth5, depth10]

  // The root's send of the embedded action and the leaf scoped with action closures, with a
  // one-action leaf (see `Tally`), next to the same for `Counter` from above.
  func tally<R: LeafScopable>(_: R.Type, _ counter: Row3, _ split: [String]) -> [String]
  where R.LeafAction: LeafIncrementing {
    let (root, plain) = reducersShare(R.self)
    let forwarding = forwardingSend(R.self)
    return [
      split[0], split[2], format(root), format(counter.baseline), format(plain), split[3], format(forwarding),
    ]
  }
  let layout = [
    tally(TallyDepth1.self, depth1, split1), tally(TallyDepth5.self, depth5, split5),
    tally(TallyDepth10.self, depth10, split10),
  ]

  // (c) forEach: 1 of 1,000
  let elements = (0..<1_000).map { Row.State(id: $0) }
  let rowsStore = Store(initialState: Rows.State(rows: IdentifiedArray(elements))) { Rows() }
  let forEach = measure(iterations: iterations) { n in
    for i in 0..<n { rowsStore.send(.row(i % 1_000, .increment)) }
  }
  precondition(
    iterations < 1000 || rowsStore.state.rows[id: 7]?.count == 5 * iterations / 1_000, "rows did not update")
  var plainRows = PlainRows(
    rows: elements, index: Dictionary(uniqueKeysWithValues: elements.map { ($0.id, $0.id) }))
  let plainForEach = measure(iterations: iterations) { n in
    for i in 0..<n { plainRowsReduce(&plainRows, id: i % 1_000) }
  }
  blackHole(plainRows)
  rows.append(
    Row3(
      name: "(c) forEach, 1 of 1,000", ns: forEach, baseline: plainForEach, goal: "≤ 1,000 ns", limit: 1_000))

  // (c) forEach: every element removed by one action; what removing one costs must not
  // grow with how many go at once (each removed element's effects are cancelled).
  // (No plain baseline: freeing an array takes too little per element to time.)
  func removingAll(_ count: Int) -> Double {
    let elements = (0..<count).map { Row.State(id: $0) }
    return median(
      (0..<5).map { _ in
        let store = Store(initialState: Rows.State(rows: IdentifiedArray(elements))) { Rows() }
        let ns = timePerIteration(count) { _ in store.send(.removeAll) }
        precondition(store.state.rows.isEmpty, "the elements were not removed")
        return ns
      })
  }
  let few = removingAll(1_000)
  let many = removingAll(10_000)
  rows += [
    Row3(name: "(c) forEach, removing all 1,000", ns: few, baseline: 0, goal: "-"),
    Row3(
      name: "(c) forEach, removing all 10,000", ns: many, baseline: 0,
      goal: "≤ 2× all 1,000 (\(format(few * 2)) ns)", limit: few * 2),
  ]
  return (rows, [split1, split5, split10], layout)
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
    var previous = AppView.render(AppView.ViewState(store.state), width: 80, height: 24)
    for prefix in ["h", "ho", "hou"] {
      store.send(.dogs(.filterChanged(prefix)))
      let frame = AppView.render(AppView.ViewState(store.state), width: 80, height: 24)
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
      atPath: "Tests/TextRenderingTests/Fixtures/jpeg/"
        + (arguments.contains("progressive")
          ? "synthetic-500x333-progressive.jpg" : "synthetic-500x375-baseline.jpg"))!)
  let scale: JPEGDecoder.Scale = arguments.contains("eighth") ? .eighth : .full
  let repeats = Int(ProcessInfo.processInfo.environment["PROFILE_REPEATS"] ?? "20") ?? 20
  for _ in 0..<repeats { blackHole(try? JPEGDecoder.decode(bytes, scale: scale)) }
  exit(0)
}
if arguments.contains("profile-png") {
  let bytes = [UInt8](
    FileManager.default.contents(atPath: "Tests/TextRenderingTests/Fixtures/png/photo-500x375.png")!)
  let repeats = Int(ProcessInfo.processInfo.environment["PROFILE_REPEATS"] ?? "20") ?? 20
  for _ in 0..<repeats { blackHole(try? PNGDecoder.decode(bytes)) }
  exit(0)
}
if arguments.contains("profile-webp") {
  let bytes = [UInt8](
    FileManager.default.contents(
      atPath: "Tests/TextRenderingTests/Fixtures/webp/"
        + (arguments.contains("lossless") ? "photo-lossless-500x375.webp" : "photo-500x375.webp"))!)
  let repeats = Int(ProcessInfo.processInfo.environment["PROFILE_REPEATS"] ?? "20") ?? 20
  for _ in 0..<repeats { blackHole(try? WEBPDecoder.decode(bytes)) }
  exit(0)
}
if arguments.contains("profile-foreach") {
  MainActor.assumeIsolated {
    let store = Store(
      initialState: Rows.State(rows: IdentifiedArray((0..<1000).map { Row.State(id: $0) })), reducer: Rows())
    for i in 0..<200_000 { store.send(.row(i % 1000, .increment)) }
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
if arguments.contains("profile-read") {
  MainActor.assumeIsolated {
    let store = Store(initialState: Depth10.initial(), reducer: Depth10.make())
    let leaf = Depth10.leaf(store)
    var total = 0
    for _ in 0..<20_000_000 { total &+= leaf.state.count }
    print(total)
  }
  exit(0)
}
if arguments.contains("profile-depth10") {
  MainActor.assumeIsolated {
    let store = Store(initialState: Depth10.initial(), reducer: Depth10.make())
    let leaf = Depth10.leaf(store)
    for _ in 0..<200_000 { leaf.send(.increment) }
    print(leaf.state.count)
  }
  exit(0)
}
let all = arguments.isEmpty
if all || arguments.contains("core") {
  let core = MainActor.assumeIsolated { coreBenchmarks() }
  printTable("Core (1,000,000 actions per run, median of 5 runs)", core.rows)
  printGrid(
    "Core: what depth costs (ns per action, median of 5 runs; leaf sends at 1 and 10 levels: of 7, alternating)",
    header: [
      "levels", "leaf store send", "root send of the embedded action", "scoped with action closures",
      "forwarding closures alone", "one scope, whole path", "leaf store state read",
    ],
    lines: core.depth)
  printGrid(
    "Core: what the leaf's action layout costs (ns per action, median of 5 runs; two actions: Counter, as above; one action: Tally)",
    header: [
      "levels", "root send, two actions", "root send, one action", "plain Swift, two actions",
      "plain Swift, one action", "action closures, two actions", "action closures, one action",
    ],
    lines: core.layout)
}
if all || arguments.contains("features") {
  printTable("Features (200 conversions per run, median of 5 runs)", featureBenchmarks())
}
if all || arguments.contains("cli") {
  printTable(
    "CLI (median of 5 runs; cold start: median of 15 processes)",
    MainActor.assumeIsolated { keystrokeBenchmarks() } + processBenchmarks())
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
if !missedGoals.isEmpty {
  print(
    "\nGoals missed: "
      + missedGoals.map { "\($0.name): \(format($0.ns)), goal \($0.goal)" }.joined(separator: "; ")
      + ". Docs/Performance.md says why.")
}
