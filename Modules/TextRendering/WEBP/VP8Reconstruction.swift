/// VP8's intra predictors (RFC 6386, 12), on a block at `origin` in `pixels` whose row
/// above and column to the left are in place.
enum VP8Predict {
  @inline(__always)
  private static func average3(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
    UInt8((Int(a) + 2 * Int(b) + Int(c) + 2) >> 2)
  }

  @inline(__always)
  private static func average2(_ a: UInt8, _ b: UInt8) -> UInt8 {
    UInt8((Int(a) + Int(b) + 1) >> 1)
  }

  /// "TrueMotion": left + above − above-left, clamped.
  private static func trueMotion(_ pixels: inout [UInt8], _ origin: Int, _ stride: Int, size: Int) {
    let corner = Int(pixels[origin - stride - 1])
    for row in 0..<size {
      let left = Int(pixels[origin + row * stride - 1])
      for col in 0..<size {
        let value = left + Int(pixels[origin - stride + col]) - corner
        pixels[origin + row * stride + col] = UInt8(min(max(value, 0), 255))
      }
    }
  }

  /// A 16×16 luma or 8×8 chroma block. DC uses only the neighbours that exist (128 with
  /// none); the other modes read the edge values.
  static func block(
    _ pixels: inout [UInt8], _ origin: Int, _ stride: Int, size: Int, mode: Int, hasAbove: Bool, hasLeft: Bool
  ) {
    switch mode {
    case VP8Mode.tm:
      trueMotion(&pixels, origin, stride, size: size)
    case VP8Mode.ve:
      for row in 0..<size {
        for col in 0..<size { pixels[origin + row * stride + col] = pixels[origin - stride + col] }
      }
    case VP8Mode.he:
      for row in 0..<size {
        let left = pixels[origin + row * stride - 1]
        for col in 0..<size { pixels[origin + row * stride + col] = left }
      }
    default:
      let shift = size == 16 ? 4 : 3
      var sum = 0
      var value = 128
      if hasAbove || hasLeft {
        if hasAbove { for col in 0..<size { sum += Int(pixels[origin - stride + col]) } }
        if hasLeft { for row in 0..<size { sum += Int(pixels[origin + row * stride - 1]) } }
        let bits = shift + (hasAbove && hasLeft ? 1 : 0)
        value = (sum + (1 << (bits - 1))) >> bits
      }
      for row in 0..<size {
        for col in 0..<size { pixels[origin + row * stride + col] = UInt8(value) }
      }
    }
  }

