// libFuzzer entry point for the JPEG decoder (see `make fuzz-jpeg`). Built together with
// ImageDecoding's sources by swiftc -sanitize=fuzzer,address; not part of the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: count))
  // Large pictures are decoded at 1/8 only (all entropy data is still decoded), so each
  // input stays fast enough for millions of runs.
  guard let size = try? JPEGDecoder.size(of: bytes) else { return 0 }
  // Small ones also at 1/2 or 1/4 (alternating with the input's length), which run the
  // reduced inverse DCTs.
  let reduced: JPEGDecoder.Scale = count % 2 == 0 ? .half : .quarter
  let scales: [JPEGDecoder.Scale] = size.width * size.height <= 256 * 256 ? [.full, reduced, .eighth] : [.eighth]
  for scale in scales {
    if let image = try? JPEGDecoder.decode(bytes, scale: scale) {
      precondition(image.pixels.count == image.width * image.height * 3)
    }
  }
  return 0
}
