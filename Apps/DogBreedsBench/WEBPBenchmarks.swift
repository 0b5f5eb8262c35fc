import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Our WEBP decoder against libwebp on the same file, in the same run.
///
/// The reference is libwebp's `WebPDecodeRGB` in this process, loaded with `dlopen` from
/// `libwebp.so.7` (Debian's libwebp7, which most desktops have) so that nothing links
/// against it: the same bytes to RGB with its default (fancy) upsampling, into a fresh
/// buffer per decode. Without the library the column is left empty.
func webpBenchmarks() -> [Row3] {
  let folder = "Tests/ImageDecodingTests/Fixtures/webp/"
  guard let lossy = FileManager.default.contents(atPath: folder + "photo-500x375.webp"),
    let lossless = FileManager.default.contents(atPath: folder + "photo-lossless-500x375.webp")
  else {
    print("(skipping WEBP benchmarks: run from the repository root)")
    return []
  }
  return [
    webpRow("500×375 photo, lossy", [UInt8](lossy)), webpRow("500×375 photo, lossless", [UInt8](lossless)),
  ]
}

private func webpRow(_ name: String, _ bytes: [UInt8]) -> Row3 {
  let ours = { (n: Int) in
    for _ in 0..<n { blackHole(try? WEBPDecoder.decode(bytes)) }
  }
  guard let library = dlopen("libwebp.so.7", RTLD_NOW),
    let decodeSymbol = dlsym(library, "WebPDecodeRGB"), let freeSymbol = dlsym(library, "WebPFree")
  else {
    return Row3(name: name, ns: measure(iterations: 20, ours), baseline: 0, goal: "-")
  }
  typealias Decode =
    @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?)
    -> UnsafeMutablePointer<UInt8>?
  typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
  let decode = unsafeBitCast(decodeSymbol, to: Decode.self)
  let free = unsafeBitCast(freeSymbol, to: Free.self)
  let (ns, reference) = measureAlternately(iterations: 20, ours) { n in
    for _ in 0..<n {
      var width: Int32 = 0
      var height: Int32 = 0
      let pixels = bytes.withUnsafeBufferPointer { decode($0.baseAddress, $0.count, &width, &height) }
      blackHole(pixels)
      free(pixels)
    }
  }
  // No goal: libwebp decodes with SSE2 throughout; Docs/Performance.md says where ours goes.
  return Row3(name: name, ns: ns, baseline: reference, goal: "-")
}
