import DogAPIClient
import Foundation
import Synchronization

extension DogAPIClient {
  /// This client, with a random picture of `breed` (or of its `subBreed`) asked for at once,
  /// before anything else: `show` needs the breed list and the picture, and asking for both
  /// together costs one round-trip of latency instead of two. The first request for that
  /// picture's address takes the answer asked for ahead, and the first download of that
  /// address (when `download` is set) the bytes downloaded ahead; every other request goes
  /// to this client as usual.
  ///
  /// - Parameters:
  ///   - breed: The breed's API name, as typed.
  ///   - subBreed: The sub-breed's, if one was.
  ///   - download: Whether to download the picture ahead too (pictures are shown).
  func askingAhead(forPictureOf breed: String, _ subBreed: String?, download: Bool) -> DogAPIClient {
    let base = self
    let ahead = Task { () -> (address: Result<URL, DogAPIError>, bytes: Result<Data, DogAPIError>?) in
      let address: URL
      do throws(DogAPIError) {
        address = try await base.randomImage(breed, subBreed)
      } catch {
        return (.failure(error), nil)
      }
      guard download else { return (.success(address), nil) }
      // Awaited into a local, not inside the returned tuple: Swift 6.3's optimiser
      // miscompiles that form in a task's closure (Docs/CompilerDefects.md).
      let bytes: Result<Data, DogAPIError>
      do throws(DogAPIError) {
        bytes = .success(try await base.imageData(address))
      } catch {
        bytes = .failure(error)
      }
      return (.success(address), bytes)
    }
    // What has been handed out: each answer asked ahead serves one request.
    let addressTaken = Mutex(false)
    let bytesTaken = Mutex(!download)
    var client = self
    client.randomImage = { (asked, askedSubBreed) async throws(DogAPIError) -> URL in
      guard asked == breed, askedSubBreed == subBreed, addressTaken.withLock({ flag in takeOnce(&flag) })
      else {
        return try await base.randomImage(asked, askedSubBreed)
      }
      return try await ahead.value.address.get()
    }
    client.imageData = { (url) async throws(DogAPIError) -> Data in
      guard !bytesTaken.withLock({ $0 }), case .success(url) = await ahead.value.address,
        let bytes = await ahead.value.bytes, bytesTaken.withLock({ flag in takeOnce(&flag) })
      else {
        return try await base.imageData(url)
      }
      return try bytes.get()
    }
    return client
  }
}

/// Sets `taken` and says whether it was clear: true for the first caller only.
private func takeOnce(_ taken: inout Bool) -> Bool {
  defer { taken = true }
  return !taken
}
