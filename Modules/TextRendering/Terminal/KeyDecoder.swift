/// What the terminal sent: a key, the mouse, a paste, or an answer to a question the app
/// asked. ``KeyDecoder`` turns bytes into these.
public enum InputEvent: Hashable, Sendable {
  /// A key pressed.
  case key(Key)
  /// A mouse button pressed or released, or the wheel turned (SGR reports, `CSI < b ; x ;
  /// y M` or `m`), where the app asked for them.
  case mouse(MouseEvent)
  /// Bracketed-paste text, with control characters removed.
  case paste(String)
  /// The terminal's answer to a question (``TerminalReply``); it comes in with the keys.
  case reply(TerminalReply)
}

/// A key press decoded from terminal input.
public enum Key: Hashable, Sendable {
  /// A printable character (UTF-8 reassembled).
  case character(Character)
  /// Editing keys (``backTab`` is Shift-Tab; ``altBackspace``, ESC then DEL or BS, is what
  /// shells take to delete a word).
  case enter, tab, backTab, backspace, altBackspace, delete, insert, escape
  /// Movement keys.
  case up, down, left, right, home, end, pageUp, pageDown
  /// The left or right arrow with Shift held (other keys with modifiers are the keys
  /// themselves).
  case shiftLeft, shiftRight
  /// Ctrl plus a letter (`ctrl("c")` for 0x03); Ctrl-Space is `ctrl(" ")`.
  case ctrl(Character)
  /// F1–F12.
  case function(Int)
  /// A key or sequence we do not use (kept so input is always consumed).
  case unknown
}

/// A terminal's answer to a question the app asked it (``ControlSequence``'s requests).
public enum TerminalReply: Hashable, Sendable, Codable {
  /// The answer to a cursor position request (`CSI 6n`): `CSI row ; column R`, counted
  /// from 1. (xterm writes F3 with a modifier the same way, Shift-F3 as `CSI 1;2R`: a
  /// reader that asked should take the first answer only.)
  case cursorPosition(row: Int, column: Int)
  /// The answer to a request for its attributes (`CSI c`): `CSI ? class ; features c`.
  /// Every terminal answers it, after any requests sent before it, so a reader that asked
  /// knows, once it has come, that nothing more will. `drawsSixel`: whether the features
  /// include 4, sixel graphics (tmux built with sixel lists it too, and draws the sixel
  /// pictures a program in its pane writes); `nil` in a session log that did not keep it.
  case terminalAttributes(drawsSixel: Bool?)
  /// The answer to a request for its background colour (`OSC 11 ; ?`):
  /// `OSC 11 ; rgb:RRRR/GGGG/BBBB`, each channel from 0 to 1.
  case backgroundColor(red: Double, green: Double, blue: Double)
  /// The answer to a request for a cell's size in pixels (`CSI 16 t`):
  /// `CSI 6 ; height ; width t`.
  case cellSize(width: Int, height: Int)
  /// The answer to a question about one of its settings (DECRQSS, `DCS $ q`): the setting
  /// as it reports it (for the graphic rendition, `0;48:2::1:2:3m`), or `nil` where it does
  /// not know the question.
  case settingReport(String?)
}

/// Turns terminal input bytes into events (keys, the mouse, pastes, the terminal's
/// replies): a state machine over a byte buffer that keeps incomplete sequences (split
/// UTF-8, a CSI cut between reads) for the next read.
///
/// A lone ESC is ambiguous: it may be the Escape key or the start of a sequence. The
/// decoder holds it (``hasPendingInput``) until more bytes arrive or the caller's timeout
/// expires and it calls ``flush()``, which turns it into ``Key/escape``. Inject the time
/// that way, and tests never sleep.
///
/// Understood: arrows (`CSI`/`SS3`, with modifiers), Home/End (all common forms),
/// PgUp/PgDn/Insert/Delete, F1–F12, Shift-Tab, Enter (CR or LF), Tab, Backspace (DEL or
/// BS), Alt-Backspace, Ctrl-letters, Alt-x (as Escape then x), UTF-8 text (invalid bytes
/// become U+FFFD), bracketed paste (`CSI 200~` … `CSI 201~`), SGR mouse reports, and the
/// terminal's answers to a cursor position request, to a request for its attributes, for
/// its background colour, for a cell's size and about a setting.
public struct KeyDecoder: Sendable {
  private var buffer: [UInt8] = []
  private var pasteBuffer: [UInt8]?

  /// Creates a decoder with nothing buffered.
  public init() {}

  /// Whether bytes are held back waiting for more (a lone ESC, a partial sequence).
  public var hasPendingInput: Bool { !buffer.isEmpty }

