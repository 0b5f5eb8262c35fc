import BreedFeature
import Core
import TextRendering

extension AppFeature {
  /// What the app knows of the terminal it draws on, and so how it draws there.
  ///
  /// The terminal's settings and its answers to the app's questions arrive as actions
  /// (``Action/terminal(_:)``), so a recorded session holds them as it holds keys, and a
  /// replay draws each frame as the app drew it.
  public struct Screen: Equatable, Sendable {
    /// How frames are drawn now.
    public var display: Display
    /// How to draw them if the terminal answers that it draws East Asian ambiguous
    /// characters (the UI's `─ ▶ …`, the half blocks) two columns wide, as terminals set
    /// up for Chinese, Japanese or Korean may: in ASCII, which is never ambiguous. `nil`
    /// once the terminal has answered, or where there is nothing to ask.
    public var ifAmbiguousWide: Display?
    /// A cell's size in pixels as the window says, where it does.
    public var windowCell: TerminalPicture.CellSize?
    /// A cell's size in pixels as the terminal answered, where it was asked.
    public var answeredCell: TerminalPicture.CellSize?
    /// Whether the app writes the session to a log (`--record`): Ctrl-T then drops a
    /// marker in it, and the keys overlay says so.
    public var isRecording = false

    /// A screen drawn as `display` says.
    public init(display: Display = Display(), ifAmbiguousWide: Display? = nil) {
      self.display = display
      self.ifAmbiguousWide = ifAmbiguousWide
    }
  }

  /// What the terminal tells the app.
  public enum TerminalEvent: Equatable, Sendable, Codable {
    /// The app starts drawing, as `display` says (from the settings and the environment),
    /// or as `ifAmbiguousWide` says once the terminal answers that it draws ambiguous
    /// characters wide.
    case opened(Display, ifAmbiguousWide: Display?)
    /// The window's size in cells, and a cell's pixels where the window gives them.
    case resized(columns: Int, rows: Int, cell: TerminalPicture.CellSize?)
    /// The terminal answered one of the app's questions.
    case replied(TerminalReply)
    /// The app writes the session to a log from now on (`--record`).
    case recording
  }

  /// What the terminal's events change: how frames are drawn. A change of size (or of a
  /// cell's pixels) tells the Breed screen shown, `top`, whose picture may want decoding
  /// again (a screen under it is told when it shows again).
  static func reduce(_ screen: inout Screen, _ event: TerminalEvent, top: StackElementID?) -> Effect<Action> {
    func update(_ change: (inout Display) -> Void) {
      change(&screen.display)
      if var wide = screen.ifAmbiguousWide {
        change(&wide)
        screen.ifAmbiguousWide = wide
      }
    }
    let resized: Effect<Action> = top.map { .send(.path(.element(id: $0, action: .screenResized))) } ?? .none
    switch event {
    case .opened(let display, let wide):
      screen.display = display
      screen.ifAmbiguousWide = wide
      return .none
    case .resized(let columns, let rows, let cell):
      screen.windowCell = cell
      let cell = cell ?? screen.answeredCell ?? .default
      update {
        $0.columns = columns
        $0.rows = rows
        $0.cell = cell
      }
      return resized
    case .replied(.cellSize(let width, let height)):
      screen.answeredCell = TerminalPicture.CellSize(width: width, height: height)
      let cell = screen.windowCell ?? screen.answeredCell ?? .default
      update { $0.cell = cell }
      return resized
    case .replied(.backgroundColor(let red, let green, let blue)):
      let light = TerminalPicture.isLight(red: red, green: green, blue: blue)
      update { $0.lightBackground = light }
      return .none
    case .replied(.cursorPosition(_, let column)):
      // The first answer to where the probe's ambiguous character left the cursor:
      // column 2 is one column wide, as the frame counts it; 3 is two.
      guard let wide = screen.ifAmbiguousWide else { return .none }
      screen.ifAmbiguousWide = nil
      if column == 3 { screen.display = wide }
      return .none
    case .replied(.terminalAttributes), .replied(.settingReport):
      return .none
    case .recording:
      screen.isRecording = true
      return .none
    }
  }
}
