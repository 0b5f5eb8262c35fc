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
  // The same names as 1,000 breeds of nine sub-breeds each: a filter that matches no
  // breed is looked for among the sub-breeds' names and titles too.
  let nested = BreedList(
    breeds: (0..<1_000).map {
      Breed(name: names[$0], subBreeds: Array(names[(1_000 + $0 * 9)..<(1_009 + $0 * 9)]))
    },
    source: .network)
  var rows: [Row3] = []
  // "xyz" and "qzxwvkjp" match nothing: the screen then looks for the names they
  // misspell (eight letters may be two slips from any name of six to ten).
  for (query, list, what) in [
    ("a", list, "10,000 names"), ("ou", list, "10,000 names"), ("xyz", list, "10,000 names"),
    ("qzxwvkjp", list, "10,000 names"), ("qzxwvkjp", nested, "1,000 breeds, 9,000 sub-breeds"),
  ] {
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
        name: "filter \(what) by \"\(query)\"", ns: ns, baseline: 0, goal: "≤ 500,000 ns", limit: 500_000
      ))
  }
  return rows
}
