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
    await app.expectScreen {
      $0.text.filter { $0 != " " }.contains("terminal)") && $0.text.contains("Esc close")
    }
    app.send("\u{1b}")
    await app.expectScreen { !$0.text.contains("Keys on the") && $0.text.contains("Affenpinscher") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}

extension InteractiveTests {
  /// SGR mouse reports as a terminal sends them: a click highlights a row, a second opens
  /// it, the wheel moves, a click on a tab shows it; `--no-mouse` never asks for them.
  @Test func theMouseHighlightsOpensScrollsAndSwitchesTabs() async throws {
    let app = try launch(["--picture", "none"])
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    func click(on text: String) {
      guard let row = app.currentScreen.lines.firstIndex(where: { $0.contains(text) }) else {
        Issue.record("\(text) is not on screen:\n\(app.currentScreen.text)")
        return
      }
      app.send("\u{1b}[<0;6;\(row + 1)M\u{1b}[<0;6;\(row + 1)m")
    }
    click(on: "Akita")
    await app.expectScreen { $0.lines.contains { $0.hasPrefix("▶ Akita") } }
    // The wheel, down: three rows, each drawn. The click waits for the third: one on a row
    // highlighted on the way would highlight it again, not open it.
    let lines = app.currentScreen.lines
    let akita = try #require(lines.firstIndex { $0.hasPrefix("▶ Akita") })
    let third = try #require(lines.indices.contains(akita + 3) ? lines[akita + 3] : nil)
      .trimmingCharacters(in: CharacterSet(charactersIn: " ┃"))
    app.send("\u{1b}[<65;6;6M")
    await app.expectScreen { $0.lines.contains { $0.hasPrefix("▶ \(third)") } }
    click(on: "▶ ")
    await app.expectScreen { $0.text.contains("Esc back") }
    app.send("\u{1b}")
    await app.expectScreen { $0.text.contains("Tab favourites") }
    app.send("\u{1b}[<0;13;1M")  // the Favourites tab's label
    await app.expectScreen { $0.text.contains("No favourites yet") }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    #expect(String(decoding: app.allOutput, as: UTF8.self).contains("\u{1b}[?1000h"))

    let keyboardOnly = try launch(["--picture", "none", "--no-mouse"])
    await keyboardOnly.expectScreen { $0.text.contains("Affenpinscher") }
    keyboardOnly.send("\u{3}")
    #expect(await keyboardOnly.waitForExit() == 0)
    #expect(!String(decoding: keyboardOnly.allOutput, as: UTF8.self).contains("\u{1b}[?1000h"))
  }
}
