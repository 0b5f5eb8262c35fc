import Foundation
import TestSupport
import Testing

/// `DogBreedsCLI favourites`: listing, adding and removing, as a script would.
struct FavouritesCommandTests {
  @Test func addListAndRemoveByTheNamesShowTakes() async throws {
    let environment = cleanEnvironment()
    let add = try await runCLI(
      ["--api", "fake", "favourites", "add", "Afghan Hound", "pug"], environment: environment)
    #expect(add.status == 0 && add.stdout.isEmpty, "\(add.stderr)")
    let listed = try await runCLI(["favourites"], environment: environment)
    #expect(listed.status == 0)
    #expect(listed.stdout == "Afghan Hound\nPug\n")
    let json = try await runCLI(["favourites", "--json"], environment: environment)
    #expect(
      json.stdout
        == #"{"favourites":[{"name":"hound/afghan","displayName":"Afghan Hound"},{"name":"pug","displayName":"Pug"}]}"#
        + "\n")
    let remove = try await runCLI(
      ["--api", "fake", "favourites", "remove", "hound/afghan"], environment: environment)
    #expect(remove.status == 0)
    #expect(try await runCLI(["favourites"], environment: environment).stdout == "Pug\n")
  }

  /// A name that is no breed is "not found", as for `show`, and nothing is saved.
  @Test func anUnknownBreedIsNotFoundAndChangesNothing() async throws {
    let environment = cleanEnvironment()
    let run = try await runCLI(
      ["--api", "fake", "favourites", "add", "pug", "wolfdog"], environment: environment)
    #expect(run.status == 3)
    #expect(run.stderr.hasPrefix("error: “wolfdog” is not in the breed list."))
    #expect(try await runCLI(["favourites"], environment: environment).stdout.isEmpty)
  }

  @Test(arguments: [
    (["favourites", "add"], "favourites add needs one breed or more"),
    (["favourites", "rmove", "pug"], "favourites takes add or remove, not “rmove”. Did you mean remove?"),
    (["favourites", "add", "pug", "--json"], "--json goes with favourites alone"),
  ])
  func usageErrorsAreSaid(arguments: [String], message: String) async throws {
    let run = try await runCLI(arguments)
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("error: \(message)"), "\(run.stderr)")
  }

  /// Two scripts at once, each adding and removing its own breeds a hundred times: neither
  /// loses the other's changes.
  @Test func twoProcessesAtOnceLoseNothing() async throws {
    let environment = cleanEnvironment()
    let names = try await apiNames(environment)
    try #require(names.count >= 50)
    let first = Array(names[0..<25])
    let second = Array(names[25..<50])
    func script(_ breeds: [String]) async throws {
      // Add all, remove all, add all; then remove the first ten and add the rest again.
      let passes = [("add", breeds), ("remove", breeds), ("add", breeds)]
      let last = breeds.enumerated().map { ($0.offset < 10 ? "remove" : "add", [$0.element]) }
      for (change, breeds) in passes.flatMap({ pass in pass.1.map { (pass.0, [$0]) } }) + last {
        let run = try await runCLI(
          ["--api", "fake", "favourites", change] + breeds, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
      }
    }
    async let a: Void = script(first)
    async let b: Void = script(second)
    _ = try await (a, b)
    let listed = try await runCLI(["favourites", "--json"], environment: environment).stdout
    for kept in first.dropFirst(10) + second.dropFirst(10) {
      #expect(listed.contains("\"name\":\"\(kept)\""), "\(kept)")
    }
    for gone in first.prefix(10) + second.prefix(10) {
      #expect(!listed.contains("\"name\":\"\(gone)\""), "\(gone)")
    }
  }

  /// A disk that fills up (a file size limit stands in for it) fails the save with a clear
  /// error and exit 1, and leaves the favourites saved before as they were.
  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")),
    .disabled(if: isThreadSanitized, "ThreadSanitizer's runtime faults under a small file size limit"))
  func aFullDiskKeepsTheFavouritesSavedBefore() async throws {
    var environment = cleanEnvironment()
    let names = try await apiNames(environment)
    let add = try await runCLI(
      ["--api", "fake", "favourites", "add"] + names.prefix(60), environment: environment)
    #expect(add.status == 0, "\(add.stderr)")
    let before = try await runCLI(["favourites", "--json"], environment: environment).stdout
    // A coverage build's profile would be cut short by the limit too: written elsewhere.
    environment["LLVM_PROFILE_FILE"] = ScratchFolder.path("profile").path + "/%p.profraw"
    let full = try await runCLI(
      ["-c", #"ulimit -f 1 && exec "$0" "$@""#, executable, "--api", "fake", "favourites", "add", names[70]],
      environment: environment, program: "/bin/sh")
    #expect(full.status == 1)
    #expect(full.stderr.hasPrefix("error: ") && full.stderr.contains("could not be saved"), "\(full.stderr)")
    #expect(try await runCLI(["favourites", "--json"], environment: environment).stdout == before)
  }

  /// A process killed at any moment of a save leaves the file as it was or as the save
  /// made it, never a mix: up to two hundred saves, each killed (kill -9) at a random
  /// moment of a save's time on this build (40 ms at least; a sanitized build takes
  /// seconds, and then runs fewer trials), before, during or after its write and rename.
  /// After each, the file parses, keeps what was saved before, and holds nothing but what
  /// the saves were about.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")))
  func aProcessKilledDuringASaveLeavesTheOldFileOrTheNew() async throws {
    let data = ScratchFolder.path("killed")
    let environment = cleanEnvironment(["DOGBREEDS_DATA_DIR": data.path])
    let names = try await apiNames(environment)
    let kept = Set(names.prefix(40))
    let changed = Array(names[50..<60])
    // A save's time: the fastest of three (the first start of a sanitized binary is much
    // slower than the next, and kills timed on it would all come after the save).
    var save = Duration.seconds(3600)
    for _ in 0..<3 {
      let start = ContinuousClock.now
      #expect(
        try await runCLI(["--api", "fake", "favourites", "add"] + kept, environment: environment).status == 0)
      save = min(save, ContinuousClock.now - start)
    }
    let window = max(0.04, Double(save.components.attoseconds) / 1e18 + Double(save.components.seconds))
    let snapshots = ScratchFolder.path("snapshots")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    // Each trial: a change, and when to kill it; about 8 s of kills in all, or fewer.
    let trials = (0..<max(50, min(200, Int(8 / window)))).map { trial in
      // Spread evenly on a log scale, from a millisecond to a save's time: as many kills
      // early in the save (its start, its read) as late (its write, its rename), whatever
      // the build's pace.
      "\(trial % 3 == 0 ? "remove" : "add") \(changed[trial % changed.count]) \(String(format: "%.4f", exp(Double.random(in: log(0.001)...log(window)))))"
    }
    let script = #"""
      app="$1"; shift; i=0
      for trial in "$@"; do
        set -- $trial
        "$app" --api fake favourites "$1" "$2" >/dev/null 2>&1 & pid=$!
        sleep "$3"; kill -KILL $pid 2>/dev/null; wait $pid
        cp "$DOGBREEDS_DATA_DIR/favourites.json" "$SNAPSHOTS/$i.json" || echo gone > "$SNAPSHOTS/$i.json"
        i=$((i + 1))
      done
      """#
    let run = try await runCLI(
      ["-c", script, "sh", executable] + trials,
      environment: environment.merging(["SNAPSHOTS": snapshots.path]) { $1 },
      limit: Duration.seconds(120).scaled,
      program: "/bin/sh")
    #expect(run.status == 0, "\(run.stderr)")
    var (madeIt, killedFirst) = (0, 0)
    for trial in trials.indices {
      let snapshot = try Data(contentsOf: snapshots.appendingPathComponent("\(trial).json"))
      let object = try? JSONSerialization.jsonObject(with: snapshot) as? [String: Any]
      let saved = Set(object?["favourites"] as? [String] ?? [])
      #expect(
        object != nil, "after trial \(trial) (\(trials[trial])): \(String(decoding: snapshot, as: UTF8.self))"
      )
      #expect(kept.isSubset(of: saved), "after trial \(trial): lost \(kept.subtracting(saved).sorted())")
      #expect(saved.subtracting(kept).isSubset(of: changed), "after trial \(trial): \(saved.sorted())")
      let parts = trials[trial].split(separator: " ")
      if saved.contains(String(parts[1])) == (parts[0] == "add") { madeIt += 1 } else { killedFirst += 1 }
    }
    // The trials covered both: saves that got through, and saves killed first.
    #expect(madeIt > 0 && killedFirst > 0, "\(madeIt) saved, \(killedFirst) killed first")
    let read = try await runCLI(["favourites", "--json"], environment: environment)
    #expect(read.status == 0 && read.stderr.isEmpty, "\(read.stderr)")
  }

  /// The breeds' API names, as `list --json` gives them.
  func apiNames(_ environment: [String: String]) async throws -> [String] {
    let json = try await runCLI(["--api", "fake", "list", "--json"], environment: environment).stdout
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    return (object?["breeds"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
  }
}

extension FavouritesCommandTests {
  /// `favourites add` over a damaged file keeps it aside and says where on standard error.
  @Test func addingOverADamagedFileSaysWhereItWasKept() async throws {
    let data = ScratchFolder.path("damaged")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    try Data(#"{"favourites":["hound","boxer""#.utf8).write(
      to: data.appendingPathComponent("favourites.json"))
    let environment = cleanEnvironment(["DOGBREEDS_DATA_DIR": data.path])
    // Listing it is an error, not an empty list: a script can tell the two apart.
    let listed = try await runCLI(["favourites"], environment: environment)
    #expect(listed.status == 1 && listed.stdout.isEmpty)
    #expect(listed.stderr.hasPrefix("error: Your favourites file"), "\(listed.stderr)")
    let added = try await runCLI(["--api", "fake", "favourites", "add", "pug"], environment: environment)
    #expect(added.status == 0, "\(added.stderr)")
    let kept = try #require(
      try FileManager.default.contentsOfDirectory(atPath: data.path).first {
        $0.hasPrefix("favourites.json.damaged-")
      })
    #expect(added.stderr.contains(data.appendingPathComponent(kept).path), "\(added.stderr)")
    #expect(try await runCLI(["favourites"], environment: environment).stdout == "Pug\n")
  }

  /// A read takes no lock: with another process holding it, `favourites` answers at once.
  @Test func aHeldLockDoesNotSlowAListing() async throws {
    let data = ScratchFolder.path("locked")
    let environment = cleanEnvironment(["DOGBREEDS_DATA_DIR": data.path])
    #expect(
      try await runCLI(["--api", "fake", "favourites", "add", "pug"], environment: environment).status == 0)
    let lock = open(data.appendingPathComponent("favourites.json.lock").path, O_RDWR)
    defer { close(lock) }
    #expect(flock(lock, LOCK_EX) == 0)
    let listed = try await runCLI(["favourites"], environment: environment)
    #expect(listed.stdout == "Pug\n")
    #expect(listed.elapsed < .seconds(2).scaled, "\(listed.elapsed)")
    // A save waits a few seconds at most, then says why.
    let added = try await runCLI(["--api", "fake", "favourites", "add", "boxer"], environment: environment)
    #expect(added.status == 1)
    #expect(added.stderr.contains("another DogBreeds"), "\(added.stderr)")
  }
}
