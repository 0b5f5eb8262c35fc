import Core
import Foundation

/// A small feature with every kind of effect a TestStore must track.
struct Feature: Reducer {
  struct State: Equatable {
    var count = 0
    var text = ""
    var isLoading = false
  }
  enum Action: Equatable, Sendable {
    case increment
    case noop
    case load
    case loaded(Int)
    case chain
    case step(Int)
    case longLiving
    case stopLongLiving
    case settle
    case setText(String)
  }
  var answer: @Sendable () async throws -> Int = { 42 }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .noop:
      return .none
    case .load:
      state.isLoading = true
      let answer = answer
      return .run { send in await send(.loaded(try await answer())) }
    case .loaded(let value):
      state.isLoading = false
      state.count = value
      return .none
    case .chain:
      return .merge(.send(.step(1)), .send(.step(2)))
    case .step(let value):
      state.count += value
      return .none
    case .longLiving:
      return .run { _ in try await Task.sleep(for: .seconds(3600)) }  // outlives any test run
        .cancellable(id: "longLiving")
    case .stopLongLiving:
      return .cancel(id: "longLiving")
    case .settle:
      return .run { _ in try await Task.sleep(for: .milliseconds(50)) }  // ends by itself, sending nothing
    case .setText(let text):
      state.text = text
      return .none
    }
  }
}
