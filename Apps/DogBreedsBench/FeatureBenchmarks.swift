import DogAPIClient
import DogsFeature

/// Dogs converter: filter 10,000 names on a keystroke, spelling suggestions included
/// where nothing matches (goal ≤ 0.5 ms).
func featureBenchmarks() -> [Row3] {
  let names = (0..<10_000).map { index -> String in
    // Realistic names: letters only, 5–14 long, varied.
    var seed = UInt64(index) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let length = 5 + Int(seed % 10)
    return String(
      (0..<length).map { _ -> Character in
        seed = seed &* 6_364_136_223_846_793_005 &+ 1
        return Character(Unicode.Scalar(UInt8(97 + Int((seed >> 33) % 26))))
      })
  }
  let list = BreedList(breeds: names.map { Breed(name: $0) }, source: .network)
  var rows: [Row3] = []
  // "xyz" and "qzxwvkjp" match nothing: the screen then looks for the names they
  // misspell (eight letters may be two slips from any name of six to ten).
  for query in ["a", "ou", "xyz", "qzxwvkjp"] {
    let state = DogsFeature.State(breeds: list, filter: query, status: .loaded)
    var matched = 0
    let ns = measure(iterations: 200) { n in
      for _ in 0..<n {
        let view = DogsFeature.ViewState(state)
        if case .loaded(let rows) = view.content { matched = rows.count }
      }
    }
    blackHole(matched)
    rows.append(
      Row3(
        name: "filter 10,000 names by \"\(query)\"", ns: ns, baseline: 0, goal: "≤ 500,000 ns", limit: 500_000
      ))
  }
  return rows
}
