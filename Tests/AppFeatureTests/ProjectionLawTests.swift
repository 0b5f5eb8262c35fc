import AppFeature
import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import DogsFeature
import Foundation
import TestSupport
import Testing

struct ProjectionLawTests {
  let states: [AppFeature.State] = [
    AppFeature.State(),
    AppFeature.State(breeds: list, dogsFilter: "ho", dogsStatus: .loaded, dogsHighlighted: "hound"),
    AppFeature.State(
      dogsStatus: .failed(.timedOut(seconds: 10)), breed: BreedFeature.State(breed: Breed(name: "pug"))),
  ]
  let dogsStates: [DogsFeature.State] = [
    DogsFeature.State(),
    DogsFeature.State(breeds: list, filter: "x", status: .loaded, highlighted: "pug"),
    DogsFeature.State(breeds: nil, filter: "", status: .loading),
    // Every field, those the app never looks at too (when it last failed).
    DogsFeature.State(
      breeds: list, filter: "a", status: .loaded, favourites: ["pug"], failures: 2,
      lastFailure: Date(timeIntervalSince1970: 5)),
  ]

  @Test func getThenSetChangesNothing() {
    for state in states {
      var copy = state
      copy.dogs = copy.dogs
      #expect(copy == state)
    }
  }

  @Test func setThenGetReturnsWhatWasSet() {
    for state in states {
      for dogs in dogsStates {
        var copy = state
        copy.dogs = dogs
        #expect(copy.dogs == dogs)
        #expect(copy.breed == state.breed, "the projection must not touch the rest of the app")
      }
    }
  }

  @Test func theListIsSharedBothWays() {
    var state = AppFeature.State(breeds: list, dogsStatus: .loaded)
    let fresh = BreedList(breeds: [Breed(name: "boxer")], source: .cache)
    state.dogs.breeds = fresh  // a change the Dogs feature makes…
    #expect(state.breeds == fresh)  // …lands in the shared list
    state.breeds = list  // a change the app makes…
    #expect(state.dogs.breeds == list)  // …is what the Dogs feature sees
  }
}