  /// A 4×4 luma block in one of the ten 4×4 modes.
  static func subblock(_ p: inout [UInt8], _ o: Int, _ s: Int, mode: Int) {
    // Above (A…H, with the four above-right), left (I…L) and above-left (X).
    let a = p[o - s], b = p[o - s + 1], c = p[o - s + 2], d = p[o - s + 3]
    let e = p[o - s + 4], f = p[o - s + 5], g = p[o - s + 6], h = p[o - s + 7]
    let i = p[o - 1], j = p[o + s - 1], k = p[o + 2 * s - 1], l = p[o + 3 * s - 1]
    let x = p[o - s - 1]
    func set(_ col: Int, _ row: Int, _ value: UInt8) { p[o + row * s + col] = value }
    switch mode {
    case VP8Mode.dc:
      var sum = 4
      for index in 0..<4 { sum += Int(p[o - s + index]) + Int(p[o + index * s - 1]) }
      for row in 0..<4 { for col in 0..<4 { set(col, row, UInt8(sum >> 3)) } }
    case VP8Mode.tm:
      trueMotion(&p, o, s, size: 4)
    case VP8Mode.ve:
      let values = [average3(x, a, b), average3(a, b, c), average3(b, c, d), average3(c, d, e)]
      for row in 0..<4 { for col in 0..<4 { set(col, row, values[col]) } }
    case VP8Mode.he:
      let values = [average3(x, i, j), average3(i, j, k), average3(j, k, l), average3(k, l, l)]
      for row in 0..<4 { for col in 0..<4 { set(col, row, values[row]) } }
    case VP8Mode.rd:
      // Down and to the right: each diagonal shares a value.
      let edge = [l, k, j, i, x, a, b, c, d]
      for row in 0..<4 {
        for col in 0..<4 {
          let index = 3 - row + col + 1
          set(col, row, average3(edge[index - 1], edge[index], edge[index + 1]))
        }
      }
    case VP8Mode.ld:
      let top = [a, b, c, d, e, f, g, h, h]
      for row in 0..<4 {
        for col in 0..<4 {
          let index = row + col
          set(col, row, average3(top[index], top[index + 1], top[index + 2]))
        }
      }
    case VP8Mode.vr:
      set(0, 0, average2(x, a)); set(1, 2, average2(x, a))
      set(1, 0, average2(a, b)); set(2, 2, average2(a, b))
      set(2, 0, average2(b, c)); set(3, 2, average2(b, c))
      set(3, 0, average2(c, d))
      set(0, 3, average3(k, j, i))
      set(0, 2, average3(j, i, x))
      set(0, 1, average3(i, x, a)); set(1, 3, average3(i, x, a))
      set(1, 1, average3(x, a, b)); set(2, 3, average3(x, a, b))
      set(2, 1, average3(a, b, c)); set(3, 3, average3(a, b, c))
      set(3, 1, average3(b, c, d))
    case VP8Mode.vl:
      set(0, 0, average2(a, b))
      set(1, 0, average2(b, c)); set(0, 2, average2(b, c))
      set(2, 0, average2(c, d)); set(1, 2, average2(c, d))
      set(3, 0, average2(d, e)); set(2, 2, average2(d, e))
      set(0, 1, average3(a, b, c))
      set(1, 1, average3(b, c, d)); set(0, 3, average3(b, c, d))
      set(2, 1, average3(c, d, e)); set(1, 3, average3(c, d, e))
      set(3, 1, average3(d, e, f)); set(2, 3, average3(d, e, f))
      set(3, 2, average3(e, f, g))
      set(3, 3, average3(f, g, h))
    case VP8Mode.hd:
      set(0, 0, average2(i, x)); set(2, 1, average2(i, x))
      set(0, 1, average2(j, i)); set(2, 2, average2(j, i))
      set(0, 2, average2(k, j)); set(2, 3, average2(k, j))
      set(0, 3, average2(l, k))
      set(3, 0, average3(a, b, c))
      set(2, 0, average3(x, a, b))
      set(1, 0, average3(i, x, a)); set(3, 1, average3(i, x, a))
      set(1, 1, average3(j, i, x)); set(3, 2, average3(j, i, x))
      set(1, 2, average3(k, j, i)); set(3, 3, average3(k, j, i))
      set(1, 3, average3(l, k, j))
    default:  // HU: up and to the right, from the left column
      set(0, 0, average2(i, j))
      set(2, 0, average2(j, k)); set(0, 1, average2(j, k))
      set(2, 1, average2(k, l)); set(0, 2, average2(k, l))
      set(1, 0, average3(i, j, k))
      set(3, 0, average3(j, k, l)); set(1, 1, average3(j, k, l))
      set(3, 1, average3(k, l, l)); set(1, 2, average3(k, l, l))
      set(3, 2, l); set(2, 2, l); set(0, 3, l); set(1, 3, l); set(2, 3, l); set(3, 3, l)
    }
  }
}

