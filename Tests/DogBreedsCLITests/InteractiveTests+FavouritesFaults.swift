import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// The favourites' promise, tried against real folders and the built app: every change the
/// app showed as made is in the file, or the user was told that it is not (on screen, or on
/// standard error with a non-zero exit). Each trial ends by checking it.
extension InteractiveTests {
  /// The favourites saved in `folder` (`nil`: no file, or one that is not favourites).
  func savedFavourites(in folder: URL) -> Set<String>? {
    guard let data = try? Data(contentsOf: folder.appendingPathComponent("favourites.json")),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let favourites = object["favourites"] as? [String]
    else { return nil }
    return Set(favourites)
  }

  /// The invariant after the app ended with `status`: each of `shown` (API names the app
  /// showed starred) is saved, or standard error names it (by `title`) with a non-zero exit.
  func expectSavedOrTold(
    _ shown: [String: String], in folder: URL, app: PseudoTerminalProcess, status: Int32?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let saved = savedFavourites(in: folder) ?? []
    let output = String(decoding: app.allOutput, as: UTF8.self)
    for (name, title) in shown where !saved.contains(name) {
      let told =
        status != 0 && output.contains("error: Favourites not saved (starred") && output.contains(title)
      #expect(told, "\(name) neither saved nor named: \(output.suffix(300))", sourceLocation: sourceLocation)
    }
  }

  /// A folder no one can save in, root included: a file stands where it would be made.
  func unsavableFolder() throws -> (blocker: URL, folder: URL) {
    let blocker = ScratchFolder.path("blocked")
    try Data("x".utf8).write(to: blocker)
    return (blocker, blocker.appendingPathComponent("data"))
  }

  /// Quitting with a star that cannot be saved asks; a second Ctrl-C ends the app at once,
  /// naming the star on standard error, in failure.
  @Test func quittingWithAStarThatCannotBeSavedAsksAndASecondCtrlCEndsIt() async throws {
    let (_, folder) = try unsavableFolder()
    let app = try launch(["--picture", "none"], environment: ["DOGBREEDS_DATA_DIR": folder.path])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("boxer\u{6}")
    await app.expectScreen { $0.lines.contains("▶ Boxer ★") }
    app.send("\u{3}")
    await app.expectScreen {
      $0.text.contains("Quitting now loses starred Boxer") && $0.text.contains("Quit without saving")
    }
    app.send("\u{3}")
    let status = await app.waitForExit()
    #expect(status == 1)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(output.contains("error: Favourites not saved (starred Boxer)."), "\(output.suffix(400))")
    #expect(output.contains("Not a directory"), "\(output.suffix(400))")
    expectSavedOrTold(["boxer": "Boxer"], in: folder, app: app, status: status)
  }

