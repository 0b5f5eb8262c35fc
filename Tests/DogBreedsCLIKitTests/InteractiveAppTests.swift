import AppFeature
import Core
import DogAPIClient
import FavouritesClient
import Foundation
import Synchronization
import TestSupport
import Testing
import TextRendering
import VirtualTerminal

@testable import DogBreedsCLIKit

#if canImport(Glibc)
  import Glibc
#endif

/// The full-screen app's run loop in process, on a terminal that is a pipe for keys and a
/// virtual screen for frames.
@MainActor
struct InteractiveAppTests {
  @Test func keysGoInFramesComeOutAndCtrlCEndsIt() async throws {
    let terminal = try FakeTerminal(columns: 60, rows: 16)
    let app = InteractiveApp.inProcess(
      terminal: terminal, display: Display(unicode: true, colorMode: ColorMode.none, pictureMode: .none)
    ) { AppFeature(client: .fake(), end: $0) }
    let run = Task { await app.run() }
    #expect(await terminal.eventually { $0.text.contains("Affenpinscher") })
    #expect(terminal.entered)
    terminal.type("hou")
    #expect(await terminal.eventually { $0.lines.contains { $0.contains("▶") && $0.contains("Hound") } })
    terminal.type("\r")
    #expect(await terminal.eventually { $0.text.contains("Afghan") })
    terminal.type("\u{3}")
    #expect(await run.value == 0)
    #expect(terminal.restored)
  }

  /// Ctrl-F stars the highlighted breed; the star is saved when the app ends, though the
  /// usual wait after a change has not passed.
  @Test func ctrlFStarsABreedAndQuittingSavesIt() async throws {
    let terminal = try FakeTerminal(columns: 60, rows: 16)
    let favourites = FavouritesClient.inMemory(["pug"])
    let app = InteractiveApp.inProcess(
      terminal: terminal, display: Display(unicode: true, colorMode: ColorMode.none, pictureMode: .none)
    ) { AppFeature(client: .fake(), favourites: favourites, end: $0) }
    let run = Task { await app.run() }
    #expect(await terminal.eventually { $0.text.contains("Affenpinscher") })
    terminal.type("hou")
    #expect(await terminal.eventually { $0.lines.contains { $0.contains("▶ Hound") } })
    terminal.type("\u{6}")
    #expect(await terminal.eventually { $0.lines.contains { $0.contains("▶ Hound (7) ★") } })
    terminal.type("\u{3}")
    #expect(await run.value == 0)
    #expect(try await favourites.load().favourites == ["hound", "pug"])
  }

  /// Tab shows the Favourites tab, whose rows load their thumbnails once it shows; `x`
  /// asks before clearing them all, and Esc keeps them.
  @Test func theFavouritesTabShowsThumbnailsAndAsksBeforeClearing() async throws {
    let terminal = try FakeTerminal(columns: 60, rows: 16)
    let favourites = FavouritesClient.inMemory(["pug", "hound/afghan"])
    let app = InteractiveApp.inProcess(
      terminal: terminal, display: Display(unicode: true, colorMode: .truecolor, pictureMode: .blocks)
    ) { AppFeature(client: .fake(), pictureSize: { (60, 40) }, favourites: favourites, end: $0) }
    let run = Task { await app.run() }
    #expect(
      await terminal.eventually { $0.text.contains("Affenpinscher") && $0.text.contains("Favourites (2)") })
    terminal.type("\t")
    #expect(await terminal.eventually { $0.lines.contains { $0.hasSuffix("▶ Afghan Hound ★") } })
    // Both rows' thumbnails arrive: coloured cells at the left of each.
    #expect(
      await terminal.eventually { screen in
        (0..<screen.height).filter { screen[0, $0].style.background != nil }.count >= 6
      })
    terminal.type("x")
    #expect(await terminal.eventually { $0.text.contains("Clear all favourites?") })
    terminal.type("\u{1B}")
    #expect(await terminal.eventually { !$0.text.contains("Clear all favourites?") })
    terminal.type("\t")
    #expect(await terminal.eventually { $0.text.contains("Affenpinscher") })
    terminal.type("\u{3}")
    #expect(await run.value == 0)
    #expect(try await favourites.load().favourites == ["pug", "hound/afghan"])
  }

  @Test func theEndOfInputEndsTheApp() async throws {
    let terminal = try FakeTerminal(columns: 40, rows: 12)
    let app = InteractiveApp.inProcess(
      terminal: terminal, display: Display(unicode: false, colorMode: ColorMode.none, pictureMode: .none)
    ) { AppFeature(client: .fake(), end: $0) }
    let run = Task { await app.run() }
    #expect(await terminal.eventually { $0.text.contains("Affenpinscher") })
    terminal.closeInput()
    #expect(await run.value == 0)
    #expect(terminal.restored)
  }
}

extension InteractiveApp {
  /// The app on `terminal`, without the process's signals, its store running the feature
  /// made with the app's way of ending.
  static func inProcess(
    terminal: FakeTerminal, display: Display,
    _ feature: (@escaping @Sendable () async -> Void) -> AppFeature
  ) -> InteractiveApp {
    let ending = AppEnding()
    return InteractiveApp(
      store: Store(initialState: AppFeature.State(), reducer: feature(ending.end)), terminal: terminal,
      display: display, ifAmbiguousWide: nil, escapeDelay: 5, ending: ending, handlesSignals: false)
  }
}

/// A terminal whose keys come through a pipe and whose frames land on a virtual screen.
final class FakeTerminal: TerminalDevice, @unchecked Sendable {
  let inputFD: Int32
  private let keysFD: Int32
  private let state: Mutex<(screen: VirtualTerminal, entered: Bool, restored: Bool, keysOpen: Bool)>

  init(columns: Int, rows: Int) throws {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
    (inputFD, keysFD) = (ends[0], ends[1])
    state = Mutex((VirtualTerminal(width: columns, height: rows), false, false, true))
  }

  deinit {
    close(inputFD)
    closeInput()
  }

  var entered: Bool { state.withLock { $0.entered } }
  var restored: Bool { state.withLock { $0.restored } }

  func enter() throws { state.withLock { $0.entered = true } }
  func restore() { state.withLock { $0.restored = true } }
  func suspend() {}
  func size() -> (columns: Int, rows: Int) { state.withLock { ($0.screen.width, $0.screen.height) } }
  func write(_ bytes: [UInt8]) { state.withLock { $0.screen.apply(bytes) } }

  /// Sends keys, as typed.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(keysFD, $0.baseAddress, $0.count) }
  }

  /// Ends the input, as a closed terminal does.
  func closeInput() {
    state.withLock {
      guard $0.keysOpen else { return }
      $0.keysOpen = false
      close(keysFD)
    }
  }

  /// Waits (bounded, and scaled for sanitizer runs: the main actor it waits on is shared
  /// with every test running beside it) until the screen shows what `condition` looks for.
  @MainActor
  func eventually(_ condition: (VirtualTerminal) -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + Duration.seconds(10).scaled
    while ContinuousClock.now < deadline {
      if state.withLock({ condition($0.screen) }) { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return false
  }
}
