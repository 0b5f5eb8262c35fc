import Foundation
import Testing

@testable import CommandLineInterface

/// The JSON writer: what a terminal or a JavaScript reader would act on stays escaped.
struct JSONTests {
  @Test(arguments: [
    ("a\u{2028}b", #""a\u2028b""#), ("c\u{2029}d", #""c\u2029d""#),
    ("e\u{2066}f\u{2069}", #""e\u2066f\u2069""#),
    ("g\th", #""g\th""#), ("i\u{7F}j", #""i\u007fj""#), ("\u{1B}[2J", #""\u001b[2J""#),
    ("\u{9B}31m", #""\u009b31m""#),
    ("quote \" and \\", #""quote \" and \\""#), ("Shih Tzu", #""Shih Tzu""#),
  ])
  func stringsAreEscapedForTerminalsAndScripts(value: String, written: String) throws {
    #expect(JSON.string(value).text == written)
    // And read back as they were.
    let read = try JSONSerialization.jsonObject(with: Data("[\(written)]".utf8)) as? [String]
    #expect(read == [value])
  }

  @Test func objectsKeepTheirKeyOrder() {
    let object = JSON.object([
      ("name", .string("hound")), ("image", .null), ("subBreeds", .array([.string("afghan")])),
    ])
    #expect(object.text == #"{"name":"hound","image":null,"subBreeds":["afghan"]}"#)
  }
}
