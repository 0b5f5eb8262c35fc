import Foundation
import TestSupport
import Testing

@testable import CommandLineInterface
@testable import DogBreedsCLIKit

#if canImport(Glibc)
  import Glibc
#endif

/// What a run of the app printed and how it ended.
struct InProcessRun: Sendable {
  var status: Int32
  var output: String
  var error: String
}

/// Runs the app in this process as `DogBreedsCLI` would run with these arguments, in an
/// environment of its own (folders of its own, a UTF-8 locale, the test terminfo entries,
/// plus `extra`), its standard output and error written to files of the test's.
@MainActor
func runInProcess(_ arguments: [String], environment extra: [String: String] = [:]) async throws
  -> InProcessRun
{
  let folder = ScratchFolder.path("in-process")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let environment = [
    "DOGBREEDS_CACHE_DIR": folder.appendingPathComponent("cache").path,
    "DOGBREEDS_DATA_DIR": folder.appendingPathComponent("data").path, "LANG": "C.UTF-8",
    "TERM": "xterm-256color", "TERMINFO": TerminfoFixtures.folder,
  ].merging(extra) { $1 }
  let outputPath = folder.appendingPathComponent("output").path
  let errorPath = folder.appendingPathComponent("error").path
  let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  let error = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  defer {
    close(output)
    close(error)
  }
  let status = await Output.$streams.withValue(Output.Streams(output: output, error: error)) {
    await CommandLineApp.run(arguments: arguments, environment: environment)
  }
  return InProcessRun(
    status: status, output: try String(contentsOfFile: outputPath, encoding: .utf8),
    error: try String(contentsOfFile: errorPath, encoding: .utf8))
}

/// The scriptable commands, run in process against the fake API (or the live client
/// offline): one row per case, with the exit status and what standard output and standard
/// error start with.
@MainActor
struct CommandTests {
  @Test(arguments: [
    (["--api", "fake", "list"], 0, "Affenpinscher\nAfrican\nAiredale\n", ""),
    (["--api", "fake", "list", "--filter", "bull terr"], 0, "Bull Terrier\n", ""),
    (
      ["--api", "fake", "list", "--filter", "golden"], 3, "",
      "No breeds match “golden”. Found as a sub-breed: try show retriever/golden."
    ),
    (
      ["--api", "fake", "show", "hound", "--picture", "none"], 0,
      "Hound\nPicture: https://images.dog.ceo/breeds/hound/fake_1.jpg\nSub-breeds:\n  Afghan\n", ""
    ),
    (["--api", "fake", "show", "Coton de Tuléar", "--picture", "none"], 0, "Coton de Tuléar\n", ""),
    (["--api", "fake", "show", "nosuch"], 3, "", "error: “nosuch” is not in the breed list."),
    (
      ["--api", "fake", "show", "retreiver"], 3, "",
      "error: “retreiver” is not in the breed list. Did you mean retriever?"
    ),
    (["list", "--offline"], 0, "Affenpinscher\n", "warning: Working offline"),
    (["list", "--offline", "--fresh"], 1, "", "error: Working offline"),
    (["--fitler", "x"], 2, "", "error: Unknown option --fitler. Did you mean --filter?"),
    (["--version"], 0, "DogBreedsCLI ", ""),
  ])
  func aCommandPrintsWhatItShouldAndExitsAsDocumented(
    arguments: [String], status: Int32, output: String, error: String
  ) async throws {
    let run = try await runInProcess(arguments)
    #expect(run.status == status, "\(run.error)")
    #expect(run.output.hasPrefix(output), "\(run.output.prefix(300))")
    #expect(run.error.hasPrefix(error), "\(run.error)")
    if output.isEmpty { #expect(run.output.isEmpty) }
  }

  /// With --fresh a stand-in list is an error, which says why the network's list could not
  /// be had, and never that a list is shown: nothing is.
  @Test(arguments: [["list"], ["show", "hound", "--picture", "none"]])
  func freshRefusesAStandInListWithoutClaimingToShowIt(command: [String]) async throws {
    let run = try await runInProcess(command + ["--offline", "--fresh"])
    #expect(run.status == 1 && run.output.isEmpty, "\(run.output)")
    #expect(
      run.error
        == "error: Working offline: nothing is fetched from the network. (--fresh: only the network's list will do.)\n",
      "\(run.error)")
  }

