import ImageDecoding

/// Lays a ``Node`` out into a ``Frame`` of a given size. Pure: same input, same frame
/// (pictures' cells are kept in ``PictureCellCache/shared`` while their pictures live, so
/// a picture drawn again at the same size costs a look-up).
public enum Layout {

  /// Renders `node` into a `width` × `height` frame.
  public static func render(_ node: Node, width: Int, height: Int, display: Display = Display()) -> Frame {
    var frame = Frame(width: width, height: height)
    var context = Context(frame: frame, display: display)
    context.place(node, x: 0, y: 0, width: frame.width, height: frame.height)
    frame = context.frame
    return frame
  }

  /// The rows `node` needs at `width` columns (a paragraph's wrapped lines, a stack's
  /// sum), or `nil` if it takes whatever space is left (a list, a picture, a spacer).
  public static func fixedHeight(of node: Node, width: Int, display: Display = Display()) -> Int? {
    Context(frame: Frame(width: 0, height: 0), display: display).fixedHeight(of: node, width: width)
  }

  struct Context {
    var frame: Frame
    let display: Display

    /// Text as it goes on screen: sanitised, and in ASCII where the terminal shows no more.
    func clean(_ text: String) -> String {
      display.unicode ? Sanitizer.sanitize(text) : Sanitizer.ascii(Sanitizer.sanitize(text))
    }

    /// Rows a node needs, or `nil` if it takes whatever is left.
    func fixedHeight(of node: Node, width: Int) -> Int? {
      switch node {
      case .line, .textField, .divider: return 1
      case .paragraph(let spans): return wrap(spans, width: width).count
      case .stack(let children):
        var total = 0
        for child in children {
          guard let height = fixedHeight(of: child, width: width) else { return nil }
          total += height
        }
        return total
      case .indented(let inner, let left): return fixedHeight(of: inner, width: max(0, width - left))
      case .sized(_, let rows): return max(0, rows)
      case .beside(let left, let right, let leftColumns):
        guard let leftRows = fixedHeight(of: left, width: min(leftColumns, width)),
          let rightRows = fixedHeight(of: right, width: max(0, width - leftColumns - 1))
        else { return nil }
        return max(leftRows, rightRows)
      case .list, .picture, .spacer: return nil
      }
    }

    mutating func place(_ node: Node, x: Int, y: Int, width: Int, height: Int) {
      guard width > 0, height > 0 else { return }
      switch node {
      case .line(let spans):
        writeLine(spans, x: x, y: y, width: width)
      case .paragraph(let spans):
        // Given fewer rows than it wraps to, the last row shows where the text was cut:
        // the rest runs on into it and is cut there with an ellipsis.
        let lines = wrap(spans, width: width)
        for (offset, line) in lines.prefix(height).enumerated() {
          let isCut = offset == height - 1 && lines.count > height
          let rest = isCut ? lines[(offset + 1)...].flatMap { [Span(" ")] + $0 } : []
          writeLine(line + rest, x: x, y: y + offset, width: width)
        }
      case .stack(let children):
        placeStack(children, x: x, y: y, width: width, height: height)
      case .list(let list):
        placeList(list, x: x, y: y, width: width, height: height)
      case .textField(let field):
        placeTextField(field, x: x, y: y, width: width)
      case .picture(let picture):
        placePicture(picture, x: x, y: y, width: width, height: height)
      case .divider:
        frame.write(String(repeating: display.unicode ? "─" : "-", count: width), x: x, y: y, style: .dim)
      case .spacer:
        break
      case .indented(let inner, let left):
        place(inner, x: x + left, y: y, width: width - left, height: height)
      case .sized(let inner, let rows):
        place(inner, x: x, y: y, width: width, height: min(rows, height))
      case .beside(let left, let right, let leftColumns):
        let leftWidth = min(leftColumns, width)
        place(left, x: x, y: y, width: leftWidth, height: height)
        place(right, x: x + leftWidth + 1, y: y, width: width - leftWidth - 1, height: height)
      }
    }

    mutating func placeStack(_ children: [Node], x: Int, y: Int, width: Int, height: Int) {
      let fixed = children.map { fixedHeight(of: $0, width: width) }
      let flexibleCount = fixed.filter { $0 == nil }.count
      let used = fixed.compactMap { $0 }.reduce(0, +)
      let spare = max(0, height - used)
      var remainingFlexible = flexibleCount
      var spareLeft = spare
      var row = y
      for (child, childFixed) in zip(children, fixed) {
        guard row < y + height else { break }
        let childHeight: Int
        if let childFixed {
          childHeight = childFixed
        } else {
          childHeight =
            remainingFlexible > 0
            ? spareLeft / remainingFlexible + (spareLeft % remainingFlexible > 0 ? 1 : 0) : 0
          remainingFlexible -= 1
          spareLeft -= childHeight
        }
        place(child, x: x, y: row, width: width, height: min(childHeight, y + height - row))
        row += childHeight
      }
    }

