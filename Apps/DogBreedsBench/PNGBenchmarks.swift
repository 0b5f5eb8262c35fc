import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Our PNG decoder against libpng on the same file, in the same run.
///
/// The reference is libpng's simplified API (`png_image_…`, libpng 1.6) in this process,
/// loaded with `dlopen` from `libpng16.so.16` (Debian's libpng16-16, present on most
/// systems) so that nothing links against it: the same bytes to RGB, into a fresh buffer
/// per decode. Without the library the column is left empty.
func pngBenchmarks() -> [Row3] {
  guard
    let photo = FileManager.default.contents(
      atPath: "Tests/ImageDecodingTests/Fixtures/png/photo-500x375.png")
  else {
    print("(skipping PNG benchmarks: run from the repository root)")
    return []
  }
  let bytes = [UInt8](photo)
  let ours = { (n: Int) in
    for _ in 0..<n { blackHole(try? PNGDecoder.decode(bytes)) }
  }
  guard let libpng = LibPNG() else {
    print("(libpng not found: the PNG row has no reference)")
    return [
      Row3(name: "500×375 photo, full decode", ns: measure(iterations: 20, ours), baseline: 0, goal: "-")
    ]
  }
  let (ns, reference) = measureAlternately(iterations: 20, ours) { n in
    for _ in 0..<n { blackHole(libpng.decode(bytes)) }
  }
  return [
    Row3(
      name: "500×375 photo, full decode", ns: ns, baseline: reference, goal: "≤ 3× libpng",
      limit: reference * 3)
  ]
}

/// libpng's simplified reading API, loaded at run time (benchmark reference only).
final class LibPNG {
  private typealias Begin = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int32
  private typealias Finish =
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?
    ) -> Int32
  private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
  private let begin: Begin
  private let finish: Finish
  private let free: Free

  init?() {
    guard let library = dlopen("libpng16.so.16", RTLD_NOW),
      let begin = dlsym(library, "png_image_begin_read_from_memory"),
      let finish = dlsym(library, "png_image_finish_read"),
      let free = dlsym(library, "png_image_free")
    else { return nil }
    self.begin = unsafeBitCast(begin, to: Begin.self)
    self.finish = unsafeBitCast(finish, to: Finish.self)
    self.free = unsafeBitCast(free, to: Free.self)
  }

  /// Decodes to 8-bit RGB; nil on failure.
  func decode(_ bytes: [UInt8]) -> [UInt8]? {
    // `png_image` (png.h): a pointer, then version, width, height, format, flags,
    // colormap_entries and warning_or_error as 32-bit numbers, then a 64-byte message.
    let image = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 8)
    defer { image.deallocate() }
    image.initializeMemory(as: UInt8.self, repeating: 0, count: 128)
    image.storeBytes(of: 1, toByteOffset: 8, as: UInt32.self)  // PNG_IMAGE_VERSION
    guard bytes.withUnsafeBytes({ begin(image, $0.baseAddress, $0.count) }) != 0 else { return nil }
    defer { free(image) }
    image.storeBytes(of: 2, toByteOffset: 20, as: UInt32.self)  // PNG_FORMAT_RGB
    let width = Int(image.load(fromByteOffset: 12, as: UInt32.self))
    let height = Int(image.load(fromByteOffset: 16, as: UInt32.self))
    var failed = false
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, initialized in
      failed = finish(image, nil, UnsafeMutableRawPointer(buffer.baseAddress), 0, nil) == 0
      initialized = width * height * 3
    }
    return failed ? nil : pixels
  }
}
