import Foundation
import TestHTTPServer
import TestSupport
import Testing

/// Whether the proxy variables (`http_proxy`…) decide the app's proxy: libcurl's rules, on
/// Linux. On macOS, URLSession takes the system's settings.
#if os(Linux)
  let proxiesComeFromTheEnvironment = true
#else
  let proxiesComeFromTheEnvironment = false
#endif

@Suite(.serialized)
struct ScriptTests {
  let breedsJSON = #"{"message":{"hound":["afghan","basset"],"pug":[],"akita":[]},"status":"success"}"#
  /// The answer to a request for a random picture: one in the folder the real API keeps
  /// that breed's (or sub-breed's) pictures in.
  static func imageJSON(for path: String) -> String {
    #"{"message":"https:\/\/images.dog.ceo\/breeds\/\#(pictureFolder(path))\/n1.jpg","status":"success"}"#
  }

  func api(_ server: TestHTTPServer) -> [String] { ["--base-url", server.baseURL.absoluteString + "/api"] }

  /// The help fits 80 columns; `--version`, `version` and `help` work whatever comes
  /// with them.
  @Test func helpAndVersionAreWhatRunWhenAskedFor() async throws {
    let help = try await runCLI(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("EXIT STATUS"))
    #expect(
      help.stdout.contains("KEYS (the full-screen browser") && help.stdout.contains("On the Favourites tab"))
    // It fits 80 columns, and a description that wraps goes on under its column.
    for line in help.stdout.split(separator: "\n") {
      #expect(line.count <= 80, "too wide: \(line)")
      let indent = line.prefix { $0 == " " }.count
      // (KEYS: the screens' names at 2, their keys at 4, what they do at 27.)
      #expect([0, 2, 4, 25, 27].contains(indent), "indented \(indent): \(line)")
    }
    #expect(try await runCLI(["--version"]).stdout == "DogBreedsCLI 0.1.0\n")
    // Asked for, the version (as help) is what runs, whatever command comes with it.
    #expect(try await runCLI(["--version", "list"]).stdout == "DogBreedsCLI 0.1.0\n")
    // As a command too, like help (it once answered "to see a breed, use show version").
    #expect(try await runCLI(["version"]).stdout == "DogBreedsCLI 0.1.0\n")
    let command = try await runCLI(["help"])
    #expect(command.status == 0 && command.stdout == help.stdout)
  }

  /// How the process reports a usage error (the messages themselves are
  /// ArgumentsTests'), and what is no error.
  @Test func aUsageErrorIsExitTwoWithTheMessageOnStandardError() async throws {
    // Each usage error's message is ArgumentsTests'; here, how the process reports one.
    for bad in [["--bogus"], ["list", "extra"]] {
      let run = try await runCLI(bad)
      #expect(run.status == 2, "\(bad)")
      #expect(run.stdout.isEmpty)
      #expect(
        run.stderr.hasPrefix("error: ") && run.stderr.hasSuffix("for usage.\n"), "\(bad): \(run.stderr)")
    }
    // An empty DOG_API_BASE_URL is no setting (as an empty variable is to most programs).
    let empty = try await runCLI(
      ["list", "--api", "fake"], environment: cleanEnvironment(["DOG_API_BASE_URL": ""]))
    #expect(empty.status == 0 && empty.stdout.hasPrefix("Affenpinscher\n"), "\(empty.stderr)")
    // A lone "-" is an argument, not an option: here a breed name that is not one.
    let dash = try await runCLI(["show", "-"])
    #expect(
      dash.status == 2 && dash.stderr.hasPrefix("error: “-” is not a breed name: use letters"),
      "\(dash.stderr)")
  }

  /// What was typed is quoted in a message, and a pasted page of it cut short.
  @Test func whatWasTypedIsQuotedAndCutShort() async throws {
    // What was typed is quoted, and a pasted page of it cut short, so the message stays in view.
    let pasted = String(repeating: "xyz ", count: 300)
    let cut = "“\(pasted.prefix(79))…”"
    let unknown = try await runCLI([pasted])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.hasPrefix("error: Unknown command \(cut). Run"), "\(unknown.stderr)")
    let unmatched = try await runCLI(["list", "--filter", pasted, "--api", "fake"])
    #expect(unmatched.status == 3)
    #expect(unmatched.stderr == "No breeds match \(cut).\n", "\(unmatched.stderr)")
    // A name of few letters and many separators (or two words far apart) is a name to look
    // for, quoted the same way.
    for name in [
      "terrier" + String(repeating: " -", count: 300) + " x",
      "big" + String(repeating: " ", count: 100) + "dog",
    ] {
      let notListed = try await runCLI(["show", name, "--api", "fake"])
      #expect(notListed.status == 3)
      #expect(
        notListed.stderr.hasPrefix("error: “\(name.prefix(79))…” is not in the breed list."),
        "\(notListed.stderr)")
    }
    // A pasted run of accents is one character of thousands of scalars: cut by scalars too.
    let marks = String(repeating: "\u{301}", count: 5000)
    let accents = try await runCLI(["show", marks, "--api", "fake"])
    let expected = "error: “" + String(repeating: "\u{301}", count: 320) + "…” is not a breed name"
    let isCut = Array(accents.stderr.utf8).starts(with: Array(expected.utf8))
    #expect(accents.status == 2)
    #expect(isCut, "\(accents.stderr.utf8.count) bytes")
  }

  /// Options that go with another command, or contradict another option, say so.
  @Test func optionsThatDoNotGoTogetherSaySo() async throws {
    // Options that go with another command, or contradict another option, say so.
    for (bad, message) in [
      (["show", "hound", "--filter", "x"], "--filter goes with list, or the browser."),
      (["list", "--picture", "blocks"], "--picture goes with show and the full-screen browser, not list."),
      (
        ["show", "hound", "--json", "--picture=sixel"],
        "--json gives the picture's address, not the picture: use --picture or --json."
      ),
      (
        ["--json", "--picture", "blocks"],
        "--json gives the picture's address, not the picture: use --picture or --json."
      ),
    ] {
      let run = try await runCLI(bad + ["--api", "fake"])
      #expect(run.status == 2 && run.stderr.hasPrefix("error: \(message) Run"), "\(bad): \(run.stderr)")
    }
    for fine in [["show", "hound", "--json", "--picture", "none"], ["list", "--picture", "auto"]] {
      #expect(try await runCLI(fine + ["--api", "fake"]).status == 0, "\(fine)")
    }
  }

  /// A command, an option or a choice mistyped by a slip is named as the one meant.
  @Test func aSlipOfTypingIsNamedAsTheOneMeant() async throws {
    let help = try await runCLI(["--help"])
    // Every option --help lists is one a slip of it is offered (the parser's list of
    // options for suggestions is the help's).
    let listed = help.stdout.split(separator: "\n").compactMap { line -> String? in
      let option = line.drop { $0 == " " }.prefix { $0 == "-" || $0.isLetter }
      return option.hasPrefix("--") && line.hasPrefix("  --") ? String(option) : nil
    }
    #expect(listed.count >= 10, "\(listed)")
    for option in listed {
      let slip = try await runCLI([option + "q"])
      #expect(slip.stderr.contains("Did you mean \(option)?"), "\(option): \(slip.stderr)")
    }
    // A command, an option or a choice mistyped by a slip is named as the one meant; one too
    // far from any, or too short to tell, is not.
    for (typed, meant) in [
      (["lsit"], "Unknown command “lsit”. Did you mean list?"),
      (["shwo", "hound"], "Unknown command “shwo”. Did you mean show?"),
      (["list", "--fitler", "x"], "Unknown option --fitler. Did you mean --filter?"),
      (["-json"], "Unknown option -json. Did you mean --json?"),
      (["--colur", "never"], "Unknown option --colur. Did you mean --color?"),
      (["--ap", "fake"], "Unknown option --ap. Did you mean --api?"),
      (["--base_url", "http://x"], "Unknown option --base_url. Did you mean --base-url?"),
      (
        ["--picture", "blokcs"],
        "--picture must be one of auto, blocks, ascii, none, 256, kitty, iterm, sixel, not “blokcs”. Did you mean blocks?"
      ),
      (["--api=fkae"], "--api must be one of live, fake, not “fkae”. Did you mean fake?"),
      (["frob2"], "Unknown command “frob2”."),
      // A breed where the command goes: how to show it.
      (["hound"], "Unknown command “hound”: to see a breed, use show hound."),
      (["Afghan Hound"], "Unknown command “Afghan Hound”: to see a breed, use show \"Afghan Hound\"."),
      (["--bogus"], "Unknown option --bogus."),
      (["-x"], "Unknown option -x."),
    ] {
      let run = try await runCLI(typed)
      #expect(run.status == 2, "\(typed)")
      #expect(run.stderr == "error: \(meant) Run `DogBreedsCLI --help` for usage.\n", "\(typed)")
    }
  }

  /// Values out of range, or written in a way the parser does not read, are usage errors
  /// that say what it takes.
  @Test func valuesOutOfRangeOrUnreadableAreUsageErrors() async throws {
    // Usage errors quote what was typed; Output.error sanitises it like any other message.
    for bad in [
      ["show", "hou\u{1B}[2J"], ["--bogus\u{1B}]0;x\u{7}"], ["frob\u{9B}31m"], ["--color", "\u{1B}[5m"],
    ] {
      let run = try await runCLI(bad)
      #expect(run.status == 2, "\(bad)")
      #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(bad)")
      #expect(!run.stderr.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) }, "\(bad)")
    }
    // The message states the range the parser accepts: 0 itself is refused, 300 is not.
    let zero = try await runCLI(["--timeout", "0", "list", "--api", "fake"])
    #expect(zero.status == 2)
    #expect(zero.stderr.contains("above 0 and at most 300, as in 2.5, not “0”."), "\(zero.stderr)")
    #expect(try await runCLI(["--timeout", "300", "list", "--api", "fake"]).status == 0)
    #expect(try await runCLI(["--timeout", "300.5", "list", "--api", "fake"]).status == 2)
    // Seconds are written as decimals: not hexadecimal (Double's "0x10" is 16), not
    // exponents, not padded.
    for text in ["0x10", "1e1", " 5", "5 ", "+5", "2..5"] {
      #expect(try await runCLI(["--timeout", text, "list", "--api", "fake"]).status == 2, "\(text)")
    }
    #expect(try await runCLI(["--timeout", "2.5", "list", "--api", "fake"]).status == 0)
    #expect(try await runCLI(["--timeout", ".5", "list", "--api", "fake"]).status == 0)
    // A timeout below a millisecond is kept as given, and said so (it once became 0 ms).
    let stalling = try TestHTTPServer { _ in .stall }
    defer { stalling.stop() }
    let brief = try await runCLI([
      "list", "--timeout", "0.0005", "--base-url", stalling.baseURL.absoluteString + "/api",
    ])
    #expect(brief.stderr.contains("The server took longer than 0.0005 s to answer."), "\(brief.stderr)")
    // After "--" everything is an argument, even what looks like an option.
    let dashed = try await runCLI(["show", "--api", "fake", "--", "--json"])
    #expect(dashed.status == 2)
    #expect(dashed.stderr.hasPrefix("error: “--json” is not a breed name"), "\(dashed.stderr)")
    // A value left out before another option is missing, not that option.
    let forgotten = try await runCLI(["list", "--filter", "--json", "--api", "fake"])
    #expect(forgotten.status == 2)
    #expect(
      forgotten.stderr.hasPrefix(
        "error: --filter needs a value, and “--json” is an option (to give that very text, write --filter=--json)."
      ),
      "\(forgotten.stderr)")
    // An option without a value refuses one rather than ignoring it.
    let offlineFalse = try await runCLI(["list", "--offline=false", "--api", "fake"])
    #expect(offlineFalse.status == 2 && offlineFalse.stdout.isEmpty)
    #expect(
      offlineFalse.stderr.hasPrefix("error: --offline takes no value (remove “=false”)."),
      "\(offlineFalse.stderr)")
    // An empty value after "=" is that value, as a quoted empty argument is: the next
    // argument stays what it is ("--timeout= list" once read "list" as the timeout).
    let emptyTimeout = try await runCLI(["--timeout=", "list", "--api", "fake"])
    #expect(emptyTimeout.status == 2 && emptyTimeout.stdout.isEmpty)
    #expect(emptyTimeout.stderr.contains("at most 300, as in 2.5, not “”."), "\(emptyTimeout.stderr)")
    let emptyPicture = try await runCLI(["show", "pug", "--picture=", "--json", "--api", "fake"])
    #expect(emptyPicture.status == 2)
    #expect(emptyPicture.stderr.hasPrefix("error: --picture must be one of "), "\(emptyPicture.stderr)")
    let emptyFilter = try await runCLI(["--filter=", "list", "--api", "fake"])
    let unfiltered = try await runCLI(["list", "--api", "fake"])
    #expect(emptyFilter.status == 0 && emptyFilter.stdout == unfiltered.stdout, "\(emptyFilter.stderr)")
    #expect(
      try await runCLI(["list", "--json=", "--api", "fake"]).stderr.hasPrefix("error: --json takes no value"))
    let inline = try await runCLI(["list", "--filter=--json", "--api", "fake"])
    #expect(inline.status == 3 && inline.stderr.contains("No breeds match “--json”"), "\(inline.stderr)")
    let env = try await runCLI(["list"], environment: cleanEnvironment(["DOG_API_BASE_URL": "not a url"]))
    #expect(env.status == 2)
    #expect(env.stderr.contains("DOG_API_BASE_URL must be an http(s) URL"))
  }

  @Test func traceLogsEveryActionAndStateChangeToStandardError() async throws {
    let run = try await runCLI(["list", "--api", "fake", "--filter", "pug", "--trace"])
    #expect(run.status == 0)
    #expect(run.stdout == "Pug\nPuggle\n")  // the output itself is unchanged
    #expect(run.stderr.contains("received action:\n  .dogs(.appeared)\n"))
    #expect(run.stderr.contains("-     status: .notStarted\n+     status: .loading"))
    #expect(run.stderr.contains("received action:\n  .dogs(.filterChanged(\"pug\"))"))
  }

  @Test func listPrintsOneBreedPerLineAsShown() async throws {
    let run = try await runCLI(["list", "--api", "fake"])
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 108)
    #expect(lines.first == "Affenpinscher")
    #expect(lines.contains("Hound"))
    #expect(run.stderr.isEmpty)
    // Without a command, piped: the same list, and no note (a pipe wants the list).
    let piped = try await runCLI(["--api", "fake"])
    #expect(piped.status == 0 && piped.stdout == run.stdout && piped.stderr.isEmpty)
    let filtered = try await runCLI(["list", "--api", "fake", "--filter", "HOU"])
    #expect(filtered.stdout == "Coonhound\nDeerhound\nElkhound\nGreyhound\nHound\nOtterhound\nWolfhound\n")
    let none = try await runCLI(["list", "--api", "fake", "--filter", "xyz"])
    #expect(none.status == 3)
    #expect(none.stdout.isEmpty)
    #expect(none.stderr == "No breeds match “xyz”.\n")
    // A sub-breed's name is no breed, but the message says where to find it.
    let golden = try await runCLI(["list", "--api", "fake", "--filter", "Golden"])
    #expect(golden.status == 3)
    #expect(golden.stderr == "No breeds match “Golden”. Found as a sub-breed: try show retriever/golden.\n")
    let boston = try await runCLI(["list", "--api", "fake", "--filter", "boston"])
    #expect(
      boston.stderr
        == "No breeds match “boston”. Found as sub-breeds: try show bulldog/boston or terrier/boston.\n")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func anOutputThatCannotBeWrittenIsAnError() async throws {
    // /dev/full refuses every write with ENOSPC, as a full disk would.
    let run = try await runCLI(
      ["-c", #"exec "$0" list --api fake > /dev/full"#, executable], program: "/bin/sh")
    #expect(run.status == 1)
    #expect(run.stderr == "error: Can't write the output: No space left on device.\n")
  }

  @Test func listJSONSaysWhereTheListCameFrom() async throws {
    let server = try TestHTTPServer { [breedsJSON] _ in .json(breedsJSON) }
    defer { server.stop() }
    let run = try await runCLI(["list", "--json"] + api(server))
    #expect(run.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    #expect(object?["source"] as? String == "network")
    let breeds = object?["breeds"] as? [[String: Any]]
    #expect(breeds?.map { $0["displayName"] as? String } == ["Akita", "Hound", "Pug"])
    #expect(breeds?[1]["subBreeds"] as? [String] == ["afghan", "basset"])
    #expect((object?["subBreedMatches"] as? [Any])?.isEmpty == true)
    // A filter that names a sub-breed: no breeds, and where it is.
    let golden = try await runCLI(["list", "--json", "--filter", "Basset Hound"] + api(server))
    #expect(golden.status == 3)
    let found = try JSONSerialization.jsonObject(with: Data(golden.stdout.utf8)) as? [String: Any]
    #expect((found?["breeds"] as? [Any])?.isEmpty == true)
    let matches = found?["subBreedMatches"] as? [[String: String]]
    #expect(matches == [["breed": "hound", "subBreed": "basset", "displayName": "Basset Hound"]])
    #expect((found?["spellingMatches"] as? [Any])?.isEmpty == true)
    // One that misspells a breed: the breed, in JSON and in words.
    let slip = try await runCLI(["list", "--json", "--filter", "houdn"] + api(server))
    #expect(slip.status == 3 && slip.stderr == "No breeds match “houdn”. Did you mean hound?\n")
    let spelled = try JSONSerialization.jsonObject(with: Data(slip.stdout.utf8)) as? [String: Any]
    let spelling = try #require(spelled?["spellingMatches"] as? [[String: Any]])
    #expect(spelling.count == 1)
    #expect(
      spelling.first?["breed"] as? String == "hound" && spelling.first?["displayName"] as? String == "Hound")
    #expect(spelling.first?["subBreed"] is NSNull)
    // A sub-breed's title misspelt: where it is.
    let title = try await runCLI(["list", "--json", "--filter", "basset hund"] + api(server))
    #expect(
      title.status == 3 && title.stderr == "No breeds match “basset hund”. Did you mean hound/basset?\n")
    let titled = try JSONSerialization.jsonObject(with: Data(title.stdout.utf8)) as? [String: Any]
    #expect(
      (titled?["spellingMatches"] as? [[String: String]])
        == [["breed": "hound", "subBreed": "basset", "displayName": "Basset Hound"]])
  }
}
