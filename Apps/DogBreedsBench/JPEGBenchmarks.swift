import Foundation
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// Our decoder against libjpeg-turbo's `djpeg` (when installed), on the same files.
///
/// `djpeg` runs as a process, so its time includes start-up; the table subtracts the
/// median time of `djpeg` on a 1×1 JPEG (start-up, no real decoding) and shows both.
func jpegBenchmarks() -> [Row3] {
  let folder = "Tests/TextRenderingTests/Fixtures/jpeg/"
  func load(_ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: folder + name).map { [UInt8]($0) }
  }
  guard let baseline = load("synthetic-500x375-baseline.jpg"),
    let progressive = load("synthetic-500x333-progressive.jpg")
  else {
    print("(skipping JPEG benchmarks: run from the repository root)")
    return []
  }
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
    samples.sort()
    return samples[samples.count / 2]
  }
  let startup = djpegTime([], "g-1x1.jpg")
  var rows: [Row3] = []
  func add(_ name: String, _ bytes: [UInt8], _ scale: JPEGDecoder.Scale, _ file: String, goal: String) {
    let ns = measure(iterations: 20) { n in
      for _ in 0..<n { blackHole(try? JPEGDecoder.decode(bytes, scale: scale)) }
    }
    var reference = 0.0
    if let startup, let time = djpegTime(scale == .eighth ? ["-scale", "1/8"] : [], file) {
      reference = max(1, time - startup)
    }
    rows.append(Row3(name: name, ns: ns, baseline: reference, goal: goal))
  }
  add("500×375 baseline, full decode", baseline, .full, "synthetic-500x375-baseline.jpg", goal: "≤ 3× djpeg")
  add(
    "500×333 progressive, full decode", progressive, .full, "synthetic-500x333-progressive.jpg",
    goal: "≤ 3× djpeg")
  add(
    "500×375 baseline, 1/8 (terminal size)", baseline, .eighth, "synthetic-500x375-baseline.jpg",
    goal: "≤ djpeg -scale 1/8")
  add(
    "500×333 progressive, 1/8", progressive, .eighth, "synthetic-500x333-progressive.jpg",
    goal: "≤ djpeg -scale 1/8")
  if djpeg == nil {
    print("(djpeg not installed: apt-get install libjpeg-turbo-progs for the reference column)")
  }
  return rows
}