  /// The question's answers: Esc goes back to the app; "Try again", once the folder can be
  /// saved in, saves and quits; "Quit without saving" quits naming what was not saved.
  @Test(arguments: [true, false])
  func theQuestionAtQuitIsAnswered(tryAgain: Bool) async throws {
    let (blocker, folder) = try unsavableFolder()
    let app = try launch(["--picture", "none"], environment: ["DOGBREEDS_DATA_DIR": folder.path])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("boxer\u{6}")
    await app.expectScreen { $0.lines.contains("▶ Boxer ★") }
    app.send("\u{3}")
    await app.expectScreen { $0.text.contains("Quit without saving") }
    app.send("\u{1b}")
    await app.expectScreen { !$0.text.contains("Quit without saving") && $0.text.contains("^C quit") }
    app.send("\u{4}")  // Ctrl-D asks the same
    await app.expectScreen { $0.text.contains("Quit without saving") }
    if tryAgain {
      try FileManager.default.removeItem(at: blocker)
      app.send("\r")
      let status = await app.waitForExit()
      #expect(status == 0)
      #expect(savedFavourites(in: folder) == ["boxer"])
    } else {
      app.send("\t\r")
      let status = await app.waitForExit()
      #expect(status == 1)
      #expect(
        String(decoding: app.allOutput, as: UTF8.self).contains("Favourites not saved (starred Boxer)."))
      expectSavedOrTold(["boxer": "Boxer"], in: folder, app: app, status: status)
    }
  }

  /// With another process holding the lock, a save waits saying so, and goes through once
  /// the lock is free; at quit, a held lock asks within a second or so, and a second Ctrl-C
  /// is obeyed at once.
  @Test func aHeldLockIsWaitedForSayingSoAndNeverFreezesQuitting() async throws {
    let folder = ScratchFolder.path("locked")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let lock = open(folder.appendingPathComponent("favourites.json.lock").path, O_RDWR | O_CREAT, 0o644)
    defer { close(lock) }
    #expect(flock(lock, LOCK_EX) == 0)
    let app = try launch(["--picture", "none"], environment: ["DOGBREEDS_DATA_DIR": folder.path])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("boxer\u{6}")
    await app.expectScreen { $0.text.contains("Waiting for another DogBreeds to save…") }
    flock(lock, LOCK_UN)
    await app.expectScreen { !$0.text.contains("Waiting for another") }
    #expect(await eventually { savedFavourites(in: folder) == ["boxer"] })
    #expect(flock(lock, LOCK_EX) == 0)
    // (From the un-star on: a slow app, a sanitized one, may show the wait before the
    // screen below is seen.)
    let before = app.allOutput.count
    app.send("\u{6}")  // un-star, then quit at once
    await app.expectScreen { $0.lines.contains("▶ Boxer") }
    app.send("\u{3}")
    await app.expectScreen(timeout: .seconds(3)) { $0.text.contains("Quit without saving") }
    // (The wait may come and go between two looks at the screen: it is looked for in what
    // the app wrote.)
    #expect(String(decoding: app.allOutput.dropFirst(before), as: UTF8.self).contains("Waiting for another"))
    let asked = ContinuousClock.now
    app.send("\u{3}")
    let status = await app.waitForExit()
    #expect(ContinuousClock.now - asked < .seconds(1).scaled)
    #expect(status == 1)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(output.contains("error: Favourites not saved (un-starred Boxer)."), "\(output.suffix(400))")
    #expect(output.contains("favourites.json.lock"), "\(output.suffix(400))")
    #expect(savedFavourites(in: folder) == ["boxer"])
  }

  /// A signal right after a star: the star gets one more attempt, and is saved, or named
  /// with a failing exit where it cannot be.
  @Test(arguments: [SIGTERM, SIGHUP] as [Int32], [true, false])
  func aSignalRightAfterAStarSavesItOrNamesIt(signal: Int32, savable: Bool) async throws {
    let folder = savable ? ScratchFolder.path("data") : try unsavableFolder().folder
    let app = try launch(["--picture", "none"], environment: ["DOGBREEDS_DATA_DIR": folder.path])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("boxer\u{6}")
    await app.expectScreen { $0.lines.contains("▶ Boxer ★") }
    app.signal(signal)
    let status = await app.waitForExit()
    #expect(status == (savable ? 128 + signal : 1))
    expectSavedOrTold(["boxer": "Boxer"], in: folder, app: app, status: status)
    if savable { #expect(savedFavourites(in: folder) == ["boxer"]) }
  }

  /// Two apps and a script, changing the same favourites at once: each app shows the
  /// others' changes within a few seconds, and the file ends with all of them.
  @Test func twoAppsAndAScriptAtOnceLoseNothing() async throws {
    let folder = ScratchFolder.path("shared")
    let environment = ["DOGBREEDS_DATA_DIR": folder.path]
    let first = try launch(["--picture", "none"], environment: environment)
    let second = try launch(["--picture", "none"], environment: environment)
    await first.expectScreen { $0.text.contains("Affenpinscher") }
    await second.expectScreen { $0.text.contains("Affenpinscher") }
    first.send("boxer\u{6}")
    second.send("pug\u{6}")
    let script = try await runCLI(
      ["--api", "fake", "favourites", "add", "beagle"], environment: cleanEnvironment(environment))
    #expect(script.status == 0, "\(script.stderr)")
    for app in [first, second] {
      app.send("\u{15}\t")  // clear the filter, then the Favourites tab
      await app.expectScreen(timeout: .seconds(8)) {
        $0.line(0).contains("Favourites (3)") && $0.text.contains("Beagle ★") && $0.text.contains("Boxer ★")
          && $0.text.contains("Pug ★")
      }
    }
    for app in [first, second] {
      app.send("\u{3}")
      #expect(await app.waitForExit() == 0)
    }
    #expect(savedFavourites(in: folder) == ["beagle", "boxer", "pug"])
  }

  /// A file damaged while the app runs: the next save keeps it aside, saves everything
  /// the app shows, and a notice names the kept file's full path.
  @Test func aFileDamagedWhileTheAppRunsCostsNothing() async throws {
    let folder = ScratchFolder.path("damaged")
    let environment = cleanEnvironment(["DOGBREEDS_DATA_DIR": folder.path])
    #expect(
      try await runCLI(["--api", "fake", "favourites", "add", "hound", "boxer"], environment: environment)
        .status
        == 0)
    let app = try launch(["--picture", "none"], environment: ["DOGBREEDS_DATA_DIR": folder.path])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    try Data(#"{"favourites":["hound","boxer""#.utf8).write(
      to: folder.appendingPathComponent("favourites.json"))
    app.send("pug\u{6}")
    // The notice wraps to the width: the whole path is on screen, in the box.
    func boxText(_ screen: VirtualTerminal) -> String { screen.text.filter { !" \n│|".contains($0) } }
    await app.expectScreen(timeout: .seconds(5)) { boxText($0).contains("favourites.json.damaged-") }
    let kept = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).first {
        $0.hasPrefix("favourites.json.damaged-")
      })
    #expect(
      boxText(app.currentScreen).contains(folder.appendingPathComponent(kept).path),
      "\(app.currentScreen.text)")
    #expect(savedFavourites(in: folder) == ["hound", "boxer", "pug"])
    app.send("\r\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  /// Thumbnails that failed while the image server was down come back with `r` once it
  /// is up again.
  @Test func failedThumbnailsComeBackWithR() async throws {
    let failing = PortHolder()
    failing.port = 1
    let server = try pictureServer(PictureScriptTests.jpeg, status: { failing.port == 1 ? 503 : 200 })
    defer { server.stop() }
    let folder = ScratchFolder.path("thumbnails")
    let environment = cleanEnvironment(["DOGBREEDS_DATA_DIR": folder.path])
    #expect(
      try await runCLI(["--api", "fake", "favourites", "add", "hound"], environment: environment).status == 0)
    let app = try PseudoTerminalProcess(
      executable: executable,
      arguments: ["--base-url", server.baseURL.absoluteString + "/api", "--picture", "blocks"],
      environment: environment.merging(["TERM": "xterm-256color", "COLORTERM": "truecolor"]) { $1 })
    await app.expectScreen { $0.text.contains("Hound") }
    app.send("\t")
    await app.expectScreen { $0.text.contains("No picture") && $0.text.contains("r retry") }
    failing.port = 0
    app.send("r")
    await app.expectScreen { !$0.text.contains("No picture") && $0.text.contains("▀") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}
