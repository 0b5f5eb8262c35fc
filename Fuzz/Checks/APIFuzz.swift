import DogAPIClient
import Foundation

/// The Dog CEO API response decoding's harness. The first two bytes are the HTTP status;
/// the rest is the body. Decoding never crashes, and whatever it accepts is well-formed.
public enum APIFuzz {
  /// Decodes the body as a breed list and as a picture's address.
  public static func check(_ bytes: [UInt8]) throws(FuzzFailure) {
    guard bytes.count >= 2 else { return }
    let status = 100 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 500
    let body = Data(bytes.dropFirst(2))
    if let breeds = try? ResponseDecoding.breeds(status: status, body: body) {
      try require((200..<300).contains(status), "accepted a breed list with status \(status)")
      try require(breeds.map(\.name) == breeds.map(\.name).sorted(), "breeds not sorted")
    }
    if let url = try? ResponseDecoding.imageURL(status: status, body: body) {
      try require(["http", "https"].contains(url.scheme?.lowercased() ?? ""), "accepted a non-web URL")
    }
  }
}
