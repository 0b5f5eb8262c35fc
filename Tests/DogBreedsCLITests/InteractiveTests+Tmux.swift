import Foundation
import PseudoTerminal
import TestSupport
import Testing
import VirtualTerminal

extension InteractiveTests {
  /// A terminal whose attributes list sixel (4) gets `show`'s picture in sixel where the
  /// environment names no protocol: xterm run as a VT340, and tmux built with sixel,
  /// which draws the sixel a program in its pane writes. Others get half blocks.
  @Test func showDrawsSixelWhereTheTerminalsAttributesSaySo() async throws {
    func output(_ environment: [String: String], attributes: String?, _ extra: [String] = []) async throws
      -> String
    {
      let app = try launch(
        ["show", "pug"] + extra, environment: environment.merging(["COLORTERM": "truecolor"]) { $1 },
        attributes: attributes)
      #expect(await app.waitForExit() == 0)
      // What follows the questions, which end with the attributes' (`CSI c`).
      return String(decoding: app.allOutput, as: UTF8.self).components(separatedBy: "\u{1B}[c").last ?? ""
    }
    let sixel = "\u{1B}P0;1;0q\"1;1;"
    let xterm = ["TERM": "xterm-256color"]
    #expect(try await output(xterm, attributes: "63;1;2;4;6;9;15;22").hasPrefix(sixel))
    // tmux built with sixel lists it whatever the terminal outside draws: what it found
    // in that terminal decides.
    let tmux = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"]
    let outsideDrawsSixel = try Self.fakeTmux(answering: "256,RGB,sixel,title|off|")
    #expect(try await output(tmux.merging(outsideDrawsSixel) { $1 }, attributes: "1;2;4").hasPrefix(sixel))
    for (environment, attributes) in [
      (tmux.merging(try Self.fakeTmux(answering: "256,RGB,title|on|")) { $1 }, "1;2;4"),
      (tmux.merging(outsideDrawsSixel) { $1 }, "1;2"),
      (tmux, "1;2;4"),  // no tmux to ask
    ] {
      let blocks = try await output(environment, attributes: attributes)
      #expect(!blocks.contains("\u{1B}P") && blocks.contains("▀"), "\(environment) \(attributes)")
    }
    // Asked for by name, a mode is drawn as asked.
    let asked = try await output(xterm, attributes: "63;1;2;4", ["--picture", "blocks"])
    #expect(!asked.contains("\u{1B}P") && asked.contains("▀"))
  }

  /// Inside tmux under kitty (tmux's `TERM` or `TMUX`, and kitty's variables, which stay in
  /// tmux's environment), `show` passes its kitty picture through tmux to kitty as a
  /// virtual placement, and writes placeholder cells in the picture's shape for tmux to
  /// keep as text. A kitty too old for placeholders (its installation says so) gets colour
  /// cells instead.
  @Test func insideTmuxUnderKittyShowDrawsThePictureWithPlaceholders() async throws {
    let tmux = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0", "KITTY_WINDOW_ID": "1"]
    let app = try launch(["show", "pug"], environment: tmux)
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    // Passed through, every ESC inside doubled: the pixels go to kitty, placed nowhere.
    #expect(
      output.contains("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T,U=1,f=24,"), "\(output.prefix(200).debugDescription)")
    #expect(!output.contains("\u{1B}_Ga=T,f=24"))
    // On screen, rows of placeholders (each with its row's and column's marks) in the
    // picture's colour id, then the text under them.
    let screen = app.currentScreen
    let rows = (0..<screen.height).filter { screen.line($0).unicodeScalars.first == "\u{10EEEE}" }
    #expect(rows.count >= 3 && rows == Array(0..<rows.count), "\(screen.text)")
    let placeholders = screen.line(0).unicodeScalars.filter { $0 == "\u{10EEEE}" }.count
    // The fake picture is 4:3, in cells twice as tall as wide.
    let shape = Double(placeholders) / Double(rows.count)
    #expect(abs(shape - 8.0 / 3) < 0.3, "\(placeholders)×\(rows.count)")
    #expect(screen.line(rows.count) == "Pug")

    // kitty 0.26 draws no placeholders: colour cells, nothing passed through.
    let folder = ScratchFolder.path("old-kitty").appendingPathComponent("kitty")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "version: Version = Version(0, 26, 5)\n".write(
      to: folder.appendingPathComponent("constants.py"), atomically: true, encoding: .utf8)
    let old = try launch(
      ["show", "pug"],
      environment: tmux.merging(
        ["KITTY_INSTALLATION_DIR": folder.deletingLastPathComponent().path, "COLORTERM": "truecolor"]
      ) { $1 })
    #expect(await old.waitForExit() == 0)
    let cells = String(decoding: old.allOutput, as: UTF8.self)
    #expect(!cells.contains("\u{1B}Ptmux;") && !cells.contains("\u{10EEEE}"))
    #expect(old.currentScreen.text.contains("Pug"))
    #expect(cells.contains("\u{1B}[38;2;"), "colour cells")

    // Where tmux says it passes nothing on, the picture would never reach kitty: colour
    // cells.
    let closed = try launch(
      ["show", "pug"],
      environment: tmux.merging(try Self.fakeTmux(answering: "256,RGB|off|")) { $1 }.merging(
        ["COLORTERM": "truecolor"]) { $1 })
    #expect(await closed.waitForExit() == 0)
    let shut = String(decoding: closed.allOutput, as: UTF8.self)
    #expect(!shut.contains("\u{1B}Ptmux;") && shut.contains("▀"))
  }

  /// A `tmux` that answers `display-message` as a tmux would, first on `PATH`.
  static func fakeTmux(answering answer: String) throws -> [String: String] {
    let folder = ScratchFolder.path(
      "fake-tmux-" + String(answer.unicodeScalars.filter(\.properties.isAlphabetic)))
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("tmux")
    try "#!/bin/sh\nprintf '%s\\n' '\(answer)'\n".write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    return ["PATH": folder.path + ":/usr/bin:/bin"]
  }
}
