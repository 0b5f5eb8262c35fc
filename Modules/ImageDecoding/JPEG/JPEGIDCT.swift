// libjpeg's inverse DCTs, the accurate integer 8×8 (`ISLOW`) and the reduced 4×4 and 2×2
// used at 1/2, 1/4 and (for subsampled chroma) 1/8 scale, with its exact constants and
// rounding, so output matches libjpeg-turbo's.

@inline(__always)
func clamp(_ value: Int) -> UInt8 {
  UInt8(truncatingIfNeeded: Swift.min(Swift.max(value, 0), 255))
}

/// One 8-point pass of libjpeg's accurate integer IDCT (`jpeg_idct_islow`), on inputs
/// `v0…v7` (a column of dequantised coefficients, or a row of the first pass's output).
/// Returns outputs 0…7 scaled by 2^13, before the pass's own descale.
@inline(__always)
func islowPass(
  _ v0: Int, _ v1: Int, _ v2: Int, _ v3: Int, _ v4: Int, _ v5: Int, _ v6: Int, _ v7: Int
) -> (Int, Int, Int, Int, Int, Int, Int, Int) {
  let constBits = 13
  // Even part.
  let z1 = (v2 + v6) * 4433  // FIX(0.541196100)
  let tmp2 = z1 + v6 * -15137  // FIX(1.847759065)
  let tmp3 = z1 + v2 * 6270  // FIX(0.765366865)
  let tmp0 = (v0 + v4) << constBits
  let tmp1 = (v0 - v4) << constBits
  let tmp10 = tmp0 + tmp3
  let tmp13 = tmp0 - tmp3
  let tmp11 = tmp1 + tmp2
  let tmp12 = tmp1 - tmp2
  // Odd part.
  let z5 = (v7 + v3 + v5 + v1) * 9633  // FIX(1.175875602)
  let o1 = (v7 + v1) * -7373  // FIX(0.899976223)
  let o2 = (v5 + v3) * -20995  // FIX(2.562915447)
  let o3 = (v7 + v3) * -16069 + z5  // FIX(1.961570560)
  let o4 = (v5 + v1) * -3196 + z5  // FIX(0.390180644)
  let odd0 = v7 * 2446 + o1 + o3  // FIX(0.298631336)
  let odd1 = v5 * 16819 + o2 + o4  // FIX(2.053119869)
  let odd2 = v3 * 25172 + o2 + o3  // FIX(3.072711026)
  let odd3 = v1 * 12299 + o1 + o4  // FIX(1.501321110)
  return (
    tmp10 + odd3, tmp11 + odd2, tmp12 + odd1, tmp13 + odd0, tmp13 - odd0, tmp12 - odd1, tmp11 - odd2,
    tmp10 - odd3
  )
}

