import Core
import FavouritesFeature
import Testing
import TextRendering

/// The Favourites tab's keys, as the feature declares them (the tabs are the app's: its
/// tests press every key through the app).
struct FavouritesKeysTests {
  func view(_ favourites: Set<String> = ["pug", "akita"], rows: IdentifiedArrayOf<FavouriteRow.State> = [])
    -> FavouritesFeature.ViewState
  {
    FavouritesFeature.ViewState(FavouritesFeature.State(favourites: favourites, rows: rows))
  }

  func action(_ key: Key, pageRows: Int = 7) -> FavouritesFeature.Action? {
    FavouritesFeature.keyBindings.action(for: .key(key), in: view(), pageRows: pageRows)
  }

  @Test func keysMoveOpenUnstarAndClear() {
    for key in [Key.up, .character("k"), .ctrl("p")] {
      #expect(action(key) == .highlightMoved(.up), "\(key)")
    }
    for key in [Key.down, .character("j"), .ctrl("n")] {
      #expect(action(key) == .highlightMoved(.down), "\(key)")
    }
    #expect(action(.home) == .highlightMoved(.first))
    #expect(action(.end) == .highlightMoved(.last))
    #expect(action(.pageUp, pageRows: 4) == .highlightMoved(.pageUp(rows: 4)))
    #expect(action(.pageDown, pageRows: 4) == .highlightMoved(.pageDown(rows: 4)))
    for key in [Key.enter, .right] { #expect(action(key) == .highlightedRowOpened, "\(key)") }
    for key in [Key.character("f"), .ctrl("f")] { #expect(action(key) == .favouriteToggled, "\(key)") }
    #expect(action(.character("x")) == .clearAllRequested)
    for key in [Key.character("r"), .ctrl("r")] { #expect(action(key) == .failedThumbnailsRetried, "\(key)") }
    #expect(action(.character("q")) == nil)
    #expect(FavouritesFeature.keyBindings.action(for: .paste("pug"), in: view(), pageRows: 7) == nil)
  }

  /// What the footer offers: nothing to move, open or clear without favourites; retrying
  /// only where a thumbnail failed.
  @Test func theHintsFollowTheRows() {
    func hints(_ view: FavouritesFeature.ViewState) -> [String] {
      FavouritesFeature.keyBindings.compactMap { $0.hint?.text(in: view) }
    }
    #expect(hints(view()) == ["↑↓ move", "Enter open", "f unstar", "x clear all"])
    #expect(hints(view([])) == [])
    let failed = view(["pug"], rows: [FavouriteRow.State(id: "pug", thumbnail: .failed("No network."))])
    #expect(hints(failed) == ["r retry", "↑↓ move", "Enter open", "f unstar", "x clear all"])
  }
}
