import TestSupport
import Testing
import TextRendering

/// The one colour rule, one row per case: the choice, whether the stream is a terminal,
/// the environment, and the mode that follows. Terminfo entries come from the test's own
/// (`TERMINFO`, ``TerminfoFixtures``), never the machine's: `no-such-term…` names have
/// none there.
struct ColorPolicyTests {
  func mode(_ choice: ColorChoice, _ isTerminal: Bool, _ environment: [String: String]) -> ColorMode {
    ColorPolicy.mode(
      choice: choice, isTerminal: isTerminal,
      environment: environment.merging(["TERMINFO": TerminfoFixtures.folder]) { old, _ in old })
  }

  @Test(arguments: [
    (ColorChoice.never, true, ["TERM": "xterm-256color", "FORCE_COLOR": "1"], ColorMode.none),
    (.always, false, [:], .ansi16),
    (.always, false, ["TERM": "xterm-256color"], .ansi256),
    (.always, true, ["TERM": "xterm", "COLORTERM": "TrueColor"], .truecolor),
    (.always, true, ["COLORTERM": "24bit", "NO_COLOR": "1"], .truecolor),
    (.auto, true, ["TERM": "xterm-256color"], .ansi256),
    (.auto, true, ["TERM": "linux"], .ansi16),
    (.auto, false, ["TERM": "xterm-256color"], .none),
    (.auto, true, ["TERM": "dumb"], .none),
    (.auto, true, [:], .none),
    (.auto, true, ["TERM": "xterm-256color", "NO_COLOR": "1"], .none),
    (.auto, true, ["TERM": "xterm-256color", "NO_COLOR": ""], .ansi256),
    (.auto, false, ["TERM": "xterm-256color", "CLICOLOR_FORCE": "1"], .ansi256),
    (.auto, false, ["TERM": "xterm-256color", "FORCE_COLOR": "0"], .none),
    (.auto, false, ["FORCE_COLOR": "1", "NO_COLOR": "1"], .none),
    (.auto, false, ["CLICOLOR_FORCE": "1"], .ansi16),
    (.auto, true, ["TERM": "xterm", "COLORTERM": "truecolor"], .truecolor),
    (.auto, true, ["TERM": "xterm", "COLORTERM": "24bit"], .truecolor),
    // Forced, colour still has the depth the terminal names (`--color always | less -R`).
    (.always, false, ["NO_COLOR": "1"], .ansi16),
  ])
  func theModeFollowsTheChoiceTheStreamAndTheEnvironment(
    choice: ColorChoice, isTerminal: Bool, environment: [String: String], expected: ColorMode
  ) {
    #expect(mode(choice, isTerminal, environment) == expected)
  }

  /// Where the terminal has a terminfo entry, its `colors` decides whether there is colour
  /// and how much; where it has none, the name does. `NO_COLOR`, `--color` and `COLORTERM`
  /// keep their meaning over it.
  @Test(arguments: [
    // No colours in the entry: none, whatever the name says.
    (ColorChoice.auto, ["TERM": "vt100"], ColorMode.none),
    (.auto, ["TERM": "xterm-mono"], .none),
    (.auto, ["TERM": "xterm-cancelled"], .none),
    // COLORTERM gives the depth of colour there is, not colour where the entry has none.
    (.auto, ["TERM": "vt100", "COLORTERM": "truecolor"], .none),
    // Asked for, colour is there, at the depth there is.
    (.always, ["TERM": "vt100"], .ansi16),
    (.always, ["TERM": "vt100", "COLORTERM": "24bit"], .truecolor),
    (.auto, ["TERM": "vt100", "FORCE_COLOR": "1"], .ansi16),
    (.never, ["TERM": "xterm-direct"], .none),
    (.auto, ["TERM": "xterm-direct", "NO_COLOR": "1"], .none),
    // The entry's number of colours, in either format, whatever the name says.
    (.auto, ["TERM": "xterm"], .ansi16),
    (.auto, ["TERM": "linux"], .ansi16),
    (.auto, ["TERM": "xterm-256color"], .ansi256),
    (.auto, ["TERM": "extended-256"], .ansi256),
    (.auto, ["TERM": "xterm-direct"], .truecolor),
    (.auto, ["TERM": "xterm", "COLORTERM": "truecolor"], .truecolor),
    // No entry: the name.
    (.auto, ["TERM": "no-such-term-256color"], .ansi256),
    (.auto, ["TERM": "no-such-term"], .ansi16),
    (.auto, ["TERM": "../x/xterm-mono"], .ansi16),
  ])
  func theTerminalsOwnDescriptionDecidesItsColours(
    choice: ColorChoice, environment: [String: String], expected: ColorMode
  ) {
    #expect(mode(choice, true, environment) == expected, "\(environment)")
  }

  /// Colour turned off by the user, as opposed to left off on a pipe.
  @Test(arguments: [
    (ColorChoice.never, [String: String](), true), (.auto, ["NO_COLOR": "1"], true), (.auto, [:], false),
    (.always, ["NO_COLOR": "1"], false), (.auto, ["NO_COLOR": ""], false),
  ])
  func colourIsRefusedOnlyByTheUser(choice: ColorChoice, environment: [String: String], refused: Bool) {
    #expect(ColorPolicy.isRefused(choice: choice, environment: environment) == refused)
  }

  @Test(arguments: [
    ([String: String](), true), (["LANG": "C.UTF-8"], true), (["LANG": "en_US.utf8"], true),
    (["LANG": "C"], false), (["LC_ALL": "POSIX", "LANG": "C.UTF-8"], false),
    (["LC_ALL": "", "LC_CTYPE": "de_DE.UTF-8", "LANG": "C"], true),
    (["TERM": "linux", "LANG": "C.UTF-8"], false),
    (["LC_CTYPE": "de_DE.UTF-8", "LANG": "C"], true),
    (["LC_ALL": "", "LC_CTYPE": "C", "LANG": "en_US.UTF-8"], false),
    (["TERM": "xterm-256color", "LANG": "en_GB.UTF-8"], true),
  ])
  func unicodeNeedsAUTF8LocaleAndNotTheLinuxConsole(environment: [String: String], unicode: Bool) {
    #expect(ColorPolicy.supportsUnicode(environment: environment) == unicode)
  }

  /// A terminal's report of its graphic rendition after it was set to 24-bit colour: kept
  /// (in any of the ways terminals write it) or mapped to its palette.
  @Test(arguments: [
    ("0;48:2::1:2:3m", true), ("48;2;1;2;3m", true), ("0;48:2:0:1:2:3", true), ("48:2:1:2:3", true),
    ("0;48:5:16m", false), ("0;48;5;16", false), ("0m", false), ("48;2;1;2;4", false), ("", false),
  ])
  func aRenditionReportSaysWhetherTheTerminalDrawsDirectColor(report: String, direct: Bool) {
    #expect(ControlSequence.reportsDirectColor(report) == direct)
  }
}
