// libFuzzer entry point for TextRendering's parsers (see `make fuzz-text`), built with
// TextRendering's sources and the test virtual terminal. The first byte picks the target:
// 0 the key decoder, 1 the sanitiser, 2 the screen differ.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: count))
  guard let selector = bytes.first else { return 0 }
  let input = Array(bytes.dropFirst())
  switch selector % 3 {
  case 0:
    // Any byte stream, split anywhere: never crashes or hangs, and nothing is held back
    // after the timeout flush (no paste left open either).
    var decoder = KeyDecoder()
    let split = input.isEmpty ? 0 : Int(input[0]) % input.count
    _ = decoder.feed(input[..<split])
    _ = decoder.feed(input[split...])
    _ = decoder.flush()
    precondition(!decoder.hasPendingInput, "the key decoder kept input after a flush")
    precondition(!decoder.isInPaste, "the key decoder kept a paste open after a flush")
  case 1:
    // Whatever the input, the sanitised text carries no control character.
    let clean = Sanitizer.sanitize(String(decoding: input, as: UTF8.self))
    precondition(Sanitizer.isSafe(clean), "the sanitiser let a control character through")
    precondition(!clean.utf8.contains { $0 < 0x20 || $0 == 0x7F })
    // Its ASCII form is printable ASCII only.
    precondition(Sanitizer.ascii(clean).utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "ascii left a byte")
  default:
    // Two frames from the input; the differ's update applied to a screen showing the
    // first must show exactly the second.
    let half = input.count / 2
    func frame(_ bytes: ArraySlice<UInt8>) -> Frame {
      var frame = Frame(width: 12, height: 4)
      let styles: [Style] = [
        .plain, .bold, .selected, .dim, Style(foreground: .rgb(1, 2, 3)), Style(background: .indexed(9)),
      ]
      for (index, line) in bytes.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false)
        .enumerated()
      {
        let style = styles[Int(line.first ?? 0) % styles.count]
        frame.write(
          String(decoding: line.dropFirst(), as: UTF8.self), x: Int(line.first ?? 0) % 4, y: index,
          style: style)
      }
      return frame
    }
    let a = frame(input[..<half])
    let b = frame(input[half...])
    var screen = VirtualTerminal(width: 12, height: 4)
    screen.apply(ScreenDiffer.update(from: nil, to: a, colorMode: .truecolor))
    screen.apply(ScreenDiffer.update(from: a, to: b, colorMode: .truecolor))
    for y in 0..<4 {
      for x in 0..<12 where b[x, y].width > 0 {
        precondition(screen[x, y].character == b[x, y].character, "differ: wrong character at \(x),\(y)")
        precondition(screen[x, y].style == b[x, y].style, "differ: wrong style at \(x),\(y)")
      }
    }
  }
  return 0
}
