import Foundation
import PseudoTerminal
import TestHTTPServer
import TestSupport
import Testing
import VirtualTerminal

#if canImport(Glibc)
  import Glibc
#endif

extension InteractiveTests {
  @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT] as [Int32])
  func signalsRestoreTheTerminal(signal: Int32) async throws {
    let code: Int32 = 128 + signal
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.signal(signal)
    #expect(await app.waitForExit() == code)
    assertRestored(app)
  }

  /// A terminal that goes away ends the app: by SIGHUP (129) or by the end of its input
  /// (0), whichever it notices first; and by the end of its input alone where it is not
  /// the app's controlling terminal (no SIGHUP comes then).
  @Test(arguments: [true, false])
  func closingTheTerminalEndsTheApp(controlling: Bool) async throws {
    let app = try PseudoTerminalProcess(
      executable: executable, arguments: ["--api", "fake"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20"]), controlling: controlling)
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.hangUp()
    let code = await app.waitForExit()
    #expect(controlling ? [0, 129].contains(code) : code == 0, "\(String(describing: code))")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
  func ctrlZStopsTheAppAndFgBringsItBackInRawMode() async throws {
    // A shell with job control, as a user has: Ctrl-Z must stop the app with the terminal
    // restored, and `fg` must bring it back reading keys one by one, not lines.
    let shell = try PseudoTerminalProcess(
      executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20", "PS1": "$ "]))
    await shell.expectScreen { $0.text.contains("$") }
    shell.send("'\(executable)' --api fake\r")
    await shell.expectScreen { $0.text.contains("Affenpinscher") }
    shell.send("\u{1A}")
    await shell.expectScreen { $0.text.contains("Stopped") && !$0.alternateScreen }
    shell.send("fg; exit\r")
    await shell.expectScreen { $0.alternateScreen && $0.text.contains("Affenpinscher") }
    shell.send("hou")
    await shell.expectScreen { $0.line(1) == "🔍 hou" }
    shell.send("\u{3}")
    // `fg; exit`: the shell exits with the app's status once the app has quit.
    #expect(await shell.waitForExit() == 0)
  }

  /// Ctrl-Z pressed before a slow terminal has said where the cursor is: the app waits for
  /// the answer before it gives the terminal back, or the shell would read it as typed
  /// (`^[[1;2R` on its prompt, and `1;2R` before the next command).
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
  func ctrlZBeforeTheTerminalAnswersWaitsForTheAnswer() async throws {
    let shell = try PseudoTerminalProcess(
      executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"],
      environment: cleanEnvironment(["TERM": "xterm-256color", "ESCDELAY": "20", "PS1": "$ "]),
      replyDelay: .milliseconds(150))
    await shell.expectScreen { $0.text.contains("$") }
    shell.send("'\(executable)' --api fake\r")
    await shell.expectScreen { $0.text.contains("Affenpinscher") }
    shell.send("\u{1A}")
    await shell.expectScreen { $0.text.contains("Stopped") && !$0.alternateScreen }
    try await Task.sleep(for: .milliseconds(300))
    #expect(!shell.currentScreen.text.contains("^["), "\(shell.currentScreen.text)")
    shell.send("fg; exit\r")
    await shell.expectScreen { $0.alternateScreen && $0.text.contains("Affenpinscher") }
    shell.send("\u{3}")
    #expect(await shell.waitForExit() == 0)
  }

  @Test func ctrlZInAProcessThatCannotBeStoppedLeavesTheScreenAlone() async throws {
    // Started directly, the app leads its own session and nothing can stop it (SIGTSTP is
    // discarded for an orphaned process group): Ctrl-Z must not hand the terminal back.
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.send("\u{1A}hou")
    await app.expectScreen { $0.line(1) == "🔍 hou" }
    app.send("\u{3}")
    #expect(await app.waitForExit() == 0)
    let output = String(decoding: app.allOutput, as: UTF8.self)
    #expect(
      output.components(separatedBy: "\u{1B}[?1049l").count == 2, "left the alternate screen once, at the end"
    )
    assertRestored(app)
  }

  @Test func aCrashRestoresTheTerminal() async throws {
    // SIGSEGV goes through the crash handler: restore, then die of the signal.
    let app = try launch()
    await app.expectScreen { $0.text.contains("Affenpinscher") }
    app.signal(SIGSEGV)
    #expect(await app.waitForExit() == 128 + SIGSEGV)
    assertRestored(app)
  }
}
