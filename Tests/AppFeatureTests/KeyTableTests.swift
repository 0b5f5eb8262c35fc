import AppFeature
import BreedFeature
import Core
import DogsFeature
import FavouritesFeature
import Foundation
import Testing
import TextRendering

/// The key table is the one description of the keys: what it names does something where
/// it says, and the overlay, `--help` and Docs/Usage.md are made from it.
struct KeyTableTests {
  /// A state on each place's screen where every key the table names for it has work to do.
  static func state(on place: KeyBinding.Place) -> AppFeature.State? {
    let hound = list.breeds[1]
    switch place {
    case .breedsTab: return AppFeature.State(breeds: list, dogsFilter: "a", dogsStatus: .loaded)
    case .favouritesTab:
      return AppFeature.State(
        breeds: list, dogsStatus: .loaded, tab: .favourites, favourites: ["pug", "akita", "hound"])
    case .breed:
      return AppFeature.State(
        breeds: list, dogsStatus: .loaded, breed: BreedFeature.State(breed: hound, highlighted: "afghan"))
    case .modal:
      return AppFeature.State(
        breeds: list, dogsStatus: .loaded,
        alert: AlertState(
          title: "t", buttons: [ButtonState("a", action: .retrySave), ButtonState(role: .cancel, "b")]))
    case .everywhere: return nil
    }
  }

  @Test(arguments: KeyBinding.Place.allCases)
  func everyKeyTheTableNamesDoesSomethingWhereItSays(place: KeyBinding.Place) throws {
    let states =
      place == .everywhere
      ? [.breedsTab, .favouritesTab, .breed].compactMap(Self.state) : [Self.state(on: place)!]
    for state in states {
      for binding in AppFeature.keys(of: place) {
        for key in binding.pressed {
          #expect(
            !AppFeature.commands(for: key, in: state, pageRows: 5).isEmpty,
            "\(key) (\(binding.keys): \(binding.does)) does nothing \(place.title.lowercased())")
        }
      }
    }
  }

  /// The checker can fail: a key the bindings ignore is caught.
  @Test func aKeyThatDoesNothingIsCaught() {
    let state = Self.state(on: .breed)!
    #expect(AppFeature.commands(for: .function(9), in: state, pageRows: 5).isEmpty)
  }

  /// `?` opens the keys of the screen under it and of everywhere; the overlay scrolls
  /// within what it holds and closes with Esc or `?`.
  @Test func questionMarkShowsTheKeysOfTheScreen() {
    var state = Self.state(on: .favouritesTab)!
    #expect(AppFeature.commands(for: .character("?"), in: state, pageRows: 5) == [.send(.helpShown)])
    #expect(AppFeature.commands(for: .function(1), in: state, pageRows: 5) == [.send(.helpShown)])
    state.help = AppFeature.State.Help()
    let frame = AppView.render(AppFeature.ViewState(state), width: 80, height: 24)
    let text = frame.text
    #expect(text.contains("Keys on the Favourites tab"), "\(text)")
    #expect(text.contains("un-star the highlighted favourite") && text.contains("paint the screen again"))
    #expect(!text.contains("open the highlighted breed"))
    #expect(frame.lines.last == "↑↓ scroll · Esc close")
    // At 40×12 it scrolls: the title says which lines show.
    let small = AppView.render(AppFeature.ViewState(state), width: 40, height: 12)
    let limit = try! #require(small.scrollLimit)
    #expect(limit > 0 && small.text.contains("Keys on the Favourites tab (1–"), "\(small.text)")
    func keys(_ key: Key, scroll: Int = 0) -> [AppKeyCommand] {
      var scrolled = state
      scrolled.help?.scroll = scroll
      return AppFeature.commands(for: key, in: scrolled, pageRows: 3, scrollLimit: limit)
    }
    #expect(keys(.down) == [.send(.helpScrolled(to: 1))])
    #expect(keys(.up) == [.send(.helpScrolled(to: 0))])
    #expect(keys(.down, scroll: limit) == [.send(.helpScrolled(to: limit))])
    #expect(keys(.pageDown) == [.send(.helpScrolled(to: min(3, limit)))])
    #expect(keys(.end) == [.send(.helpScrolled(to: limit))])
    #expect(keys(.character("x")) == [])
    for close in [Key.escape, .character("?"), .character("q")] {
      #expect(keys(close) == [.send(.helpDismissed)])
    }
    #expect(keys(.ctrl("c")) == [.send(.quitRequested)])
    // Scrolled to the end, the last line shows.
    state.help?.scroll = limit
    let end = AppView.render(AppFeature.ViewState(state), width: 40, height: 12).text
    #expect(end.contains("paint the screen") || end.contains("again"), "\(end)")
  }

  /// Docs/Usage.md holds the table as the app has it.
  @Test func theUsageDocumentShowsTheTable() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let usage = try String(contentsOf: root.appendingPathComponent("Docs/Usage.md"), encoding: .utf8)
    #expect(
      usage.contains(AppFeature.keyMarkdown()),
      "Docs/Usage.md's keys differ from AppFeature.keyTable, which reads:\n\(AppFeature.keyMarkdown())")
  }
}
