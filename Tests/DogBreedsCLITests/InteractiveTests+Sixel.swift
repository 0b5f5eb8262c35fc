import Foundation
import PseudoTerminal
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// In a terminal that draws sixel (mlterm, foot; or asked for with `--picture sixel`),
  /// the Breed screen leaves the picture's cells blank and the terminal draws the picture
  /// there. Sixel pixels go only when their cells are written over, so whenever the
  /// picture changes (another with `n`, none with Esc) or a cell over it does (the keys
  /// overlay opened, then closed), the whole screen is painted again, and the picture with
  /// it where there is one.
  @Test(arguments: [
    ([], ["TERM": "mlterm"]),
    (["--picture", "sixel"], ["TERM": "xterm-256color", "COLORTERM": "truecolor"]),
  ])
  func aSixelTerminalGetsThePictureInTheAppPaintedAgainWhenItChanges(
    arguments: [String], environment: [String: String]
  ) async throws {
    let app = try launch(arguments, environment: environment)
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    func output() -> String { String(decoding: app.allOutput, as: UTF8.self) }
    let sixel = "\u{1B}P0;1;0q"
    let repaint = "\u{1B}[2J"
    #expect(!output().contains(sixel))
    app.send("pug\r")
    await app.expectScreen { $0.line(0) == "Pug" && $0.text.contains("breeds/pug/fake_") }
    // Placed at the picture's first cell, the cursor saved around it, after a repaint.
    // (Waited for whole: it is large.)
    func wholeSixel(in text: String) -> Bool {
      guard let drawn = text.range(of: sixel, options: .backwards) else { return false }
      return text[drawn.upperBound...].contains("\u{1B}\\\u{1B}8")
    }
    #expect(await eventually { wholeSixel(in: output()) })
    var written = output()
    let drawn = try #require(written.range(of: sixel, options: .backwards))
    let (placed, repainted) = (
      written[..<drawn.lowerBound].suffix(16).contains("\u{1B}7\u{1B}[3;"),
      written[..<drawn.lowerBound].contains(repaint)
    )
    #expect(placed && repainted)
    // The picture's cells hold nothing of their own.
    #expect(!app.currentScreen.text.contains("▀") && app.currentScreen.line(2) == "")

    // The keys overlay over the picture, then gone: painted again, picture and all.
    var before = output().count
    app.send("?")
    await app.expectScreen { $0.text.contains("Keys") }
    app.send("\u{1B}")
    await app.expectScreen { !$0.text.contains("Keys") && $0.line(0) == "Pug" }
    #expect(await eventually { wholeSixel(in: String(output().dropFirst(before))) })
    written = String(output().dropFirst(before))
    let lastRepaint = try #require(written.range(of: repaint, options: .backwards))
    let drawnAgain = written[lastRepaint.upperBound...].contains(sixel)
    #expect(drawnAgain, "the picture drawn after the last repaint")

    // Back to the list: painted again, with no picture after it.
    before = output().count
    app.send("\u{1B}")
    await app.expectScreen { $0.line(1) == "🔍 pug" }
    #expect(await eventually { output().dropFirst(before).contains(repaint) })
    let after = String(output().dropFirst(before))
    let cleared = try #require(after.range(of: repaint, options: .backwards))
    #expect(!after[cleared.upperBound...].contains(sixel))
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
  }
}
