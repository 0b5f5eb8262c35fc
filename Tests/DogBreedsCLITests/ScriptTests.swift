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

  @Test func helpVersionAndUsageErrors() async throws {
    let help = try await runCLI(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("EXIT STATUS"))
    #expect(help.stdout.contains("KEYS (the full-screen browser)"))
    // It fits 80 columns, and a description that wraps goes on under its column.
    for line in help.stdout.split(separator: "\n") {
      #expect(line.count <= 80, "too wide: \(line)")
      let indent = line.prefix { $0 == " " }.count
      #expect([0, 2, 25].contains(indent), "indented \(indent): \(line)")
    }
    #expect(try await runCLI(["--version"]).stdout == "DogBreedsCLI 0.1.0\n")
    // Asked for, the version (as help) is what runs, whatever command comes with it.
    #expect(try await runCLI(["--version", "list"]).stdout == "DogBreedsCLI 0.1.0\n")
    // As a command too, like help (it once answered "to see a breed, use show version").
    #expect(try await runCLI(["version"]).stdout == "DogBreedsCLI 0.1.0\n")
    let command = try await runCLI(["help"])
    #expect(command.status == 0 && command.stdout == help.stdout)
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
    #expect(run.stderr.contains("-   dogsStatus: .notStarted\n+   dogsStatus: .loading"))
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

  @Test(.enabled(if: proxiesComeFromTheEnvironment, "macOS takes its proxy from the system's settings"))
  func theProxyVariablesAreHonoured() async throws {
    // A host that does not exist (`.invalid` never resolves) is reached through the proxy
    // that `http_proxy` names, which gets the whole address, as proxies do.
    let proxy = try TestHTTPServer { [breedsJSON] _ in .json(breedsJSON) }
    defer { proxy.stop() }
    let environment = cleanEnvironment(["http_proxy": proxy.baseURL.absoluteString])
    let run = try await runCLI(
      ["list", "--base-url", "http://dogs.invalid/api"], environment: environment)
    #expect(run.status == 0)
    #expect(run.stdout == "Akita\nHound\nPug\n")
    #expect(proxy.requests.map(\.path) == ["http://dogs.invalid/api/breeds/list/all"])
    // `no_proxy` lists hosts to reach directly (the client adds loopback to that list, and
    // must keep the user's): this one then cannot be reached at all (or, where a resolver
    // answers even for names that do not exist, not understood), and the app falls back
    // to the built-in list with a warning.
    let direct = try await runCLI(
      ["list", "--base-url", "http://dogs.invalid/api"],
      environment: environment.merging(["no_proxy": "dogs.invalid"]) { $1 })
    #expect(direct.status == 0 && direct.stderr.hasPrefix("warning: "))
    #expect(proxy.requests.count == 1)
  }

  @Test(.enabled(if: proxiesComeFromTheEnvironment, "macOS takes its proxy from the system's settings"))
  func aProxyThatFailsIsNamedNotTheHost() async throws {
    // Behind a proxy that is down, or whose name does not resolve, the warning names the
    // proxy: the API may well be up (a browser using other settings reaches it). A setting
    // libcurl cannot read is the proxy's too. A login in the proxy's address is never shown.
    let port = TestHTTPServer.refusedPort()
    for (proxy, named) in [
      ("http://127.0.0.1:\(port)", " 127.0.0.1:\(port):"), ("http://proxy.invalid:3128", " proxy.invalid"),
      ("http://someone:secret@127.0.0.1:\(port)", " 127.0.0.1:\(port):"),
      ("http://someone:secret@proxy corp:1", ": check the proxy settings."),
      ("socks5h://proxy.invalid:1080", " proxy.invalid:"),
      ("socks5://127.0.0.1:\(port)", " 127.0.0.1:\(port):"),
    ] {
      let run = try await runCLI(
        ["list", "--base-url", "http://dogs.invalid/api"],
        environment: cleanEnvironment(["http_proxy": proxy]))
      #expect(run.status == 0)
      #expect(run.stderr.hasPrefix("warning: Can't reach the proxy server\(named)"), "\(run.stderr)")
      #expect(!run.stderr.contains("secret"))
    }
    // A proxy that will not open a tunnel to an https host says why, in its status.
    let refusing = try TestHTTPServer { request in
      request.method == "CONNECT" ? .text("Proxy login needed", status: 407) : .hangUp
    }
    defer { refusing.stop() }
    let run = try await runCLI(
      ["list", "--base-url", "https://dogs.invalid/api"],
      environment: cleanEnvironment(["https_proxy": refusing.baseURL.absoluteString]))
    #expect(run.status == 0)
    #expect(
      run.stderr.hasPrefix("warning: The proxy server wants a login to reach dogs.invalid (HTTP 407)."),
      "\(run.stderr)")
    #expect(refusing.requests.map(\.method) == ["CONNECT"])
    #expect(refusing.requests.map(\.path) == ["dogs.invalid:443"])
    // For a plain-HTTP address the proxy answers in the server's place: the same words.
    let asking = try TestHTTPServer { _ in .text("Proxy login needed", status: 407) }
    defer { asking.stop() }
    let plain = try await runCLI(
      ["list", "--base-url", "http://dogs.invalid/api"],
      environment: cleanEnvironment(["http_proxy": asking.baseURL.absoluteString]))
    #expect(
      plain.stderr.hasPrefix("warning: The proxy server wants a login to reach dogs.invalid (HTTP 407)."),
      "\(plain.stderr)")
    // A SOCKS proxy that refuses the connection, or breaks off the handshake (here, a
    // server that is no SOCKS proxy and answers in HTTP), has no status to quote.
    let socks = try TestHTTPServer(refusingSOCKSWith: 5)
    defer { socks.stop() }
    let notSOCKS = try TestHTTPServer { _ in .hangUp }
    defer { notSOCKS.stop() }
    for proxy in [socks, notSOCKS] {
      let run = try await runCLI(
        ["list", "--base-url", "http://dogs.invalid/api"],
        environment: cleanEnvironment(["ALL_PROXY": "socks5h://127.0.0.1:\(proxy.port)"]))
      #expect(
        run.stderr.hasPrefix("warning: The proxy server would not connect to dogs.invalid. "), "\(run.stderr)"
      )
    }
    #expect(socks.requests.map(\.path) == ["dogs.invalid:80"])
    // Where the host's name is resolved here (socks5, not socks5h) and does not resolve,
    // the proxy is not to blame.
    let resolvedHere = try await runCLI(
      ["list", "--base-url", "http://dogs.invalid/api"],
      environment: cleanEnvironment(["ALL_PROXY": "socks5://127.0.0.1:\(socks.port)"]))
    #expect(
      resolvedHere.stderr.hasPrefix("warning: Can't reach dogs.invalid: you may be offline."),
      "\(resolvedHere.stderr)")
    #expect(socks.requests.count == 1)
  }

  @Test func anHTTPSProxyWhoseTLSFailsIsNamedNotTheHost() async throws {
    // An `https://` proxy (TLS to the proxy itself) whose handshake fails, here one that
    // answers in plain HTTP, is the proxy's trouble: the API's certificate was never seen.
    // For an http address too, which the proxy fetches itself.
    let proxy = try TestHTTPServer { _ in .hangUp }
    defer { proxy.stop() }
    for (variable, scheme) in [("https_proxy", "https"), ("http_proxy", "http")] {
      let run = try await runCLI(
        ["list", "--base-url", "\(scheme)://dogs.invalid/api"],
        environment: cleanEnvironment([variable: "https://127.0.0.1:\(proxy.port)"]))
      #expect(run.status == 0)
      #expect(
        run.stderr.hasPrefix(
          "warning: Can't make a secure connection to the proxy server 127.0.0.1:\(proxy.port): "),
        "\(run.stderr)")
    }
    #expect(proxy.requests.isEmpty)
  }

  @Test func aServerOnThisMachineIsReachedPastAProxy() async throws {
    // A proxy elsewhere could not reach it; a local mirror or test server must work with
    // the proxy a company sets for everything else (here, one that is not even running).
    let server = try TestHTTPServer { [breedsJSON] _ in .json(breedsJSON) }
    defer { server.stop() }
    let deadProxy = "http://127.0.0.1:\(TestHTTPServer.refusedPort())"
    for variable in ["http_proxy", "all_proxy", "ALL_PROXY"] {
      let run = try await runCLI(["list"] + api(server), environment: cleanEnvironment([variable: deadProxy]))
      #expect(run.status == 0 && run.stderr.isEmpty, "\(variable): \(run.stderr)")
      #expect(run.stdout == "Akita\nHound\nPug\n", "\(variable)")
    }
  }

  @Test func showAcceptsListedAndAPINames() async throws {
    let server = try TestHTTPServer { [breedsJSON] request in
      request.path.contains("images/random") ? .json(Self.imageJSON(for: request.path)) : .json(breedsJSON)
    }
    defer { server.stop() }
    for name in ["Hound", "hound", "HOUND"] {
      let run = try await runCLI(["show", name] + api(server))
      #expect(run.status == 0, "\(name): \(run.stderr)")
      #expect(
        run.stdout
          == "Hound\nPicture: https://images.dog.ceo/breeds/hound/n1.jpg\nSub-breeds:\n  Afghan\n  Basset\n")
    }
    // A sub-breed has none of its own: the list is its breed's, and says so.
    let shown = try await runCLI(["show", "hound/afghan"] + api(server))
    #expect(
      shown.stdout
        == "Afghan Hound\nPicture: https://images.dog.ceo/breeds/hound-afghan/n1.jpg\nSub-breeds of Hound:\n  Afghan\n  Basset\n",
      "\(shown.stderr)")
    let sub = try await runCLI(["show", "hound/afghan", "--json"] + api(server))
    #expect(sub.status == 0)
    #expect(sub.stdout.contains(#""subBreed":"afghan""#))
    #expect(sub.stdout.contains(#""displayName":"Afghan Hound""#))
    // A sub-breed as the list and the Breed screen name it, either way round, and a pasted
    // name's spaces.
    for name in ["Afghan Hound", " afghan  hound", " Hound/Afghan\t", "Hound Afghan"] {
      let run = try await runCLI(["show", name, "--json"] + api(server))
      #expect(run.status == 0, "\(name): \(run.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      #expect(object?["name"] as? String == "hound" && object?["subBreed"] as? String == "afghan", "\(name)")
    }
    // Where the breed's name leads the title (a nationality, a coat), either order finds it.
    for name in ["German Shepherd", "shepherd german", "Rough Collie"] {
      let run = try await runCLI(["show", name, "--json", "--api", "fake"])
      #expect(run.status == 0, "\(name): \(run.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      #expect(
        ["German Shepherd", "Rough Collie"].contains(object?["displayName"] as? String ?? ""), "\(name)")
      #expect(["german", "rough"].contains(object?["name"] as? String ?? ""), "\(name)")
    }
    #expect(try await runCLI(["show", "hound afghan/x"] + api(server)).status == 2)
    // Three words: not a title, but their letters run together are near one.
    let threeWords = try await runCLI(["show", "Afghan Hound Dog"] + api(server))
    #expect(
      threeWords.status == 3
        && threeWords.stderr
          == "error: “afghan hound dog” is not in the breed list. Did you mean hound/afghan?\n",
      "\(threeWords.stderr)")
    #expect(server.requests.map(\.path).contains("/api/breed/hound/afghan/images/random"))
    let pug = try await runCLI(["show", "pug"] + api(server))
    #expect(pug.stdout == "Pug\nPicture: https://images.dog.ceo/breeds/pug/n1.jpg\n")
    // Where two titles are each other the other way round, the one named in order wins.
    let mirrored = try TestHTTPServer { request in
      request.path.contains("images/random")
        ? .json(Self.imageJSON(for: request.path))
        : .json(#"{"message":{"dane":["great"],"great":["dane"]},"status":"success"}"#)
    }
    defer { mirrored.stop() }
    for (name, shown) in [("Great Dane", "Great Dane"), ("dane great", "Dane Great")] {
      let run = try await runCLI(["show", name] + api(mirrored))
      #expect(run.stdout.hasPrefix("\(shown)\n"), "\(name): \(run.stdout) \(run.stderr)")
    }
  }

  @Test func notFoundAndBadNamesHaveTheirOwnExitCodes() async throws {
    let server = try TestHTTPServer { [breedsJSON] request in
      request.path.contains("images/random")
        ? .json(
          #"{"status":"error","message":"Breed not found (main breed does not exist)","code":404}"#,
          status: 404)
        : .json(breedsJSON)
    }
    defer { server.stop() }
    let unknown = try await runCLI(["show", "unicorn"] + api(server))
    #expect(unknown.status == 3)
    #expect(unknown.stderr == "error: “unicorn” is not in the breed list.\n")
    // Near misses come with what to try.
    let partial = try await runCLI(["show", "Hou"] + api(server))
    #expect(partial.status == 3)
    #expect(partial.stderr == "error: “hou” is not in the breed list. Did you mean hound?\n")
    let many = try await runCLI(["show", "u"] + api(server))
    #expect(many.stderr == "error: “u” is not in the breed list. Did you mean hound or pug?\n")
    // On the whole list: three suggestions at most, and every breed a sub-breed is in.
    let ound = try await runCLI(["show", "ound", "--api", "fake"])
    #expect(
      ound.stderr
        == "error: “ound” is not in the breed list. Did you mean coonhound, deerhound or elkhound?\n")
    let english = try await runCLI(["show", "english", "--api", "fake"])
    #expect(
      english.stderr
        == "error: “english” is not in the breed list. It is a sub-breed: try bulldog/english, hound/english, "
        + "mastiff/english, setter/english, sheepdog/english or springer/english.\n")
    let subBreed = try await runCLI(["show", "afghan"] + api(server))
    #expect(subBreed.status == 3)
    #expect(
      subBreed.stderr == "error: “afghan” is not in the breed list. It is a sub-breed: try hound/afghan.\n")
    // Part of a sub-breed's name, and of no breed's.
    let partOfSubBreed = try await runCLI(["show", "bass"] + api(server))
    #expect(partOfSubBreed.stderr == "error: “bass” is not in the breed list. Did you mean hound/basset?\n")
    // A name of two words is quoted whole, and read as the list's filter reads it.
    let twoWords = try await runCLI(["show", "Basset Hou"] + api(server))
    #expect(twoWords.status == 3)
    #expect(twoWords.stderr == "error: “basset hou” is not in the breed list. Did you mean hound/basset?\n")
    let spelled = try await runCLI(["show", "p ugg"] + api(server))
    #expect(spelled.stderr == "error: “p ugg” is not in the breed list. Did you mean pug?\n")
    let partOfSub = try await runCLI(["show", "hound/bass"] + api(server))
    #expect(
      partOfSub.stderr
        == "error: Hound has no sub-breed “bass” (it has Afghan, Basset). Did you mean hound/basset?\n")
    // A slip of typing: the breed, or the breed's sub-breed, it misspells.
    let slips = [
      ("huond", "error: “huond” is not in the breed list. Did you mean hound?\n"),
      // The sub-breed asked for comes along where the breed offered has it.
      ("huond/afghan", "error: “huond” is not in the breed list. Did you mean hound/afghan?\n"),
      ("pgu/afghan", "error: “pgu” is not in the breed list. Did you mean pug?\n"),
      ("Ak itta", "error: “ak itta” is not in the breed list. Did you mean akita?\n"),
      (
        "hound/afgan",
        "error: Hound has no sub-breed “afgan” (it has Afghan, Basset). Did you mean hound/afghan?\n"
      ),
    ]
    for (typed, message) in slips {
      let slip = try await runCLI(["show", typed] + api(server))
      #expect(slip.status == 3 && slip.stderr == message, "\(slip.stderr)")
    }
    // Two letters ("ug") are too few to tell a slip; nor is a sub-breed read as a breed.
    let nothing = try await runCLI(["show", "hound/ug"] + api(server))
    #expect(nothing.stderr == "error: Hound has no sub-breed “ug” (it has Afghan, Basset).\n")
    let noSub = try await runCLI(["show", "pug/tiny"] + api(server))
    #expect(noSub.status == 3)
    #expect(noSub.stderr == "error: Pug has no sub-breed “tiny”.\n")
    let gone = try await runCLI(["show", "akita"] + api(server))
    #expect(gone.status == 3)
    #expect(gone.stderr.contains("Not found: Breed not found (main breed does not exist)."))
    let threeWords = try await runCLI(["show", "African Wild Dog"] + api(server))
    #expect(threeWords.status == 3)
    #expect(threeWords.stderr == "error: “african wild dog” is not in the breed list.\n")
    // Letters, but more than any name has: the message says so, not "use letters".
    let long = String(repeating: "a", count: 65)
    for text in [long, "hound/\(long)", "\(long.uppercased()) Hound", "Afghan \(long) Hound"] {
      let tooLong = try await runCLI(["show", text] + api(server))
      #expect(tooLong.status == 2)
      #expect(
        tooLong.stderr == "error: “\(text)” is too long for a breed name: names have at most 64 letters.\n",
        "\(tooLong.stderr)")
    }
    let bad = try await runCLI(["show", "../../etc/passwd"] + api(server))
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasPrefix("error: “../../etc/passwd” is not a breed name: use letters"), "\(bad.stderr)")
    let longAndBad = try await runCLI(["show", long + "1"] + api(server))
    #expect(longAndBad.stderr.hasPrefix("error: “\(long)1” is not a breed name: use letters"))
    #expect(!server.requests.contains { $0.path.contains("..") })
  }

  @Test func aBreedNamedInWordsIsTheBreedTheyRunTogether() async throws {
    // People write "Shih Tzu" and "St. Bernard"; the API's names run the words together.
    for (typed, shown) in [
      ("Shih Tzu", "Shihtzu"), ("Shih-Tzu", "Shihtzu"), ("St. Bernard", "Stbernard"),
      ("ST-BERNARD", "Stbernard"),
      ("Coton de Tulear", "Cotondetulear"), ("Bull Terrier", "Bullterrier"),
      // With the accents of its own language, or typed full width.
      ("Coton de Tuléar", "Cotondetulear"), ("Brabançon", "Brabancon"), ("Ｈｏｕｎｄ／ａｆｇｈａｎ", "Afghan Hound"),
      ("Mexican Hairless", "Mexicanhairless"),
      // A sub-breed's title, run together either way round.
      ("Kerry Blue Terrier", "Kerryblue Terrier"), ("Terrier Kerry-Blue", "Kerryblue Terrier"),
      ("Staffordshire Bull Terrier", "Staffordshire Bullterrier"), ("Hound-Afghan", "Afghan Hound"),
      // As catalogues write them.
      ("Poodle (Toy)", "Toy Poodle"), ("Retriever, Golden", "Golden Retriever"),
      // A title still names its sub-breed, and a name as written still comes first.
      ("Great Dane", "Great Dane"), ("hound afghan", "Afghan Hound"), ("pug", "Pug"),
      // Pasted from a web page: a soft hyphen, a zero-width space, no-break spaces.
      ("Shih\u{AD}Tzu", "Shihtzu"), ("hou\u{200B}nd", "Hound"), ("St.\u{A0}Bernard", "Stbernard"),
      ("Afghan\u{A0}Hound", "Afghan Hound"),
      // A line copied with its line break, or with Windows's.
      ("hound\n", "Hound"), ("\r\nShih Tzu\r\n", "Shihtzu"),
    ] {
      let run = try await runCLI(["show", typed, "--api", "fake"])
      #expect(run.status == 0 && run.stdout.hasPrefix("\(shown)\n"), "\(typed): \(run.stdout) \(run.stderr)")
    }
    // Not a name as written, nor listed run together: what the letters find, else why.
    for (typed, status, message) in [
      ("St Bernard's", 3, "“st bernard's” is not in the breed list. Did you mean stbernard?"),
      ("African Wild Dog", 3, "“african wild dog” is not in the breed list. Did you mean african/wild?"),
      ("Hound-Afgan", 3, "“hound-afgan” is not in the breed list. Did you mean hound/afghan?"),
      // A longer name than the list's: what its words name.
      (
        "Terrier, Jack-Russell", 3,
        "“terrier, jack-russell” is not in the breed list. Did you mean terrier/russell or terrier?"
      ),
      // Letters in words are a name to look for: found or not, never a usage error.
      ("Big Fluffy Cloud Dog", 3, "“big fluffy cloud dog” is not in the breed list."),
      ("x-y", 3, "“x-y” is not in the breed list."),
      ("hound-1", 2, "“hound-1” is not a breed name: use letters, as in hound or hound/afghan."),
      (
        "hound/afghan/x", 2,
        "“hound/afghan/x” has too many parts: a breed, then at most one sub-breed, as in hound/afghan."
      ),
      ("hound/afghan/", 2, "“hound/afghan/” is not a breed name: use letters, as in hound or hound/afghan."),
      // A breed that one of the words names, where nothing else is near.
      ("Lhasa Apso", 3, "“lhasa apso” is not in the breed list. Did you mean lhasa?"),
      (
        "labrador retriever", 3,
        "Retriever has no sub-breed “labrador” (it has Chesapeake, Curly, Flatcoated, Golden). Did you mean labrador or retriever?"
      ),
      ("Siberian Husky", 3, "Husky has no sub-breed “siberian”. Did you mean husky?"),
      (
        "hound/xyzzy", 3,
        "Hound has no sub-breed “xyzzy” (it has Afghan, Basset, Blood, English, Ibizan, Plott, Walker)."
      ),
    ] {
      let run = try await runCLI(["show", typed, "--api", "fake"])
      #expect(run.status == status && run.stderr == "error: \(message)\n", "\(typed): \(run.stderr)")
    }
    let asCommand = try await runCLI(["St.Bernard", "--api", "fake"])
    #expect(
      asCommand.stderr.hasPrefix("error: Unknown command “St.Bernard”: to see a breed, use show St.Bernard."))
  }

  @Test func aLocaleWithoutUTF8GetsHelpAndMessagesInASCII() async throws {
    let ascii = cleanEnvironment(["LANG": "C"])
    let help = try await runCLI(["--help"], environment: ascii)
    #expect(help.status == 0 && help.stdout.hasPrefix("DogBreedsCLI - browse dog breeds"))
    #expect(help.stdout.contains("2 usage error | 3 not found"))
    #expect(help.stdout.utf8.allSatisfy { $0 < 0x80 })
    let unknown = try await runCLI(["show", "Big Dog", "--api", "fake"], environment: ascii)
    #expect(unknown.status == 3)
    #expect(unknown.stderr == "error: \"big dog\" is not in the breed list.\n")
    let none = try await runCLI(["list", "--filter", "xyz…", "--api", "fake"], environment: ascii)
    #expect(none.status == 3 && none.stderr == "No breeds match \"xyz...\".\n")
    // A UTF-8 locale keeps the typography.
    let utf8 = try await runCLI(["show", "Big Dog", "--api", "fake"])
    #expect(utf8.stderr == "error: “big dog” is not in the breed list.\n")
  }

  @Test func errorsThatQuoteNamesFromTheNetworkAreSanitised() async throws {
    let evil =
      #"{"message":{"hound":["a\u001b[2J","b\u009b31m\u0007"],"e\u001b]0;x\u0007":[]},"status":"success"}"#
    let server = try TestHTTPServer { _ in .json(evil) }
    defer { server.stop() }
    // Each error lists or suggests breed names the server sent.
    for name in ["hound/nope", "e", "a"] {
      let run = try await runCLI(["show", name] + api(server))
      #expect(run.status == 3, "\(name): \(run.stderr)")
      #expect(run.stderr.hasPrefix("error: "), "\(name)")
      #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(name): \(run.stderr)")
      #expect(!run.stderr.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) }, "\(name)")
    }
  }

  /// A server failing at every address: the list falls back and says the status; `show`
  /// fails as a runtime failure (1). The second is what a wrong base URL meets (one without
  /// `/api`, another server, or a proxy that answers for hosts it will not reach): a 404
  /// with an empty body, which must not read as a missing breed (exit 3).
  @Test(arguments: [
    (502, "<html><body>502 Bad Gateway</body></html>", "text/html"), (404, "", "text/plain"),
  ])
  func serverFailuresFallBackForTheListAndFailForPictures(status: Int, body: String, type: String)
    async throws
  {
    let server = try TestHTTPServer { _ in .text(body, status: status, contentType: type) }
    defer { server.stop() }
    let list = try await runCLI(["list"] + api(server))
    #expect(list.status == 0)
    #expect(list.stdout.split(separator: "\n").count == 108)
    #expect(
      list.stderr
        == "warning: The server reported an error (HTTP \(status)). Showing the built-in breed list.\n")
    let show = try await runCLI(["show", "hound"] + api(server))
    #expect(show.status == 1)
    #expect(show.stdout.hasPrefix("Hound\nSub-breeds:\n"))
    #expect(
      show.stderr.hasSuffix(
        "error: Couldn't load a picture of Hound. The server reported an error (HTTP \(status)).\n"),
      "\(show.stderr)")
  }

  @Test func malformedJSONAndAStallingServer() async throws {
    let server = try TestHTTPServer { request in
      request.path.contains("images/random") ? .stall : .json("{\"message\": {\"hound\": [")
    }
    defer { server.stop() }
    let run = try await runCLI(["show", "hound", "--timeout", "1"] + api(server))
    #expect(run.status == 1)
    #expect(run.stderr.contains("The server's answer could not be understood."))  // the list fell back…
    #expect(run.stderr.contains("The server took longer than 1 s to answer."))  // …the picture timed out
    // One 1 s timeout, and room (as in the fault matrix) for a debug build's start on a busy
    // machine; without the timeout URLSession would wait 60 s.
    #expect(run.elapsed < Duration.seconds(4).scaled, "took \(run.elapsed)")
  }

  @Test func escapeSequencesFromTheNetworkNeverReachTheOutputRaw() async throws {
    let evil =
      #"{"message":{"evil\u001b[2J\u001b]0;pwned\u0007":["x\u009b31m"],"hound":[]},"status":"success"}"#
    let server = try TestHTTPServer { request in
      request.path.contains("images/random")
        ? .json(#"{"message":"https:\/\/images.dog.ceo\/breeds\/hound\/a\u001b[31m.jpg","status":"success"}"#)
        : .json(evil)
    }
    defer { server.stop() }
    for arguments in [
      ["list"], ["list", "--json"], ["show", "hound"], ["show", "hound", "--json"],
      ["list", "--filter", "31m"],  // no breed: the sub-breed "x\u{9B}31m" is suggested
    ] {
      let run = try await runCLI(arguments + api(server))
      #expect(!hasRawControls(run.stdout), "\(arguments): \(run.stdout.debugDescription)")
      #expect(!hasRawControls(run.stderr), "\(arguments): \(run.stderr.debugDescription)")
    }
    let list = try await runCLI(["list"] + api(server))
    #expect(list.stdout.contains("Evil␛[2J␛]0;pwned␇"))
  }

  /// JSON keeps what a terminal or a JavaScript reader would act on escaped: line and
  /// paragraph separators, bidirectional isolates, tabs, DEL.
  @Test func jsonEscapesSeparatorsIsolatesAndTabs() async throws {
    let names =
      #"{"message":{"hound":["a\u2028b","c\u2029d","e\u2066f\u2069","g\th","i\u007fj"]},"status":"success"}"#
    let server = try TestHTTPServer { _ in .json(names) }
    defer { server.stop() }
    let run = try await runCLI(["list", "--json"] + api(server))
    #expect(
      run.stdout.contains(#"["a\u2028b","c\u2029d","e\u2066f\u2069","g\th","i\u007fj"]"#), "\(run.stdout)")
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let breeds = object?["breeds"] as? [[String: Any]]
    #expect(
      breeds?.first?["subBreeds"] as? [String] == [
        "a\u{2028}b", "c\u{2029}d", "e\u{2066}f\u{2069}", "g\th", "i\u{7F}j",
      ])
  }

  @Test func aClosedPipeEndsQuietly() async throws {
    let run = try await runCLI(
      ["-c", "'\(executable)' list --api fake | head -1; exit ${PIPESTATUS:-0}"], program: "/bin/sh")
    #expect(run.stdout == "Affenpinscher\n")
    #expect(run.stderr == "")
    // A reader gone before the first write (`true` exits while the app waits): the write
    // fails with EPIPE, and the app still ends quietly with 0.
    let gone = try await runCLI(
      ["-c", #"{ sleep 0.3; "$0" list --api fake; echo "status $?" >&2; } | true"#, executable],
      program: "/bin/sh")
    #expect(gone.stderr == "status 0\n")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func aStandardErrorThatCannotBeWrittenStillGivesTheExitCode() async throws {
    // Nothing can be said about it, but the usage error's status must still come out.
    let run = try await runCLI(["-c", #"exec "$0" --bogus 2>/dev/full"#, executable], program: "/bin/sh")
    #expect(run.status == 2)
  }

  /// A cache that cannot be written in full (a full disk; here a file size limit, which
  /// also stands for it in that the write fails partway) keeps what it held: the list
  /// saved before, not the start of the new one. Nor does the limit end the program.
  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")),
    .disabled(if: isThreadSanitized, "ThreadSanitizer's runtime faults under a small file size limit"))
  func aCacheWriteThatFailsPartwayKeepsTheListSavedBefore() async throws {
    let environment = cleanEnvironment()
    let small = try TestHTTPServer { [breedsJSON] _ in .json(breedsJSON) }
    #expect(try await runCLI(["list"] + api(small), environment: environment).status == 0)
    small.stop()
    // Some 20 KB: far past the limit of 8 blocks (4 or 8 KB, as the shell counts blocks).
    let names = (0..<1000).map { "\"breed\(String(repeating: "x", count: 10))\($0)\":[]" }
    let large = try TestHTTPServer { _ in
      .json(#"{"message":{"# + names.joined(separator: ",") + #"},"status":"success"}"#)
    }
    defer { large.stop() }
    // A coverage build's profile would be cut short by the limit too: written elsewhere.
    var limitedEnvironment = environment
    limitedEnvironment["LLVM_PROFILE_FILE"] = ScratchFolder.path("profile").path + "/%p.profraw"
    let limited = try await runCLI(
      ["-c", #"ulimit -f 8 && exec "$0" "$@""#, executable, "list"] + api(large),
      environment: limitedEnvironment,
      program: "/bin/sh")
    #expect(limited.status == 0, "\(limited.stderr)")
    #expect(limited.stdout.split(separator: "\n").count == 1000)
    let offline = try await runCLI(["list", "--offline"], environment: environment)
    #expect(offline.stdout == "Akita\nHound\nPug\n", "\(offline.stderr)")
    #expect(offline.stderr.contains("Showing the breed list saved on "), "\(offline.stderr)")
  }

  @Test func offlineUsesTheCacheAfterAnOnlineRun() async throws {
    let server = try TestHTTPServer { [breedsJSON] _ in .json(breedsJSON) }
    let environment = cleanEnvironment()
    let online = try await runCLI(["list"] + api(server), environment: environment)
    server.stop()
    #expect(online.stdout == "Akita\nHound\nPug\n")
    let offline = try await runCLI(["list", "--offline", "--json"], environment: environment)
    #expect(offline.status == 0)
    #expect(offline.stdout.contains(#""source":"cache""#))
    #expect(offline.stdout.contains(#""displayName":"Pug""#))
    // Why the list is not the network's, for a program as for a person.
    #expect(
      offline.stdout.contains(#""fallbackReason":"Working offline: nothing is fetched from the network.""#),
      "\(offline.stdout)")
    // The warning says it was asked for, not "you may be offline".
    #expect(
      offline.stderr.hasPrefix(
        "warning: Working offline: nothing is fetched from the network. Showing the breed list saved on "))
    // `show` without the network: the name and sub-breeds are what was asked for.
    let show = try await runCLI(["show", "hound", "--offline"], environment: environment)
    #expect(show.status == 0)
    #expect(show.stdout == "Hound\nSub-breeds:\n  Afghan\n  Basset\n")
    #expect(
      show.stderr.hasSuffix("warning: No picture. Working offline: nothing is fetched from the network.\n"))
    // …unless a picture was asked for explicitly.
    let picture = try await runCLI(
      ["show", "hound", "--offline", "--picture", "blocks"], environment: environment)
    #expect(picture.status == 1)
    #expect(
      picture.stderr.hasSuffix(
        "error: Couldn't load a picture of Hound. Working offline: nothing is fetched from the network.\n"))
  }
}

@Suite(.serialized)
struct PictureScriptTests {
  static let jpeg = [UInt8](
    (try? Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImageDecodingTests/Fixtures/jpeg/synthetic-500x375-baseline.jpg"))) ?? Data()
  )

  func run(_ picture: [UInt8], _ mode: String, environment: [String: String] = [:]) async throws -> Run {
    try await runRecording(picture, mode, environment: environment).run
  }

  func runRecording(
    _ picture: [UInt8], _ mode: String, status: Int = 200, environment: [String: String] = [:]
  ) async throws -> (run: Run, paths: [String]) {
    let server = try pictureServer(picture, status: status, subBreeds: ["afghan"])
    defer { server.stop() }
    let run = try await runCLI(
      ["show", "hound", "--picture", mode, "--base-url", server.baseURL.absoluteString + "/api"],
      environment: cleanEnvironment(environment))
    return (run, server.requests.map(\.path))
  }

  @Test func blocksAndASCIIDrawThePicture() async throws {
    let blocks = try await run(Self.jpeg, "blocks")
    #expect(blocks.status == 0, "\(blocks.stderr)")
    #expect(blocks.stdout.contains("▀"))
    #expect(blocks.stdout.contains("\u{1B}[38;5;") || blocks.stdout.contains("\u{1B}[38;2;"))
    #expect(blocks.stdout.contains("Hound\nPicture: http://127.0.0.1:"))
    let ascii = try await run(Self.jpeg, "ascii")
    #expect(ascii.status == 0)
    #expect(!ascii.stdout.contains("\u{1B}"))
    let pictureLines = ascii.stdout.split(separator: "\n").prefix { !$0.hasPrefix("Hound") }
    #expect(pictureLines.count == 30)  // 80 columns, a 4:3 picture, two pixels per row
    #expect(pictureLines.allSatisfy { $0.count == 80 })
    // Without a terminal to ask, COLUMNS gives the width where it is a count above 0.
    for (columns, width) in [("20", 20), ("0", 80), ("-5", 80), ("wide", 80)] {
      let sized = try await run(Self.jpeg, "ascii", environment: ["COLUMNS": columns])
      let lines = sized.stdout.split(separator: "\n").prefix { !$0.hasPrefix("Hound") }
      #expect(!lines.isEmpty && lines.allSatisfy { $0.count == width }, "COLUMNS=\(columns): \(sized.stdout)")
    }
  }

  @Test func terminalProtocolsFrameThePictureAsTheirTerminalsExpect() async throws {
    // kitty: decoded RGB (f=24) in base64 chunks, shown over 80 cells, quiet (q=2).
    let kitty = try await run(Self.jpeg, "kitty")
    #expect(kitty.status == 0, "\(kitty.stderr)")
    #expect(kitty.stdout.hasPrefix("\u{1B}_Ga=T,f=24,s="))
    #expect(kitty.stdout.contains(",c=80,q=2,m=1;"))
    #expect(kitty.stdout.contains("m=0;"))
    // iTerm2: the JPEG's own bytes, 80 cells wide, downloaded once (not also for decoding).
    let (iterm, itermPaths) = try await runRecording(Self.jpeg, "iterm")
    #expect(iterm.status == 0, "\(iterm.stderr)")
    #expect(itermPaths.filter { $0.hasPrefix("/breeds/") }.count == 1, "\(itermPaths)")
    #expect(
      iterm.stdout.hasPrefix(
        "\u{1B}]1337;File=inline=1;size=\(Self.jpeg.count);width=80;preserveAspectRatio=1:"
          + Data(Self.jpeg.prefix(30)).base64EncodedString()))
    // sixel: pixels at 10 per cell, so the 500-pixel picture is drawn 500 wide (not enlarged).
    let sixel = try await run(Self.jpeg, "sixel")
    #expect(sixel.status == 0, "\(sixel.stderr)")
    #expect(sixel.stdout.hasPrefix("\u{1B}P0;1;0q\"1;1;500;375#"))
    #expect(sixel.stdout.contains("\u{1B}\\\nHound\nPicture: http://127.0.0.1:"))
  }

  /// A PNG (whatever its name says) is drawn like a JPEG: two pixels, red and blue, fill
  /// the left and right halves of the picture (256 colours: 196 is red, 21 blue).
  @Test func aPNGIsDrawnLikeAJPEG() async throws {
    let png = PNGWriter.png(width: 2, height: 1, rows: [[0, 255, 0, 0, 0, 0, 255]])
    let drawn = try await run(png, "blocks")
    #expect(drawn.status == 0, "\(drawn.stderr)")
    let line = drawn.stdout.split(separator: "\n").first ?? ""
    #expect(
      line
        == "\u{1B}[38;5;196;48;5;196m\(String(repeating: "▀", count: 40))\u{1B}[38;5;21;48;5;21m\(String(repeating: "▀", count: 40))\u{1B}[39;49m"
    )
  }

  @Test func aDamagedPNGAnAVIFOrATruncatedPictureIsAClearError() async throws {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)
    let damaged = try await run(png, "blocks")
    #expect(damaged.status == 1)
    #expect(damaged.stdout.hasPrefix("Hound\n"))
    #expect(damaged.stderr == "error: The picture file is damaged.\n")
    let avif = try await run(Array("\u{0}\u{0}\u{0}\u{1C}ftypavif\u{0}\u{0}\u{0}\u{0}".utf8), "blocks")
    #expect(avif.status == 1)
    #expect(avif.stderr == "error: The picture is an AVIF, an unsupported image format.\n")
    let truncated = try await run(Array(Self.jpeg.prefix(Self.jpeg.count / 3)), "ascii")
    #expect(truncated.status == 1)
    #expect(truncated.stderr == "error: The picture file is incomplete.\n")
    // iTerm2 is sent the file's own bytes: what is no image at all is not sent.
    let page = try await run(Array("<html>Not found</html>".utf8), "iterm")
    #expect(page.status == 1)
    #expect(!page.stdout.contains("1337;File"))
    #expect(page.stderr == "error: The picture is in an unsupported image format.\n")
    // Nor is what could not be downloaded.
    let missing = try await runRecording(Array("Not Found".utf8), "iterm", status: 404).run
    #expect(missing.status == 1)
    #expect(!missing.stdout.contains("1337;File"))
    #expect(
      missing.stderr == "error: Couldn't download the picture. The server reported an error (HTTP 404).\n")
  }

  @Test func twoHundredFiftySixColoursAreAskedForByName() async throws {
    let indexed = try await run(Self.jpeg, "256")
    #expect(indexed.status == 0, "\(indexed.stderr)")
    #expect(indexed.stdout.contains("▀\u{1B}[") && indexed.stdout.contains("\u{1B}[38;5;"))
    #expect(!indexed.stdout.contains("\u{1B}[38;2;"))
    // blocks: 24-bit colour where COLORTERM says the terminal has it (either spelling), else 256.
    for (colorterm, truecolor) in [("truecolor", true), ("24bit", true), ("", false)] {
      let blocks = try await run(Self.jpeg, "blocks", environment: ["COLORTERM": colorterm])
      #expect(
        blocks.status == 0 && blocks.stdout.contains("\u{1B}[38;5;") != truecolor, "COLORTERM=\(colorterm)")
      #expect(blocks.stdout.contains("\u{1B}[38;2;") == truecolor, "COLORTERM=\(colorterm)")
    }
  }

  @Test func withoutAPictureRequestNothingIsDownloaded() async throws {
    let (plain, paths) = try await runRecording(Self.jpeg, "none")
    #expect(plain.status == 0)
    #expect(plain.stdout.hasPrefix("Hound\nPicture: http://127.0.0.1:"))
    #expect(plain.stdout.hasSuffix("/breeds/hound/dog.jpg\nSub-breeds:\n  Afghan\n"))
    #expect(!paths.contains { $0.hasPrefix("/breeds/") })
    let (_, withPicture) = try await runRecording(Self.jpeg, "ascii")
    #expect(withPicture.contains("/breeds/hound/dog.jpg"))
  }
}

final class PortHolder: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  var port: Int {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}
