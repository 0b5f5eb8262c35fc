import Foundation
import TestHTTPServer
import TestSupport
import Testing

/// A program by its name, where the `PATH` of this process, `/bin` or `/usr/bin` has it.
private func installed(_ name: String) -> String? {
  let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
  return (folders + ["/bin", "/usr/bin"]).map { "\($0)/\(name)" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// `text` in single quotes, for a shell.
private func quoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}

/// The completion scripts and the man page, as the app writes them, in the shells and in
/// groff: the scripts complete with the app itself, which gives the breed names.
@Suite(.serialized)
struct ShellTests {
  /// A folder holding the app's script for `shell`, and the app as `DogBreedsCLI`, as a
  /// shell finds it on `PATH`.
  func install(_ shell: String) async throws -> (folder: URL, script: URL) {
    let folder = ScratchFolder.path(shell)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let run = try await runCLI(["completions", shell])
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    let script = folder.appendingPathComponent("DogBreedsCLI.\(shell)")
    try run.stdout.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("DogBreedsCLI").path, withDestinationPath: executable)
    return (folder, script)
  }

  /// A saved list with a breed the built-in one has not, in a cache folder of its own.
  func savedList() throws -> [String: String] {
    let cache = ScratchFolder.path("cache")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    try
      #"{"version":1,"fetchedAt":0,"breeds":[{"name":"zorro","subBreeds":["red"]},{"name":"hound","subBreeds":["afghan"]}]}"#
      .write(to: cache.appendingPathComponent("breeds.json"), atomically: true, encoding: .utf8)
    return ["DOGBREEDS_CACHE_DIR": cache.path]
  }

  /// What bash's completion function offers for each line, the app run by its path.
  func bashOffers(_ lines: [[String]], environment: [String: String] = [:]) async throws -> [[String]] {
    let (_, script) = try await install("bash")
    let driver =
      """
      source \(quoted(script.path)) || exit 9
      offer() {
        COMP_WORDS=(\(quoted(executable)) "$@"); COMP_CWORD=$#; COMPREPLY=()
        _DogBreedsCLI
        printf '%s\\n' "${COMPREPLY[@]}" @@end
      }

      """ + lines.map { "offer " + $0.map(quoted).joined(separator: " ") }.joined(separator: "\n")
    let bash = try #require(installed("bash"))
    let run = try await runCLI(
      ["--noprofile", "--norc", "-c", driver], environment: cleanEnvironment(environment), program: bash)
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    var offers: [[String]] = [[]]
    for line in run.stdout.split(separator: "\n") {
      if line == "@@end" { offers.append([]) } else { offers[offers.count - 1].append(String(line)) }
    }
    return Array(offers.dropLast())
  }

  /// In bash, Tab offers breed names where a breed goes, from the built-in list, and an
  /// option's values.
  @Test func bashCompletesBreedsAndValues() async throws {
    let offers = try await bashOffers([
      ["show", "hou"], ["--picture", "bl"], ["favourites", "add", "hound/af"], ["show", "Afghan"],
    ])
    try #require(offers.count == 4)
    #expect(offers[0].contains("hound") && offers[0].contains("hound/afghan"), "\(offers[0])")
    #expect(offers[0].allSatisfy { $0.hasPrefix("hou") }, "\(offers[0])")
    #expect(offers[1] == ["blocks"])
    #expect(offers[2] == ["hound/afghan"])
    #expect(offers[3] == [#"Afghan\ Hound"#])
  }

  /// The names follow the list the app saved.
  @Test func bashOffersTheSavedListsNames() async throws {
    let offers = try await bashOffers(
      [["show", "zo"], ["show", "hou"], ["favourites", "remove", "Red"]], environment: try savedList())
    #expect(offers == [["zorro", "zorro/red"], ["hound", "hound/afghan"], [#"Red\ Zorro"#]])
  }

  /// The names come without asking the server.
  @Test func theNamesNeverAskTheServer() async throws {
    let server = try TestHTTPServer { _ in .json(#"{"message":{"zzz":[]},"status":"success"}"#) }
    defer { server.stop() }
    let run = try await runCLI(
      ["completions", "--names", "hou"],
      environment: cleanEnvironment(["DOG_API_BASE_URL": server.baseURL.absoluteString + "/api"]))
    #expect(run.status == 0 && run.stdout.hasPrefix("hound\nhound/afghan\n"), "\(run.stdout)")
    #expect(server.requests.isEmpty)
  }

  /// zsh reads its script, and its completion function offers what bash's does (zsh's own
  /// functions stood in for by ones that print what they are given, filtered as zsh does).
  @Test(.enabled(if: installed("zsh") != nil, "zsh is not installed: its script is not checked"))
  func zshReadsItsScriptAndCompletes() async throws {
    let zsh = try #require(installed("zsh"))
    let (folder, script) = try await install("zsh")
    let syntax = try await runCLI(["-n", script.path], program: zsh)
    #expect(syntax.status == 0 && syntax.stderr.isEmpty, "\(syntax.stderr)")
    let driver = """
      compdef() { : }
      compset() { [[ $1 == -P ]] && PREFIX=${PREFIX#*=} }
      _message() { : }
      _files() { print -r -- '(files)' }
      compadd() {
        local -a offered
        if [[ $1 == -a ]]; then offered=(${(P)2}); else shift; offered=("$@"); fi
        print -rl -- ${(M)offered:#${PREFIX}*}
      }
      _describe() { local -a offered; offered=(${(P)4}); print -rl -- ${${(M)offered:#${PREFIX}*}%%:*} }
      source \(quoted(script.path))
      offer() {
        words=(DogBreedsCLI "$@"); CURRENT=$#words; PREFIX=${words[CURRENT]}
        _DogBreedsCLI
        print -- @@end
      }
      offer show hou
      offer --picture bl
      offer favourites add hound/af
      offer show pug --picture=bl
      offer fav
      offer --ap
      offer replay x
      """
    let run = try await runCLI(
      ["-f", "-c", driver], environment: cleanEnvironment(["PATH": "\(folder.path):/usr/bin:/bin"]),
      program: zsh)
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    let offers = run.stdout.components(separatedBy: "@@end\n").map {
      $0.split(separator: "\n").map(String.init)
    }
    try #require(offers.count == 8)
    #expect(offers[0].contains("hound") && offers[0].contains("hound/afghan"), "\(offers[0])")
    #expect(offers[1] == ["blocks"])
    #expect(offers[2] == ["hound/afghan"])
    #expect(offers[3] == ["blocks"])
    #expect(offers[4] == ["favourites"])
    #expect(offers[5] == ["--api"])
    #expect(offers[6] == ["(files)"])
  }

  /// fish reads its script, and completes with it.
  @Test(.enabled(if: installed("fish") != nil, "fish is not installed: its script is not checked"))
  func fishReadsItsScriptAndCompletes() async throws {
    let fish = try #require(installed("fish"))
    let (folder, script) = try await install("fish")
    let syntax = try await runCLI(["--no-execute", script.path], program: fish)
    #expect(syntax.status == 0 && syntax.stderr.isEmpty, "\(syntax.stderr)")
    let lines = [
      "DogBreedsCLI show hou", "DogBreedsCLI --picture bl", "DogBreedsCLI favourites add hound/af",
    ]
    let driver =
      "source \(quoted(script.path)); "
      + lines.map { "complete -C \(quoted($0)); echo @@end" }.joined(separator: "; ")
    let environment = cleanEnvironment([
      "PATH": "\(folder.path):/usr/bin:/bin", "HOME": folder.path, "XDG_CONFIG_HOME": folder.path,
      "XDG_DATA_HOME": folder.path,
    ])
    let run = try await runCLI(["-c", driver], environment: environment, program: fish)
    #expect(run.status == 0, "\(run.stderr)")
    // Each offer is the word, then a tab and a description where it has one.
    let offers = run.stdout.components(separatedBy: "@@end\n").map {
      $0.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }
    try #require(offers.count == 4)
    #expect(offers[0].contains("hound") && offers[0].contains("hound/afghan"), "\(offers[0])")
    #expect(offers[1] == ["blocks"])
    #expect(offers[2] == ["hound/afghan"])
  }

  /// `man` writes the page, which groff reads without a warning where it is installed.
  @Test func manWritesThePage() async throws {
    let run = try await runCLI(["man"])
    #expect(run.status == 0 && run.stderr.isEmpty)
    #expect(run.stdout.hasPrefix(#".\" DogBreedsCLI(1)"#) && run.stdout.contains("\n.SH OPTIONS\n"))
    #expect(run.stdout.contains(#"\fB\-\-picture auto|blocks|"#))
    guard let groff = installed("groff") else { return }
    let file = ScratchFolder.path("DogBreedsCLI.1")
    try run.stdout.write(to: file, atomically: true, encoding: .utf8)
    let rendered = try await runCLI(["-man", "-Tutf8", "-ww", file.path], program: groff)
    #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
    #expect(rendered.stdout.contains("--no-mouse"))
  }
}