    mutating func placeList(_ list: ListNode, x: Int, y: Int, width: Int, height: Int) {
      let pageRows = height / list.rowHeight
      frame.listRows = pageRows
      frame.listItems = [:]
      frame.listHighlight = nil
      guard list.totalRows > 0 else { return }
      let visible = ListNode.window(count: list.totalRows, selected: list.selected, height: pageRows)
      // Text starts right of the thumbnails' column, where there is one.
      let textX = list.thumbnailColumns > 0 ? x + list.thumbnailColumns + 1 : x
      let textWidth = width - (textX - x)
      for (item, index) in visible.enumerated() {
        let offset = index - list.firstRow
        guard offset >= 0, offset < list.rows.count else { continue }
        let top = y + item * list.rowHeight
        if list.thumbnailColumns > 0, offset < list.thumbnails.count, let image = list.thumbnails[offset] {
          placeCellPicture(
            image, mode: list.thumbnailMode, x: x, y: top, width: list.thumbnailColumns,
            height: list.rowHeight)
        }
        guard textWidth > 0 else { continue }
        let isSelected = index == list.selected
        if offset < list.ids.count {
          let id = list.ids[offset]
          for row in top..<min(top + list.rowHeight, frame.height) { frame.listItems[row] = id }
          if isSelected { frame.listHighlight = id }
        }
        let marker = isSelected ? (display.unicode ? "▶ " : "> ") : "  "
        var spans = [Span(marker, style: isSelected ? .selected : .plain)] + list.rows[offset]
        if isSelected {
          spans = spans.map {
            Span($0.text, style: Style(foreground: $0.style.foreground, bold: $0.style.bold, reverse: true))
          }
          frame.fill(x: textX, y: top, width: textWidth, height: 1, style: .selected)
        }
        writeLine(spans, x: textX, y: top, width: textWidth)
        if list.rowHeight > 1, offset < list.details.count, !list.details[offset].isEmpty {
          writeLine([Span("  ")] + list.details[offset], x: textX, y: top + 1, width: textWidth)
        }
      }
      if list.totalRows > pageRows, width > 1 {
        // A scroll bar in the last column: its thumb is as long, against the list's
        // height, as the rows shown are against all of them (one row at least), and lies
        // where they do.
        let indicator = display.unicode ? "┃" : "|"
        let length = max(1, (height * pageRows + list.totalRows / 2) / list.totalRows)
        let start = visible.lowerBound * (height - length) / max(1, list.totalRows - pageRows)
        for row in start..<start + length {
          frame.write(indicator, x: x + width - 1, y: y + row, style: .dim)
        }
      }
    }

    /// A picture drawn in cells, centred in its box; returns the rows it took. Where the
    /// terminal draws pictures itself (its graphics show one picture per screen), a list
    /// row's thumbnail is drawn in symbols. The cells come from ``PictureCellCache/shared``:
    /// a picture drawn again at the same size is not fitted again.
    @discardableResult
    mutating func placeCellPicture(
      _ image: RGBImage, mode: PictureMode, x: Int, y: Int, width: Int, height: Int
    )
      -> Int
    {
      let cellMode: PictureMode = mode == .terminal ? .blocks : mode
      guard cellMode != .none else { return 0 }
      let cells = PictureCellCache.shared.cells(
        image, mode: cellMode, columns: width, rows: height, lightBackground: display.lightBackground,
        cell: display.cell, colorMode: display.colorMode, symbols: display.symbols)
      let left = x + (width - cells.columns) / 2
      for row in 0..<cells.rows {
        for column in 0..<cells.columns {
          frame[left + column, y + row] = cells.cells[row * cells.columns + column]
        }
      }
      return cells.rows
    }

