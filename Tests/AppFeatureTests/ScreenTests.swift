import AppFeature
import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import Foundation
import Testing
import TextRendering

/// What the terminal tells the app arrives as actions, and the app's state says how frames
/// are drawn: the settings, the window, the answers to the app's questions.
@MainActor
struct ScreenTests {
  static let unicode = Display(colorMode: .truecolor, pictureMode: .blocks)
  static let ascii = Display(unicode: false, colorMode: .truecolor, pictureMode: .ascii)

  @Test func theTerminalsSettingsWindowAndAnswersDecideHowFramesAreDrawn() async {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature(client: .failing) }
    await store.send(.terminal(.opened(Self.unicode, ifAmbiguousWide: Self.ascii))) {
      $0.screen = AppFeature.Screen(display: Self.unicode, ifAmbiguousWide: Self.ascii)
    }
    // The window: its size, and no pixels.
    await store.send(.terminal(.resized(columns: 120, rows: 40, cell: nil))) {
      $0.screen.display.columns = 120
      $0.screen.display.rows = 40
      $0.screen.ifAmbiguousWide?.columns = 120
      $0.screen.ifAmbiguousWide?.rows = 40
    }
    // Asked, the terminal says a cell's size, a light background, and that it draws the
    // ambiguous character two columns wide: the screen turns ASCII, keeping the rest.
    await store.send(.terminal(.replied(.cellSize(width: 9, height: 18)))) {
      $0.screen.answeredCell = TerminalPicture.CellSize(width: 9, height: 18)
      $0.screen.display.cell = TerminalPicture.CellSize(width: 9, height: 18)
      $0.screen.ifAmbiguousWide?.cell = TerminalPicture.CellSize(width: 9, height: 18)
    }
    await store.send(.terminal(.replied(.backgroundColor(red: 1, green: 1, blue: 0.9)))) {
      $0.screen.display.lightBackground = true
      $0.screen.ifAmbiguousWide?.lightBackground = true
    }
    await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 3)))) {
      $0.screen.display = $0.screen.ifAmbiguousWide!
      $0.screen.ifAmbiguousWide = nil
    }
    #expect(store.state.screen.display.unicode == false && store.state.screen.display.columns == 120)
    // A later answer changes nothing: the question was asked once.
    await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 2))))
    // A window that gives its pixels wins over the answer.
    await store.send(
      .terminal(.resized(columns: 80, rows: 24, cell: TerminalPicture.CellSize(width: 8, height: 16)))
    ) {
      $0.screen.windowCell = TerminalPicture.CellSize(width: 8, height: 16)
      $0.screen.display.columns = 80
      $0.screen.display.rows = 24
      $0.screen.display.cell = TerminalPicture.CellSize(width: 8, height: 16)
    }
  }

  @Test func aTerminalThatDrawsAmbiguousCharactersNarrowKeepsUnicode() async {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature(client: .failing) }
    await store.send(.terminal(.opened(Self.unicode, ifAmbiguousWide: Self.ascii))) {
      $0.screen = AppFeature.Screen(display: Self.unicode, ifAmbiguousWide: Self.ascii)
    }
    await store.send(.terminal(.replied(.cursorPosition(row: 1, column: 2)))) {
      $0.screen.ifAmbiguousWide = nil
    }
    #expect(store.state.screen.display == Self.unicode)
  }

  /// A resize over an open breed tells its screen, whose picture may be decoded again.
  @Test func aResizeTellsTheOpenBreedScreen() async {
    let store = TestStore(
      initialState: AppFeature.State(
        breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: list.breeds[0]))
    ) { AppFeature(client: .failing) }
    await store.send(.terminal(.resized(columns: 100, rows: 30, cell: nil))) {
      $0.screen.display.columns = 100
      $0.screen.display.rows = 30
    }
    await store.receive(.path(.element(id: 0, action: .screenResized)))
    await store.send(.breedScreenDismissed) { $0.breed = nil }
    await store.send(.terminal(.resized(columns: 90, rows: 30, cell: nil))) { $0.screen.display.columns = 90 }
  }

  /// The frame follows the state's display: its size and its characters.
  @Test func theFrameIsDrawnAsTheStateSays() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded)
    state.screen.display = Display(columns: 50, rows: 10, unicode: false)
    let frame = AppView.render(AppFeature.ViewState(state), display: state.screen.display)
    #expect(frame.width == 50 && frame.height == 10)
    #expect(!frame.text.contains("▶") && frame.text.contains("> Akita"))
  }
}
