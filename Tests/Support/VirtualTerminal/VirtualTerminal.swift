import Foundation
import TextRendering

/// A minimal VT100/xterm screen for tests: it applies the bytes an app writes and keeps a
/// grid of cells, so tests can compare what a person would see.
///
/// Understood: printable UTF-8 (with display widths), CR, LF, BS; CSI `H`/`f` (move),
/// `A`/`B`/`C`/`D`, `G`, `J` (0/2), `K` (0/2), `m` (SGR: attributes, 16/256/24-bit
/// colours), DEC private modes `?25` (cursor), `?7` (autowrap), `?1049` (alternate
/// screen), `?2026`, `?2004`, `?1000`/`?1006`, `6n` (where the cursor is), `16t` (a
/// cell's size, where ``cellSize`` is set) and `c` (the terminal's attributes; all answered
/// in ``replies``), ESC `7`/`8` (save and restore the
/// cursor), DECRQSS for the graphic rendition (`DCS $ q m ST`, where
/// ``drawsDirectColor`` is set); other OSC and DCS/APC strings are skipped. Anything else is counted in
/// ``unknownSequences``.
public struct VirtualTerminal {
  public private(set) var width: Int
  public private(set) var height: Int
  public private(set) var cells: [Cell]
  public private(set) var cursor = Position(x: 0, y: 0)
  public private(set) var cursorVisible = true
  public private(set) var autowrap = true
  public private(set) var alternateScreen = false
  public private(set) var bracketedPaste = false
  public private(set) var unknownSequences: [String] = []
  /// What the terminal sends back to the program (answers to its requests), oldest first.
  public private(set) var replies: [String] = []
  /// The background colour it says it has when asked (`OSC 11 ; ?`), 8 bits a channel;
  /// `nil`: it does not answer that question, as many terminals do not.
  public var background: (red: Int, green: Int, blue: Int)?
  /// A cell's size in pixels it gives when asked (`CSI 16 t`); `nil`: it does not answer.
  public var cellSize: (width: Int, height: Int)?
  /// Whether it draws 24-bit colour, as it tells when asked what its graphic rendition is
  /// (DECRQSS, `DCS $ q m ST`): `true` reports a 24-bit background as set, `false` as the
  /// nearest of 256 colours; `nil`: it does not answer, as many terminals do not.
  public var drawsDirectColor: Bool?
  /// Its attributes, as it answers `CSI c` (`CSI ? attributes c`): a VT220 with ANSI
  /// colour, as xterm says, unless set (`63;1;2;4`: one that draws sixel).
  public var attributes = "62;22"
  /// How many columns the terminal draws a cluster in: ours, or another terminal's rule
  /// (say tmux 3.3, which draws an emoji with U+FE0F one column wide).
  public var columns: (Character) -> Int = { DisplayWidth.of($0) }
  private var savedMain: [Cell]?
  private var savedCursor = Position(x: 0, y: 0)
  private var style = Style.plain
  private var pending: [UInt8] = []

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
    self.cells = Array(repeating: .blank, count: width * height)
  }

  /// Columns as a terminal set up for Chinese, Japanese or Korean counts them: East Asian
  /// Ambiguous characters two wide. (Roughly: the middle dot, and the punctuation, arrows,
  /// box drawing, blocks, shapes and symbols from U+2010 to U+2BFF that count one.)
  public static func ambiguousWide(_ character: Character) -> Int {
    let columns = DisplayWidth.of(character)
    guard columns == 1, let scalar = character.unicodeScalars.first?.value else { return columns }
    return scalar == 0xB7 || (0x2010...0x2BFF).contains(scalar) ? 2 : 1
  }

  public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

  /// Row `y` as text, trailing spaces removed.
  public func line(_ y: Int) -> String {
    var text = ""
    for x in 0..<width where cells[y * width + x].width > 0 {
      text.append(cells[y * width + x].character)
    }
    while text.last == " " { text.removeLast() }
    return text
  }

  public var lines: [String] { (0..<height).map(line) }

  /// The screen as text, trailing blank rows dropped.
  public var text: String {
    var rows = lines
    while rows.last == "" { rows.removeLast() }
    return rows.joined(separator: "\n")
  }

  /// Resizes, keeping what fits (like a terminal that does not reflow).
  public mutating func resize(width: Int, height: Int) {
    var next = Array(repeating: Cell.blank, count: width * height)
    for y in 0..<min(height, self.height) {
      for x in 0..<min(width, self.width) { next[y * width + x] = cells[y * self.width + x] }
    }
    self.width = width
    self.height = height
    cells = next
    cursor = Position(x: min(cursor.x, width - 1), y: min(cursor.y, height - 1))
  }

  /// Applies output bytes; incomplete sequences wait for the next call.
  /// Takes the replies not taken yet.
  public mutating func takeReplies() -> [String] {
    defer { replies = [] }
    return replies
  }

  public mutating func apply(_ bytes: [UInt8]) {
    pending += bytes
    var index = 0
    while index < pending.count {
      let byte = pending[index]
      if byte == 0x1B {
        guard let consumed = escape(at: index) else { break }
        index += consumed
        continue
      }
      if byte < 0x20 || byte == 0x7F {
        control(byte)
        index += 1
        continue
      }
      let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
      guard index + length <= pending.count else { break }
      // Gather a whole grapheme cluster: following combining scalars join it.
      var end = index + length
      while end < pending.count, pending[end] >= 0x80 {
        let next = pending[end]
        let nextLength = next < 0xE0 ? 2 : next < 0xF0 ? 3 : 4
        guard end + nextLength <= pending.count else { break }
        let candidate = String(decoding: pending[index..<(end + nextLength)], as: UTF8.self)
        if candidate.count == 1 { end += nextLength } else { break }
      }
      print(String(decoding: pending[index..<end], as: UTF8.self))
      index = end
    }
    pending.removeFirst(index)
  }

  private mutating func print(_ text: String) {
    for character in text {
      let columns = self.columns(character)
      guard columns > 0 else { continue }
      guard columns <= width else { continue }
      if cursor.x + columns > width {
        if autowrap {
          cursor.x = 0
          lineFeed()
        } else {
          cursor.x = width - columns
        }
      }
      // Overwriting part of a wide character blanks the rest of it, before and after.
      var head = cursor.x
      while head > 0, cells[cursor.y * width + head].width == 0 { head -= 1 }
      for column in head..<cursor.x {
        cells[cursor.y * width + column] = Cell(" ", style: cells[cursor.y * width + column].style)
      }
      put(Cell(character, width: UInt8(columns), style: style), at: cursor.x)
      for extra in 1..<columns { put(Cell(" ", width: 0, style: style), at: cursor.x + extra) }
      var after = cursor.x + columns
      while after < width, cells[cursor.y * width + after].width == 0 {
        put(Cell(" ", style: style), at: after)
        after += 1
      }
      cursor.x += columns
      if cursor.x >= width && !autowrap { cursor.x = width - 1 }
    }
  }

  private mutating func put(_ cell: Cell, at x: Int) {
    guard x < width else { return }
    cells[cursor.y * width + x] = cell
  }

  private mutating func lineFeed() {
    if cursor.y == height - 1 {
      cells.removeFirst(width)
      cells += Array(repeating: .blank, count: width)
    } else {
      cursor.y += 1
    }
  }

  private mutating func control(_ byte: UInt8) {
    switch byte {
    case 0x0D: cursor.x = 0
    case 0x0A: lineFeed()
    case 0x08: cursor.x = max(0, cursor.x - 1)
    default: break
    }
  }

  /// Handles the escape sequence at `start`; returns its length, or nil if incomplete.
  private mutating func escape(at start: Int) -> Int? {
    guard start + 1 < pending.count else { return nil }
    let kind = pending[start + 1]
    switch kind {
    case UInt8(ascii: "["):
      var end = start + 2
      while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
      guard end < pending.count else { return nil }
      let parameters = String(decoding: pending[(start + 2)..<end], as: UTF8.self)
      csi(parameters, final: pending[end])
      return end - start + 1
    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"):
      // String sequences end with BEL or ST (ESC \).
      var end = start + 2
      while end < pending.count {
        if pending[end] == 0x07
          || pending[end] == 0x1B && end + 1 < pending.count
            && pending[end + 1] == UInt8(ascii: "\\")
        {
          let body = String(decoding: pending[(start + 1)..<end], as: UTF8.self)
          if body == "P$qm", let drawsDirectColor {
            replies.append("\u{1B}P1$r" + renditionReport(direct: drawsDirectColor) + "m\u{1B}\\")
          }
          if body == "]11;?", let background {
            // As xterm answers: four hex digits a channel.
            let channels = [background.red, background.green, background.blue].map {
              String(format: "%04x", $0 * 257)
            }
            replies.append("\u{1B}]11;rgb:" + channels.joined(separator: "/") + "\u{1B}\\")
          }
          return end - start + (pending[end] == 0x07 ? 1 : 2)
        }
        end += 1
      }
      return nil
    case UInt8(ascii: "7"):
      savedCursor = cursor
      return 2
    case UInt8(ascii: "8"):
      cursor = savedCursor
      return 2
    case UInt8(ascii: "="), UInt8(ascii: ">"):
      return 2
    default:
      unknownSequences.append("ESC \(Character(Unicode.Scalar(kind)))")
      return 2
    }
  }

  /// The graphic rendition as xterm reports it (a background only, which is all asked).
  private func renditionReport(direct: Bool) -> String {
    switch style.background {
    case .rgb(let red, let green, let blue)?:
      return direct ? "0;48:2::\(red):\(green):\(blue)" : "0;48:5:\(Palette.nearest256(red, green, blue))"
    case .indexed(let index)?: return "0;48:5:\(index)"
    case .ansi(let index)?: return "0;\(index < 8 ? 40 + Int(index) : 100 + Int(index) - 8)"
    case nil: return "0"
    }
  }

  private mutating func csi(_ parameters: String, final: UInt8) {
    let isPrivate = parameters.hasPrefix("?")
    let numbers = (isPrivate ? String(parameters.dropFirst()) : parameters).split(
      separator: ";", omittingEmptySubsequences: false
    ).map { Int($0) }
    func number(_ index: Int, _ fallback: Int) -> Int {
      index < numbers.count ? (numbers[index] ?? fallback) : fallback
    }
    switch (isPrivate, Character(Unicode.Scalar(final))) {
    case (false, "H"), (false, "f"):
      cursor = Position(
        x: min(width - 1, max(0, number(1, 1) - 1)), y: min(height - 1, max(0, number(0, 1) - 1)))
    case (false, "A"): cursor.y = max(0, cursor.y - number(0, 1))
    case (false, "B"): cursor.y = min(height - 1, cursor.y + number(0, 1))
    case (false, "C"): cursor.x = min(width - 1, cursor.x + number(0, 1))
    case (false, "D"): cursor.x = max(0, cursor.x - number(0, 1))
    case (false, "G"): cursor.x = min(width - 1, max(0, number(0, 1) - 1))
    case (false, "J"):
      let mode = number(0, 0)
      let from = mode == 2 ? 0 : cursor.y * width + cursor.x
      for index in from..<cells.count { cells[index] = Cell(" ", style: Style(background: style.background)) }
    case (false, "K"):
      let from = number(0, 0) == 2 ? 0 : cursor.x
      for x in from..<width {
        cells[cursor.y * width + x] = Cell(" ", style: Style(background: style.background))
      }
    case (false, "m"): sgr(numbers.map { $0 ?? 0 })
    case (false, "n") where number(0, 0) == 6:
      replies.append("\u{1B}[\(cursor.y + 1);\(cursor.x + 1)R")
    case (false, "t") where number(0, 0) == 16:
      if let cellSize { replies.append("\u{1B}[6;\(cellSize.height);\(cellSize.width)t") }
    case (false, "c") where number(0, 0) == 0:
      replies.append("\u{1B}[?\(attributes)c")
    case (true, "h"), (true, "l"):
      let on = final == UInt8(ascii: "h")
      for mode in numbers.compactMap({ $0 }) {
        switch mode {
        case 25: cursorVisible = on
        case 7: autowrap = on
        case 1049:
          if on, !alternateScreen {
            savedMain = cells
            cells = Array(repeating: .blank, count: width * height)
          } else if !on, alternateScreen, let saved = savedMain, saved.count == cells.count {
            cells = saved
          }
          alternateScreen = on
        case 2004: bracketedPaste = on
        case 2026, 1000, 1002, 1006, 1: break
        default: unknownSequences.append("CSI ?\(mode)\(on ? "h" : "l")")
        }
      }
    default:
      unknownSequences.append("CSI \(parameters)\(Character(Unicode.Scalar(final)))")
    }
  }

  private mutating func sgr(_ codes: [Int]) {
    var index = 0
    let codes = codes.isEmpty ? [0] : codes
    while index < codes.count {
      let code = codes[index]
      switch code {
      case 0: style = .plain
      case 1: style.bold = true
      case 2: style.dim = true
      case 3: style.italic = true
      case 4: style.underline = true
      case 7: style.reverse = true
      case 22:
        style.bold = false
        style.dim = false
      case 23: style.italic = false
      case 24: style.underline = false
      case 27: style.reverse = false
      case 30...37: style.foreground = .ansi(UInt8(code - 30))
      case 90...97: style.foreground = .ansi(UInt8(code - 90 + 8))
      case 40...47: style.background = .ansi(UInt8(code - 40))
      case 100...107: style.background = .ansi(UInt8(code - 100 + 8))
      case 39: style.foreground = nil
      case 49: style.background = nil
      case 38, 48:
        var color: Color?
        if index + 2 < codes.count, codes[index + 1] == 5 {
          color = .indexed(UInt8(clamping: codes[index + 2]))
          index += 2
        } else if index + 4 < codes.count, codes[index + 1] == 2 {
          color = .rgb(
            UInt8(clamping: codes[index + 2]), UInt8(clamping: codes[index + 3]),
            UInt8(clamping: codes[index + 4]))
          index += 4
        }
        if code == 38 { style.foreground = color } else { style.background = color }
      default: unknownSequences.append("SGR \(code)")
      }
      index += 1
    }
  }
}
