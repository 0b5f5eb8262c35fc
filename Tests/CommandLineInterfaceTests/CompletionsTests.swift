import DogAPIClient
import Foundation
import TestSupport
import Testing

@testable import CommandLineInterface

/// A program by its name, where the `PATH` of this process, `/bin` or `/usr/bin` has it.
func installedProgram(_ name: String) -> String? {
  let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
  return (folders + ["/bin", "/usr/bin"]).map { "\($0)/\(name)" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs `program` with `arguments` to its end: its status, standard output and error.
func runProgram(
  _ program: String, _ arguments: [String],
  environment: [String: String] = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
) throws -> (status: Int32, output: String, error: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  process.environment = environment
  let folder = ScratchFolder.path("program")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let outputURL = folder.appendingPathComponent("output")
  let errorURL = folder.appendingPathComponent("error")
  try Data().write(to: outputURL)
  try Data().write(to: errorURL)
  process.standardOutput = try FileHandle(forWritingTo: outputURL)
  process.standardError = try FileHandle(forWritingTo: errorURL)
  process.standardInput = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return (
    process.terminationStatus, try String(contentsOf: outputURL, encoding: .utf8),
    try String(contentsOf: errorURL, encoding: .utf8)
  )
}

/// What bash's completion function offers for each command line (its last word the one
/// completed), by the script `DogBreedsCLI completions bash` writes.
func bashOffers(for lines: [[String]], script: String = Completions.script(for: .bash)) throws -> [[String]] {
  let folder = ScratchFolder.path("bash")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let scriptURL = folder.appendingPathComponent("DogBreedsCLI.bash")
  try script.write(to: scriptURL, atomically: true, encoding: .utf8)
  let end = "@@end"
  let driver =
    """
    source \(Completions.quoted(scriptURL.path)) || exit 9
    offer() {
      COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
      _DogBreedsCLI
      printf '%s\\n' "${COMPREPLY[@]}" \(end)
    }

    """
    + lines.map { "offer " + $0.map(Completions.quoted).joined(separator: " ") }.joined(separator: "\n")
  let bash = try #require(installedProgram("bash"))
  let run = try runProgram(bash, ["--noprofile", "--norc", "-c", driver])
  #expect(run.status == 0 && run.error.isEmpty, "\(run.error)")
  var offers: [[String]] = [[]]
  for line in run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
    if line == end { offers.append([]) } else { offers[offers.count - 1].append(String(line)) }
  }
  return Array(offers.dropLast())
}

/// The shells' completion scripts and the breed names they offer.
@Suite struct CompletionsTests {
  /// The names a shell offers come from the saved list where there is one: each breed
  /// and sub-breed as the API names it and as the list shows it.
  @Test func theNamesComeFromTheSavedList() throws {
    let folder = ScratchFolder.path("cache")
    try BreedListCache(directory: folder).save(
      [
        Breed(name: "zorro", subBreeds: ["red", "Bad Name"]), Breed(name: "../evil"), Breed(name: "shihtzu"),
      ],
      fetchedAt: Date())
    let environment = ["DOGBREEDS_CACHE_DIR": folder.path]
    #expect(
      Completions.names(startingWith: "", environment: environment) == [
        "shihtzu", "zorro", "zorro/red", "Red Zorro", "Shih Tzu", "Zorro",
      ])
    #expect(Completions.names(startingWith: "zo", environment: environment) == ["zorro", "zorro/red"])
    #expect(Completions.names(startingWith: "Sh", environment: environment) == ["Shih Tzu"])
    // Where no name starts with the prefix as typed, one in another case will do.
    #expect(Completions.names(startingWith: "ZORRO/", environment: environment) == ["zorro/red"])
    // The saved list stands in for the built-in one.
    #expect(Completions.names(startingWith: "hou", environment: environment).isEmpty)
    #expect(Completions.names(startingWith: "..", environment: environment).isEmpty)
  }

  /// Without a saved list, the built-in one; every name offered is one `show` takes.
  @Test func withoutASavedListTheBuiltInOne() throws {
    let environment = ["DOGBREEDS_CACHE_DIR": ScratchFolder.path("none").path]
    let hound = Completions.names(startingWith: "hou", environment: environment)
    #expect(hound.first == "hound" && hound.contains("hound/afghan"), "\(hound)")
    #expect(Completions.names(startingWith: "Afghan", environment: environment) == ["Afghan Hound"])
    #expect(Completions.names(startingWith: "Coton", environment: environment) == ["Coton de Tuléar"])
    let all = Completions.names(startingWith: "", environment: environment)
    #expect(all.count > 300)
    for name in all {
      #expect((try? Arguments.breedPath(name)) != nil || Arguments.runTogether(name) != nil, "\(name)")
    }
  }

  /// The command line that asks for a script or for names, and the ones that are wrong.
  @Test func theCommandsParse() throws {
    for shell in Shell.allCases {
      #expect(
        try Arguments.parse(["completions", shell.rawValue], environment: [:]).command
          == .completions(.script(shell)))
    }
    #expect(
      try Arguments.parse(["completions", "--names"], environment: [:]).command
        == .completions(.names(prefix: "")))
    #expect(
      try Arguments.parse(["completions", "--names", "--", "-x"], environment: [:]).command
        == .completions(.names(prefix: "-x")))
    #expect(try Arguments.parse(["man"], environment: [:]).command == .manual)
    for (arguments, message) in [
      (["completions"], "completions needs a shell: bash, zsh, fish."),
      (["completions", "bsh"], "completions needs a shell: bash, zsh, fish. Did you mean bash or zsh?"),
      (["completions", "bash", "zsh"], "completions needs a shell: bash, zsh, fish."),
      (["completions", "--names", "a", "b"], "completions --names takes one prefix at most."),
      (["list", "--names"], "--names goes with completions."),
      (["completions", "bash", "--json"], "completions takes no options."),
      (["man", "--offline"], "man takes no options."),
      (["man", "page"], "man takes no arguments."),
      (["--nmaes"], "Unknown option --nmaes."),
    ] {
      #expect(throws: UsageError(message: message), "\(arguments)") {
        try Arguments.parse(arguments, environment: [:])
      }
    }
  }

  /// bash offers every option, every value of an option that takes one of some words, and
  /// the commands, as the parser's tables have them: a new option is offered as it is added.
  @Test func bashOffersWhatTheParserTakes() throws {
    let program = "DogBreedsCLI"
    let choices = Arguments.listedOptions.compactMap { option -> (String, [String])? in
      guard case .words(let words)? = option.value?.completion else { return nil }
      return (option.names[0], words)
    }
    #expect(choices.map(\.0).contains("--picture"))
    let names = Arguments.listedOptions.flatMap(\.names)
    var lines = choices.map { [program, $0.0, ""] } + names.map { [program, String($0.dropLast())] }
    lines += [
      [program, ""], [program, "--api", "fake", "sh"], [program, "--picture", "bl"],
      [program, "show", "pug", "--picture", "=", "bl"], [program, "show", "pug", "--picture=bl"],
      [program, "--filter", ""], [program, "favourites", ""], [program, "completions", ""],
    ]
    let offers = try bashOffers(for: lines)
    try #require(offers.count == lines.count)
    for (index, (_, words)) in choices.enumerated() { #expect(offers[index] == words, "\(lines[index])") }
    for (index, name) in names.enumerated() {
      #expect(offers[choices.count + index].contains(name), "\(name): \(offers[choices.count + index])")
    }
    #expect(
      Array(offers.suffix(8)) == [
        Arguments.commands.map(\.name), ["show"], ["blocks"], ["blocks"], ["--picture=blocks"], [],
        ["add", "remove"], ["bash", "zsh", "fish"],
      ])
  }

  /// Where a breed goes, bash asks the program itself for the names (never offering one of
  /// its own), and escapes those with spaces; where a file goes, it offers files.
  @Test func bashAsksTheProgramForBreedNamesAndOffersFiles() throws {
    let folder = ScratchFolder.path("fake-program")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let program = folder.appendingPathComponent("DogBreedsCLI")
    // It says what it was asked, and names two breeds.
    try "#!/bin/sh\necho \"asked: $*\"\necho 'Afghan Hound'\n".write(
      to: program, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
    let offers = try bashOffers(for: [
      [program.path, "show", "Afg"], [program.path, "favourites", "add", "pug", "hound/af"],
      [program.path, "--record", folder.path + "/Dog"], [program.path, "replay", folder.path + "/Dog"],
      [program.path, "list", "x"],
    ])
    #expect(
      offers == [
        [#"asked:\ completions\ --names\ --\ Afg"#, #"Afghan\ Hound"#],
        [#"asked:\ completions\ --names\ --\ hound/af"#, #"Afghan\ Hound"#],
        [program.path], [program.path], [],
      ])
  }

  /// What a shell shows beside an option: its first clause, at most 60 characters, with no
  /// bracket left open.
  @Test func anOptionsHelpIsShortenedForTheShell() {
    #expect(Completions.shortHelp("per request (default 10)") == "per request (default 10)")
    #expect(Completions.shortHelp("API root (default x; env Y)") == "API root (default x)")
    let long = Completions.shortHelp(String(repeating: "word ", count: 30))
    #expect(long.count <= 60 && long.hasSuffix("..."), "\(long)")
  }
}
