// libjpeg's chroma upsampling ("fancy", triangular) and YCbCr → RGB conversion, on SIMD
// lanes with libjpeg's integers.

/// One output row of libjpeg's triangular ("fancy") upsampling of a chroma plane
/// subsampled 2× horizontally (and 2× vertically when `vertical`): each output sample is
/// 3/4 of the nearer input sample and 1/4 of the farther one, in each direction. Writes
/// `2 × inWidth` samples to `out`, which must have room for 16 more; `sums` is scratch
/// for `inWidth + 16` values. The interior runs eight input samples at a time.
@inline(__always)
func fancyRow(
  _ plane: UnsafePointer<UInt8>, _ planeWidth: Int, _ inWidth: Int, _ inHeight: Int, vertical: Bool,
  _ outY: Int, _ sums: UnsafeMutablePointer<Int16>, _ out: UnsafeMutablePointer<UInt8>
) {
  let inY = vertical ? min(inHeight - 1, outY / 2) : min(inHeight - 1, outY)
  let near = plane + inY * planeWidth
  if vertical {
    let farY = outY % 2 == 0 ? max(0, inY - 1) : min(inHeight - 1, inY + 1)
    let far = plane + farY * planeWidth
    for x in 0..<inWidth { sums[x] = Int16(near[x]) &* 3 &+ Int16(far[x]) }
  } else {
    for x in 0..<inWidth { sums[x] = Int16(near[x]) }
  }
  // Vertical sums carry 4× weight: round and scale by 16; horizontal only: by 4.
  let (shift, roundLeft, roundRight): (Int16, Int16, Int16) = vertical ? (4, 8, 7) : (2, 1, 2)
  let last = inWidth - 1
  out[0] = UInt8(truncatingIfNeeded: (sums[0] &* 4 &+ (vertical ? 8 : 0)) >> shift)
  var x = 0
  while x + 8 <= last {
    let this = UnsafeRawPointer(sums + x).loadUnaligned(as: SIMD8<Int16>.self)
    let next = UnsafeRawPointer(sums + x + 1).loadUnaligned(as: SIMD8<Int16>.self)
    let right = (this &* 3 &+ next &+ roundRight) &>> shift
    let left = (next &* 3 &+ this &+ roundLeft) &>> shift
    let pairs = SIMD16<Int16>(
      right[0], left[0], right[1], left[1], right[2], left[2], right[3], left[3], right[4], left[4], right[5],
      left[5], right[6], left[6], right[7], left[7])
    UnsafeMutableRawPointer(out + 2 * x + 1).storeBytes(
      of: SIMD16<UInt8>(truncatingIfNeeded: pairs), as: SIMD16<UInt8>.self)
    x += 8
  }
  while x < last {
    let this = sums[x]
    let next = sums[x + 1]
    out[2 * x + 1] = UInt8(truncatingIfNeeded: (this &* 3 &+ next &+ roundRight) >> shift)
    out[2 * x + 2] = UInt8(truncatingIfNeeded: (next &* 3 &+ this &+ roundLeft) >> shift)
    x += 1
  }
  out[2 * last + 1] = UInt8(truncatingIfNeeded: (sums[last] &* 4 &+ (vertical ? 7 : 0)) >> shift)
}

/// libjpeg's fixed-point YCbCr → RGB conversion (the formulas of its tables, computed).
enum YCbCr {
  static let half: Int32 = 1 << 15
  static let rFromCr: Int32 = 91881  // FIX(1.40200)
  static let bFromCb: Int32 = 116130  // FIX(1.77200)
  static let gFromCr: Int32 = -46802  // -FIX(0.71414)
  static let gFromCb: Int32 = -22554  // -FIX(0.34414)

  /// Clamps lanes to 0…255 with shifts and masks: the lane operations of `SIMD8<Int32>`
  /// compile to vector instructions, where `clamped(lowerBound:upperBound:)` became a
  /// call per use. The result's low byte is the clamped value.
  @inline(__always)
  static func toByte(_ value: SIMD8<Int32>) -> SIMD8<Int32> {
    let nonNegative = value & ~(value &>> 31)
    return nonNegative | ((255 &- nonNegative) &>> 31)
  }

  /// Eight bytes from `pointer`, one lane each.
  @inline(__always)
  static func widen(_ pointer: UnsafeRawPointer) -> SIMD8<Int32> {
    SIMD8<Int32>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD8<UInt8>.self))
  }

  /// Writes eight pixels, the low byte of each lane, as RGB triples.
  @inline(__always)
  static func storeInterleaved(
    _ red: SIMD8<Int32>, _ green: SIMD8<Int32>, _ blue: SIMD8<Int32>, to target: UnsafeMutablePointer<UInt8>
  ) {
    for lane in 0..<8 {
      target[lane * 3] = UInt8(truncatingIfNeeded: red[lane])
      target[lane * 3 + 1] = UInt8(truncatingIfNeeded: green[lane])
      target[lane * 3 + 2] = UInt8(truncatingIfNeeded: blue[lane])
    }
  }

  /// Converts `count` samples of Y, Cb and Cr into RGB triples.
  @inline(__always)
  static func convertRow(
    _ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
    _ out: UnsafeMutablePointer<UInt8>, _ count: Int
  ) {
    // libjpeg's table formulas computed inline (the same integers), eight pixels at a time.
    var index = 0
    while index + 8 <= count {
      let luma = widen(y + index)
      let blue = widen(cb + index) &- 128
      let red = widen(cr + index) &- 128
      let half = SIMD8<Int32>(repeating: Self.half)
      let r = toByte(luma &+ ((Self.rFromCr &* red &+ half) &>> 16))
      let g = toByte(luma &+ ((Self.gFromCb &* blue &+ half &+ Self.gFromCr &* red) &>> 16))
      let b = toByte(luma &+ ((Self.bFromCb &* blue &+ half) &>> 16))
      storeInterleaved(r, g, b, to: out + index * 3)
      index += 8
    }
    while index < count {
      let luma = Int32(y[index])
      let blue = Int32(cb[index]) &- 128
      let red = Int32(cr[index]) &- 128
      let r = luma &+ ((Self.rFromCr &* red &+ Self.half) >> 16)
      let g = luma &+ ((Self.gFromCb &* blue &+ Self.half &+ Self.gFromCr &* red) >> 16)
      let b = luma &+ ((Self.bFromCb &* blue &+ Self.half) >> 16)
      out[index * 3] = UInt8(truncatingIfNeeded: Swift.min(Swift.max(r, 0), 255))
      out[index * 3 + 1] = UInt8(truncatingIfNeeded: Swift.min(Swift.max(g, 0), 255))
      out[index * 3 + 2] = UInt8(truncatingIfNeeded: Swift.min(Swift.max(b, 0), 255))
      index += 1
    }
  }

  static func convert(_ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8], into pixels: inout [UInt8]) {
    let count = min(y.count, cb.count, cr.count, pixels.count / 3)
    y.withUnsafeBufferPointer { y in
      cb.withUnsafeBufferPointer { cb in
        cr.withUnsafeBufferPointer { cr in
          pixels.withUnsafeMutableBufferPointer { out in
            convertRow(y.baseAddress!, cb.baseAddress!, cr.baseAddress!, out.baseAddress!, count)
          }
        }
      }
    }
  }
}
