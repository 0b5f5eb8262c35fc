import Foundation

extension DogAPIClient {
  /// A deterministic client for demos, snapshots and the app's `--api fake`: the bundled
  /// real breed list, image URLs in the API's real shape (the same few for every breed, the
  /// random one going round them in call order), and two bundled photos. Unknown breeds answer like the API (not found); invalid names are
  /// rejected like the live client.
  ///
  /// - Parameter latency: Added before every answer, to see loading states.
  /// - Returns: The client.
  public static func fake(latency: Duration = .zero) -> DogAPIClient {
    let counter = Counter()
    @Sendable func wait() async throws(DogAPIError) {
      guard latency > .zero else { return }
      do { try await Task.sleep(for: latency) } catch { throw .cancelled }
    }
    // Every breed and sub-breed has the same number of pictures, `fake_1.jpg` onwards;
    // the random one goes round them in call order.
    @Sendable func fakePictures(_ breed: String, _ subBreed: String?) async throws(DogAPIError) -> [URL] {
      guard BreedName.isValid(breed) else { throw .invalidBreedName(breed) }
      if let subBreed, !BreedName.isValid(subBreed) { throw .invalidBreedName(subBreed) }
      try await wait()
      let known = DogAPIClient.bundledBreedList.breeds.first { $0.name == breed }
      guard let known else {
        throw .notFound(message: "Breed not found (main breed does not exist)")
      }
      if let subBreed, !known.subBreeds.contains(subBreed) {
        throw .notFound(message: "Breed not found (sub breed does not exist)")
      }
      let folder = subBreed.map { "\(breed)-\($0)" } ?? breed
      return (1...fakePictureCount).map {
        URL(string: "https://images.dog.ceo/breeds/\(folder)/fake_\($0).jpg")!
      }
    }
    return DogAPIClient(
      breeds: { () async throws(DogAPIError) -> BreedList in
        try await wait()
        return DogAPIClient.bundledBreedList
      },
      randomImage: { (breed, subBreed) async throws(DogAPIError) -> URL in
        let pictures = try await fakePictures(breed, subBreed)
        return pictures[(counter.next() - 1) % pictures.count]
      },
      images: fakePictures,
      imageData: { (url) async throws(DogAPIError) -> Data in
        try await wait()
        let number = Int(url.deletingPathExtension().lastPathComponent.split(separator: "_").last ?? "") ?? 0
        return number % 2 == 0 ? FakeImages.progressive : FakeImages.baseline
      }
    )
  }
}

/// How many pictures the fake client has of each breed and sub-breed.
let fakePictureCount = 24

/// A thread-safe counter.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func next() -> Int {
    lock.withLock {
      value += 1
      return value
    }
  }
}
