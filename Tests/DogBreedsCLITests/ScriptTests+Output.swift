import Foundation
import TestHTTPServer
import TestSupport
import Testing

extension ScriptTests {
  /// An answer naming things that are not breed names (a path, escape sequences) lists
  /// the rest, says how many were left out, and never puts them on the terminal.
  @Test func namesThatAreNotBreedNamesAreLeftOutAndCounted() async throws {
    let evil =
      #"{"message":{"hound":["afghan","a\u001b[2J","b\u009b31m\u0007"],"../../tmp/evil":[],"e\u001b]0;x\u0007":[]},"status":"success"}"#
    let server = try TestHTTPServer { _ in .json(evil) }
    defer { server.stop() }
    let list = try await runCLI(["list"] + api(server))
    #expect(list.status == 0)
    #expect(list.stdout == "Hound\n")
    #expect(
      list.stderr == "warning: 4 names in the server's answer are not breed names; they are left out.\n")
    let show = try await runCLI(["show", "hound", "--json"] + api(server))
    #expect(show.stdout.contains(#""subBreeds":["afghan"]"#), "\(show.stdout)")
    // Errors that list or suggest names list only the real ones.
    for name in ["hound/nope", "e", "a"] {
      let run = try await runCLI(["show", name] + api(server))
      #expect(run.status == 3, "\(name): \(run.stderr)")
      #expect(run.stderr.contains("error: "), "\(name)")
      #expect(!hasRawControls(run.stderr) && !run.stderr.contains("evil"), "\(name): \(run.stderr)")
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
    // A 5xx is the server's own failure, and said so.
    let error = status >= 500 ? "The server had an error" : "The server reported an error"
    #expect(list.stderr == "warning: \(error) (HTTP \(status)). Showing the built-in breed list.\n")
    let show = try await runCLI(["show", "hound"] + api(server))
    #expect(show.status == 1)
    #expect(show.stdout.hasPrefix("Hound\nSub-breeds:\n"))
    #expect(
      show.stderr.hasSuffix(
        "error: Couldn't load a picture of Hound. \(error) (HTTP \(status)).\n"),
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
      ["list", "--filter", "31m"],
    ] {
      let run = try await runCLI(arguments + api(server))
      #expect(!hasRawControls(run.stdout), "\(arguments): \(run.stdout.debugDescription)")
      #expect(!hasRawControls(run.stderr), "\(arguments): \(run.stderr.debugDescription)")
    }
    // The picture's address is shown, its escape percent-encoded; the names are left out.
    let show = try await runCLI(["show", "hound", "--picture", "none"] + api(server))
    #expect(show.stdout.contains("/a%1B%5B31m.jpg"), "\(show.stdout)")
    #expect(try await runCLI(["list"] + api(server)).stdout == "Hound\n")
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
    // Names of letters only (the number spelled in letters), as breed names are.
    let names = (0..<1000).map { number in
      let letters = String(number).map { Character(Unicode.Scalar(UInt8(97 + Int(String($0))!))) }
      return "\"breed\(String(repeating: "x", count: 10))\(String(letters))\":[]"
    }
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
