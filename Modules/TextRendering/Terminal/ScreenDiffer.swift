/// Turns the previous frame and the next one into the bytes that update the terminal.
///
/// Only changed cells are written, with cursor moves and SGR changes kept to a minimum:
/// gaps of up to three unchanged cells are rewritten rather than jumped (a jump costs
/// more bytes), SGR is tracked so only differences are sent, and a wide character is
/// always written whole. A frame is wrapped in synchronized-output mode (`CSI ?2026h` …
/// `l`) so it appears at once, pictures drawn over it included. The mode is sent without
/// asking the terminal first: the mode was designed so that a terminal without it ignores
/// it, so asking would cost a round trip and gain nothing. The caller makes one `write`
/// of the result.
public enum ScreenDiffer {
  /// The bytes that turn `previous` into `next` on screen; a full repaint when
  /// `previous` is `nil` or of another size.
  ///
  /// - Parameters:
  ///   - previous: What the terminal shows now, if known.
  ///   - next: What it should show.
  ///   - colorMode: Colours are mapped to what the terminal supports.
  ///   - overlay: What to draw over the frame in the same update (a picture the terminal
  ///     places itself); it must leave the cursor and the style as it found them.
  public static func update(
    from previous: Frame?, to next: Frame, colorMode: ColorMode, overlay: [UInt8] = []
  ) -> [UInt8] {
    var writer = Writer(colorMode: colorMode)
    writer.bytes += Array((ControlSequence.beginSynchronizedUpdate + ControlSequence.hideCursor).utf8)
    let full = previous == nil || previous!.width != next.width || previous!.height != next.height
    if full {
      // Every update ends in the plain style, so only a full repaint (after anything else
      // may have written) needs the reset.
      writer.bytes += Array(
        (ControlSequence.resetStyle + ControlSequence.autowrapOff + ControlSequence.home
          + ControlSequence.clearScreen).utf8)
      writer.cursor = Position(x: 0, y: 0)
    }
    for y in 0..<next.height {
      // From `blankFrom` to the end of the row the new frame is empty: one `CSI K` clears
      // whatever was there, cheaper than writing spaces.
      var blankFrom = next.width
      while blankFrom > 0, next[blankFrom - 1, y] == .blank { blankFrom -= 1 }
      var x = 0
      while x < blankFrom {
        guard full || differs(previous!, next, x, y) else {
          x += 1
          continue
        }
        // A run of changed cells, bridging short gaps of unchanged ones.
        var start = x
        // A changed second half (over a previous frame whose wide character was cut) is
        // written with its first half, whole.
        while next[start, y].width == 0, start > 0 { start -= 1 }
        // Just below the cursor, near the left edge: `\r\n` plus rewriting the few cells
        // before `start` is cheaper than a cursor jump.
        if !full, start <= 3, writer.cursor.y == y - 1, writer.cursor.x >= 0,
          (0..<start).allSatisfy({ next[$0, y].width == 1 })
        {
          start = 0
        }
        var end = x + 1
        var gap = 0
        var probe = end
        while probe < blankFrom {
          if full || differs(previous!, next, probe, y) {
            end = probe + 1
            gap = 0
          } else {
            gap += 1
            if gap > 3 { break }
          }
          probe += 1
        }
        for column in start..<end {
          let cell = next[column, y]
          guard cell.width > 0 else { continue }
          // Only a frame with a cut wide character (a cell written over one half) needs a
          // move inside a run: the terminal would otherwise put what follows a column late.
          writer.move(to: Position(x: column, y: y))
          writer.setStyle(cell.style)
          if DisplayWidth.isAgreed(cell.character) {
            writer.bytes.append(contentsOf: cell.character.utf8)
            writer.cursor.x += Int(cell.width)
          } else {
            // Terminals draw this one at different widths (tmux 3.3 gives `❤️` one column):
            // its columns are blanked first, so a narrower drawing leaves nothing behind,
            // and what follows is placed by an absolute move.
            writer.bytes += Array(repeating: UInt8(ascii: " "), count: Int(cell.width))
            writer.cursor.x += Int(cell.width)
            writer.move(to: Position(x: column, y: y))
            writer.bytes.append(contentsOf: cell.character.utf8)
            writer.cursor = Position(x: -1, y: -1)
          }
        }
        x = end
      }
      if !full, blankFrom < next.width,
        (blankFrom..<next.width).contains(where: { differs(previous!, next, $0, y) })
      {
        writer.move(to: Position(x: blankFrom, y: y))
        // Erasing fills with the current background; bold or dim do not show on blanks.
        var eraseStyle = writer.style
        eraseStyle.background = nil
        eraseStyle.reverse = false
        writer.setStyle(eraseStyle)
        writer.bytes += Array(ControlSequence.clearToEndOfLine.utf8)
      }
    }
    writer.setStyle(.plain)
    writer.bytes += overlay
    if let cursor = next.cursor {
      writer.move(to: cursor)
      writer.bytes += Array(ControlSequence.showCursor.utf8)
    }
    writer.bytes += Array(ControlSequence.endSynchronizedUpdate.utf8)
    return writer.bytes
  }

