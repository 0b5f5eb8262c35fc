import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// A picture for kitty's graphics protocol as `show` writes one, from its decoded pixels:
/// shrunk to the cells' pixels, base64 in chunks, plain and compressed (`o=z`); and the
/// compressor alone against zlib's fastest level on the same pixels, with the bytes each
/// makes. Two pictures: the fake client's synthetic one (smooth, very compressible) and a
/// real photograph (which compresses little, as the dogs' pictures do).
func kittyBenchmarks() -> [Row3] {
  let pictures = [
    ("synthetic 500×375", "Tests/ImageDecodingTests/Fixtures/jpeg/synthetic-500x375-baseline.jpg", 35, 13),
    ("photo 360×240", "Tests/TextRenderingTests/Fixtures/photos/chelsea-360x240.jpg", 36, 12),
  ]
  let zlib = LibZ()
  if zlib == nil { print("(libz not found: the compressor rows have no reference)") }
  var rows: [Row3] = []
  for (name, path, columns, cellRows) in pictures {
    guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }),
      let image = try? JPEGDecoder.decode(bytes)
    else {
      print("(skipping kitty benchmarks: run from the repository root)")
      return []
    }
    func sequence(compressed: Bool) -> (Int) -> Void {
      { n in
        for _ in 0..<n {
          blackHole(TerminalPicture.kitty(image, columns: columns, rows: cellRows, compressed: compressed))
        }
      }
    }
    let cells = "\(columns) × \(cellRows) cells"
    let plain = measure(iterations: 20, sequence(compressed: false))
    let compressed = measure(iterations: 20, sequence(compressed: true))
    rows.append(Row3(name: "\(name) → kitty, \(cells)", ns: plain, baseline: 0, goal: "-"))
    rows.append(Row3(name: "\(name) → kitty, \(cells), o=z", ns: compressed, baseline: plain, goal: "-"))
    let pixels = image.pixels
    let ours = { (n: Int) in for _ in 0..<n { blackHole(Deflate.zlib(pixels)) } }
    let size = Double(Deflate.zlib(pixels).count)
    if let zlib {
      let (ns, reference) = measureAlternately(iterations: 20, ours) { n in
        for _ in 0..<n { blackHole(zlib.compress(pixels, level: 1)) }
      }
      rows.append(Row3(name: "\(name): Deflate.zlib (zlib -1)", ns: ns, baseline: reference, goal: "-"))
      rows.append(
        Row3(
          name: "\(name): bytes compressed (zlib -1; raw \(pixels.count))", ns: size,
          baseline: Double(zlib.compress(pixels, level: 1)?.count ?? 0), goal: "-"))
    } else {
      rows.append(
        Row3(name: "\(name): Deflate.zlib", ns: measure(iterations: 20, ours), baseline: 0, goal: "-"))
      rows.append(
        Row3(name: "\(name): bytes compressed (raw \(pixels.count))", ns: size, baseline: 0, goal: "-"))
    }
  }
  return rows
}

/// zlib's `compress2`, loaded at run time (benchmark reference only).
final class LibZ {
  private typealias Compress =
    @convention(c) (
      UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt, Int32
    )
    -> Int32
  private let compress2: Compress

  init?() {
    guard let library = dlopen("libz.so.1", RTLD_NOW), let compress2 = dlsym(library, "compress2") else {
      return nil
    }
    self.compress2 = unsafeBitCast(compress2, to: Compress.self)
  }

  /// `bytes` as a zlib stream at `level`; nil on failure.
  func compress(_ bytes: [UInt8], level: Int32) -> [UInt8]? {
    var length = UInt(bytes.count + bytes.count / 1000 + 64)
    var output = [UInt8](repeating: 0, count: Int(length))
    let status = output.withUnsafeMutableBufferPointer { output in
      bytes.withUnsafeBufferPointer {
        compress2(output.baseAddress, &length, $0.baseAddress, UInt($0.count), level)
      }
    }
    guard status == 0 else { return nil }
    return Array(output[0..<Int(length)])
  }
}