  /// Whether a bracketed paste has begun and its end (`CSI 201~`) has not arrived yet.
  ///
  /// Until it does, everything read is pasted text, Ctrl-C included. Terminals send a
  /// paste all at once, so a caller that then hears nothing for a while (the app waits a
  /// second) should call ``flush()``, which ends the paste with the text that arrived.
  public var isInPaste: Bool { pasteBuffer != nil }

  /// Decodes `bytes` (appended to what was held back) into the events they complete.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
    buffer.append(contentsOf: bytes)
    return decode(final: false)
  }

  /// The input timeout expired: whatever is held back is taken as typed (a lone ESC is
  /// the Escape key, a broken sequence is dropped as unknown, an unfinished paste ends).
  public mutating func flush() -> [InputEvent] {
    decode(final: true)
  }

  private mutating func decode(final: Bool) -> [InputEvent] {
    var events: [InputEvent] = []
    var index = 0
    while index < buffer.count {
      if pasteBuffer != nil {
        // Inside a paste: everything up to ESC [ 2 0 1 ~ is text.
        if let end = find(Self.pasteEnd, from: index) {
          pasteBuffer! += buffer[index..<end]
          events.append(.paste(Self.pasteText(pasteBuffer!)))
          pasteBuffer = nil
          index = end + Self.pasteEnd.count
          continue
        }
        // Keep a possible partial terminator for the next read.
        let keep = final ? 0 : Self.partialSuffixLength(of: buffer[index...], matching: Self.pasteEnd)
        pasteBuffer! += buffer[index..<(buffer.count - keep)]
        index = buffer.count - keep
        break
      }
      let byte = buffer[index]
      switch byte {
      case 0x1B:
        guard let (event, length) = escapeSequence(at: index, final: final) else {
          buffer.removeFirst(index)
          return events
        }
        if let event { events.append(event) }
        index += length
      case 0x0D, 0x0A:
        events.append(.key(.enter))
        index += 1
      case 0x09:
        events.append(.key(.tab))
        index += 1
      case 0x7F, 0x08:
        events.append(.key(.backspace))
        index += 1
      case 0x00:
        events.append(.key(.ctrl(" ")))
        index += 1
      case 0x01...0x1A:
        events.append(.key(.ctrl(Character(Unicode.Scalar(byte + 0x60)))))
        index += 1
      case 0x1C...0x1F:
        events.append(.key(.unknown))
        index += 1
      case 0x20..<0x7F:
        events.append(.key(.character(Character(Unicode.Scalar(byte)))))
        index += 1
      default:
        let length = Self.utf8Length(byte)
        guard length > 1 else {
          events.append(.key(.character("\u{FFFD}")))
          index += 1
          continue
        }
        guard index + length <= buffer.count else {
          if final {
            events.append(.key(.character("\u{FFFD}")))
            index = buffer.count
            continue
          }
          buffer.removeFirst(index)
          return events
        }
        let slice = buffer[index..<(index + length)]
        if let scalar = String(validating: slice, as: UTF8.self)?.unicodeScalars.first {
          events.append(.key(.character(Character(scalar))))
          index += length
        } else {
          events.append(.key(.character("\u{FFFD}")))
          index += 1
        }
      }
    }
    if final, let paste = pasteBuffer {
      // The paste's end never came: it ends with what arrived.
      events.append(.paste(Self.pasteText(paste)))
      pasteBuffer = nil
    }
    buffer.removeFirst(min(index, buffer.count))
    return events
  }

  /// The event for the escape sequence at `start` and its length, `(nil, n)` for a
  /// sequence that starts a paste, or `nil` if more bytes are needed.
  private mutating func escapeSequence(at start: Int, final: Bool) -> (InputEvent?, Int)? {
    let available = buffer.count - start
    guard available >= 2 else { return final ? (.escape, 1) : nil }
    let second = buffer[start + 1]
    switch second {
    case UInt8(ascii: "["):
      var end = start + 2
      while end < buffer.count, !(0x40...0x7E).contains(buffer[end]) {
        end += 1
        // A runaway sequence: longer than any answer a terminal gives (Windows Terminal's
        // attributes take 40 bytes).
        if end - start > 128 { return (.unknown, end - start) }
      }
      guard end < buffer.count else { return final ? (.unknown, buffer.count - start) : nil }
      let parameters = String(decoding: buffer[(start + 2)..<end], as: UTF8.self)
      let length = end - start + 1
      if parameters == "200" && buffer[end] == UInt8(ascii: "~") {
        pasteBuffer = []
        return (nil, length)
      }
      return (Self.csiEvent(parameters: parameters, final: buffer[end]), length)
    case UInt8(ascii: "O"):
      guard available >= 3 else { return final ? (.unknown, available) : nil }
      let key: Key
      switch buffer[start + 2] {
      case UInt8(ascii: "A"): key = .up
      case UInt8(ascii: "B"): key = .down
      case UInt8(ascii: "C"): key = .right
      case UInt8(ascii: "D"): key = .left
      case UInt8(ascii: "H"): key = .home
      case UInt8(ascii: "F"): key = .end
      case UInt8(ascii: "P"): key = .function(1)
      case UInt8(ascii: "Q"): key = .function(2)
      case UInt8(ascii: "R"): key = .function(3)
      case UInt8(ascii: "S"): key = .function(4)
      case UInt8(ascii: "M"): key = .enter
      default: key = .unknown
      }
      return (.key(key), 3)
    case UInt8(ascii: "P"):
      // A device control string, ended by ST (`ESC \`): a terminal's answer about a
      // setting. Unended when the input pauses, it was Alt-Shift-P typed: Escape, then `P`.
      var end = start + 2
      while end < buffer.count, buffer[end] != 0x1B {
        end += 1
        if end - start > 256 { return (.unknown, end - start) }  // runaway string
      }
      guard end + 1 < buffer.count else { return final ? (.escape, 1) : nil }
      guard buffer[end + 1] == UInt8(ascii: "\\") else { return (.unknown, end - start) }
      return (Self.dcsEvent(String(decoding: buffer[(start + 2)..<end], as: UTF8.self)), end - start + 2)
    case UInt8(ascii: "]"):
      // An operating system command, ended by BEL or ST (`ESC \`): a terminal's answer.
      // Unended when the input pauses, it was Alt-] typed: Escape, then `]`.
      var end = start + 2
      while end < buffer.count, buffer[end] != 0x07, buffer[end] != 0x1B {
        end += 1
        if end - start > 64 { return (.unknown, end - start) }  // runaway sequence
      }
      guard end < buffer.count else { return final ? (.escape, 1) : nil }
      var length = end - start + 1
      if buffer[end] == 0x1B {
        guard end + 1 < buffer.count else { return final ? (.unknown, length) : nil }
        if buffer[end + 1] == UInt8(ascii: "\\") { length += 1 }
      }
      return (Self.oscEvent(String(decoding: buffer[(start + 2)..<end], as: UTF8.self)), length)
    case 0x7F, 0x08:
      return (.altBackspace, 2)
    default:
      // ESC ESC (the first is a lone Escape), or Alt-x as ESC x: Escape, then the next
      // byte on its own.
      return (.escape, 1)
    }
  }

  /// The answer a device control string carries: a setting (`1$r…`), or that the
  /// terminal knows no such setting (`0$r`); anything else is unknown.
  private static func dcsEvent(_ text: String) -> InputEvent {
    if text.hasPrefix("1$r") { return .reply(.settingReport(String(text.dropFirst(3)))) }
    if text.hasPrefix("0$r") { return .reply(.settingReport(nil)) }
    return .unknown
  }

  /// The answer an operating system command carries: the background colour
  /// (`11;rgb:RRRR/GGGG/BBBB`, one to four hex digits a channel), or nothing we use.
  private static func oscEvent(_ text: String) -> InputEvent {
    guard text.hasPrefix("11;rgb:") else { return .unknown }
    let channels = text.dropFirst(7).split(separator: "/")
    guard channels.count == 3 else { return .unknown }
    let values = channels.compactMap { hex -> Double? in
      guard (1...4).contains(hex.count), let value = Int(hex, radix: 16) else { return nil }
      return Double(value) / Double((1 << (4 * hex.count)) - 1)
    }
    guard values.count == 3 else { return .unknown }
    return .reply(.backgroundColor(red: values[0], green: values[1], blue: values[2]))
  }

  private static func csiEvent(parameters: String, final: UInt8) -> InputEvent {
    let fields = parameters.split(separator: ";").map { Int($0) }
    switch final {
    case UInt8(ascii: "c") where parameters.hasPrefix("?"):
      // The first number is the terminal's class; the features follow.
      let features = parameters.dropFirst().split(separator: ";", omittingEmptySubsequences: false)
        .dropFirst()
      return .reply(.terminalAttributes(drawsSixel: features.contains("4")))
    case UInt8(ascii: "M") where parameters.hasPrefix("<"), UInt8(ascii: "m") where parameters.hasPrefix("<"):
      return MouseEvent(sgr: parameters.dropFirst(), pressed: final == UInt8(ascii: "M")).map(
        InputEvent.mouse)
        ?? .unknown
    case UInt8(ascii: "R"):
      guard fields.count == 2, let row = fields[0], let column = fields[1], row > 0, column > 0 else {
        return .unknown
      }
      return .reply(.cursorPosition(row: row, column: column))
    case UInt8(ascii: "t"):
      guard fields.count == 3, fields[0] == 6, let height = fields[1], let width = fields[2], height > 0,
        width > 0
      else { return .unknown }
      return .reply(.cellSize(width: width, height: height))
    default: return .key(csiKey(fields, final: final))
    }
  }

  private static func csiKey(_ fields: [Int?], final: UInt8) -> Key {
    // Modifiers (`1;5A`) do not change which key it is, but for Shift with ← and →.
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return fields.count == 2 && fields[1] == 2 ? .shiftRight : .right
    case UInt8(ascii: "D"): return fields.count == 2 && fields[1] == 2 ? .shiftLeft : .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "~"):
      guard let code = fields.first ?? nil else { return .unknown }
      switch code {
      case 1, 7: return .home
      case 4, 8: return .end
      case 2: return .insert
      case 3: return .delete
      case 5: return .pageUp
      case 6: return .pageDown
      case 11...15: return .function(code - 10)
      case 17...21: return .function(code - 11)
      case 23, 24: return .function(code - 12)
      default: return .unknown
      }
    default: return .unknown
    }
  }

  static let pasteEnd: [UInt8] = Array(ControlSequence.pasteEnd.utf8)

  private func find(_ needle: [UInt8], from start: Int) -> Int? {
    guard buffer.count - start >= needle.count else { return nil }
    for index in start...(buffer.count - needle.count) where buffer[index] == needle[0] {
      if Array(buffer[index..<(index + needle.count)]) == needle { return index }
    }
    return nil
  }

  /// How many trailing bytes of `bytes` could be the start of `pattern`.
  private static func partialSuffixLength(of bytes: ArraySlice<UInt8>, matching pattern: [UInt8]) -> Int {
    for length in stride(from: min(pattern.count - 1, bytes.count), through: 1, by: -1)
    where Array(bytes.suffix(length)) == Array(pattern.prefix(length)) {
      return length
    }
    return 0
  }

  /// Paste for a one-line field: a copied line's trailing line break is dropped, inner
  /// line breaks and tabs become spaces, other controls are removed.
  private static func pasteText(_ bytes: [UInt8]) -> String {
    var text = String(decoding: bytes, as: UTF8.self)
    while let last = text.unicodeScalars.last, last == "\r" || last == "\n" {
      text.unicodeScalars.removeLast()
    }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\r" || scalar == "\n" || scalar == "\t" {
        result.append(" ")
      } else if scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) {
        result.append(scalar)
      }
    }
    return String(result)
  }

  private static func utf8Length(_ lead: UInt8) -> Int {
    switch lead {
    case 0xC2...0xDF: return 2
    case 0xE0...0xEF: return 3
    case 0xF0...0xF4: return 4
    default: return 1
    }
  }
}

