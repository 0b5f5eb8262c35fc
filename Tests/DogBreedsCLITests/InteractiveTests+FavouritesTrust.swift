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
      // The highlight stays on Hound, though Beagle now sorts before it.
      $0.line(0).contains("Favourites (2)") && $0.lines.contains("▶ Hound ★")
        && $0.lines.contains("  Beagle ★")
    }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}
