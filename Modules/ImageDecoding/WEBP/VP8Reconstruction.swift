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
  /// The normal filter at sixteen positions along an edge at once: eight from `first` and
  /// eight from `second` (the two halves of a luma edge, or the same edge in U and V),
  /// each `along` apart, filtering the pixels `across` apart on either side. Macroblock
  /// edges (`isEdge`) change up to three pixels each side, inner edges two.
  static func normal(
    _ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>, across: Int, along: Int,
    _ limit: Int, _ interior: Int, _ hevThreshold: Int, isEdge: Bool
  ) {
    typealias Lanes = SIMD16<Int16>
    // Row `k` of the pixels across the edge (p3 is -4, q0 is 0), one lane per position.
    @inline(__always)
    func load(_ k: Int) -> Lanes {
      if along == 1 {
        let low = UnsafeRawPointer(first + k * across).loadUnaligned(as: SIMD8<UInt8>.self)
        let high = UnsafeRawPointer(second + k * across).loadUnaligned(as: SIMD8<UInt8>.self)
        return Lanes(truncatingIfNeeded: SIMD16(lowHalf: low, highHalf: high))
      }
      var lanes = Lanes()
      for lane in 0..<8 {
        lanes[lane] = Int16(first[lane * along + k * across])
        lanes[lane + 8] = Int16(second[lane * along + k * across])
      }
      return lanes
    }
    @inline(__always)
    func store(_ k: Int, _ lanes: Lanes) {
      // Every result is already within 0…255.
      let bytes = SIMD16<UInt8>(truncatingIfNeeded: lanes)
      if along == 1 {
        UnsafeMutableRawPointer(first + k * across).storeBytes(of: bytes.lowHalf, as: SIMD8<UInt8>.self)
        UnsafeMutableRawPointer(second + k * across).storeBytes(of: bytes.highHalf, as: SIMD8<UInt8>.self)
        return
      }
      for lane in 0..<8 {
        first[lane * along + k * across] = bytes[lane]
        second[lane * along + k * across] = bytes[lane + 8]
      }
    }
    @inline(__always)
    func distance(_ a: Lanes, _ b: Lanes) -> Lanes {
      let difference = a &- b
      return difference.replacing(with: Lanes() &- difference, where: difference .< Lanes())
    }
    // Vectors on both sides of every comparison: a scalar one (`value .< 0`) took the
    // standard library's generic path, which made the whole decode 7× slower, and
    // `pointwiseMin`/`pointwiseMax` stayed calls.
    @inline(__always)
    func clamp(_ value: Lanes, _ low: Int16, _ high: Int16) -> Lanes {
      let (low, high) = (Lanes(repeating: low), Lanes(repeating: high))
      return value.replacing(with: low, where: value .< low).replacing(with: high, where: value .> high)
    }
    let (p3, p2, p1, p0) = (load(-4), load(-3), load(-2), load(-1))
    let (q0, q1, q2, q3) = (load(0), load(1), load(2), load(3))
    let inside = Lanes(repeating: Int16(interior))
    let filtered =
      (4 &* distance(p0, q0) &+ distance(p1, q1) .<= Lanes(repeating: Int16(2 * limit + 1)))
      .& (distance(p3, p2) .<= inside) .& (distance(p2, p1) .<= inside) .& (distance(p1, p0) .<= inside)
      .& (distance(q3, q2) .<= inside) .& (distance(q2, q1) .<= inside) .& (distance(q1, q0) .<= inside)
    guard any(filtered) else { return }
    let hevLimit = Lanes(repeating: Int16(hevThreshold))
    let highVariance = (distance(p1, p0) .> hevLimit) .| (distance(q1, q0) .> hevLimit)
    let (outerTaps, plain) = (filtered .& highVariance, filtered .& .!highVariance)
    // High variance: the two pixels next to the edge, using the outer two as well.
    let common = 3 &* (q0 &- p0) &+ clamp(p1 &- q1, -128, 127)
    var newP0 = p0.replacing(with: clamp(p0 &+ clamp((common &+ 3) &>> 3, -16, 15), 0, 255), where: outerTaps)
    var newQ0 = q0.replacing(with: clamp(q0 &- clamp((common &+ 4) &>> 3, -16, 15), 0, 255), where: outerTaps)
    if isEdge {
      let a = clamp(common, -128, 127)
      let (a1, a2, a3) = ((27 &* a &+ 63) &>> 7, (18 &* a &+ 63) &>> 7, (9 &* a &+ 63) &>> 7)
      store(-3, p2.replacing(with: clamp(p2 &+ a3, 0, 255), where: plain))
      store(-2, p1.replacing(with: clamp(p1 &+ a2, 0, 255), where: plain))
      newP0.replace(with: clamp(p0 &+ a1, 0, 255), where: plain)
      newQ0.replace(with: clamp(q0 &- a1, 0, 255), where: plain)
      store(1, q1.replacing(with: clamp(q1 &- a2, 0, 255), where: plain))
      store(2, q2.replacing(with: clamp(q2 &- a3, 0, 255), where: plain))
    } else {
      let a = 3 &* (q0 &- p0)
      let a1 = clamp((a &+ 4) &>> 3, -16, 15)
      let a2 = clamp((a &+ 3) &>> 3, -16, 15)
      let a3 = (a1 &+ 1) &>> 1
      store(-2, p1.replacing(with: clamp(p1 &+ a3, 0, 255), where: plain))
      newP0.replace(with: clamp(p0 &+ a2, 0, 255), where: plain)
      newQ0.replace(with: clamp(q0 &- a1, 0, 255), where: plain)
      store(1, q1.replacing(with: clamp(q1 &- a3, 0, 255), where: plain))
    }
    store(-1, newP0)
    store(0, newQ0)
  }
}
