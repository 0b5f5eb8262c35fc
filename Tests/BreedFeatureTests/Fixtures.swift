import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import Foundation
import ImageDecoding
import Synchronization
import TestSupport
import Testing
import TextRendering

// What the Breed feature's tests share: a breed, picture addresses, clients and clocks.

let hound = Breed(name: "hound", subBreeds: ["afghan", "basset"])
let url1 = URL(string: "https://images.dog.ceo/breeds/hound/1.jpg")!
let url2 = URL(string: "https://images.dog.ceo/breeds/hound/2.jpg")!
let afghanURL = URL(string: "https://images.dog.ceo/breeds/hound-afghan/3.jpg")!

/// An API that will not list a breed's pictures: `n` asks for a random one.
let unlisted: @Sendable (String, String?) async throws(DogAPIError) -> [URL] = {
  (_, _) async throws(DogAPIError) in
  throw .notFound(message: nil)
}

/// A picture's address arriving, whichever it is.
let imageURLResponse = CasePath<BreedFeature.Action, Result<URL, DogAPIError>>(
  embed: { .imageURLResponse($0, at: now) }
) {
  if case .imageURLResponse(let result, _) = $0 { result } else { nil }
}

/// What time it is in these tests: when every answer arrives.
let now = Date(timeIntervalSince1970: 1_795_000_000)

/// The feature on `client`, its clock stopped at ``now``.
func breedFeature(
  _ client: DogAPIClient, pictureSize: (@Sendable () -> (width: Int, height: Int))? = nil
) -> BreedFeature {
  BreedFeature(client: client, pictureSize: pictureSize, now: { now })
}

final class Requests: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []
  var all: [String] { lock.withLock { storage } }
  func record(_ breed: String, _ sub: String?) -> Int {
    lock.withLock {
      storage.append(sub.map { "\(breed)/\($0)" } ?? breed)
      return storage.count
    }
  }
}
