/// The terminal's screen as a program last drew it, and the one writer of every frame to it.
///
/// It keeps the frame on screen and the picture the terminal placed over it, so that
/// ``draw(_:display:repaint:)`` writes only what changed (``ScreenDiffer``, in one
/// synchronized update) and keeps a picture drawn in the terminal's own protocol right:
/// - kitty's picture is placed over the frame's blank cells under one id, and taken away
///   by that id when the frame's picture changes or the screen is painted again;
/// - sixel pixels belong to the cells they were drawn in, and only writing over those
///   cells takes them away: when the picture changes, or a cell over it does (an alert
///   drawn over it, then gone), the whole screen is painted again and the picture with it.
///
/// The full-screen app and the replay viewer both draw through one of these.
public struct TerminalScreen {
  /// The frame on screen, as last drawn; `nil` before the first, or once the screen must
  /// be painted whole.
  public private(set) var frame: Frame?
  /// The picture the terminal shows in the frame's blank cells (``PictureMode/terminal``),
  /// in the terminal's cells.
  private var placed: PlacedPicture?
  /// How the frame on screen was drawn.
  private var display: Display?
  private let write: ([UInt8]) -> Void

  /// The id kitty's picture is placed under (one picture on screen at a time).
  static let pictureID = 1

  /// A screen whose bytes go to `write` (one call per frame).
  public init(write: @escaping ([UInt8]) -> Void) {
    self.write = write
  }

  /// Brings the screen to `next`, drawn as `display` says; the whole screen where
  /// `repaint` is set (after a resize, Ctrl-L, the process continued), where the screen
  /// is not known, or where the display changed. Nothing is written where nothing changed.
  public mutating func draw(_ next: Frame, display: Display, repaint: Bool = false) {
    var whole = repaint || frame == nil || display != self.display
    guard whole || next != frame else { return }
    if !whole, sixelNeedsRepaint(for: next, display) { whole = true }
    let colorMode = display.colorMode ?? .none
    write(
      ScreenDiffer.update(
        from: whole ? nil : frame, to: next, colorMode: colorMode,
        overlay: pictureUpdate(next.picture, display, redraw: whole)))
    frame = next
    self.display = display
  }

  /// Forgets what the screen shows: the next ``draw(_:display:repaint:)`` paints it whole.
  public mutating func invalidate() { frame = nil }

  /// Takes away the picture the terminal keeps after the program (kitty's), before the
  /// program gives the terminal back.
  public mutating func leave() {
    if placed != nil, display?.pictureMode == .terminal, display?.pictureProtocol == .kitty {
      write(Array(TerminalPicture.kittyDelete(id: Self.pictureID).utf8))
    }
    placed = nil
    frame = nil
  }

  /// Whether a sixel picture must be drawn again with the whole screen: the frame's
  /// picture is not the one drawn, or a cell of the one drawn changes.
  private func sixelNeedsRepaint(for next: Frame, _ display: Display) -> Bool {
    guard display.pictureMode == .terminal, display.pictureProtocol == .sixel else { return false }
    let picture = next.picture?.keepingShape(in: display.cell)
    guard picture == placed else { return true }
    guard let placed, let frame else { return false }
    for y in placed.y..<min(placed.y + placed.rows, next.height, frame.height) {
      for x in placed.x..<min(placed.x + placed.columns, next.width, frame.width)
      where next[x, y] != frame[x, y] {
        return true
      }
    }
    return false
  }

  /// What takes the picture on screen away and puts the frame's there, when they differ
  /// (or when the whole screen is painted again).
  private mutating func pictureUpdate(_ picture: PlacedPicture?, _ display: Display, redraw: Bool) -> [UInt8]
  {
    // In the terminal's cells, in the picture's shape (the layout assumes 1 × 2 cells).
    let picture = picture?.keepingShape(in: display.cell)
    guard display.pictureMode == .terminal, redraw || picture != placed else { return [] }
    if display.pictureProtocol == .sixel {
      // Drawn with every full repaint (which has cleared the one before), from the
      // picture's top left cell, the cursor saved before and restored after.
      placed = picture
      guard let picture else { return [] }
      // (Without the line feed `show` ends the picture with: the cursor is put back.)
      let sixel = TerminalPicture.sixel(
        picture.image, columns: picture.columns, rows: picture.rows, cell: display.cell)
      return Array(
        (ControlSequence.saveCursor + ControlSequence.cursorTo(row: picture.y, column: picture.x)
          + (sixel.hasSuffix("\n") ? String(sixel.dropLast()) : sixel) + ControlSequence.restoreCursor).utf8)
    }
    var text = placed != nil || redraw ? TerminalPicture.kittyDelete(id: Self.pictureID) : ""
    if let picture {
      // From the picture's top left cell, the cursor saved before and restored after
      // (the picture itself leaves it in place), so the frame's cursor stays right.
      text +=
        ControlSequence.saveCursor + ControlSequence.cursorTo(row: picture.y, column: picture.x)
        + TerminalPicture.kittyPlacement(
          picture.image, columns: picture.columns, rows: picture.rows, id: Self.pictureID,
          compressed: display.compressesPictures)
        + ControlSequence.restoreCursor
    }
    placed = picture
    return Array(text.utf8)
  }
}
