// libFuzzer entry point for the PNG decoder and its inflater (see `make fuzz-png`). Built
// together with ImageDecoding's sources by swiftc -sanitize=fuzzer,address; not part of
// the package.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  var bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: count))
  // Mutations rarely keep a chunk's CRC right, and a wrong one stops decoding at once:
  // the input's CRCs are recomputed, so that the damage reaches the inflater and the
  // filters (an input whose length is a multiple of 7 keeps its own, to test the check).
  if count % 7 != 0 { fixChecksums(&bytes) }
  // Pictures larger than 256×256 pixels are skipped: a tiny input declaring a large size
  // is refused quickly or inflates to its limit, and would slow the search down.
  guard let size = try? PNGDecoder.size(of: bytes), size.width * size.height <= 256 * 256 else { return 0 }
  if let image = try? PNGDecoder.decode(bytes, fitting: (size.width / 3, size.height / 3)) {
    precondition(image.pixels.count == image.width * image.height * 3)
  }
  return 0
}

/// Rewrites every chunk's CRC to match its contents.
private func fixChecksums(_ bytes: inout [UInt8]) {
  var position = 8
  while position + 12 <= bytes.count {
    let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8
      | Int(bytes[position + 3])
    let end = position + 8 + length
    guard length >= 0, end + 4 <= bytes.count else { return }
    let crc = crc32(bytes[position + 4..<end])
    bytes[end] = UInt8(crc >> 24)
    bytes[end + 1] = UInt8(crc >> 16 & 0xFF)
    bytes[end + 2] = UInt8(crc >> 8 & 0xFF)
    bytes[end + 3] = UInt8(crc & 0xFF)
    position = end + 4
  }
}
