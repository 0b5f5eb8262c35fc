import CommandLineInterface
import Foundation
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Asks the terminal, before `show` prints a picture in cells, whether its background is
/// light (ASCII without colour then puts its ink on the dark) and, for symbols it chose, whether it
/// draws East Asian ambiguous characters (block elements and lines) two columns wide, as
/// terminals set up for Chinese, Japanese or Korean may; before it prints one in kitty's or sixel's
/// pixels, where the window does not say, how large a cell is (`CSI 16 t`); and, where
/// nothing in the environment says it draws 24-bit colour (`COLORTERM`), whether it does
/// (``ControlSequence/askDirectColor``), before `show` or the full-screen app chooses its
/// colours: stock xterm, with `TERM=xterm`, draws 24-bit colour and says so only when asked.
///
/// The full-screen app asks as it starts and takes the answer whenever it comes, with the
/// keys. `show` prints once and exits, so it waits for the answer, but never for long, and
/// never where asking could cost the user anything:
/// - It writes, in one go: what the background colour is (`OSC 11`, which terminals that
///   do not know it ignore); for the width, save the cursor, where is it, `─`, where is it
///   now, restore the cursor, clear to the end of the line (the `─` goes again at once);
///   and then the terminal's attributes (`CSI c`), which every terminal since the VT100
///   answers, after the requests before it, and whose features say whether it draws sixel. Reading stops at that last answer, so a terminal that knows
///   no cursor requests costs one round trip, not the timeout.
/// - It waits as long as the terminal needs, within ``Patience``: a terminal that has
///   started answering gets half a second to finish; one that has said nothing at all is
///   given up on sooner, as a terminal on this machine answers within milliseconds and
///   something that answers nothing (`script` with its input not a terminal, a serial
///   line, a test harness) would otherwise cost every `show` the whole half second. Over
///   SSH, where a round trip can take hundreds of milliseconds and an answer that comes
///   after `show` has gone would be typed into the shell, it waits the half second.
/// - Two columns between the positions (on one row) is wide; anything else, or no answer
///   in time, leaves the half blocks.
/// - It asks only its own terminal, read and written alike (output to another would have
///   that one answer to its own shell), only when `show` is in its foreground (a background
///   job would be stopped by touching it), and only when nothing typed is waiting: the
///   answers are read from the keyboard's queue, and whatever is read is gone (a command
///   pasted to run after this one, or the start of the next one typed before Enter, would
///   be lost). What waits there is counted once line editing is off, when a line not yet
///   ended counts too.
/// - Echo and line editing are off while it waits (or the answers would show), signals
///   stay on; a signal that ends the process puts the modes back first.
enum TerminalProbe {
  /// Whether the terminal draws ambiguous characters two columns wide: `nil` where it was
  /// not asked or did not say.
  static func ask(
    output: Int32, width: Bool = true, cellSize: Bool = false, directColor: Bool = false,
    patience: Patience = .local
  ) -> Answers? {
    guard isatty(output) == 1 else { return nil }
    let input = isatty(0) == 1 ? 0 : open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
    guard input >= 0 else { return nil }
    defer { if input != 0 { close(input) } }
    // Both must be this process's own terminal, with it in the foreground: the answers come
    // back on the terminal asked (output to another, `> /dev/pts/3`, would have that one
    // answer into its own keyboard queue, for its shell to read), and a background job
    // that changed the modes would be stopped.
    guard tcgetpgrp(input) == getpgrp(), tcgetpgrp(output) == getpgrp() else { return nil }
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else { return nil }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &quiet.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    let ending: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    CrashRestore.install(fd: output, inputFD: input, saved: saved, bytes: [], also: ending)
    defer {
      tcsetattr(input, TCSANOW, &saved)
      CrashRestore.disarm()
      for signal in ending { Glibc.signal(signal, SIG_DFL) }
    }
    guard tcsetattr(input, TCSANOW, &quiet) == 0 else { return nil }
    // Counted out of line editing, so that a line typed but not yet ended counts too.
    var waiting: Int32 = 0
    guard ioctl(input, UInt(FIONREAD), &waiting) == 0, waiting == 0 else { return nil }
    // The background colour first, then (where asked) a cell's size, the width probe and
    // whether it draws 24-bit colour; the attributes last.
    let widthProbe =
      width
      ? ControlSequence.saveCursor + ControlSequence.reportCursorPosition + "─"
        + ControlSequence.reportCursorPosition + ControlSequence.restoreCursor
        + ControlSequence.clearToEndOfLine
      : ""
    _ = Output.writeFully(
      Array(
        (ControlSequence.reportBackgroundColor + (cellSize ? ControlSequence.reportCellSize : "") + widthProbe
          + (directColor ? ControlSequence.askDirectColor : "") + ControlSequence.deviceAttributes).utf8),
      to: output)
    var answers = Answers()
    let asked = ContinuousClock.now
    // One byte at a time: nothing after the last answer is taken from the queue.
    var reader = InputReader(fd: input, escapeDelay: nil, oneByteAtATime: true)
    reading: while !answers.complete {
      let deadline = patience.deadline(asked: asked, heardAnything: answers.heardAnything)
      guard deadline > ContinuousClock.now else { break }
      switch reader.read(until: deadline) {
      case .events(let events):
        answers.heardAnything = true
        for event in events { answers.take(event) }
      case .timedOut, .ready, .ended: break reading
      }
    }
    return answers
  }

