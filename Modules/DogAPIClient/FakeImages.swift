import Foundation

/// Two synthetic photos (500×375 baseline and 500×333 progressive JPEG) for the fake
/// client, compiled in as base64 so demos work with no files and no network. The data
/// lives in `FakeImages+Baseline.swift` and `FakeImages+Progressive.swift`.
enum FakeImages {
  /// The bytes of base64 text broken into lines: Foundation's decoder skips the line
  /// breaks and indentation itself, without walking the text's graphemes.
  static func decode(_ text: String) -> Data {
    Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data()
  }
}
