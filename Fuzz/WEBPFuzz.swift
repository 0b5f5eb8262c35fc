// libFuzzer entry point for the WEBP (VP8) decoder (see `make fuzz-webp`). Built together
// with ImageDecoding's sources by swiftc -sanitize=fuzzer,address; not part of the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWEBP(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: count))
  // Pictures larger than 256×256 pixels are skipped: a tiny input declaring a large size
  // decodes every macroblock from zeros, which would slow the search down.
  guard let size = try? WEBPDecoder.size(of: bytes), size.width * size.height <= 256 * 256 else { return 0 }
  if let image = try? WEBPDecoder.decode(bytes, fitting: (size.width / 3, size.height / 3)) {
    precondition(image.pixels.count == image.width * image.height * 3)
  }
  return 0
}
