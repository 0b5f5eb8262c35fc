// libFuzzer entry point for the Dog CEO API response decoding (see `make fuzz-api`),
// built from Core's and DogAPIClient's sources as one module. The first two bytes are
// the HTTP status; the rest is the body. Decoding must never crash, and whatever it
// accepts must be well-formed.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPI(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: count))
  guard bytes.count >= 2 else { return 0 }
  let status = 100 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 500
  let body = Data(bytes.dropFirst(2))
  if let breeds = try? ResponseDecoding.breeds(status: status, body: body) {
    precondition((200..<300).contains(status), "accepted a breed list with status \(status)")
    precondition(breeds.map(\.name) == breeds.map(\.name).sorted(), "breeds not sorted")
  }
  if let url = try? ResponseDecoding.imageURL(status: status, body: body) {
    precondition(["http", "https"].contains(url.scheme?.lowercased() ?? ""), "accepted a non-web URL")
  }
  return 0
}