  /// Without a home, favourites go to a folder of the user's own under the temporary
  /// directory (never one another user made, or that anyone may write to), in a file the
  /// user alone may read, and the run says so once, on standard error.
  @Test func withoutAHomeFavouritesGoWhereOnlyTheUserReachesAndTheRunSaysSo() async throws {
    let tmp = ScratchFolder.path("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    #expect(chmod(tmp.path, 0o1777) == 0)
    // Where the app's folder would be: one open to everyone (another user's, where the
    // test may give it away).
    let planted = tmp.appendingPathComponent("dogbreeds-\(geteuid())").path
    #expect(mkdir(planted, 0o777) == 0 && chmod(planted, 0o777) == 0)
    if geteuid() == 0 { #expect(chown(planted, 4242, 4242) == 0) }
    let run = try await runInProcess(
      ["--api", "fake", "favourites", "add", "pug"],
      environment: ["HOME": "", "DOGBREEDS_DATA_DIR": "", "DOGBREEDS_CACHE_DIR": "", "TMPDIR": tmp.path])
    #expect(run.status == 0, "\(run.error)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: planted).isEmpty)
    let made = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter {
      $0 != "dogbreeds-\(geteuid())"
    }
    #expect(made.count == 1 && made.first?.hasPrefix("dogbreeds-\(geteuid())-") == true, "\(made)")
    let data = tmp.appendingPathComponent(made.first ?? "").appendingPathComponent("data").path
    var status = stat()
    #expect(stat(data + "/favourites.json", &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)
    #expect(run.error.components(separatedBy: "warning: ").count == 2, "\(run.error.debugDescription)")
    #expect(
      run.error.hasPrefix(
        "warning: There is no home folder to keep files in (HOME is not set), so favourites go to \(data)"),
      "\(run.error)")
    #expect(run.error.contains("they will not last"), "\(run.error)")
  }

  /// Text for people follows the run's locale: ASCII where it is not UTF-8.
  @Test func aLocaleWithoutUTF8GetsASCII() async throws {
    let run = try await runInProcess(
      ["--api", "fake", "show", "cotondetulear", "--picture", "none"], environment: ["LANG": "C"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("Coton de Tulear\n"), "\(run.output)")
    #expect(run.output.utf8.allSatisfy { $0 < 0x80 })
  }

  /// `--json` is data: a document a script can read, names as the API has them and as
  /// people write them.
  @Test func jsonIsADocumentScriptsCanRead() async throws {
    let run = try await runInProcess(["--api", "fake", "--json", "list", "--filter", "shih"])
    #expect(run.status == 0)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    let breeds = try #require(document["breeds"] as? [[String: Any]])
    #expect(breeds.map { $0["name"] as? String } == ["shihtzu"])
    #expect(breeds.first?["displayName"] as? String == "Shih Tzu")
  }

  /// `favourites add` and `remove` change the file the app keeps; the list reads it back.
  @Test func favouritesAreKeptBetweenRuns() async throws {
    let data = ScratchFolder.path("favourites").path
    let environment = ["DOGBREEDS_DATA_DIR": data]
    #expect(
      try await runInProcess(
        ["--api", "fake", "favourites", "add", "hound/afghan", "pug"], environment: environment
      ).status == 0)
    #expect(
      try await runInProcess(["--api", "fake", "favourites", "remove", "pug"], environment: environment)
        .status == 0)
    let listed = try await runInProcess(["--api", "fake", "favourites"], environment: environment)
    #expect(listed.status == 0)
    #expect(listed.output == "Afghan Hound\n", "\(listed.output)")
  }
}

/// The `completions` command, run in process.
struct CompletionsCommandTests {
  /// `completions --names` prints them, one a line, and in ASCII where the locale is not UTF-8.
  @MainActor @Test func theNamesCommandPrintsThem() async throws {
    let run = try await runInProcess(["completions", "--names", "--", "Coton"])
    #expect(run.status == 0 && run.output == "Coton de Tuléar\n" && run.error.isEmpty, "\(run)")
    let ascii = try await runInProcess(["completions", "--names", "Coton"], environment: ["LANG": "C"])
    #expect(ascii.output == "Coton de Tulear\n")
    let script = try await runInProcess(["completions", "fish"])
    #expect(script.status == 0 && script.output == Completions.script(for: .fish))
  }
}