/// libjpeg's accurate integer inverse DCT: dequantises, transforms columns then rows with
/// 13-bit fixed-point constants (``islowPass(_:_:_:_:_:_:_:_:)``), and level-shifts by 128.
///
/// The column pass runs on all eight columns at once (`SIMD8`, one lane per column); the
/// row pass is scalar, with libjpeg's shortcut for rows whose AC terms are all zero. A
/// block with no AC coefficients at all (common in smooth areas) is one flat fill.
@inline(__always)
func inverseDCT(
  _ input: UnsafeMutablePointer<Int16>, _ quantization: UnsafePointer<Int32>,
  _ output: UnsafeMutablePointer<UInt8>, _ stride: Int
) {
  let constBits = 13
  let pass1Bits = 2
  let raw = UnsafeRawPointer(input)
  if hasNoAC(input) {
    let dc = (Int(input[0]) * Int(quantization[0])) << pass1Bits
    let value = clamp(((dc + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128)
    for row in 0..<8 { (output + row * stride).update(repeating: value, count: 8) }
    return
  }
  @inline(__always) func row(_ index: Int) -> SIMD8<Int32> {
    SIMD8<Int32>(truncatingIfNeeded: (raw + index * 16).loadUnaligned(as: SIMD8<Int16>.self))
      &* UnsafeRawPointer(quantization + index * 8).loadUnaligned(as: SIMD8<Int32>.self)
  }
  // Pass 1: columns, kept scaled by 2^pass1Bits.
  let shift1 = Int32(constBits - pass1Bits)
  let round1 = SIMD8<Int32>(repeating: 1 << (shift1 - 1))
  let r = islowPass8(row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
  var workspace = (
    (r.0 &+ round1) &>> shift1, (r.1 &+ round1) &>> shift1, (r.2 &+ round1) &>> shift1,
    (r.3 &+ round1) &>> shift1, (r.4 &+ round1) &>> shift1, (r.5 &+ round1) &>> shift1,
    (r.6 &+ round1) &>> shift1, (r.7 &+ round1) &>> shift1
  )
  withUnsafeBytes(of: &workspace) { bytes in
    let ws = bytes.baseAddress!.assumingMemoryBound(to: Int32.self)
    // Pass 2: rows, descaled and level-shifted to samples.
    let shift2 = constBits + pass1Bits + 3
    let round2 = 1 << (shift2 - 1)
    for row in 0..<8 {
      let w = ws + row * 8
      let out = output + row * stride
      if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
        let value = clamp(((Int(w[0]) + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128)
        out.update(repeating: value, count: 8)
        continue
      }
      let r = islowPass(
        Int(w[0]), Int(w[1]), Int(w[2]), Int(w[3]), Int(w[4]), Int(w[5]), Int(w[6]), Int(w[7]))
      out[0] = clamp(((r.0 + round2) >> shift2) + 128)
      out[1] = clamp(((r.1 + round2) >> shift2) + 128)
      out[2] = clamp(((r.2 + round2) >> shift2) + 128)
      out[3] = clamp(((r.3 + round2) >> shift2) + 128)
      out[4] = clamp(((r.4 + round2) >> shift2) + 128)
      out[5] = clamp(((r.5 + round2) >> shift2) + 128)
      out[6] = clamp(((r.6 + round2) >> shift2) + 128)
      out[7] = clamp(((r.7 + round2) >> shift2) + 128)
    }
  }
}

/// Whether all 63 AC coefficients of a block are zero (16 eight-byte loads).
@inline(__always)
func hasNoAC(_ block: UnsafeMutablePointer<Int16>) -> Bool {
  let raw = UnsafeRawPointer(block)
  // Little-endian: the DC coefficient is the low 16 bits of the first word.
  var ac = raw.loadUnaligned(as: UInt64.self) & ~0xFFFF
  for word in 1..<16 { ac |= raw.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self) }
  return ac == 0
}

/// ``islowPass(_:_:_:_:_:_:_:_:)`` on eight columns at once: the same arithmetic, lane-wise.
/// (32-bit lanes suffice for 8-bit samples, as in libjpeg.)
@inline(__always)
func islowPass8(
  _ v0: SIMD8<Int32>, _ v1: SIMD8<Int32>, _ v2: SIMD8<Int32>, _ v3: SIMD8<Int32>, _ v4: SIMD8<Int32>,
  _ v5: SIMD8<Int32>, _ v6: SIMD8<Int32>, _ v7: SIMD8<Int32>
) -> (
  SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>,
  SIMD8<Int32>
) {
  let constBits: Int32 = 13
  let z1 = (v2 &+ v6) &* 4433
  let tmp2 = z1 &+ v6 &* -15137
  let tmp3 = z1 &+ v2 &* 6270
  let tmp0 = (v0 &+ v4) &<< constBits
  let tmp1 = (v0 &- v4) &<< constBits
  let tmp10 = tmp0 &+ tmp3
  let tmp13 = tmp0 &- tmp3
  let tmp11 = tmp1 &+ tmp2
  let tmp12 = tmp1 &- tmp2
  let z5 = (v7 &+ v3 &+ v5 &+ v1) &* 9633
  let o1 = (v7 &+ v1) &* -7373
  let o2 = (v5 &+ v3) &* -20995
  let o3 = (v7 &+ v3) &* -16069 &+ z5
  let o4 = (v5 &+ v1) &* -3196 &+ z5
  let odd0 = v7 &* 2446 &+ o1 &+ o3
  let odd1 = v5 &* 16819 &+ o2 &+ o4
  let odd2 = v3 &* 25172 &+ o2 &+ o3
  let odd3 = v1 &* 12299 &+ o1 &+ o4
  return (
    tmp10 &+ odd3, tmp11 &+ odd2, tmp12 &+ odd1, tmp13 &+ odd0, tmp13 &- odd0, tmp12 &- odd1, tmp11 &- odd2,
    tmp10 &- odd3
  )
}

/// libjpeg's 4×4 reduced inverse DCT (`jpeg_idct_4x4`): a block straight to 4×4 samples
/// (the 1/2 scale). Row and column 4 do not contribute to the even outputs it keeps.
func inverseDCT4x4(
  _ input: UnsafeMutablePointer<Int16>, _ quantization: UnsafePointer<Int32>,
  _ output: UnsafeMutablePointer<UInt8>, _ stride: Int
) {
  let constBits = 13
  let pass1Bits = 2
  @inline(__always) func dq(_ index: Int) -> Int { Int(input[index]) * Int(quantization[index]) }
  if hasNoAC(input) {
    let value = clamp((((dq(0) << pass1Bits) + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128)
    for row in 0..<4 { (output + row * stride).update(repeating: value, count: 4) }
    return
  }
  /// The shared butterfly: inputs 0, 2, 6 (even) and 7, 5, 3, 1 (odd), returning the four
  /// outputs before descaling.
  @inline(__always) func pass(
    _ v0: Int, _ v2: Int, _ v6: Int, _ v7: Int, _ v5: Int, _ v3: Int, _ v1: Int
  ) -> (Int, Int, Int, Int) {
    let tmp0 = v0 << (constBits + 1)
    let tmp2 = v2 * 15137 + v6 * -6270  // FIX(1.847759065), -FIX(0.765366865)
    let tmp10 = tmp0 + tmp2
    let tmp12 = tmp0 - tmp2
    // FIX(0.211164243), FIX(1.451774981), FIX(2.172734803), FIX(1.061594337)
    let odd0 = v7 * -1730 + v5 * 11893 + v3 * -17799 + v1 * 8697
    // FIX(0.509795579), FIX(0.601344887), FIX(0.899976223), FIX(2.562915447)
    let odd2 = v7 * -4176 + v5 * -4926 + v3 * 7373 + v1 * 20995
    return (tmp10 + odd2, tmp12 + odd0, tmp12 - odd0, tmp10 - odd2)
  }
  let zeros = (0, 0, 0, 0, 0, 0, 0, 0)
  var rows = (zeros, zeros, zeros, zeros)
  withUnsafeMutableBytes(of: &rows) { raw in
    let ws = raw.baseAddress!.assumingMemoryBound(to: Int.self)
    let shift1 = constBits - pass1Bits + 1
    for column in 0..<8 where column != 4 {
      if input[8 + column] == 0 && input[16 + column] == 0 && input[24 + column] == 0
        && input[40 + column] == 0 && input[48 + column] == 0 && input[56 + column] == 0
      {
        let dc = dq(column) << pass1Bits
        for row in 0..<4 { ws[row * 8 + column] = dc }
        continue
      }
      let r = pass(
        dq(column), dq(16 + column), dq(48 + column), dq(56 + column), dq(40 + column), dq(24 + column),
        dq(8 + column))
      ws[column] = (r.0 + (1 << (shift1 - 1))) >> shift1
      ws[8 + column] = (r.1 + (1 << (shift1 - 1))) >> shift1
      ws[16 + column] = (r.2 + (1 << (shift1 - 1))) >> shift1
      ws[24 + column] = (r.3 + (1 << (shift1 - 1))) >> shift1
    }
    let shift2 = constBits + pass1Bits + 3 + 1
    for row in 0..<4 {
      let w = ws + row * 8
      let out = output + row * stride
      if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
        out.update(repeating: clamp(((w[0] + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128), count: 4)
        continue
      }
      let r = pass(w[0], w[2], w[6], w[7], w[5], w[3], w[1])
      out[0] = clamp(((r.0 + (1 << (shift2 - 1))) >> shift2) + 128)
      out[1] = clamp(((r.1 + (1 << (shift2 - 1))) >> shift2) + 128)
      out[2] = clamp(((r.2 + (1 << (shift2 - 1))) >> shift2) + 128)
      out[3] = clamp(((r.3 + (1 << (shift2 - 1))) >> shift2) + 128)
    }
  }
}

/// libjpeg's 2×2 reduced inverse DCT (`jpeg_idct_2x2`): a block straight to 2×2 samples
/// from its low-frequency coefficients.
func inverseDCT2x2(
  _ input: UnsafeMutablePointer<Int16>, _ quantization: UnsafePointer<Int32>,
  _ output: UnsafeMutablePointer<UInt8>,
  _ stride: Int
) {
  let constBits = 13
  let pass1Bits = 2
  let fix0_720959822 = 5906
  let fix0_850430095 = 6967
  let fix1_272758580 = 10426
  let fix3_624509785 = 29692
  @inline(__always) func dq(_ index: Int) -> Int { Int(input[index]) * Int(quantization[index]) }
  if hasNoAC(input) {
    // What the passes below compute when every AC coefficient is zero.
    let value = clamp((((dq(0) << pass1Bits) + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128)
    output[0] = value
    output[1] = value
    output[stride] = value
    output[stride + 1] = value
    return
  }
  // Pass 1 on columns 0, 1, 3, 5 and 7 (the only ones the 2-point rows read): the top
  // and bottom results of each.
  @inline(__always) func column(_ column: Int) -> (Int, Int) {
    if input[8 + column] == 0 && input[24 + column] == 0 && input[40 + column] == 0 && input[56 + column] == 0
    {
      let dc = dq(column) << pass1Bits
      return (dc, dc)
    }
    let tmp10 = dq(column) << (constBits + 2)
    let tmp0 =
      dq(56 + column) * -fix0_720959822 + dq(40 + column) * fix0_850430095 + dq(24 + column) * -fix1_272758580
      + dq(8 + column) * fix3_624509785
    let shift = constBits - pass1Bits + 2
    return ((tmp10 + tmp0 + (1 << (shift - 1))) >> shift, (tmp10 - tmp0 + (1 << (shift - 1))) >> shift)
  }
  let c0 = column(0)
  let c1 = column(1)
  let c3 = column(3)
  let c5 = column(5)
  let c7 = column(7)
  @inline(__always) func row(
    _ w0: Int, _ w1: Int, _ w3: Int, _ w5: Int, _ w7: Int, _ out: UnsafeMutablePointer<UInt8>
  ) {
    if w1 == 0 && w3 == 0 && w5 == 0 && w7 == 0 {
      let value = clamp(((w0 + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128)
      out[0] = value
      out[1] = value
      return
    }
    let tmp10 = w0 << (constBits + 2)
    let tmp0 = w7 * -fix0_720959822 + w5 * fix0_850430095 + w3 * -fix1_272758580 + w1 * fix3_624509785
    let shift = constBits + pass1Bits + 3 + 2
    out[0] = clamp(((tmp10 + tmp0 + (1 << (shift - 1))) >> shift) + 128)
    out[1] = clamp(((tmp10 - tmp0 + (1 << (shift - 1))) >> shift) + 128)
  }
  row(c0.0, c1.0, c3.0, c5.0, c7.0, output)
  row(c0.1, c1.1, c3.1, c5.1, c7.1, output + stride)
}
