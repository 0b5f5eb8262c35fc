import Core
import CoreTesting
import DogAPIClient
import DogsFeature
import Foundation
import TestSupport
import Testing

let sample = BreedList(
  breeds: [
    Breed(name: "pug"), Breed(name: "hound", subBreeds: ["afghan", "basset"]), Breed(name: "affenpinscher"),
    Breed(name: "african", subBreeds: ["wild"]), Breed(name: "husky"),
  ], source: .network)

/// What time it is in these tests: when every answer arrives.
let now = Date(timeIntervalSince1970: 1_795_000_000)

/// The feature on `client`, its clock stopped at ``now``.
func dogsFeature(_ client: DogAPIClient) -> DogsFeature { DogsFeature(client: client, now: { now }) }

/// Counts calls, thread-safely.
final class Calls: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  var count: Int { lock.withLock { value } }
  func record() { lock.withLock { value += 1 } }
}

@MainActor
struct DogsFeatureTests {
  func client(_ breeds: @escaping @Sendable () async throws(DogAPIError) -> BreedList) -> DogAPIClient {
    var client = DogAPIClient.failing
    client.breeds = breeds
    return client
  }

  /// A list saved by an earlier run shows at once, marked as saved and being updated, and
  /// the network's answer replaces it in place; the highlight stays where it was.
  @Test func aSavedListShowsWhileTheNetworkAnswers() async {
    let gate = Gate()
    var saved = sample
    saved.source = .cache
    saved.fetchedAt = Date(timeIntervalSince1970: 1_795_000_000)
    var client = client { () async throws(DogAPIError) -> BreedList in
      await gate.wait()
      return sample
    }
    let reads = Calls()
    client.savedBreeds = { [saved] in
      reads.record()
      return saved
    }
    let store = TestStore(initialState: DogsFeature.State()) { dogsFeature(client) }
    await store.send(.appeared) { $0.status = .loading }
    await store.receive(.savedBreedsLoaded(saved)) {
      $0.breeds = saved
      $0.highlighted = "affenpinscher"
    }
    let view = DogsFeature.ViewState(store.state)
    #expect(view.isReloading && view.highlightedBreed == "affenpinscher")
    #expect(view.reloadingNote == "Showing the breed list saved on 2026-11-18. Updating…")
    await store.send(.highlightMoved(.down)) { $0.highlighted = "african" }
    await gate.open()
    await store.receive(.breedsResponse(.success(sample), at: now)) {
      $0.breeds = sample
      $0.status = .loaded
    }
    // Loaded again over a list: nothing saved is read.
    await store.send(.retryRequested) { $0.status = .loading }
    await store.receive(.breedsResponse(.success(sample), at: now)) { $0.status = .loaded }
    #expect(reads.count == 1)
  }

  @Test func appearingLoadsTheBreeds() async {
    let store = TestStore(initialState: DogsFeature.State()) {
      dogsFeature(client { sample })
    }
    await store.send(.appeared) { $0.status = .loading }
    await store.receive(.breedsResponse(.success(sample), at: now)) {
      $0.breeds = sample
      $0.status = .loaded
      $0.highlighted = "affenpinscher"
    }
    await store.finish()
  }

