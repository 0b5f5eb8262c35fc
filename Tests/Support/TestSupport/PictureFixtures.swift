import Foundation

/// A folder of test pictures, under `Tests/ImageDecodingTests/Fixtures/`: the decoders'
/// tests use them all, and the terminal pictures' tests a few (and their own photographs,
/// under `Tests/TextRenderingTests/Fixtures/`).
public struct FixtureFolder: Sendable {
  /// The folder.
  public let directory: URL

  /// The folder of that name (`jpeg`, `png`, `webp`, `gif`).
  public init(_ name: String) {
    self.init(relativePath: "Tests/ImageDecodingTests/Fixtures/\(name)")
  }

  /// The folder of that name under `Tests/TextRenderingTests/Fixtures/` (`photos`,
  /// `goldens`): the pictures in cells' photographs and golden renderings.
  public static func textRendering(_ name: String) -> FixtureFolder {
    FixtureFolder(relativePath: "Tests/TextRenderingTests/Fixtures/\(name)")
  }

  /// The inputs the fuzzer of `harness` found (`jpeg`, `gif`, `text`, …), kept under
  /// `Fuzz/Findings/`.
  public static func fuzzFindings(_ harness: String) -> FixtureFolder {
    FixtureFolder(relativePath: "Fuzz/Findings/\(harness)")
  }

  private init(relativePath: String) {
    directory =
      URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../\(relativePath)").standardizedFileURL
  }

  /// A file's bytes (none if it is missing, which the test using it then reports).
  public func bytes(_ name: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))) ?? []
  }

  /// Every picture with a reference (`NAME.rgb`), by name.
  public var referenced: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasSuffix(".rgb") }.map { String($0.dropLast(4)) }.sorted()
  }
}

/// The test pictures of one format.
public let JPEGFixture = FixtureFolder("jpeg")
/// The test pictures of one format.
public let PNGFixture = FixtureFolder("png")
/// The test pictures of one format.
public let WEBPFixture = FixtureFolder("webp")
/// The test pictures of one format.
public let GIFFixture = FixtureFolder("gif")

/// Where two pixel buffers first differ, for a failure message; nil when they are equal.
public func pixelDifference(_ pixels: [UInt8], _ reference: [UInt8]) -> String? {
  guard pixels.count == reference.count else { return "\(pixels.count) bytes, not \(reference.count)" }
  guard let index = pixels.indices.first(where: { pixels[$0] != reference[$0] }) else { return nil }
  return "byte \(index) (pixel \(index / 3)) is \(pixels[index]), not \(reference[index])"
}
