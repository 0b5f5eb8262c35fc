import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

/// Animated GIFs on the Breed screen of the full-screen app.
extension InteractiveTests {
  /// Three frames, looping for ever: red for 400 ms, then green over the left half and
  /// blue over the right for 100 ms each (``AnimatedGIF/threeFrames(loop:delay:)``'s
  /// pictures, the first shown longest so that a screen looked at now and then sees it).
  static let breedGIF: [UInt8] = {
    var gif = GIFWriter(width: 8, height: 6, colors: AnimatedGIF.colors)
    gif.loop(0)
    gif.frame([UInt8](repeating: 0, count: 48), delay: 40)
    gif.frame([UInt8](repeating: 1, count: 24), width: 4, height: 6, delay: 10)
    gif.frame([UInt8](repeating: 2, count: 24), left: 4, top: 0, width: 4, height: 6, delay: 10)
    return gif.file
  }()

  /// A 24-bit colour as an SGR writes it, foreground or background: `2;0;200;0`.
  static func sgr(_ color: [UInt8]) -> String { "2;" + color.map(String.init).joined(separator: ";") + "m" }

  /// The app on a server whose pictures are `picture`, recording to `log`, in 24-bit colour.
  func browsing(_ picture: [UInt8], log: String, _ extra: [String] = []) throws -> (
    app: PseudoTerminalProcess, server: TestHTTPServer
  ) {
    let server = try pictureServer(picture)
    let app = try PseudoTerminalProcess(
      executable: executable,
      arguments: ["--base-url", server.baseURL.absoluteString + "/api", "--record", log] + extra,
      environment: cleanEnvironment(["TERM": "xterm-256color", "COLORTERM": "truecolor", "ESCDELAY": "20"]))
    return (app, server)
  }

  func scratchLog(_ name: String) throws -> String {
    let folder = ScratchFolder.path(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("session.jsonl").path
  }

  /// The Breed screen plays an animated GIF: its first frame, then the others, drawn in
  /// place. The session recorded replays to the states it recorded, with the GIF in the log
  /// once and each frame shown a short line.
  @Test func theBreedScreenPlaysAnAnimatedGIF() async throws {
    let log = try scratchLog("breed-animation")
    let (app, server) = try browsing(Self.breedGIF, log: log)
    defer { server.stop() }
    func output() -> String { String(decoding: app.allOutput, as: UTF8.self) }
    await app.expectScreen { $0.text.contains("Hound") }
    app.send("\r")
    let (red, green, blue) = (
      Self.sgr(AnimatedGIF.colors[0]), Self.sgr(AnimatedGIF.colors[1]), Self.sgr(AnimatedGIF.colors[2])
    )
    // The first frame, then a later one: green and blue where red was.
    #expect(
      await eventually { output().contains(green) && output().contains(blue) }, "\(output().suffix(500))")
    let text = output()
    let firstRed = try #require(text.range(of: red)).lowerBound
    #expect(firstRed < (text.range(of: green)?.lowerBound ?? text.startIndex))
    // And round again: the screen shows each frame in turn.
    await app.expectScreen { screen in screen.cells.contains { $0.style.background == .rgb(0, 200, 0) } }
    await app.expectScreen { screen in
      !screen.cells.contains { $0.style.background == .rgb(0, 200, 0) }
        && screen.cells.contains { $0.style.background == .rgb(255, 0, 0) }
    }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)

    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix(#"{"blob""#) }.count == 1, "the GIF, once")
    #expect(lines.filter { $0.contains("animationDecoded") }.count == 1)
    let frames = lines.filter { $0.contains("frameDelayElapsed") }
    #expect(frames.count >= 2 && frames.allSatisfy { $0.count < 200 })
    let check = try await runCLI(["replay", "--check", log])
    #expect(check.status == 0, "\(check.stderr)")
  }

  /// `--loops 0`: the first frame alone, and its other frames are not even decoded. (Another
  /// picture is fetched and shown before the app quits: by then the first picture's frames
  /// would have been decoded, and shown, long before.)
  @Test func loopsZeroShowsTheFirstFrameAloneOnTheBreedScreen() async throws {
    let log = try scratchLog("breed-animation-still")
    var gif = GIFWriter(width: 8, height: 6, colors: AnimatedGIF.colors)
    gif.loop(0)
    gif.frame([UInt8](repeating: 0, count: 48), delay: 2)
    gif.frame([UInt8](repeating: 1, count: 48), delay: 2)
    let (app, server) = try browsing(gif.file, log: log, ["--loops", "0"])
    defer { server.stop() }
    // The log is written as the app goes.
    func recorded() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
    await app.expectScreen { $0.text.contains("Hound") }
    app.send("\r")
    await app.expectScreen { screen in screen.cells.contains { $0.style.background == .rgb(255, 0, 0) } }
    app.send("n")
    #expect(await eventually { recorded().components(separatedBy: "pictureResponse").count == 3 })
    await app.expectScreen { screen in
      !screen.text.contains("Fetching") && screen.cells.contains { $0.style.background == .rgb(255, 0, 0) }
    }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    #expect(!String(decoding: app.allOutput, as: UTF8.self).contains(Self.sgr(AnimatedGIF.colors[1])))
    let recorded = recorded()
    #expect(!recorded.contains("animationDecoded") && !recorded.contains("frameDelayElapsed"))
  }

  /// Ctrl-Z stops the app with its animation (a stopped process draws nothing), and `fg`
  /// draws the screen again and plays on.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
  func ctrlZStopsTheAnimationAndFgPlaysOn() async throws {
    let server = try pictureServer(Self.breedGIF)
    defer { server.stop() }
    let shell = try PseudoTerminalProcess(
      executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"],
      environment: cleanEnvironment([
        "TERM": "xterm-256color", "COLORTERM": "truecolor", "ESCDELAY": "20", "PS1": "$ ",
      ]))
    func output() -> String { String(decoding: shell.allOutput, as: UTF8.self) }
    let green = Self.sgr(AnimatedGIF.colors[1])
    await shell.expectScreen { $0.text.contains("$") }
    shell.send("'\(executable)' --base-url \(server.baseURL.absoluteString)/api\r")
    await shell.expectScreen { $0.text.contains("Hound") }
    shell.send("\r")
    #expect(await eventually { output().contains(green) })
    shell.send("\u{1A}")
    await shell.expectScreen { $0.text.contains("Stopped") && !$0.alternateScreen }
    let stopped = output().count
    shell.send("fg; exit\r")
    await shell.expectScreen { $0.alternateScreen && $0.text.contains("Hound") }
    // Played on: after `fg`, more than the one frame the screen is painted again with
    // (no frame has both red and blue).
    let (red, blue) = (Self.sgr(AnimatedGIF.colors[0]), Self.sgr(AnimatedGIF.colors[2]))
    #expect(
      await eventually {
        let resumed = output().dropFirst(stopped)
        return resumed.contains(red) && resumed.contains(blue)
      })
    shell.send("\u{3}")
    #expect(await shell.waitForExit() == 0)
  }
}