  /// How long to wait for the terminal's answers: `silence` while it has said nothing,
  /// `total` from the questions once it has begun to answer (``TerminalLink/patience``).
  struct Patience: Equatable {
    var silence: Duration
    var total: Duration

    /// A terminal on this machine: a tenth of a second for a first answer.
    static let local = Patience(silence: .milliseconds(100), total: .milliseconds(500))
    /// A terminal at the far end of a network link: half a second for any answer.
    static let remote = Patience(silence: .milliseconds(500), total: .milliseconds(500))

    /// When to stop waiting, for questions written at `asked`.
    func deadline(asked: ContinuousClock.Instant, heardAnything: Bool) -> ContinuousClock.Instant {
      asked + (heardAnything ? max(silence, total) : silence)
    }
  }

  /// The terminal's answers as the key decoder reads them: its background colour, cursor
  /// positions, then its attributes (which say whether it draws sixel), which end them.
  /// Anything else read (a key) is dropped.
  struct Answers {
    private(set) var positions: [(row: Int, column: Int)] = []
    private(set) var complete = false
    /// Whether any byte has been read.
    fileprivate(set) var heardAnything = false
    /// Whether its background is light, if it said.
    private(set) var lightBackground: Bool?
    /// A cell's size in pixels, if it said.
    private(set) var cellSize: TerminalPicture.CellSize?
    /// Whether it draws 24-bit colour, if it said (``ControlSequence/askDirectColor``).
    private(set) var directColor: Bool?
    /// Whether it draws sixel pictures, as its attributes say (tmux built with sixel says
    /// so too, and draws them in its pane).
    private(set) var drawsSixel = false

    /// Whether it draws ambiguous characters two columns wide, if it said: two columns
    /// between the positions, on one row.
    var drawsWide: Bool? {
      guard positions.count == 2, positions[0].row == positions[1].row else { return nil }
      return positions[1].column - positions[0].column == 2
    }

    /// Takes one decoded event: an answer, or anything else (a key), which is dropped.
    mutating func take(_ event: InputEvent) {
      switch event {
      case .reply(.cursorPosition(let row, let column)): positions.append((row, column))
      case .reply(.backgroundColor(let red, let green, let blue)):
        lightBackground = TerminalPicture.isLight(red: red, green: green, blue: blue)
      case .reply(.cellSize(let width, let height)):
        cellSize = TerminalPicture.CellSize(width: width, height: height)
      case .reply(.settingReport(let setting)):
        directColor = setting.map(ControlSequence.reportsDirectColor) ?? false
      case .reply(.terminalAttributes(let sixel)):
        drawsSixel = sixel ?? false
        complete = true
      default: break
      }
    }
  }
}
