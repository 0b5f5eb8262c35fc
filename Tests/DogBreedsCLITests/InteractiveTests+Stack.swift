import Foundation
import PseudoTerminal
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// A breed, then one of its sub-breeds, each a screen of its own with a header that says
  /// where the user is; Esc goes back one screen at a time, the breed's picture as it was,
  /// and lands on the list with the highlight where it was. The mouse opens the sub-breed
  /// as Enter does.
  @Test func aSubBreedIsAScreenOverItsBreedAndEscGoesBackOneAtATime() async throws {
    let app = try launch(["--picture", "none"])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("hound")
    await app.expectScreen { $0.lines.contains { $0.hasPrefix("▶ Hound (7)") } }
    app.send("\r")
    await app.expectScreen { $0.lines.first == "Hound" && $0.text.contains("fake_") }
    let address = try #require(app.currentScreen.lines.first { $0.contains("https://") })
      .split(separator: " ").first { $0.hasPrefix("https://") }
    app.send("\u{1b}[B\r")
    await app.expectScreen { $0.lines.first == "Hound › Afghan" && $0.text.contains("hound-afghan/fake_") }
    app.send("\u{1b}")
    await app.expectScreen { $0.lines.first == "Hound" && $0.lines.contains { $0.contains("▶ Afghan") } }
    #expect(
      app.currentScreen.text.contains(String(try #require(address))), "the breed's picture, not another")
    // The mouse: a click on the highlighted row opens it.
    let row = try #require(app.currentScreen.lines.firstIndex { $0.contains("▶ Afghan") })
    let column = try #require(app.currentScreen.lines[row].range(of: "Afghan")).lowerBound.utf16Offset(
      in: app.currentScreen.lines[row])
    app.send("\u{1b}[<0;\(column + 1);\(row + 1)M\u{1b}[<0;\(column + 1);\(row + 1)m")
    await app.expectScreen { $0.lines.first == "Hound › Afghan" }
    app.send("\u{1b}")
    await app.expectScreen { $0.lines.first == "Hound" }
    app.send("\u{1b}")
    await app.expectScreen {
      $0.lines.contains { $0.hasPrefix("▶ Hound (7)") } && $0.text.contains("🔍 hound")
    }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}