extension InputEvent {
  /// The Escape key, as the decoder's escape sequences end in it.
  fileprivate static let escape = InputEvent.key(.escape)
  /// A key or sequence the decoder does not use.
  fileprivate static let unknown = InputEvent.key(.unknown)
  /// Alt-Backspace.
  fileprivate static let altBackspace = InputEvent.key(.altBackspace)
}

/// What the mouse did, and where (cells from 0, the top left one 0, 0).
public struct MouseEvent: Hashable, Sendable {
  /// What happened.
  public enum Kind: Hashable, Sendable {
    /// The left button went down.
    case press
    /// The wheel turned, up (away from the user) or down.
    case wheelUp, wheelDown
    /// Anything else: another button, a release, a move with a button held.
    case other
  }

  /// What happened.
  public var kind: Kind
  /// The cell's column.
  public var column: Int
  /// The cell's row.
  public var row: Int

  /// Creates an event.
  public init(_ kind: Kind, column: Int, row: Int) {
    self.kind = kind
    self.column = column
    self.row = row
  }

  /// The event an SGR report's parameters (`b;x;y`, the `<` taken off) describe, `nil`
  /// for parameters that are not a report. The button code's low bits name the button
  /// (64 and 65 with bit 6: the wheel), 4, 8 and 16 the modifiers, 32 a move.
  init?(sgr parameters: Substring, pressed: Bool) {
    let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
    guard fields.count == 3, let code = fields[0], let x = fields[1], let y = fields[2], x > 0, y > 0 else {
      return nil
    }
    let button = code & ~(4 | 8 | 16)
    kind =
      switch (button, pressed) {
      case (0, true): .press
      case (64, true): .wheelUp
      case (65, true): .wheelDown
      default: .other
      }
    column = x - 1
    row = y - 1
  }
}
