import Foundation
import PseudoTerminal
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// Stock xterm says `TERM=xterm` (16 colours) and sets no `COLORTERM`, yet draws 24-bit
  /// colour. Asked (a 24-bit colour set, then read back), a terminal that keeps the colour
  /// gets `show`'s picture and the full-screen app in 24-bit colour; one that maps it to
  /// its palette, or does not answer, gets what `TERM` says: the ASCII ramp in 16 colours.
  @Test(arguments: [true, false, nil] as [Bool?])
  func aTerminalAskedWhetherItDrawsDirectColorIsBelieved(direct: Bool?) async throws {
    let environment = cleanEnvironment(["TERM": "xterm", "ESCDELAY": "20"])
    let show = try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake", "show", "hound"], environment: environment,
      drawsDirectColor: direct)
    #expect(await show.waitForExit() == 0)
    let output = String(decoding: show.allOutput, as: UTF8.self)
    // What the picture is drawn with, after the question (which itself sets 48;2;1;2;3).
    let drawn = output.components(separatedBy: "\u{1B}[c").last ?? ""
    #expect(drawn.contains("8;2;") == (direct == true), "\(drawn.prefix(300))")
    #expect(show.currentScreen.text.contains("Hound"))
    // Asked once, in the one round trip `show` makes.
    #expect(output.components(separatedBy: "\u{1B}P$qm").count == 2)

    let app = try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake"], environment: environment, drawsDirectColor: direct
    )
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("hou\r")
    await app.expectScreen { $0.line(0) == "Hound" }
    // The picture in half blocks and 24-bit colour, or in the ASCII ramp.
    await app.expectScreen { screen in
      direct == true
        ? (2..<10).contains { row in
          (0..<screen.width).contains {
            if case .rgb? = screen[$0, row].style.background { true } else { false }
          }
        }
        : screen.showsColouredASCII(row: 3)
    }
    app.send("\u{3}")
    let status = await app.waitForExit()
    #expect(status == 0, "\(app.currentScreen.text)")
  }
}
