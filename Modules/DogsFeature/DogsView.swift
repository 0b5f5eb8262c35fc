import TextRendering

/// The Dogs screen as text: a pure function of the view state and the screen size.
public enum DogsView {
  /// Rows above the list: title, filter field, divider.
  static let headerRows = 3
  /// Rows the list keeps before a long offline note may take them.
  static let minimumListRows = 3

  /// The screen's node tree for a `width` × `height` area.
  ///
  /// - Parameters:
  ///   - state: What to show.
  ///   - width: The columns available (the offline note wraps to fit them).
  ///   - height: The rows available (so only visible list rows are built).
  ///   - spinnerFrame: Which frame of the loading spinner to draw.
  ///   - unicode: Whether the terminal can show Unicode glyphs.
  ///   - title: What the top row shows instead of the screen's title (a parent's tab bar).
  public static func body(
    _ state: DogsFeature.ViewState, width: Int, height: Int, spinnerFrame: Int = 0, unicode: Bool = true,
    title: [Span]? = nil
  ) -> Node {
    // The note says why the list is not fresh; it wraps rather than lose the reason,
    // unless the screen is so short that it would hide the list (then it is cut with `…`).
    // While the list is loaded again, that is what its row says.
    var note =
      state.isReloading
      ? .text("\(Spinner.frame(spinnerFrame, unicode: unicode)) \(state.reloadingNote)", style: .dim)
      : state.note.map { Node.paragraph([Span($0, style: .dim)]) }
    var children: [Node] = [.line(title ?? [Span(state.title, style: .bold)])]
    let hasBreeds: Bool = {
      switch state.content {
      case .loaded, .noMatch: return true
      case .loading, .empty, .failed: return false
      }
    }()
    if hasBreeds {
      children.append(
        .textField(
          TextFieldNode(prompt: unicode ? "🔍 " : "/ ", text: state.filter, placeholder: "Filter breeds")))
      children.append(.divider)
    }
    switch state.content {
    case .loading:
      // Only the spinner (PRODUCT.md); what is typed meanwhile is kept and applied when
      // the list arrives, and said here so that the keys are not lost to the eye.
      let loading = "\(Spinner.frame(spinnerFrame, unicode: unicode)) Loading breeds…"
      if SearchQuery(state.filter).isEmpty {  // nothing typed, or only spaces
        children.append(.text(loading))
      } else {
        // Wrapped on a narrow screen; the filter itself takes at most one line.
        let filter = cut(state.filter, toFit: "“”.", width, unicode)
        children.append(.paragraph([Span("\(loading) Then filtering by “\(filter)”.")]))
      }
      children.append(.spacer)
    case .loaded(let rows):
      var noteRows =
        note.flatMap { Layout.fixedHeight(of: $0, width: width, display: .init(unicode: unicode)) } ?? 0
      let spareRows = height - headerRows - min(rows.count, minimumListRows)
      if noteRows > max(1, spareRows), let wrapped = note {
        noteRows = max(1, spareRows)
        note = .sized(wrapped, rows: noteRows)
      }
      // The highlighted row is what Enter opens: on a screen with room for one row only
      // (or none), the row has it, not the note.
      if height - headerRows - noteRows < 1 {
        noteRows = 0
        note = nil
      }
      let listHeight = max(0, height - headerRows - noteRows)
      let window = ListNode.window(count: rows.count, selected: rows.highlighted, height: listHeight)
      let shown = window.map { rows[$0] }
      let visible = shown.map { row -> [Span] in
        var spans = [Span(row.title)]
        if row.subBreedCount > 0 {
          spans.append(
            Span(" (\(row.subBreedCount))", style: .dim))
        }
        if row.isFavourite { spans.append(Span(" ★", style: .bold)) }
        return spans
      }
      children.append(
        .list(
          ListNode(
            rows: visible, selected: rows.highlighted, firstRow: window.lowerBound, totalRows: rows.count,
            ids: shown.map(\.id))))
    case .noMatch(let query):
      // A pasted screenful of text is cut to one line here, as in the filter field.
      let prefix = "No breeds match “"
      children.append(.paragraph([Span(prefix + cut(query, toFit: prefix + "”", width, unicode) + "”")]))
      if !state.subBreedMatches.isEmpty {
        let found = state.subBreedMatches.map { "\($0.title) (under \(String.breedName($0.breed)))" }
        let noun = found.count == 1 ? "a sub-breed" : "sub-breeds"
        children.append(
          .paragraph([Span("Found as \(noun): \(found.joined(separator: ", ")).", style: .dim)]))
      }
      if !state.spellingMatches.isEmpty {
        let titles = state.spellingMatches.map(\.title)
        children.append(.paragraph([Span("Did you mean \(titles.joinedAsAlternatives)?", style: .dim)]))
      }
      children.append(.spacer)
    case .empty:
      children.append(.text("No breeds"))
      children.append(.text("Press r to load the list again.", style: .dim))
      children.append(.spacer)
    case .failed(let message, let canRetry):
      children.append(.paragraph([Span(message, style: .error)]))
      if canRetry { children.append(.text("Press r to try again.", style: .dim)) }
      children.append(.spacer)
    }
    // Below the list, or below the spacer every other content ends with: at the bottom.
    if let note { children.append(note) }
    return .stack(children)
  }

  /// The screen rendered into a frame, for tests and the app.
  public static func render(
    _ state: DogsFeature.ViewState, width: Int, height: Int, spinnerFrame: Int = 0, unicode: Bool = true
  ) -> Frame {
    Layout.render(
      body(state, width: width, height: height, spinnerFrame: spinnerFrame, unicode: unicode), width: width,
      height: height,
      display: .init(unicode: unicode))
  }

  /// What was typed, sanitised and cut to fit one line beside `frame`: a pasted screenful
  /// stays one line.
  private static func cut(_ typed: String, toFit frame: String, _ width: Int, _ unicode: Bool) -> String {
    let room = max(1, width - DisplayWidth.of(frame))
    return DisplayWidth.truncate(
      Sanitizer.sanitize(typed), to: room, ellipsis: Display(unicode: unicode).ellipsis)
  }
}
