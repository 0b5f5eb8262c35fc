// libFuzzer's entry point, built by `make fuzz-NAME` against the module its harness runs
// on (the package's modules it needs and Fuzz/Checks, compiled as one with
// swiftc -sanitize=fuzzer,address). Which harness it runs is chosen at compile time
// (-D FUZZ_JPEG, FUZZ_PNG, …); a broken rule stops the fuzzer with the rule's message, and
// the input is kept under .build/fuzz/.

#if FUZZ_JPEG || FUZZ_PNG || FUZZ_WEBP || FUZZ_GIF
  import ImageDecoding
#elseif FUZZ_TEXT
  import TextRendering
#elseif FUZZ_API
  import DogAPIClient
#endif

#if FUZZ_JPEG
  let harness = PictureFuzz.jpeg
#elseif FUZZ_PNG
  let harness = PictureFuzz.png
#elseif FUZZ_WEBP
  let harness = PictureFuzz.webp
#elseif FUZZ_GIF
  let harness = PictureFuzz.gif
#elseif FUZZ_TEXT
  let harness = TextFuzz.check
#elseif FUZZ_API
  let harness = APIFuzz.check
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  do {
    try harness([UInt8](UnsafeRawBufferPointer(start: data, count: count)))
  } catch {
    fatalError("\(error)")
  }
  return 0
}
