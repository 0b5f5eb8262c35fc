import Core
import Foundation
import TestSupport
import Testing

@MainActor
struct PrintChangesTests {
  @Test func logsTheActionAndTheStateDiff() {
    let log = Log<String>()
    let store = Store(initialState: Counter.State(), reducer: Counter()._printChanges { log.append($0) })
    store.send(.increment)
    store.send(.set(1))
    #expect(log.values.count == 2)
    #expect(
      log.values[0] == "received action:\n  .increment\n  Counter.State(\n-   count: 0\n+   count: 1\n  )\n")
    #expect(log.values[1] == "received action:\n  .set(1)\n  (no state changes)\n")
  }
}