  /// `frame` as lines of text with its styles, each ended by a newline and the plain
  /// style, trailing blanks left out: a frame printed where the output goes on (a
  /// terminal's scrollback, a file), not drawn at a place on the screen. Pictures the
  /// terminal places itself are not included.
  ///
  /// - Parameters:
  ///   - frame: The frame.
  ///   - colorMode: Colours are mapped to what the output takes.
  public static func lines(of frame: Frame, colorMode: ColorMode) -> [UInt8] {
    var writer = Writer(colorMode: colorMode)
    var rows = frame.lines
    while rows.last == "" { rows.removeLast() }
    for y in 0..<rows.count {
      var end = frame.width
      while end > 0, frame[end - 1, y] == .blank { end -= 1 }
      for x in 0..<end {
        let cell = frame[x, y]
        guard cell.width > 0 else { continue }
        writer.setStyle(cell.style)
        writer.bytes.append(contentsOf: cell.character.utf8)
      }
      writer.setStyle(.plain)
      writer.bytes.append(UInt8(ascii: "\n"))
    }
    return writer.bytes
  }

  private static func differs(_ previous: Frame, _ next: Frame, _ x: Int, _ y: Int) -> Bool {
    previous[x, y] != next[x, y]
  }

  struct Writer {
    let colorMode: ColorMode
    var bytes: [UInt8] = []
    var cursor = Position(x: -1, y: -1)
    var style = Style.plain

    init(colorMode: ColorMode) {
      self.colorMode = colorMode
      bytes.reserveCapacity(4096)
    }

    mutating func move(to position: Position) {
      guard position != cursor else { return }
      if position.x == 0, position.y == cursor.y + 1, cursor.x >= 0 {
        bytes += Array("\r\n".utf8)  // autowrap is off and this is never the last row
      } else if position.y == cursor.y, position.x > cursor.x {
        // Forward on the same row: `CSI n C` is shorter than any absolute move there.
        bytes += Array(ControlSequence.cursorForward(position.x - cursor.x).utf8)
      } else if position.x == 0 {
        bytes += Array(ControlSequence.cursorTo(row: position.y).utf8)
      } else {
        bytes += Array(ControlSequence.cursorTo(row: position.y, column: position.x).utf8)
      }
      cursor = position
    }

    /// Changes the style to `wanted` (as the colour mode draws it) with one SGR of the
    /// codes that differ, written straight into the bytes: a picture's frame sets two
    /// colours in most of its cells.
    mutating func setStyle(_ wanted: Style) {
      let target = wanted.adapted(to: colorMode)
      guard target != style else { return }
      bytes.append(contentsOf: Self.csi)
      var first = true
      func code(_ number: Int) {
        if !first { bytes.append(UInt8(ascii: ";")) }
        first = false
        appendDecimal(number)
      }
      if target.bold != style.bold || target.dim != style.dim {
        if (style.bold && !target.bold) || (style.dim && !target.dim) { code(22) }
        if target.bold { code(1) }
        if target.dim { code(2) }
      }
      if target.italic != style.italic { code(target.italic ? 3 : 23) }
      if target.underline != style.underline { code(target.underline ? 4 : 24) }
      if target.reverse != style.reverse { code(target.reverse ? 7 : 27) }
      if target.foreground != style.foreground { Self.color(target.foreground, background: false, code) }
      if target.background != style.background { Self.color(target.background, background: true, code) }
      bytes.append(UInt8(ascii: "m"))
      style = target
    }

    /// The codes that set `color` as the foreground, or the background.
    private static func color(_ color: Color?, background: Bool, _ code: (Int) -> Void) {
      switch color {
      case nil: code(background ? 49 : 39)
      case .ansi(let index):
        code((index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)) + Int(index % 8))
      case .indexed(let index):
        code(background ? 48 : 38)
        code(5)
        code(Int(index))
      case .rgb(let r, let g, let b):
        code(background ? 48 : 38)
        code(2)
        code(Int(r))
        code(Int(g))
        code(Int(b))
      }
    }

    /// `CSI`, as bytes.
    static let csi = Array(ControlSequence.csi.utf8)

    /// Appends `number` (0 or more) in decimal digits.
    mutating func appendDecimal(_ number: Int) {
      if number >= 10 { appendDecimal(number / 10) }
      bytes.append(UInt8(ascii: "0") + UInt8(number % 10))
    }
  }
}
