// libFuzzer entry point for the GIF decoder (see `make fuzz-gif`). Built together with
// ImageDecoding's sources by swiftc -sanitize=fuzzer,address; not part of the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: count))
  // Canvases larger than 256×256 pixels are skipped, as for the other decoders.
  guard bytes.count >= 10, Int(bytes[6]) | Int(bytes[7]) << 8 <= 256, Int(bytes[8]) | Int(bytes[9]) << 8 <= 256
  else { return 0 }
  if let image = try? GIFDecoder.decode(bytes, fitting: (16, 16)) {
    precondition(image.pixels.count == image.width * image.height * 3)
  }
  return 0
}
