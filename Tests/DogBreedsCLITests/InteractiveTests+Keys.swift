import Foundation
import PseudoTerminal
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// `?` shows the keys of the screen it is pressed on, scrolls where they do not fit, and
  /// Esc closes it, at 80×24 and at 40×12.
  @Test(arguments: [(80, 24), (40, 12)])
  func questionMarkShowsTheKeys(columns: Int, rows: Int) async throws {
    let app = try launch(["--picture", "none"], rows: rows)
    if columns != 80 { app.resize(columns: columns, rows: rows) }
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("?")
    await app.expectScreen { $0.text.contains("Keys on the Breeds tab") && $0.text.contains("Esc close") }
    // End: the last keys come into view.
    app.send("\u{1b}[F")
    await app.expectScreen { $0.text.contains("paint the screen") && $0.text.contains("Esc close") }
    app.send("\u{1b}")
    await app.expectScreen { !$0.text.contains("Keys on the") && $0.text.contains("Affenpinscher") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}
