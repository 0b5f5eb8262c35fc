/// The harnesses, by name: the name of `make fuzz-NAME`, of the folder its findings are kept
/// in (`Fuzz/Findings/NAME`), and of the rules it holds the code to.
public enum FuzzHarnesses {
  /// Every harness's rules, by name.
  public static let all: [String: @Sendable ([UInt8]) throws(FuzzFailure) -> Void] = [
    "jpeg": PictureFuzz.jpeg, "png": PictureFuzz.png, "webp": PictureFuzz.webp, "gif": PictureFuzz.gif,
    "text": TextFuzz.check, "api": APIFuzz.check,
  ]
}
