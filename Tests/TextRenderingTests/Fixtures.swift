import Foundation

/// A folder of test pictures under `Fixtures/`, beside this file.
struct FixtureFolder {
  let directory: URL

  init(_ name: String) {
    directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "Fixtures/\(name)")
  }

  /// A file's bytes (none if it is missing, which the test using it then reports).
  func bytes(_ name: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))) ?? []
  }

  /// Every picture with a reference (`NAME.rgb`), by name.
  var referenced: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasSuffix(".rgb") }.map { String($0.dropLast(4)) }.sorted()
  }
}

let JPEGFixture = FixtureFolder("jpeg")
let PNGFixture = FixtureFolder("png")
let WEBPFixture = FixtureFolder("webp")
let GIFFixture = FixtureFolder("gif")

/// Where two pixel buffers first differ, for a failure message; nil when they are equal.
func pixelDifference(_ pixels: [UInt8], _ reference: [UInt8]) -> String? {
  guard pixels.count == reference.count else { return "\(pixels.count) bytes, not \(reference.count)" }
  guard let index = pixels.indices.first(where: { pixels[$0] != reference[$0] }) else { return nil }
  return "byte \(index) (pixel \(index / 3)) is \(pixels[index]), not \(reference[index])"
}