/// VP8's inverse transforms (RFC 6386, 14.3 and 14.4), in the integer arithmetic the
/// format defines.
enum VP8Transform {
  /// Turns the luma DC block at `offset` into the first coefficient of each of the 16
  /// luma blocks (blocks 0…15 of `coefficients`).
  static func inverseWalshHadamard(_ coefficients: inout [Int16], from offset: Int) {
    var temporary = [Int](repeating: 0, count: 16)
    for i in 0..<4 {
      let a0 = Int(coefficients[offset + i]) + Int(coefficients[offset + 12 + i])
      let a1 = Int(coefficients[offset + 4 + i]) + Int(coefficients[offset + 8 + i])
      let a2 = Int(coefficients[offset + 4 + i]) - Int(coefficients[offset + 8 + i])
      let a3 = Int(coefficients[offset + i]) - Int(coefficients[offset + 12 + i])
      temporary[i] = a0 + a1
      temporary[8 + i] = a0 - a1
      temporary[4 + i] = a3 + a2
      temporary[12 + i] = a3 - a2
    }
    for i in 0..<4 {
      let dc = temporary[i * 4] + 3
      let a0 = dc + temporary[i * 4 + 3]
      let a1 = temporary[i * 4 + 1] + temporary[i * 4 + 2]
      let a2 = temporary[i * 4 + 1] - temporary[i * 4 + 2]
      let a3 = dc - temporary[i * 4 + 3]
      coefficients[(i * 4) * 16] = Int16(truncatingIfNeeded: (a0 + a1) >> 3)
      coefficients[(i * 4 + 1) * 16] = Int16(truncatingIfNeeded: (a3 + a2) >> 3)
      coefficients[(i * 4 + 2) * 16] = Int16(truncatingIfNeeded: (a0 - a1) >> 3)
      coefficients[(i * 4 + 3) * 16] = Int16(truncatingIfNeeded: (a3 - a2) >> 3)
    }
  }

  @inline(__always) private static func multiply1(_ a: Int) -> Int { ((a * 20_091) >> 16) + a }
  @inline(__always) private static func multiply2(_ a: Int) -> Int { (a * 35_468) >> 16 }

  /// Adds the inverse DCT of the 16 coefficients at `offset` to the 4×4 pixels at `origin`.
  static func inverseDCT(
    _ coefficients: [Int16], from offset: Int, into pixels: inout [UInt8], _ origin: Int, _ stride: Int
  ) {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { temporary in
      for i in 0..<4 {  // columns
        let c0 = Int(coefficients[offset + i]), c4 = Int(coefficients[offset + 4 + i])
        let c8 = Int(coefficients[offset + 8 + i]), c12 = Int(coefficients[offset + 12 + i])
        let a = c0 + c8
        let b = c0 - c8
        let c = multiply2(c4) - multiply1(c12)
        let d = multiply1(c4) + multiply2(c12)
        temporary[i * 4] = a + d
        temporary[i * 4 + 1] = b + c
        temporary[i * 4 + 2] = b - c
        temporary[i * 4 + 3] = a - d
      }
      for row in 0..<4 {
        let dc = temporary[row] + 4
        let a = dc + temporary[8 + row]
        let b = dc - temporary[8 + row]
        let c = multiply2(temporary[4 + row]) - multiply1(temporary[12 + row])
        let d = multiply1(temporary[4 + row]) + multiply2(temporary[12 + row])
        let index = origin + row * stride
        pixels[index] = add(pixels[index], a + d)
        pixels[index + 1] = add(pixels[index + 1], b + c)
        pixels[index + 2] = add(pixels[index + 2], b - c)
        pixels[index + 3] = add(pixels[index + 3], a - d)
      }
    }
  }

  @inline(__always)
  private static func add(_ pixel: UInt8, _ residue: Int) -> UInt8 {
    UInt8(min(max(Int(pixel) + (residue >> 3), 0), 255))
  }
}

/// VP8's loop filters (RFC 6386, 15), as libwebp computes them.
enum VP8LoopFilter {
  @inline(__always) private static func clampSigned(_ v: Int) -> Int { min(max(v, -128), 127) }
  @inline(__always) private static func clampStep(_ v: Int) -> Int { min(max(v, -16), 15) }
  @inline(__always) private static func clampPixel(_ v: Int) -> UInt8 { UInt8(min(max(v, 0), 255)) }

