import Foundation
import PseudoTerminal
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// What another process saves shows in the running app within a second or two, on both
  /// tabs, without a key press.
  @Test func aFavouriteAddedElsewhereShowsWithoutAKey() async throws {
    let data = ScratchFolder.path("live")
    let environment = ["DOGBREEDS_DATA_DIR": data.path]
    let app = try launch(["--picture", "none"], environment: environment)
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("hound\u{6}\t")  // star Hound, then the Favourites tab
    await app.expectScreen { $0.line(0).contains("Favourites (1)") && $0.lines.contains("▶ Hound ★") }
    let added = try await runCLI(
      ["--api", "fake", "favourites", "add", "beagle"], environment: cleanEnvironment(environment))
    #expect(added.status == 0, "\(added.stderr)")
    await app.expectScreen(timeout: .seconds(5)) {
      $0.line(0).contains("Favourites (2)") && $0.lines.contains("  Hound ★") && $0.text.contains("Beagle ★")
    }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }

  /// A star the app could not save is never lost without a word: quitting names it on
  /// standard error and ends in failure.
  @Test func quittingWithAStarThatCouldNotBeSavedSaysSoAndFails() async throws {
    // A file where the data folder should be: no one can save there, root included.
    let blocker = ScratchFolder.path("blocked")
    try Data("x".utf8).write(to: blocker)
    let app = try launch(
      ["--picture", "none"], environment: ["DOGBREEDS_DATA_DIR": blocker.appendingPathComponent("data").path])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("boxer\u{6}")
    await app.expectScreen { $0.lines.contains("▶ Boxer ★") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 1)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(output.contains("error: Favourites not saved (starred Boxer)."), "\(output.suffix(400))")
    #expect(output.contains("Not a directory"), "\(output.suffix(400))")
  }
}
