/// A modal box drawn over a frame: a title, a message, and a row of buttons, one of them
/// focused. What an alert or a confirmation dialog looks like in a terminal.
public struct ModalBox: Equatable, Sendable {
  /// The title, in bold.
  public var title: String
  /// The text under it, wrapped to the box.
  public var message: String?
  /// The buttons' labels, in order.
  public var buttons: [String]
  /// The focused button: the one Enter chooses.
  public var focused: Int

  /// Creates a box.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The text under it.
  ///   - buttons: The buttons' labels.
  ///   - focused: Which one Enter chooses.
  public init(title: String, message: String?, buttons: [String], focused: Int) {
    self.title = title
    self.message = message
    self.buttons = buttons
    self.focused = focused
  }

  /// Draws the box in the middle of `frame`, over what is there (a terminal picture under
  /// it is taken away). The focused button is drawn `> Label <` in reverse video, the others
  /// `  Label  `, so focus shows without colour too; in ASCII the border is `+-|`.
  ///
  /// - Parameters:
  ///   - frame: The screen to draw on.
  ///   - unicode: Whether box-drawing characters may be used.
  public func draw(on frame: inout Frame, unicode: Bool) {
    guard frame.width >= 8, frame.height >= 5 else { return }
    let buttonTexts = buttons.enumerated().map {
      $0.offset == focused ? "> \($0.element) <" : "  \($0.element)  "
    }
    let buttonsWidth = buttonTexts.map(DisplayWidth.of).reduce(0, +) + max(0, buttons.count - 1)
    let widest = max(DisplayWidth.of(title), buttonsWidth, min(DisplayWidth.of(message ?? ""), 52))
    let inner = min(frame.width - 4, widest)
    let messageLines = message.map { Self.wrap($0, width: inner) } ?? []
    // Border, title, (blank, message,) blank, buttons, border: as much message as fits.
    let fixedRows = 5
    let shownMessage = Array(
      messageLines.prefix(max(0, frame.height - fixedRows - (messageLines.isEmpty ? 0 : 1))))
    let height = fixedRows + (shownMessage.isEmpty ? 0 : shownMessage.count + 1)
    let width = inner + 4
    let left = (frame.width - width) / 2
    let top = max(0, (frame.height - height) / 2)
    frame.picture = nil
    for row in top..<min(frame.height, top + height) {
      frame.clearWideCharacters(at: [left, left + width], row: row)
    }
    frame.fill(x: left, y: top, width: width, height: height, style: .plain)
    let (horizontal, vertical, corners) =
      unicode ? ("─", "│", ["┌", "┐", "└", "┘"]) : ("-", "|", ["+", "+", "+", "+"])
    let rule = String(repeating: horizontal, count: width - 2)
    frame.write(corners[0] + rule + corners[1], x: left, y: top, style: .plain)
    frame.write(corners[2] + rule + corners[3], x: left, y: top + height - 1, style: .plain)
    for row in top + 1..<top + height - 1 {
      frame.write(vertical, x: left, y: row, style: .plain)
      frame.write(vertical, x: left + width - 1, y: row, style: .plain)
    }
    var row = top + 1
    frame.write(title, x: left + 2, y: row, style: .bold, limit: inner)
    row += 1
    if !shownMessage.isEmpty {
      row += 1
      for line in shownMessage {
        frame.write(line, x: left + 2, y: row, style: .plain, limit: inner)
        row += 1
      }
    }
    row += 1
    var column = left + 2 + max(0, (inner - buttonsWidth) / 2)
    for (index, text) in buttonTexts.enumerated() {
      let style = index == focused ? Style(bold: true, reverse: true) : .plain
      column += frame.write(text, x: column, y: row, style: style, limit: left + width - 2 - column) + 1
    }
  }

  /// `text` in lines of at most `width` columns, broken at spaces; a word longer than a
  /// line (a file's path) is broken across lines, not cut.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      var word = Substring(word)
      while DisplayWidth.of(word) > width, width > 0 {
        if !line.isEmpty {
          lines.append(line)
          line = ""
        }
        var head = ""
        while let next = word.first, DisplayWidth.of(head + String(next)) <= width {
          head.append(next)
          word = word.dropFirst()
        }
        // (A character wider than the line goes on one of its own.)
        if head.isEmpty, let next = word.first {
          head = String(next)
          word = word.dropFirst()
        }
        lines.append(head)
      }
      guard !word.isEmpty else { continue }
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if DisplayWidth.of(candidate) <= width || line.isEmpty {
        line = candidate
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}

extension Frame {
  /// Blanks the wide characters that the columns `edges` would cut in two on `row`, so
  /// that drawing from or up to those columns leaves no half character behind.
  mutating func clearWideCharacters(at edges: [Int], row: Int) {
    for edge in edges where edge > 0 && edge < width {
      // A continuation cell at the edge: its character starts left of it.
      var start = edge
      while start > 0, self[start, row].width == 0 { start -= 1 }
      guard start < edge else { continue }
      for column in start..<min(width, start + Int(self[start, row].width)) { self[column, row] = .blank }
    }
  }
}