  /// The simple filter across an edge: `count` positions starting at `start`, `along`
  /// apart, each filtering the pixels `across` apart on either side of the edge.
  static func simple(
    _ p: UnsafeMutablePointer<UInt8>, _ start: Int, across: Int, along: Int, count: Int, limit: Int
  ) {
    let threshold = 2 * limit + 1
    for index in 0..<count {
      let at = start + index * along
      let p1 = Int(p[at - 2 * across]), p0 = Int(p[at - across]), q0 = Int(p[at]), q1 = Int(p[at + across])
      if 4 * abs(p0 - q0) + abs(p1 - q1) <= threshold { filter2(p, at, across) }
    }
  }

  /// The normal filter: macroblock edges (`isEdge`) change up to three pixels each side,
  /// inner edges two.
  static func normal(
    _ p: UnsafeMutablePointer<UInt8>, _ start: Int, across: Int, along: Int, count: Int, _ limit: Int,
    _ interior: Int,
    _ hevThreshold: Int, isEdge: Bool
  ) {
    let threshold = 2 * limit + 1
    for index in 0..<count {
      let at = start + index * along
      let p3 = Int(p[at - 4 * across]), p2 = Int(p[at - 3 * across])
      let p1 = Int(p[at - 2 * across]), p0 = Int(p[at - across])
      let q0 = Int(p[at]), q1 = Int(p[at + across]), q2 = Int(p[at + 2 * across]),
        q3 = Int(p[at + 3 * across])
      guard 4 * abs(p0 - q0) + abs(p1 - q1) <= threshold,
        abs(p3 - p2) <= interior, abs(p2 - p1) <= interior, abs(p1 - p0) <= interior,
        abs(q3 - q2) <= interior, abs(q2 - q1) <= interior, abs(q1 - q0) <= interior
      else { continue }
      if abs(p1 - p0) > hevThreshold || abs(q1 - q0) > hevThreshold {
        filter2(p, at, across)
      } else if isEdge {
        let a = clampSigned(3 * (q0 - p0) + clampSigned(p1 - q1))
        let a1 = (27 * a + 63) >> 7
        let a2 = (18 * a + 63) >> 7
        let a3 = (9 * a + 63) >> 7
        p[at - 3 * across] = clampPixel(p2 + a3)
        p[at - 2 * across] = clampPixel(p1 + a2)
        p[at - across] = clampPixel(p0 + a1)
        p[at] = clampPixel(q0 - a1)
        p[at + across] = clampPixel(q1 - a2)
        p[at + 2 * across] = clampPixel(q2 - a3)
      } else {
        let a = 3 * (q0 - p0)
        let a1 = clampStep((a + 4) >> 3)
        let a2 = clampStep((a + 3) >> 3)
        let a3 = (a1 + 1) >> 1
        p[at - 2 * across] = clampPixel(p1 + a3)
        p[at - across] = clampPixel(p0 + a2)
        p[at] = clampPixel(q0 - a1)
        p[at + across] = clampPixel(q1 - a3)
      }
    }
  }

  /// Changes the two pixels next to the edge, using the outer two as well.
  @inline(__always)
  private static func filter2(_ p: UnsafeMutablePointer<UInt8>, _ at: Int, _ across: Int) {
    let p1 = Int(p[at - 2 * across]), p0 = Int(p[at - across]), q0 = Int(p[at]), q1 = Int(p[at + across])
    let a = 3 * (q0 - p0) + clampSigned(p1 - q1)
    let a1 = clampStep((a + 4) >> 3)
    let a2 = clampStep((a + 3) >> 3)
    p[at - across] = clampPixel(p0 + a2)
    p[at] = clampPixel(q0 - a1)
  }
}
