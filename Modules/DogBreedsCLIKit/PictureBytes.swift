import DogAPIClient
import Foundation
import Synchronization

/// The bytes of the last picture downloaded, kept for `show` to decode an animated GIF's
/// frames after its first frame is drawn (the feature keeps only that frame).
final class PictureBytes: Sendable {
  private let bytes = Mutex<[UInt8]?>(nil)

  /// The bytes kept, if any.
  var value: [UInt8]? { bytes.withLock { $0 } }

  fileprivate func keep(_ data: Data) { bytes.withLock { $0 = [UInt8](data) } }
}

extension DogAPIClient {
  /// This client, keeping in `kept` the bytes of each picture it downloads.
  func keepingPictureBytes(in kept: PictureBytes) -> DogAPIClient {
    var client = self
    let download = imageData
    client.imageData = { (url) async throws(DogAPIError) -> Data in
      let data = try await download(url)
      kept.keep(data)
      return data
    }
    return client
  }
}
