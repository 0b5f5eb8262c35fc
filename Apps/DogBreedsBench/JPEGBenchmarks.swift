import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Our decoder against libjpeg-turbo on the same files, in the same run.
///
/// The reference is libjpeg-turbo in this process, through its TurboJPEG library
/// (`libturbojpeg.so.0`, installed with `djpeg` by Debian's libjpeg-turbo-progs), loaded
/// with `dlopen` so that nothing links against it: the same bytes, the same output
/// (RGB, accurate integer IDCT, fancy upsampling, into a fresh buffer per decode), timed
/// the same way. Without the library it falls back to the `djpeg` process minus its
/// start-up (the median time of `djpeg` on a 1×1 JPEG), which is much noisier; without
/// `djpeg` the column is left empty.
func jpegBenchmarks() -> (rows: [Row3], reference: String) {
  let folder = "Tests/ImageDecodingTests/Fixtures/jpeg/"
  func load(_ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: folder + name).map { [UInt8]($0) }
  }
  guard let baseline = load("synthetic-500x375-baseline.jpg"),
    let progressive = load("synthetic-500x333-progressive.jpg"),
    let detailed = load("g-detailed-500x375.jpg")
  else {
    print("(skipping JPEG benchmarks: run from the repository root)")
    return ([], "")
  }
  let turbo = TurboJPEG()
  let djpeg = ["/usr/bin/djpeg", "/usr/local/bin/djpeg"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  func djpegTime(_ arguments: [String], _ file: String) -> Double? {
    guard let djpeg else { return nil }
    var samples: [Double] = []
    for _ in 0..<21 {
      var pid: pid_t = 0
      let argv = ([djpeg] + arguments + ["-outfile", "/dev/null", folder + file]).map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      let start = now()
      guard posix_spawn(&pid, djpeg, nil, nil, argv, environ) == 0 else { return nil }
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      samples.append(Double(now() - start))
    }
    return median(samples)
  }
  let startup = turbo == nil ? djpegTime([], "g-1x1.jpg") : nil
  var rows: [Row3] = []
  func add(_ name: String, _ bytes: [UInt8], _ scale: JPEGDecoder.Scale, _ file: String, goal: String) {
    let ours = { (n: Int) in
      for _ in 0..<n { blackHole(try? JPEGDecoder.decode(bytes, scale: scale)) }
    }
    var ns = 0.0
    var reference = 0.0
    if let turbo {
      (ns, reference) = measureAlternately(iterations: 20, ours) { n in
        for _ in 0..<n { blackHole(turbo.decode(bytes, scale: scale.rawValue)) }
      }
    } else {
      ns = measure(iterations: 20, ours)
      if let startup, let time = djpegTime(scale == .eighth ? ["-scale", "1/8"] : [], file) {
        reference = max(1, time - startup)
      }
    }
    // Within 3× of libjpeg-turbo at full size; at 1/8, no slower than it.
    let limit = reference > 0 ? reference * (scale == .full ? 3 : 1) : nil
    rows.append(Row3(name: name, ns: ns, baseline: reference, goal: goal, limit: limit))
  }
  // The shared fixtures are smooth (a few bits per block); the detailed picture measures
  // the cost per coefficient, which dominates real photos.
  let cases: [(String, [UInt8], JPEGDecoder.Scale, String)] = [
    ("500×375 baseline, full decode", baseline, .full, "synthetic-500x375-baseline.jpg"),
    ("500×333 progressive, full decode", progressive, .full, "synthetic-500x333-progressive.jpg"),
    ("500×375 baseline, 1/8 (terminal size)", baseline, .eighth, "synthetic-500x375-baseline.jpg"),
    ("500×333 progressive, 1/8", progressive, .eighth, "synthetic-500x333-progressive.jpg"),
    ("500×375 detailed photo, full decode", detailed, .full, "g-detailed-500x375.jpg"),
    ("500×375 detailed photo, 1/8", detailed, .eighth, "g-detailed-500x375.jpg"),
  ]
  for (name, bytes, scale, file) in cases {
    add(name, bytes, scale, file, goal: scale == .full ? "≤ 3× libjpeg-turbo" : "≤ libjpeg-turbo 1/8")
  }
  // The goal as first written compares with `djpeg -scale 1/8`: the whole process, as a
  // user would time it. Shown for that comparison; the in-process column is the strict one.
  if turbo != nil, let time = djpegTime(["-scale", "1/8"], "synthetic-500x375-baseline.jpg") {
    rows.append(
      Row3(name: "djpeg -scale 1/8 process, 500×375 baseline", ns: time, baseline: 0, goal: "-"))
  }
  if turbo == nil && djpeg == nil {
    print("(libjpeg-turbo not installed: apt-get install libjpeg-turbo-progs for the reference column)")
  }
  let reference = turbo != nil ? "libjpeg-turbo ns" : djpeg != nil ? "djpeg − start-up ns" : "reference ns"
  return (rows, reference)
}

/// libjpeg-turbo's TurboJPEG API, loaded at run time (benchmark reference only).
final class TurboJPEG {
  private typealias Initialise = @convention(c) () -> UnsafeMutableRawPointer?
  private typealias Header =
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UInt, UnsafeMutablePointer<Int32>?,
      UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
    ) -> Int32
  private typealias Decompress =
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UInt, UnsafeMutablePointer<UInt8>?, Int32, Int32,
      Int32,
      Int32, Int32
    ) -> Int32
  private let handle: UnsafeMutableRawPointer
  private let header: Header
  private let decompress: Decompress

  init?() {
    guard let library = dlopen("libturbojpeg.so.0", RTLD_NOW),
      let initialise = dlsym(library, "tjInitDecompress"),
      let header = dlsym(library, "tjDecompressHeader3"),
      let decompress = dlsym(library, "tjDecompress2"),
      let handle = unsafeBitCast(initialise, to: Initialise.self)()
    else { return nil }
    self.handle = handle
    self.header = unsafeBitCast(header, to: Header.self)
    self.decompress = unsafeBitCast(decompress, to: Decompress.self)
  }

  /// Decodes to RGB at 1/`scale` (rounded up), into a fresh buffer; nil on failure.
  func decode(_ bytes: [UInt8], scale: Int) -> [UInt8]? {
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    guard header(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
      return nil
    }
    let scaledWidth = (Int(width) + scale - 1) / scale
    let scaledHeight = (Int(height) + scale - 1) / scale
    let count = scaledWidth * scaledHeight * 3
    var failed = false
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      // Pixel format 0 is RGB; flags 0: accurate integer IDCT, fancy upsampling.
      failed =
        decompress(
          handle, bytes, UInt(bytes.count), buffer.baseAddress, Int32(scaledWidth), 0, Int32(scaledHeight), 0,
          0)
        != 0
      initialized = count
    }
    return failed ? nil : pixels
  }
}
