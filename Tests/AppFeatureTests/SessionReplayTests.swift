import AppFeature
import Core
import DogAPIClient
import Foundation
import ImageDecoding
import Synchronization
import TestSupport
import Testing

/// The app's reducer, recording every action the store reduces and the state it leads to.
struct Recording: Reducer {
  let base: AppFeature
  let log: ReducedActions

  func reduce(into state: inout AppFeature.State, action: AppFeature.Action) -> Effect<AppFeature.Action> {
    let effect = base.reduce(into: &state, action: action)
    log.append(action, state)
    return effect
  }
}

/// The actions a store reduced, each with the state it led to.
final class ReducedActions: @unchecked Sendable {
  private let lock = NSLock()
  private var steps: [(action: AppFeature.Action, state: AppFeature.State)] = []
  var values: [(action: AppFeature.Action, state: AppFeature.State)] { lock.withLock { steps } }
  func append(_ action: AppFeature.Action, _ state: AppFeature.State) {
    lock.withLock { steps.append((action, state)) }
  }
}

/// A session recorded as a log of actions, written as JSON lines (each picture once), read
/// back and reduced again without effects, reaches the state the session did: the reducers
/// read nothing but their state and their actions (not the time a load failed, say).
@MainActor
struct SessionReplayTests {
  @Test func aSessionReplayedFromItsLogReachesTheSameState() async throws {
    let size: @Sendable () -> (width: Int, height: Int) = { (40, 30) }
    let loads = Mutex(0)
    let fake = DogAPIClient.fake()
    var client = fake
    // The first load fails, at whatever time it is: the state keeps when.
    client.breeds = { () async throws(DogAPIError) -> BreedList in
      if loads.withLock({ count in
        count += 1
        return count
      }) == 1 {
        throw .offline
      }
      return try await fake.breeds()
    }
    let log = ReducedActions()
    let store = Store(initialState: AppFeature.State()) {
      Recording(base: AppFeature(client: client, pictureSize: size), log: log)
    }
    for action: AppFeature.Action in [
      .dogs(.appeared), .dogs(.retryRequested), .dogs(.filterChanged("hou")), .dogs(.rowSelected("hound")),
      .breed(.anotherPictureRequested), .breed(.favouriteToggled), .breed(.subBreedSelected("afghan")),
      .breed(.anotherPictureRequested), .breedScreenDismissed, .breedScreenDismissed,
      .tabSelected(.favourites),
    ] {
      await store.send(action).finish()
    }
    #expect(log.values.contains { $0.state.dogsTab.lastFailure != nil })
    #expect(
      store.state.favouritesTab.rows.first.map { if case .loaded = $0.thumbnail { true } else { false } }
        == true)

    // Written: each line after the blobs it refers to.
    let pixels = RGBImage.PixelStore()
    let encoder = JSONEncoder()
    encoder.userInfo[RGBImage.pixelStoreKey] = pixels
    var lines: [Data] = []
    for (action, _) in log.values {
      let line = try encoder.encode(action)
      lines += try pixels.takeNew().map { try JSONEncoder().encode($0) }
      lines.append(line)
    }

    // Read back and reduced by a reducer made the same way, whose effects never run.
    let reader = RGBImage.PixelStore()
    let decoder = JSONDecoder()
    decoder.userInfo[RGBImage.pixelStoreKey] = reader
    let replayer = AppFeature(client: .failing, pictureSize: size)
    var state = AppFeature.State()
    var replayed: [AppFeature.State] = []
    for line in lines {
      if let blob = try? JSONDecoder().decode(RGBImage.PixelStore.Blob.self, from: line) {
        reader.add(blob)
        continue
      }
      _ = replayer.reduce(into: &state, action: try decoder.decode(AppFeature.Action.self, from: line))
      replayed.append(state)
    }
    let recorded = log.values.map(\.state)
    #expect(replayed.count == recorded.count)
    // The first step that differs, if any.
    let step = zip(recorded, replayed).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    #expect(step == nil, "step \(step ?? 0): \(step.map { String(describing: log.values[$0].action) } ?? "")")
    #expect(state == store.state)
  }
}
