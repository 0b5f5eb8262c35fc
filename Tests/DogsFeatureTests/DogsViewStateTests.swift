import DogAPIClient
import DogsFeature
import Foundation
import Testing

struct DogsViewStateTests {
  func rows(_ state: DogsFeature.State) -> [String] {
    guard case .loaded(let rows) = DogsFeature.ViewState(state).content else { return [] }
    return rows.map(\.title)
  }

  @Test func rowsAreSortedAndCapitalised() {
    #expect(
      rows(.init(breeds: sample, status: .loaded)) == ["Affenpinscher", "African", "Hound", "Husky", "Pug"])
  }

  @Test func filteringIsCaseInsensitiveContainsOnTheDisplayedName() {
    #expect(rows(.init(breeds: sample, filter: "HOU", status: .loaded)) == ["Hound"])
    #expect(rows(.init(breeds: sample, filter: "u", status: .loaded)) == ["Hound", "Husky", "Pug"])
    #expect(rows(.init(breeds: sample, filter: "af", status: .loaded)) == ["Affenpinscher", "African"])
    #expect(rows(.init(breeds: sample, filter: "", status: .loaded)).count == 5)
    // Accents and full-width letters, as a name may be written in its own language or typed
    // by an input method, find the plain letters of the list.
    #expect(rows(.init(breeds: sample, filter: "Hóu", status: .loaded)) == ["Hound"])
    #expect(rows(.init(breeds: sample, filter: "ＰＵＧ", status: .loaded)) == ["Pug"])
    #expect(rows(.init(breeds: sample, filter: "ÁF cän", status: .loaded)) == ["African"])
  }

  @Test func aFilterOfSeveralWordsFindsNamesHoldingEachOfThem() {
    // No name has a space, so "contains" alone would find nothing for these.
    #expect(rows(.init(breeds: sample, filter: "af can", status: .loaded)) == ["African"])
    #expect(rows(.init(breeds: sample, filter: "CAN  af", status: .loaded)) == ["African"])
    #expect(rows(.init(breeds: sample, filter: "af xyz", status: .loaded)) == [])
    // Spaces alone ask for nothing, like an empty filter.
    #expect(rows(.init(breeds: sample, filter: "   ", status: .loaded)).count == 5)
  }

  @Test func aFilterThatIsNoBreedFindsSubBreedsStartingWithItFirst() {
    func found(_ list: BreedList, _ filter: String) -> [String] {
      DogsFeature.ViewState(.init(breeds: list, filter: filter, status: .loaded)).subBreedMatches.map(\.title)
    }
    #expect(found(sample, "Wild") == ["African Wild"])
    #expect(found(sample, "a") == [])  // breeds match: no sub-breeds are offered
    #expect(found(sample, "xyz") == [])
    let many = BreedList(
      breeds: [
        Breed(name: "alpha", subBreeds: ["yx", "xone", "xtwo"]), Breed(name: "beta", subBreeds: ["xthree"]),
      ],
      source: .network)
    // Those starting with "x" first, in list order, then the rest; three at most.
    #expect(found(many, "x") == ["Xone Alpha", "Xtwo Alpha", "Xthree Beta"])
    #expect(
      DogsFeature.ViewState(.init(breeds: many, filter: "one", status: .loaded)).subBreedMatches
        == [DogsFeature.SubBreedMatch(breed: "alpha", subBreed: "xone", title: "Xone Alpha")])
  }

  @Test func subBreedsAreFoundByTheTitleTheAppGivesThemInEitherOrder() {
    func found(_ filter: String) -> [String] {
      DogsFeature.subBreedMatches(in: sample, filter: filter).map(\.path)
    }
    #expect(found("afghan hound") == ["hound/afghan"])
    #expect(found("Hound Afghan") == ["hound/afghan"])
    #expect(found("wild afr") == ["african/wild"])
    // Every word must be in the same sub-breed's title.
    #expect(found("afghan african") == [])
    #expect(found("  ") == [])
    // The sub-breed the words spell comes before those they only start or appear in.
    let list = BreedList(
      breeds: [
        Breed(name: "dane", subBreeds: ["greater", "great"]), Breed(name: "danes", subBreeds: ["great"]),
      ],
      source: .network)
    #expect(
      DogsFeature.subBreedMatches(in: list, filter: "great dane").map(\.path)
        == ["dane/great", "dane/greater", "danes/great"])
  }

  @Test func aFilterThatMisspellsABreedFindsIt() {
    func spelled(_ filter: String, in list: BreedList = sample) -> [String] {
      DogsFeature.spellingMatches(in: list, filter: filter).map(\.path)
    }
    // A letter changed, left out, put in; two side by side swapped (one slip, not two).
    #expect(spelled("hund") == ["hound"])
    #expect(spelled("houndd") == ["hound"])
    #expect(spelled("hounf") == ["hound"])
    #expect(spelled("huosk") == [])  // two slips in five letters: too far
    #expect(spelled("hsuky") == ["husky"])
    #expect(spelled("HUKSY") == ["husky"])
    #expect(spelled("afrianc") == ["african"])  // two swaps in seven letters
    #expect(spelled("afirnca") == [])  // three
    // The words of the filter are read as one name; one or two letters find nothing.
    #expect(spelled("hus ky") == ["husky"])
    #expect(spelled("pgu") == ["pug"])
    #expect(spelled("pu") == [] && spelled("p") == [] && spelled("  ") == [])
    #expect(spelled(String(repeating: "x", count: 3_000)) == [])
    // The closest first, then list order; three at most.
    let close = BreedList(
      breeds: ["bark", "barks", "bar", "bard", "bart", "barn"].map { Breed(name: $0) }, source: .network)
    #expect(spelled("barx", in: close) == ["bar", "bard", "bark"])
    #expect(spelled("barkz", in: close) == ["bark", "barks"])
    #expect(spelled("barkss", in: close) == ["barks", "bark"])  // one slip, then two
    // Among any names (a breed's sub-breeds), case aside, as they are given.
    #expect(DogsFeature.spellingMatches(of: "AFGAN", among: ["basset", "Afghan"]) == ["Afghan"])
    #expect(DogsFeature.spellingMatches(of: "afgan", among: []) == [])
    // Only where nothing else is found does the screen offer them.
    func offered(_ filter: String) -> [String] {
      DogsFeature.ViewState(.init(breeds: sample, filter: filter, status: .loaded)).spellingMatches.map(
        \.path)
    }
    #expect(offered("hsuky") == ["husky"])
    #expect(offered("husky") == [] && offered("hus") == [])  // breeds match
    // A sub-breed by its name, or its title either way round.
    #expect(offered("wlid") == ["african/wild"])
    #expect(offered("afgan hound") == ["hound/afghan"] && offered("Hound Afgan") == ["hound/afghan"])
    #expect(offered("afgahound") == ["hound/afghan"])  // two letters short of the title
    #expect(
      DogsFeature.spellingMatches(in: sample, filter: "afgan hound")
        == [DogsFeature.SpellingMatch(breed: "hound", subBreed: "afghan", title: "Afghan Hound")])
    #expect(
      DogsFeature.spellingMatches(in: sample, filter: "pgu")
        == [DogsFeature.SpellingMatch(breed: "pug", subBreed: nil, title: "Pug")])
    // At the same distance, breeds first.
    let kin = BreedList(
      breeds: [Breed(name: "spitz", subBreeds: ["akitz"]), Breed(name: "akita")], source: .network)
    #expect(spelled("akitq", in: kin) == ["akita", "spitz/akitz"])
    #expect(spelled("akitzz", in: kin) == ["spitz/akitz", "akita"])
    // A sub-breed counts by the closest of its spellings: here its title, not its name.
    let short = BreedList(
      breeds: [Breed(name: "bo", subBreeds: ["bark"]), Breed(name: "barkbx")], source: .network)
    #expect(spelled("barkbo", in: short) == ["bo/bark", "barkbx"])
    let named = BreedList(
      breeds: [Breed(name: "bo", subBreeds: ["barkbo"]), Breed(name: "barkbx")], source: .network)
    #expect(spelled("barkbo", in: named) == ["bo/barkbo", "barkbx"])  // here its name
    let both = BreedList(
      breeds: [Breed(name: "akita"), Breed(name: "spitz", subBreeds: ["akitb"])], source: .network)
    #expect(
      DogsFeature.ViewState(.init(breeds: both, filter: "akitb", status: .loaded)).spellingMatches == [])
    #expect(
      DogsFeature.ViewState(.init(breeds: both, filter: "akitc", status: .loaded)).spellingMatches.map(\.path)
        == ["akita", "spitz/akitb"])
  }

  @Test func aFilterOfWordsThatFindsNothingOffersTheBreedsItsWordsName() {
    func offered(_ filter: String, in list: BreedList = sample) -> [String] {
      DogsFeature.ViewState(.init(breeds: list, filter: filter, status: .loaded)).spellingMatches.map(\.path)
    }
    // A longer name for a breed ("Siberian Husky"), or two breeds: in the filter's order,
    // each once, three at most.
    #expect(offered("Siberian Husky") == ["husky"])
    #expect(offered("hound pug") == ["hound", "pug"])
    #expect(offered("pug pug hound husky african") == ["pug", "hound", "husky"])
    #expect(
      DogsFeature.spellingMatches(in: sample, filter: "siberian husky")
        == [DogsFeature.SpellingMatch(breed: "husky", subBreed: nil, title: "Husky")])
    // Only for several words, where nothing matched and nothing is a slip away.
    #expect(offered("husky") == [] && offered("siberian") == [])
    #expect(offered("husky hu") == [])  // matches Husky
    let near = BreedList(breeds: [Breed(name: "xyzabcdefgh"), Breed(name: "xyz")], source: .network)
    #expect(offered("xyz abcdefgk", in: near) == ["xyzabcdefgh"])
    #expect(offered("xyz qqqqqqqq", in: near) == ["xyz"])
    // A sub-breed whose own and breed's names are both among the words comes first ("Jack
    // Russell Terrier": Russell Terrier), in list order; one word alone names no sub-breed.
    let terriers = BreedList(
      breeds: [Breed(name: "terrier", subBreeds: ["russell", "fox", "jack"]), Breed(name: "spaniel")],
      source: .network)
    #expect(offered("jack russell terrier", in: terriers) == ["terrier/russell", "terrier/jack", "terrier"])
    #expect(
      offered("terrier jack russell terrier", in: terriers) == ["terrier/russell", "terrier/jack", "terrier"])
    #expect(offered("Terrier smooth fox spaniel", in: terriers) == ["terrier/fox", "terrier", "spaniel"])
    #expect(offered("russell jack yorkshire", in: terriers) == [])  // no breed among the words
    // Sub-breeds of several named breeds: in list order (by name), whatever the filter's.
    let three = BreedList(
      breeds: [
        Breed(name: "hound", subBreeds: ["afghan"]), Breed(name: "terrier", subBreeds: ["jack"]),
        Breed(name: "spaniel", subBreeds: ["cocker"]),
      ], source: .network)
    #expect(
      offered("cocker spaniel jack terrier afghan hound", in: three)
        == ["hound/afghan", "spaniel/cocker", "terrier/jack"])
    #expect(offered("russell terrierx dog", in: terriers) == [])
    // A name may be two or three words run together, as the API writes "West Highland".
    let runs = BreedList(
      breeds: [
        Breed(name: "terrier", subBreeds: ["westhighland"]), Breed(name: "sharpei"), Breed(name: "pitbull"),
      ], source: .network)
    #expect(offered("west highland white terrier", in: runs) == ["terrier/westhighland", "terrier"])
    #expect(offered("chinese shar pei", in: runs) == ["sharpei"])
    #expect(offered("american pit bull dog", in: runs) == ["pitbull"])
    let pointers = BreedList(
      breeds: [Breed(name: "pointer", subBreeds: ["germanlonghair"])], source: .network)
    #expect(
      offered("the german long hair pointer breed", in: pointers) == ["pointer/germanlonghair", "pointer"])
  }

  @Test func noMatchEmptyLoadingAndFailedAreDistinct() {
    #expect(
      DogsFeature.ViewState(.init(breeds: sample, filter: "xyz", status: .loaded)).content
        == .noMatch(query: "xyz"))
    #expect(
      DogsFeature.ViewState(.init(breeds: BreedList(breeds: [], source: .network), status: .loaded)).content
        == .empty)
    #expect(DogsFeature.ViewState(.init(status: .loading)).content == .loading)
    #expect(DogsFeature.ViewState(.init(status: .notStarted)).content == .loading)
    #expect(
      DogsFeature.ViewState(.init(status: .failed(.timedOut(seconds: 10)))).content
        == .failed(
          message: "Couldn't load the breeds. The server took longer than 10 s to answer.", canRetry: true))
    #expect(
      DogsFeature.ViewState(.init(status: .failed(.offline))).content
        == .failed(
          message: "Couldn't load the breeds. Working offline: nothing is fetched from the network.",
          canRetry: false))
  }

  @Test func viewStatesDifferWhenTheHighlightOrTheBreedsDo() {
    // The app redraws only when the view state changes: a moved highlight, or another
    // list whose matches sit at the same positions, must each count as a change.
    let base = DogsFeature.State(breeds: sample, status: .loaded, highlighted: "hound")
    var moved = base
    moved.highlighted = "husky"
    #expect(DogsFeature.ViewState(base) != DogsFeature.ViewState(moved))
    var renamed = base
    renamed.breeds = BreedList(
      breeds: sample.breeds.map {
        Breed(name: $0.name == "pug" ? "puggle" : $0.name, subBreeds: $0.subBreeds)
      },
      source: .network)
    #expect(DogsFeature.ViewState(base) != DogsFeature.ViewState(renamed))
    #expect(DogsFeature.ViewState(base) == DogsFeature.ViewState(base))
  }

  @Test func theHighlightedBreedIsTheOneEnterOpens() {
    let view = DogsFeature.ViewState(
      .init(breeds: sample, filter: "h", status: .loaded, highlighted: "husky"))
    #expect(view.highlightedBreed == "husky")
    #expect(
      DogsFeature.ViewState(.init(breeds: sample, filter: "ou", status: .loaded)).highlightedBreed == "hound")
    #expect(
      DogsFeature.ViewState(.init(breeds: sample, filter: "zz", status: .loaded)).highlightedBreed == nil)
  }

  /// A fresh list that left names out says how many, once; the first row is a breed.
  @Test func aListThatLeftNamesOutSaysHowMany() {
    let list = BreedList(
      breeds: [Breed(name: "akita"), Breed(name: "pug")], source: .network, leftOutNames: 3)
    let view = DogsFeature.ViewState(.init(breeds: list, status: .loaded))
    #expect(view.note == "3 names in the server's answer are not breed names; they are left out.")
    #expect(view.highlightedBreed == "akita")
    var one = list
    one.leftOutNames = 1
    #expect(
      DogsFeature.ViewState(.init(breeds: one, status: .loaded)).note
        == "1 name in the server's answer is not a breed name; it is left out.")
  }

  @Test func aStaleListSaysWhereItCameFrom() {
    var cached = BreedList(
      breeds: sample.breeds, source: .cache, fetchedAt: Date(timeIntervalSince1970: 1_700_000_000),
      fallbackReason: .unreachable(host: "dog.ceo"))
    #expect(
      DogsFeature.ViewState(.init(breeds: cached, status: .loaded)).note
        == "Can't reach dog.ceo: you may be offline. Showing the breed list saved on 2023-11-14.")
    cached.source = .bundled
    #expect(
      DogsFeature.ViewState(.init(breeds: cached, status: .loaded)).note
        == "Can't reach dog.ceo: you may be offline. Showing the built-in breed list.")
    // A server that answered with an error is not "offline": the note says what happened.
    cached.fallbackReason = .server(status: 503, message: nil)
    #expect(
      DogsFeature.ViewState(.init(breeds: cached, status: .loaded)).note
        == "The server had an error (HTTP 503). Showing the built-in breed list.")
    #expect(DogsFeature.ViewState(.init(breeds: sample, status: .loaded)).note == nil)
    // Served on purpose (the fake client), not as a fallback: no reason to give.
    cached.fallbackReason = nil
    #expect(
      DogsFeature.ViewState(.init(breeds: cached, status: .loaded)).note == "Showing the built-in breed list."
    )
  }

  @Test func aListBeingLoadedAgainStaysShown() {
    let bundled = BreedList(breeds: sample.breeds, source: .bundled, fallbackReason: .timedOut(seconds: 2))
    let reloading = DogsFeature.ViewState(
      .init(breeds: bundled, filter: "h", status: .loading, highlighted: "husky"))
    // The rows as loaded, with the highlight; the screen says it is loading in the note's place.
    #expect(
      reloading.content
        == DogsFeature.ViewState(.init(breeds: bundled, filter: "h", status: .loaded, highlighted: "husky"))
        .content)
    #expect(reloading.highlightedBreed == "husky")
    #expect(reloading.isReloading)
    #expect(!DogsFeature.ViewState(.init(breeds: bundled, status: .loaded)).isReloading)
    // Nothing to show yet, or an empty list: the spinner alone.
    #expect(DogsFeature.ViewState(.init(status: .loading)).content == .loading)
    #expect(DogsFeature.ViewState(.init(status: .loading)).isReloading == false)
    let empty = BreedList(breeds: [], source: .network)
    #expect(DogsFeature.ViewState(.init(breeds: empty, status: .loading)).content == .loading)
    // A filter that matches nothing while loading again is still no match.
    #expect(
      DogsFeature.ViewState(.init(breeds: bundled, filter: "xyz", status: .loading)).content
        == .noMatch(query: "xyz"))
  }

  @Test func aFreshListThatCouldNotBeLoadedAgainSaysSo() {
    var earlier = sample
    earlier.fallbackReason = .timedOut(seconds: 10)
    #expect(
      DogsFeature.ViewState(.init(breeds: earlier, status: .loaded)).note
        == "The server took longer than 10 s to answer. Still showing the earlier breed list.")
  }

  @Test func matchesOnTenThousandNames() {
    let many = BreedList(breeds: (0..<10_000).map { Breed(name: "breed\($0)") }, source: .network)
    #expect(DogsFeature.matches(in: many, filter: "99").count == 280)
    #expect(DogsFeature.matches(in: many, filter: "").count == 10_000)
    let index = many.breeds.firstIndex { $0.name == "breed9999" }
    #expect(DogsFeature.matches(in: many, filter: "BREED9999") == [index])
  }
}
