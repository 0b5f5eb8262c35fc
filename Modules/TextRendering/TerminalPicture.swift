/// Pictures written straight to a terminal stream (for `show`, outside the full-screen UI).
public enum TerminalPicture {
  /// Half-block (or ASCII) cells as lines of text with SGR colour codes, each line ending
  /// in a reset and a newline.
  public static func text(_ cells: PictureCells, colorMode: ColorMode) -> String {
    var output = ""
    for row in 0..<cells.rows {
      var current = Style.plain
      for column in 0..<cells.columns {
        let cell = cells.cells[row * cells.columns + column]
        let style = cell.style.adapted(to: colorMode)
        if style != current {
          output += "\u{1B}[0m"
          var codes: [String] = []
          if let foreground = style.foreground {
            codes.append(ScreenDiffer.Writer.sgr(foreground, background: false))
          }
          if let background = style.background {
            codes.append(ScreenDiffer.Writer.sgr(background, background: true))
          }
          if !codes.isEmpty { output += "\u{1B}[\(codes.joined(separator: ";"))m" }
          current = style
        }
        output.append(cell.character)
      }
      output += current == .plain ? "\n" : "\u{1B}[0m\n"
    }
    return output
  }

  /// The kitty graphics protocol: RGB pixels, base64 in chunks of 4096, displayed over
  /// `columns` cells, quiet (`q=2`) so no reply lands in the input.
  public static func kitty(_ image: RGBImage, columns: Int) -> String {
    let payload = base64(image.pixels)
    var output = ""
    var index = payload.startIndex
    var first = true
    while index < payload.endIndex {
      let end = payload.index(index, offsetBy: 4096, limitedBy: payload.endIndex) ?? payload.endIndex
      let more = end < payload.endIndex ? 1 : 0
      let keys =
        first ? "a=T,f=24,s=\(image.width),v=\(image.height),c=\(columns),q=2,m=\(more)" : "m=\(more)"
      output += "\u{1B}_G\(keys);\(payload[index..<end])\u{1B}\\"
      index = end
      first = false
    }
    return output + "\n"
  }

  /// iTerm2's inline images (OSC 1337): the file's own bytes, shown `columns` cells wide.
  public static func iterm(_ bytes: [UInt8], columns: Int) -> String {
    "\u{1B}]1337;File=inline=1;size=\(bytes.count);width=\(columns);preserveAspectRatio=1:\(base64(bytes))\u{07}\n"
  }

  /// Standard base64 with padding.
  public static func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var output = [UInt8]()
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 2 < bytes.count {
      let value = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
      output += [
        alphabet[value >> 18 & 63], alphabet[value >> 12 & 63], alphabet[value >> 6 & 63],
        alphabet[value & 63],
      ]
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      let value = Int(bytes[index]) << 16 | (rest == 2 ? Int(bytes[index + 1]) << 8 : 0)
      output += [alphabet[value >> 18 & 63], alphabet[value >> 12 & 63]]
      output +=
        rest == 2 ? [alphabet[value >> 6 & 63], UInt8(ascii: "=")] : [UInt8(ascii: "="), UInt8(ascii: "=")]
    }
    return String(decoding: output, as: UTF8.self)
  }
}
