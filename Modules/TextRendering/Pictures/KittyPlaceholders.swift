import ImageDecoding

/// kitty's pictures through tmux: sent on to the terminal outside (tmux's passthrough) and
/// shown by placeholder characters that tmux keeps in its panes like any text.
extension TerminalPicture {
  /// `sequence` wrapped for tmux to pass on, unread, to the terminal it runs in:
  /// `ESC P tmux ;`, the sequence with every `ESC` doubled, `ESC \`. tmux 3.3 and later
  /// pass it only with `set -g allow-passthrough on`.
  public static func tmuxPassthrough(_ sequence: String) -> String {
    var bytes = Array((ControlSequence.escape + "Ptmux;").utf8)
    bytes.reserveCapacity(bytes.count + sequence.utf8.count * 2 + 2)
    for byte in sequence.utf8 {
      if byte == 0x1B { bytes.append(0x1B) }
      bytes.append(byte)
    }
    bytes += Array(ControlSequence.stringTerminator.utf8)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The character kitty draws a picture's cell in place of (in the Private Use planes).
  public static let placeholder: Character = "\u{10EEEE}"

  /// The combining marks that number a placeholder's row and column, in kitty's order
  /// (its list: the combining marks of class 230, above, with no decomposition, of
  /// Unicode 6.0, less those that normalisation could fuse with a letter): 297 of them.
  public static let placeholderDiacritics: [Unicode.Scalar] = placeholderRanges.flatMap { range in
    range.compactMap(Unicode.Scalar.init)
  }

  /// ``placeholderDiacritics`` as runs of code points.
  private static let placeholderRanges: [ClosedRange<UInt32>] = [
    0x305...0x305, 0x30D...0x30E, 0x310...0x310, 0x312...0x312, 0x33D...0x33F, 0x346...0x346, 0x34A...0x34C,
    0x350...0x352, 0x357...0x357, 0x35B...0x35B, 0x363...0x36F, 0x483...0x487, 0x592...0x595, 0x597...0x599,
    0x59C...0x5A1, 0x5A8...0x5A9, 0x5AB...0x5AC, 0x5AF...0x5AF, 0x5C4...0x5C4, 0x610...0x617, 0x657...0x65B,
    0x65D...0x65E, 0x6D6...0x6DC, 0x6DF...0x6E2, 0x6E4...0x6E4, 0x6E7...0x6E8, 0x6EB...0x6EC, 0x730...0x730,
    0x732...0x733, 0x735...0x736, 0x73A...0x73A, 0x73D...0x73D, 0x73F...0x741, 0x743...0x743, 0x745...0x745,
    0x747...0x747, 0x749...0x74A, 0x7EB...0x7F1, 0x7F3...0x7F3, 0x816...0x819, 0x81B...0x823, 0x825...0x827,
    0x829...0x82D, 0x951...0x951, 0x953...0x954, 0xF82...0xF83, 0xF86...0xF87, 0x135D...0x135F,
    0x17DD...0x17DD, 0x193A...0x193A, 0x1A17...0x1A17, 0x1A75...0x1A7C, 0x1B6B...0x1B6B, 0x1B6D...0x1B73,
    0x1CD0...0x1CD2, 0x1CDA...0x1CDB, 0x1CE0...0x1CE0, 0x1DC0...0x1DC1, 0x1DC3...0x1DC9, 0x1DCB...0x1DCC,
    0x1DD1...0x1DE6, 0x1DFE...0x1DFE, 0x20D0...0x20D1, 0x20D4...0x20D7, 0x20DB...0x20DC, 0x20E1...0x20E1,
    0x20E7...0x20E7, 0x20E9...0x20E9, 0x20F0...0x20F0, 0x2CEF...0x2CF1, 0x2DE0...0x2DFF, 0xA66F...0xA66F,
    0xA67C...0xA67D, 0xA6F0...0xA6F1, 0xA8E0...0xA8F1, 0xAAB0...0xAAB0, 0xAAB2...0xAAB3, 0xAAB7...0xAAB8,
    0xAABE...0xAABF, 0xAAC1...0xAAC1, 0xFE20...0xFE26, 0x10A0F...0x10A0F, 0x10A38...0x10A38,
    0x1D185...0x1D189,
    0x1D1AA...0x1D1AD, 0x1D242...0x1D244,
  ]

  /// The most rows and columns placeholders can number.
  public static var placeholderLimit: Int { placeholderDiacritics.count }

  /// A kitty picture shown by Unicode placeholders, as through tmux: the pixels sent
  /// (each command passed through tmux where `throughTmux`) with a virtual placement
  /// (`U=1`) of `columns` × `rows` cells, kept in the picture's shape as
  /// ``kitty(_:columns:rows:cell:compressed:)`` keeps it, then one line of text a row:
  /// each cell the placeholder with the diacritics of its row and column, in the
  /// foreground colour that names the picture (`CSI 38;5;id m`, an id from 1 to 255, which
  /// tmux passes whatever colours it takes the terminal to have). kitty draws the
  /// picture's cells where the placeholders are; tmux keeps them as text, so the picture
  /// stays in place as the pane scrolls and comes back when the pane does.
  public static func kittyPlaceholders(
    _ image: RGBImage, columns: Int, rows: Int = .max, cell: CellSize = .default, id: UInt8,
    compressed: Bool = false, throughTmux: Bool = true
  ) -> String {
    precondition(id > 0, "kitty's picture id 0 is no picture")
    let size = cellsKeepingShape(
      image, columns: min(columns, placeholderLimit), rows: min(rows, placeholderLimit), cell: cell)
    guard size.columns > 0, size.rows > 0 else { return "" }
    let image = shrunk(image, maxWidth: size.columns * cell.width, maxHeight: size.rows * cell.height)
    let transmit = kittyCommand(
      "a=T,U=1,f=24,s=\(image.width),v=\(image.height),c=\(size.columns),r=\(size.rows),i=\(id),q=2", image,
      compressed: compressed)
    var output = ""
    if throughTmux {
      // Each command (each chunk) passed through on its own.
      for command in transmit.split(separator: ControlSequence.stringTerminator) {
        output += tmuxPassthrough(String(command) + ControlSequence.stringTerminator)
      }
    } else {
      output = transmit
    }
    var text = String.UnicodeScalarView()
    for row in 0..<size.rows {
      text += (ControlSequence.escape + "[38;5;\(id)m").unicodeScalars
      for column in 0..<size.columns {
        text += ["\u{10EEEE}", placeholderDiacritics[row], placeholderDiacritics[column]]
      }
      text += (ControlSequence.escape + "[39m\n").unicodeScalars
    }
    return output + String(text)
  }
}