    mutating func placeTextField(_ field: TextFieldNode, x: Int, y: Int, width: Int) {
      let promptWidth = frame.write(clean(field.prompt), x: x, y: y, style: .bold, limit: width)
      let available = width - promptWidth
      guard available > 0 else { return }
      if field.text.isEmpty {
        frame.write(clean(field.placeholder), x: x + promptWidth, y: y, style: .dim, limit: available)
        frame.cursor = Position(x: x + promptWidth, y: y)
        return
      }
      // Scroll horizontally so the caret stays visible; never cut the text with `…`.
      // Each of the field's characters is cleaned on its own, so that the caret's index
      // still counts the field's characters where one becomes several (`\r\n` is `␍␊`;
      // `…` in ASCII is `...`) or none (a zero-width space is removed).
      let text = field.text.map { clean(String($0)) }
      let caret = max(0, min(field.caret, text.count))
      var start = 0
      var caretColumn = text[0..<caret].reduce(0) { $0 + DisplayWidth.of($1) }
      while caretColumn >= available, start < caret {
        caretColumn -= DisplayWidth.of(text[start])
        start += 1
      }
      frame.write(text[start...].joined(), x: x + promptWidth, y: y, style: .plain, limit: available)
      frame.cursor = Position(x: x + promptWidth + caretColumn, y: y)
    }

    mutating func placePicture(_ picture: PictureNode, x: Int, y: Int, width: Int, height: Int) {
      // The caption is one line (an address must not wrap mid-way), cut with `…`.
      let captionRows = picture.caption.isEmpty ? 0 : 1
      let pictureRows = height - captionRows
      var top = y
      if let image = picture.image, picture.mode == .terminal, pictureRows >= 2 {
        // The cells that keep its shape, left blank for the terminal to draw in.
        let size = PictureRenderer.fittedSize(
          image, columns: width, rows: pictureRows, mode: .terminal, cell: display.cell)
        frame.picture = PlacedPicture(
          image: image, x: x + (width - size.columns) / 2, y: y, columns: size.columns, rows: size.rows)
        top = y + size.rows
      } else if let image = picture.image, picture.mode != .none, pictureRows >= 2 {
        top = y + placeCellPicture(image, mode: picture.mode, x: x, y: y, width: width, height: pictureRows)
      }
      // The picture left it a row: it takes at most `height - captionRows`.
      if captionRows == 1 {
        writeLine(picture.caption, x: x, y: top, width: width)
      }
    }

    /// Writes spans on one row, cutting the last visible span with an ellipsis.
    mutating func writeLine(_ spans: [Span], x: Int, y: Int, width: Int) {
      // Cleaned and measured once: the total decides whether the line is cut.
      let texts = spans.map { clean($0.text) }
      let widths = texts.map { DisplayWidth.of($0) }
      var column = x
      var remaining = width
      let overflows = widths.reduce(0, +) > width
      for (index, span) in spans.enumerated() {
        guard remaining > 0 else { break }
        var text = texts[index]
        let spanWidth = widths[index]
        if overflows, spanWidth >= remaining {
          // Text follows past the edge, so the ellipsis goes here even if this span fits.
          text = DisplayWidth.cut(text, to: remaining, ellipsis: display.ellipsis)
        }
        let written = frame.write(text, x: column, y: y, style: span.style, limit: remaining)
        column += written
        remaining -= written
      }
    }

    /// Breaks spans into lines of at most `width` columns at spaces (long words are cut).
    func wrap(_ spans: [Span], width: Int) -> [[Span]] {
      guard width > 0 else { return [] }
      var lines: [[Span]] = [[]]
      var used = 0
      for span in spans {
        let text = clean(span.text)
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
          var piece = (index > 0 ? " " : "") + word
          var pieceWidth = DisplayWidth.of(piece)
          if used + pieceWidth > width, used > 0 {
            lines.append([])
            used = 0
            piece = String(word)
            pieceWidth = DisplayWidth.of(piece)
          }
          while pieceWidth > width {
            // A word wider than the line breaks after the most characters that fit (at
            // least one, so that a wide character in a one-column line moves on too).
            var split = piece.startIndex
            var headWidth = 0
            while split < piece.endIndex {
              let columns = DisplayWidth.of(piece[split])
              if headWidth + columns > width, split > piece.startIndex { break }
              headWidth += columns
              split = piece.index(after: split)
            }
            lines[lines.count - 1].append(Span(String(piece[..<split]), style: span.style))
            lines.append([])
            piece = String(piece[split...])
            pieceWidth -= headWidth
          }
          if !piece.isEmpty {
            lines[lines.count - 1].append(Span(piece, style: span.style))
            used += pieceWidth
          }
        }
      }
      if lines.last?.isEmpty == true && lines.count > 1 { lines.removeLast() }
      return lines
    }
  }
}
