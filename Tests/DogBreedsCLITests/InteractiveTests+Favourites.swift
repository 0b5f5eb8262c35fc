import Foundation
import PseudoTerminal
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// Starring on both screens, the Favourites tab, opening from it and going back to it,
  /// un-starring there, the dialog before clearing, and the favourites still there when the
  /// app is started again.
  @Test func favouritesOnBothScreensTheTabAndAfterARestart() async throws {
    let data = ScratchFolder.path("tabs")
    let environment = ["DOGBREEDS_DATA_DIR": data.path]
    let app = try launch(["--picture", "none"], environment: environment)
    await app.expectScreen { $0.text.contains("Affenpinscher") && $0.line(0).contains("Favourites") }
    app.send("pug\u{6}")  // Ctrl-F stars the highlighted breed
    await app.expectScreen { $0.lines.contains("▶ Pug ★") && $0.line(0).contains("Favourites (1)") }
    app.send("\u{15}hound\r")  // Ctrl-U, then open Hound and star it with f
    await app.expectScreen { $0.line(0) == "Hound" }
    app.send("f")
    await app.expectScreen { $0.line(0) == "Hound ★" }
    app.send("\u{1B}\t")  // back to the list, then the Favourites tab
    await app.expectScreen {
      $0.line(0).contains("Favourites (2)") && $0.lines.contains("▶ Hound ★") && $0.lines.contains("  Pug ★")
    }
    app.send("\r")  // opens Hound; Escape goes back to the tab, not to the list
    await app.expectScreen { $0.line(0) == "Hound ★" }
    app.send("\u{1B}")
    await app.expectScreen { $0.lines.contains("▶ Hound ★") }
    app.send("f")  // un-stars it: its row goes, the highlight stays in place
    await app.expectScreen { $0.lines.contains("▶ Pug ★") && !$0.text.contains("Hound") }
    app.send("x")
    await app.expectScreen { $0.text.contains("Clear all favourites?") && $0.text.contains("> Keep <") }
    app.send("\r")  // Enter keeps them
    await app.expectScreen { !$0.text.contains("Clear all favourites?") && $0.lines.contains("▶ Pug ★") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    assertRestored(app)

    let again = try launch(["--picture", "none"], environment: environment)
    await again.expectScreen { $0.line(0).contains("Favourites (1)") }
    again.send("\t")
    await again.expectScreen { $0.lines.contains("▶ Pug ★") }
    again.send("x\u{1B}[D\r")  // the dialog; Left to Clear all; Enter clears them
    await again.expectScreen { $0.text.contains("No favourites yet.") }
    again.send("\u{3}")
    #expect(await again.waitForExit() == 0)
    let saved = try String(contentsOf: data.appendingPathComponent("favourites.json"), encoding: .utf8)
    #expect(!saved.contains("pug") && !saved.contains("hound"))
  }
}