  /// A retry that fails again says how many tries it has been, on the failure screen and
  /// in the note over a list kept on screen.
  @Test func aRetryThatFailsAgainSaysSo() async {
    let store = TestStore(initialState: DogsFeature.State()) {
      dogsFeature(
        client { () async throws(DogAPIError) -> BreedList in throw .timedOut(seconds: 10) })
    }
    await store.send(.appeared) { $0.status = .loading }
    await store.receive(.breedsResponse(.failure(.timedOut(seconds: 10)), at: now)) {
      $0.status = .failed(.timedOut(seconds: 10))
      $0.failures = 1
      $0.lastFailure = now
    }
    await store.send(.retryRequested) { $0.status = .loading }
    await store.receive(.breedsResponse(.failure(.timedOut(seconds: 10)), at: now)) {
      $0.status = .failed(.timedOut(seconds: 10))
      $0.failures = 2
      $0.lastFailure = now
    }
    #expect(
      DogsFeature.ViewState(store.state).content
        == .failed(
          message:
            "Couldn't load the breeds. The server took longer than 10 s to answer. (tried 2 times, last at \(String.clockTime(now)))",
          canRetry: true))
    var kept = DogsFeature.State(breeds: sample, status: .loaded, failures: 2)
    kept.breeds?.fallbackReason = .timedOut(seconds: 10)
    #expect(
      DogsFeature.ViewState(kept).note?.hasSuffix("Still showing the earlier breed list. (tried 2 times)")
        == true)
  }

  @Test func aFailureIsShownAndRetryLoadsAgain() async {
    let calls = Calls()
    let store = TestStore(initialState: DogsFeature.State()) {
      dogsFeature(
        client { () async throws(DogAPIError) -> BreedList in
          calls.record()
          if calls.count == 1 { throw .unreachable(host: "dog.ceo") }
          return sample
        })
    }
    await store.send(.appeared) { $0.status = .loading }
    await store.receive(.breedsResponse(.failure(.unreachable(host: "dog.ceo")), at: now)) {
      $0.status = .failed(.unreachable(host: "dog.ceo"))
      $0.failures = 1
      $0.lastFailure = now
    }
    await store.send(.retryRequested) { $0.status = .loading }
    await store.receive(.breedsResponse(.success(sample), at: now)) {
      $0.breeds = sample
      $0.status = .loaded
      $0.highlighted = "affenpinscher"
      $0.failures = 0
      $0.lastFailure = nil
    }
    #expect(calls.count == 2)
  }

  @Test func appearingTwiceWhileLoadingLoadsOnce() async {
    let calls = Calls()
    let gate = Gate()
    let store = TestStore(initialState: DogsFeature.State()) {
      dogsFeature(
        client {
          calls.record()
          await gate.wait()
          return sample
        })
    }
    await store.send(.appeared) { $0.status = .loading }
    await store.send(.appeared)
    await gate.open()
    await store.receive(.breedsResponse(.success(sample), at: now)) {
      $0.breeds = sample
      $0.status = .loaded
      $0.highlighted = "affenpinscher"
    }
    await store.send(.appeared)  // already loaded: nothing happens
    #expect(calls.count == 1)
  }

  @Test func aNewerLoadCancelsASlowOlderOne() async {
    let calls = Calls()
    let firstStarted = Gate()
    let releaseFirst = Gate()
    let fresh = BreedList(breeds: [Breed(name: "akita")], source: .network)
    let store = TestStore(initialState: DogsFeature.State()) {
      dogsFeature(
        client { () async throws(DogAPIError) -> BreedList in
          calls.record()
          if calls.count == 1 {
            await firstStarted.open()
            await releaseFirst.wait()
            return sample  // late and stale: must never arrive
          }
          return fresh
        })
    }
    await store.send(.appeared) { $0.status = .loading }
    await firstStarted.wait()
    await store.send(.retryRequested)
    await store.receive(.breedsResponse(.success(fresh), at: now)) {
      $0.breeds = fresh
      $0.status = .loaded
      $0.highlighted = "akita"
    }
    await releaseFirst.open()
    try? await Task.sleep(for: .milliseconds(50))
    await store.finish()
  }

  @Test func typingFiltersAndKeepsTheHighlightOnAVisibleRow() async {
    let store = TestStore(
      initialState: DogsFeature.State(breeds: sample, status: .loaded, highlighted: "affenpinscher")
    ) {
      dogsFeature(.failing)
    }
    await store.send(.filterChanged("Ho")) {
      $0.filter = "Ho"
      $0.highlighted = "hound"
    }
    await store.send(.filterChanged("H")) { $0.filter = "H" }  // "hound" starts with "h": it stays
    await store.send(.filterChanged("Hu")) {
      $0.filter = "Hu"
      $0.highlighted = "husky"
    }
    await store.send(.filterChanged("")) { $0.filter = "" }
  }

  @Test func aNewListKeepsTheHighlightWhileItsBreedIsStillShown() async {
    // Filtered by "p", the highlight moved from Pug (where typing aims it) to
    // Affenpinscher; a reload that still lists Affenpinscher keeps it there, one that does
    // not puts the highlight where the filter aims it.
    let withoutIt = BreedList(breeds: sample.breeds.filter { $0.name != "affenpinscher" }, source: .network)
    let answers = [sample, withoutIt]
    let calls = Calls()
    let store = TestStore(
      initialState: DogsFeature.State(
        breeds: sample, filter: "p", status: .loaded, highlighted: "affenpinscher")
    ) {
      dogsFeature(
        client { () async throws(DogAPIError) -> BreedList in
          calls.record()
          return answers[calls.count - 1]
        })
    }
    await store.send(.retryRequested) { $0.status = .loading }
    await store.receive(.breedsResponse(.success(sample), at: now)) { $0.status = .loaded }
    await store.send(.retryRequested) { $0.status = .loading }
    await store.receive(.breedsResponse(.success(withoutIt), at: now)) {
      $0.breeds = withoutIt
      $0.status = .loaded
      $0.highlighted = "pug"
    }
  }

  @Test func aListThatIsNotFreshIsLoadedAgainAndStaysMeanwhile() async {
    let bundled = BreedList(breeds: sample.breeds, source: .bundled, fallbackReason: .timedOut(seconds: 2))
    let store = TestStore(
      initialState: DogsFeature.State(breeds: bundled, filter: "h", status: .loaded, highlighted: "husky")
    ) {
      dogsFeature(client { sample })
    }
    // The list is kept while the new one loads (the screen keeps showing it).
    await store.send(.retryRequested) { $0.status = .loading }
    await store.receive(.breedsResponse(.success(sample), at: now)) {
      $0.breeds = sample
      $0.status = .loaded
    }
    await store.finish()
  }

  @Test func loadingAgainThatFailsKeepsTheListAndSaysWhy() async {
    let store = TestStore(
      initialState: DogsFeature.State(breeds: sample, status: .loaded, highlighted: "pug")
    ) {
      dogsFeature(client { () async throws(DogAPIError) -> BreedList in throw .offline })
    }
    await store.send(.retryRequested) { $0.status = .loading }
    await store.receive(.breedsResponse(.failure(.offline), at: now)) {
      $0.breeds?.fallbackReason = .offline
      $0.status = .loaded
      $0.failures = 1
      $0.lastFailure = now
    }
    // With no breeds to keep, the failure is the screen.
    let empty = BreedList(breeds: [], source: .network)
    let emptyStore = TestStore(initialState: DogsFeature.State(breeds: empty, status: .loaded)) {
      dogsFeature(client { () async throws(DogAPIError) -> BreedList in throw .offline })
    }
    await emptyStore.send(.retryRequested) { $0.status = .loading }
    await emptyStore.receive(.breedsResponse(.failure(.offline), at: now)) {
      $0.status = .failed(.offline)
      $0.failures = 1
      $0.lastFailure = now
    }
  }

  @Test func whatIsTypedWhileTheListLoadsAimsTheHighlightWhenItArrives() async {
    let hounds = BreedList(breeds: ["coonhound", "hound", "pug"].map { Breed(name: $0) }, source: .network)
    let answer = Gate()
    let store = TestStore(initialState: DogsFeature.State()) {
      dogsFeature(
        client { () async throws(DogAPIError) -> BreedList in
          await answer.wait()
          return hounds
        })
    }
    await store.send(.appeared) { $0.status = .loading }
    await store.send(.filterChanged("hou")) { $0.filter = "hou" }  // no list yet: no highlight
    await answer.open()
    await store.receive(.breedsResponse(.success(hounds), at: now)) {
      $0.breeds = hounds
      $0.status = .loaded
      $0.highlighted = "hound"  // not Coonhound, the first row that contains "hou"
    }
  }

  @Test func typingANameHighlightsItEvenBelowRowsThatContainIt() async {
    let hounds = BreedList(
      breeds: ["coonhound", "deerhound", "hound", "houndish", "otterhound"].map { Breed(name: $0) },
      source: .network)
    let store = TestStore(initialState: DogsFeature.State(breeds: hounds, status: .loaded)) {
      dogsFeature(.failing)
    }
    await store.send(.filterChanged("o")) {
      $0.filter = "o"
      $0.highlighted = "otterhound"  // the only name that starts with "o"
    }
    await store.send(.filterChanged("ou")) { $0.filter = "ou" }  // none starts with "ou": it stays
    await store.send(.filterChanged("oo")) {
      $0.filter = "oo"
      $0.highlighted = "coonhound"  // otterhound went; none starts with "oo": the first row
    }
    await store.send(.filterChanged("houn")) {
      $0.filter = "houn"
      $0.highlighted = "hound"  // starts with it, though two rows above contain it
    }
    await store.send(.highlightMoved(.down)) { $0.highlighted = "houndish" }
    await store.send(.filterChanged("hound")) {
      $0.filter = "hound"
      $0.highlighted = "hound"  // the whole name: Enter opens what was typed
    }
    await store.send(.highlightMoved(.down)) { $0.highlighted = "houndish" }
    await store.send(.filterChanged("houn")) { $0.filter = "houn" }  // as good a match: it stays
    await store.send(.filterChanged("xyz")) {
      $0.filter = "xyz"
      $0.highlighted = nil
    }
  }

  @Test func rankedMatchesPutTheNamedBreedFirstThenThoseStartingWithTheFilter() {
    let hounds = BreedList(
      breeds: ["coonhound", "deerhound", "hound", "houndish", "otterhound", "pug"].map { Breed(name: $0) },
      source: .network)
    func ranked(_ filter: String) -> [String] {
      DogsFeature.rankedMatches(in: hounds, filter: filter).map { hounds.breeds[$0].name }
    }
    #expect(ranked("Hound") == ["hound", "houndish", "coonhound", "deerhound", "otterhound"])
    #expect(ranked("oun") == ["coonhound", "deerhound", "hound", "houndish", "otterhound"])
    #expect(ranked("o") == ["otterhound", "coonhound", "deerhound", "hound", "houndish"])
    #expect(ranked("xyz").isEmpty)
    #expect(ranked("") == hounds.breeds.map(\.name))
    // Several words: the name they spell first, then those starting with the first word.
    #expect(ranked("hound ish") == ["houndish"])
    #expect(ranked("ound h") == ["coonhound", "deerhound", "hound", "houndish", "otterhound"])
    #expect(ranked("ound er") == ["deerhound", "otterhound"])
    #expect(ranked("hou nd") == ["hound", "houndish", "coonhound", "deerhound", "otterhound"])
    // Starting with the first word is what counts, not with the words run together.
    #expect(ranked("hound h") == ["hound", "houndish", "coonhound", "deerhound", "otterhound"])
    // Pasted with characters no one sees (a zero-width space, a soft hyphen) or a no-break
    // space: as typed.
    #expect(ranked("Hou\u{200B}nd") == ranked("Hound"))
    #expect(ranked("hound\u{AD}ish") == ["houndish"])
    #expect(ranked("ound\u{A0}er") == ranked("ound er"))
  }

  @Test func selectingARowTellsTheParent() async {
    let store = TestStore(
      initialState: DogsFeature.State(breeds: sample, status: .loaded, highlighted: "affenpinscher")
    ) {
      dogsFeature(.failing)
    }
    await store.send(.rowSelected("hound")) { $0.highlighted = "hound" }
    await store.receive(.delegate(.breedSelected("hound")))
    // A sub-breed found by the filter ("afgh") is passed up with its breed.
    await store.send(.filterChanged("afgh")) {
      $0.filter = "afgh"
      $0.highlighted = nil  // no breed matches
    }
    await store.send(.subBreedMatchSelected(breed: "hound", subBreed: "afghan"))
    await store.receive(.delegate(.subBreedSelected(breed: "hound", subBreed: "afghan")))
  }

  @Test func theHighlightMovesWithinTheVisibleRowsAndStopsAtTheEnds() async {
    let store = TestStore(
      initialState: DogsFeature.State(breeds: sample, status: .loaded, highlighted: "affenpinscher")
    ) {
      dogsFeature(.failing)
    }
    await store.send(.highlightMoved(.up))
    await store.send(.highlightMoved(.down)) { $0.highlighted = "african" }
    await store.send(.highlightMoved(.pageDown(rows: 10))) { $0.highlighted = "pug" }
    await store.send(.highlightMoved(.down))
    await store.send(.highlightMoved(.first)) { $0.highlighted = "affenpinscher" }
    await store.send(.highlightMoved(.last)) { $0.highlighted = "pug" }
    await store.send(.highlightMoved(.pageUp(rows: 2))) { $0.highlighted = "hound" }
    // A page of no rows (a screen too short for the list) still moves one.
    await store.send(.highlightMoved(.pageUp(rows: 0))) { $0.highlighted = "african" }
    await store.send(.highlightMoved(.pageDown(rows: 0))) { $0.highlighted = "hound" }
    await store.send(.filterChanged("af")) {
      $0.filter = "af"
      $0.highlighted = "affenpinscher"
    }
    await store.send(.highlightMoved(.last)) { $0.highlighted = "african" }
  }

  /// A click names a breed, not a place: the highlight goes to that breed wherever the list
  /// has it now (a filter typed, or a list arrived, since the click's frame was drawn),
  /// and stays where the rows shown no longer have it.
  @Test func aMoveToABreedFindsItInTheListAsItIsNow() async {
    let store = TestStore(
      initialState: DogsFeature.State(breeds: sample, status: .loaded, highlighted: "pug")
    ) {
      dogsFeature(.failing)
    }
    await store.send(.highlightMoved(.item("affenpinscher"))) { $0.highlighted = "affenpinscher" }
    // The filter narrows the list: Husky is the second row now, not the fifth.
    await store.send(.filterChanged("h")) {
      $0.filter = "h"
      $0.highlighted = "hound"
    }
    await store.send(.highlightMoved(.item("husky"))) { $0.highlighted = "husky" }
    // Pug is filtered out, and there is no such breed as Afghan: the highlight stays.
    await store.send(.highlightMoved(.item("pug")))
    await store.send(.highlightMoved(.item("afghan")))
    // A list arrives with a breed before them all: Hound is found where it is now.
    let arrived = BreedList(breeds: [Breed(name: "hokkaido")] + sample.breeds, source: .network)
    await store.send(.breedsResponse(.success(arrived), at: now)) { $0.breeds = arrived }
    await store.send(.highlightMoved(.item("hound"))) { $0.highlighted = "hound" }
    // With no list at all, nothing moves.
    let empty = TestStore(initialState: DogsFeature.State()) { dogsFeature(.failing) }
    await empty.send(.highlightMoved(.item("pug")))
  }

  @Test func theFailingClientFailsATestThatLoadsUnplanned() async {
    await withKnownIssue {
      let store = TestStore(initialState: DogsFeature.State()) { dogsFeature(.failing) }
      await store.send(.appeared) { $0.status = .loading }
      await store.receive(.breedsResponse(.failure(.unimplemented(endpoint: "DogAPIClient.breeds")), at: now))
      {
        $0.status = .failed(.unimplemented(endpoint: "DogAPIClient.breeds"))
        $0.failures = 1
        $0.lastFailure = now
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "unimplemented: DogAPIClient.breeds" }
    }
  }
}
