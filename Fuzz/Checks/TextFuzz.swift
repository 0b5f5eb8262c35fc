import TextRendering
import VirtualTerminal

/// TextRendering's parsers' harness. The first byte picks the target: 0 the key decoder,
/// 1 the sanitiser, 2 the screen differ (modulo 3).
public enum TextFuzz {
  /// Runs the target the first byte picks on the rest.
  public static func check(_ bytes: [UInt8]) throws(FuzzFailure) {
    guard let selector = bytes.first else { return }
    let input = Array(bytes.dropFirst())
    switch selector % 3 {
    case 0: try keys(input)
    case 1: try sanitiser(input)
    default: try differ(input)
    }
  }

  /// Any byte stream, split anywhere: never crashes or hangs, and nothing is held back
  /// after the timeout flush (no paste left open either).
  static func keys(_ input: [UInt8]) throws(FuzzFailure) {
    var decoder = KeyDecoder()
    let split = input.isEmpty ? 0 : Int(input[0]) % input.count
    _ = decoder.feed(input[..<split])
    _ = decoder.feed(input[split...])
    _ = decoder.flush()
    try require(!decoder.hasPendingInput, "the key decoder kept input after a flush")
    try require(!decoder.isInPaste, "the key decoder kept a paste open after a flush")
  }

  /// Whatever the input, the sanitised text carries no control character, and its ASCII
  /// form is printable ASCII only.
  static func sanitiser(_ input: [UInt8]) throws(FuzzFailure) {
    let clean = Sanitizer.sanitize(String(decoding: input, as: UTF8.self))
    try require(Sanitizer.isSafe(clean), "the sanitiser let a control character through")
    try require(!clean.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "the sanitiser left a C0 byte or DEL")
    try require(
      Sanitizer.ascii(clean).utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F },
      "ascii left a byte that is not printable")
  }

  /// Two frames from the input (its halves; each a line per newline, the line's first byte
  /// choosing its column and style): the differ's update, applied to a screen showing the
  /// first, shows exactly the second.
  static func differ(_ input: [UInt8]) throws(FuzzFailure) {
    let half = input.count / 2
    let a = frame(input[..<half])
    let b = frame(input[half...])
    var screen = VirtualTerminal(width: 12, height: 4)
    screen.apply(ScreenDiffer.update(from: nil, to: a, colorMode: .truecolor))
    screen.apply(ScreenDiffer.update(from: a, to: b, colorMode: .truecolor))
    for y in 0..<4 {
      for x in 0..<12 where b[x, y].width > 0 {
        try require(
          screen[x, y].character == b[x, y].character,
          "differ: wrong character at \(x),\(y): \(escaped(screen[x, y].character)) for \(escaped(b[x, y].character))"
        )
        try require(screen[x, y].style == b[x, y].style, "differ: wrong style at \(x),\(y)")
      }
    }
  }

  private static func frame(_ bytes: ArraySlice<UInt8>) -> Frame {
    var frame = Frame(width: 12, height: 4)
    let styles: [Style] = [
      .plain, .bold, .selected, .dim, Style(foreground: .rgb(1, 2, 3)), Style(background: .indexed(9)),
    ]
    for (index, line) in bytes.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false)
      .enumerated()
    {
      let style = styles[Int(line.first ?? 0) % styles.count]
      frame.write(
        String(decoding: line.dropFirst(), as: UTF8.self), x: Int(line.first ?? 0) % 4, y: index, style: style
      )
    }
    return frame
  }

  private static func escaped(_ character: Character) -> String {
    character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(
      separator: " ")
  }
}
