import AppFeature
import Testing
import TextRendering

/// Ctrl-T drops a marker while the session is recorded, on every screen and over the keys
/// overlay, and the overlay names it only then.
@MainActor
struct MarkerKeyTests {
  func responses(_ state: AppFeature.State) -> [KeyResponse] {
    AppFeature.responses(to: .key(.ctrl("t")), in: state, pageRows: 10)
  }

  func overlayRows(_ state: AppFeature.State) -> [String] {
    var state = state
    state.help = AppFeature.State.Help()
    return AppFeature.ViewState(state).modal?.rows.map(\.name) ?? []
  }

  @Test func ctrlTMarksOnlyWhileRecording() {
    var state = AppFeature.State()
    #expect(responses(state).isEmpty)
    #expect(!overlayRows(state).contains("Ctrl-T"))
    _ = AppFeature(client: .failing).reduce(into: &state, action: .terminal(.recording))
    #expect(state.screen.isRecording)
    #expect(responses(state) == [.mark])
    #expect(overlayRows(state).contains("Ctrl-T"))
    // Over the overlay too, and typing in the filter does not take it.
    state.help = AppFeature.State.Help()
    #expect(responses(state) == [.mark])
    #expect(AppFeature.keyTable.contains { $0.keys == "Ctrl-T" && $0.place == .everywhere })
  }
}
