/// A modal box drawn over a frame: a title, a message, and a row of buttons, one of them
/// focused. What an alert or a confirmation dialog looks like in a terminal. Or, with
/// ``rows`` and no buttons, a two-column table that scrolls (the keys overlay).
public struct ModalBox: Equatable, Sendable {
  /// A row of a table: a name, and its text (wrapped beside it).
  public struct Row: Equatable, Sendable {
    /// The left column.
    public var name: String
    /// The right column.
    public var text: String

    /// Creates a row.
    public init(_ name: String, _ text: String) {
      self.name = name
      self.text = text
    }
  }

  /// The title, in bold.
  public var title: String
  /// The text under it, wrapped to the box.
  public var message: String?
  /// The buttons' labels, in order.
  public var buttons: [String]
  /// The focused button: the one Enter chooses.
  public var focused: Int
  /// A table under the message, if any.
  public var rows: [Row]
  /// The table's first line shown.
  public var scroll: Int

  /// Creates a box.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The text under it.
  ///   - buttons: The buttons' labels.
  ///   - focused: Which one Enter chooses.
  ///   - rows: A table under the message.
  ///   - scroll: The table's first line shown.
  public init(
    title: String, message: String?, buttons: [String], focused: Int, rows: [Row] = [], scroll: Int = 0
  ) {
    self.title = title
    self.message = message
    self.buttons = buttons
    self.focused = focused
    self.rows = rows
    self.scroll = scroll
  }

  /// The box with its text in ASCII (``Sanitizer/ascii(_:)``), for a screen that draws
  /// ASCII only.
  public var inASCII: ModalBox {
    ModalBox(
      title: Sanitizer.ascii(title), message: message.map(Sanitizer.ascii),
      buttons: buttons.map(Sanitizer.ascii),
      focused: focused, rows: rows.map { Row(Sanitizer.ascii($0.name), Sanitizer.ascii($0.text)) },
      scroll: scroll)
  }

  /// The table's lines at `inner` columns: each row's name in a column as wide as the
  /// widest (a third of the width at most), its text wrapped beside it.
  func tableLines(inner: Int) -> [String] {
    guard !rows.isEmpty else { return [] }
    let column = min(rows.map { DisplayWidth.of($0.name) }.max() ?? 0, max(4, inner / 3))
    let textWidth = max(8, inner - column - 2)
    return rows.flatMap { row -> [String] in
      let names = Self.wrap(row.name, width: column)
      let texts = Self.wrap(row.text, width: textWidth)
      return (0..<max(names.count, texts.count)).map { index in
        let name = index < names.count ? names[index] : ""
        let padded = name + String(repeating: " ", count: max(0, column - DisplayWidth.of(name)))
        return padded + "  " + (index < texts.count ? texts[index] : "")
      }
    }
  }

  /// Draws the box in the middle of `frame`, over what is there (a terminal picture under
  /// it is taken away). The focused button is drawn `> Label <` in reverse video, the others
  /// `  Label  `, so focus shows without colour too; in ASCII the border is `+-|`.
  ///
  /// - Parameters:
  ///   - frame: The screen to draw on.
  ///   - unicode: Whether box-drawing characters may be used.
  ///   - bottomRows: Rows at the bottom of the frame the box leaves alone (the key hints).
  public func draw(on frame: inout Frame, unicode: Bool, keeping bottomRows: Int = 0) {
    let frameHeight = frame.height - max(0, bottomRows)
    guard frame.width >= 8, frameHeight >= 5 else { return }
    let buttonTexts = buttons.enumerated().map {
      $0.offset == focused ? "> \($0.element) <" : "  \($0.element)  "
    }
    let buttonsWidth = buttonTexts.map(DisplayWidth.of).reduce(0, +) + max(0, buttons.count - 1)
    // A table takes the width it needs, up to 76 columns.
    let tableWidth =
      rows.isEmpty ? 0 : min(72, max(tableLines(inner: 200).map(DisplayWidth.of).max() ?? 0, 40))
    let widest = max(
      DisplayWidth.of(title), buttonsWidth, min(DisplayWidth.of(message ?? ""), 52), tableWidth)
    let inner = min(frame.width - 4, widest)
    let messageLines = message.map { Self.wrap($0, width: inner) } ?? []
    // Border, title, (blank, message,) (blank, table,) (blank, buttons,) border: as much
    // message as fits, and as much of the table as fits after it.
    let buttonRows = buttons.isEmpty ? 0 : 2
    let fixedRows = 3 + buttonRows
    let shownMessage = Array(
      messageLines.prefix(max(0, frameHeight - fixedRows - (messageLines.isEmpty ? 0 : 1))))
    let table = tableLines(inner: inner)
    let roomForTable = frameHeight - fixedRows - (shownMessage.isEmpty ? 0 : shownMessage.count + 1) - 1
    let tableShown = max(0, min(table.count, roomForTable))
    let first = max(0, min(scroll, table.count - tableShown))
    if !table.isEmpty {
      frame.listRows = tableShown
      frame.scrollLimit = table.count - tableShown
    }
    let height =
      fixedRows + (shownMessage.isEmpty ? 0 : shownMessage.count + 1) + (tableShown == 0 ? 0 : tableShown + 1)
    let width = inner + 4
    let left = (frame.width - width) / 2
    let top = max(0, (frameHeight - height) / 2)
    frame.picture = nil
    for row in top..<min(frameHeight, top + height) {
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
    // Where the table does not fit, the title says which lines show (with an en dash, or
    // a hyphen on a screen that draws ASCII only).
    let dash = unicode ? "–" : "-"
    let position =
      tableShown < table.count ? " (\(first + 1)\(dash)\(first + tableShown) of \(table.count))" : ""
    frame.write(title + position, x: left + 2, y: row, style: .bold, limit: inner)
    row += 1
    for lines in [shownMessage, Array(table[first..<first + tableShown])] where !lines.isEmpty {
      row += 1
      for line in lines {
        frame.write(line, x: left + 2, y: row, style: .plain, limit: inner)
        row += 1
      }
    }
    guard !buttons.isEmpty else { return }
    row += 1
    var column = left + 2 + max(0, (inner - buttonsWidth) / 2)
    frame.buttons = []
    for (index, text) in buttonTexts.enumerated() {
      let style = index == focused ? Style(bold: true, reverse: true) : .plain
      let written = frame.write(text, x: column, y: row, style: style, limit: left + width - 2 - column)
      frame.buttons.append(Frame.ButtonPlace(row: row, columns: column..<column + written, index: index))
      column += written + 1
    }
  }

  /// `text` in lines of at most `width` columns, broken at spaces; a word longer than a
  /// line (a file's path) is broken across lines, not cut, after a `/` or a `-` where one
  /// falls in the line's second half.
  public static func wrap(_ text: String, width: Int) -> [String] {
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
        // A path or a name breaks after a `/` or a `-` where one is in the second half.
        if !word.isEmpty, let cut = head.lastIndex(where: { $0 == "/" || $0 == "-" }),
          DisplayWidth.of(head[...cut]) * 2 >= width
        {
          word = head[head.index(after: cut)...] + word
          head = String(head[...cut])
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
