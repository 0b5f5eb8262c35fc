/// Turning coefficients into pixels: inverse DCT, chroma upsampling, colour conversion,
/// orientation. The arithmetic follows libjpeg's accurate integer path (`ISLOW` IDCT,
/// "fancy" triangular upsampling for 2×1 and 2×2 chroma, fixed-point YCbCr), so full
/// decodes match the reference decoder to within rounding.
extension Decoder {
  /// Samples per line of a component's plane.
  func planeWidth(_ component: Component) -> Int {
    component.blocksPerLine * blockScale(component)
  }

  /// Allocates every component's plane; every sample of every block is written later,
  /// so they are not zeroed.
  mutating func allocatePlanes() {
    planes = frame.components.map { component in
      let count = planeWidth(component) * component.blocksPerColumn * blockScale(component)
      return [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
  }

  /// Renders `rowCount` rows of blocks of component `index`, whose coefficients start at
  /// `coefficients`, into its plane from block row `firstRow` on, with the inverse DCT of
  /// the component's size (``blockScale(_:)``): 8×8, 4×4, 2×2 or the DC alone.
  mutating func renderBlockRows(
    _ index: Int, from coefficients: UnsafeMutablePointer<Int16>, firstRow: Int, rowCount: Int
  ) {
    let component = frame.components[index]
    let blockSize = blockScale(component)
    let width = planeWidth(component)
    let perBlock = component.perBlock
    let blocksPerLine = component.blocksPerLine
    let table = quantization[component.quantizationTable]
    planes[index].withUnsafeMutableBufferPointer { output in
      table.withUnsafeBufferPointer { q in
        // One loop per transform size, so each is a tight loop of one kind of block.
        @inline(__always) func each(
          _ render: (UnsafeMutablePointer<Int16>, UnsafeMutablePointer<UInt8>) -> Void
        ) {
          for blockRow in 0..<rowCount {
            let row = firstRow + blockRow
            for column in 0..<blocksPerLine {
              render(
                coefficients + (blockRow * blocksPerLine + column) * perBlock,
                output.baseAddress! + row * blockSize * width + column * blockSize)
            }
          }
        }
        let quantization = q.baseAddress!
        switch blockSize {
        case 1:
          let dcStep = Int(quantization[0])
          each { block, target in target[0] = clamp(((Int(block[0]) * dcStep + 4) >> 3) + 128) }
        case 2: each { inverseDCT2x2($0, quantization, $1, width) }
        case 4: each { inverseDCT4x4($0, quantization, $1, width) }
        default: each { inverseDCT($0, quantization, $1, width) }
        }
      }
    }
  }

  mutating func output() throws(JPEGError) -> RGBImage {
    let step = scale.rawValue
    if planes.isEmpty {
      allocatePlanes()
      for index in frame.components.indices {
        let component = frame.components[index]
        renderBlockRows(
          index, from: component.coefficients.buffer.baseAddress!, firstRow: 0,
          rowCount: component.blocksPerColumn)
      }
    }
    // How much each plane must be enlarged to reach the output resolution.
    var upsampling: [(h: Int, v: Int)] = []
    let smallest = 8 / step
    for component in frame.components {
      let blockSize = blockScale(component)
      upsampling.append(
        (
          frame.maxH * smallest / (component.h * blockSize),
          frame.maxV * smallest / (component.v * blockSize)
        ))
    }
    let planes = self.planes
    let planeWidths = frame.components.map(planeWidth)

    let width = (frame.width + step - 1) / step
    let height = (frame.height + step - 1) / step
    if let fused = fusedYCbCr(planes, planeWidths, upsampling, width, height) {
      return oriented(RGBImage(width: width, height: height, pixels: fused))
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    if frame.components.count == 1 {
      for y in 0..<height {
        for x in 0..<width {
          let value = planes[0][y * planeWidths[0] + x]
          let index = (y * width + x) * 3
          pixels[index] = value
          pixels[index + 1] = value
          pixels[index + 2] = value
        }
      }
    } else {
      // Chroma (and any subsampled component) brought up to full resolution.
      var full: [[UInt8]] = []
      for (index, component) in frame.components.enumerated() {
        let hFactor = upsampling[index].h
        let vFactor = upsampling[index].v
        if hFactor == 1 && vFactor == 1 {
          full.append(crop(planes[index], planeWidths[index], width, height))
        } else if usesFancyUpsampling(component, hFactor, vFactor) {
          let samples = sampleSize(component)
          full.append(
            fancyUpsample(
              planes[index], planeWidths[index], samples.width, samples.height, vertical: vFactor == 2,
              width, height))
        } else {
          var plane = [UInt8](repeating: 0, count: width * height)
          let source = planes[index]
          let sourceWidth = planeWidths[index]
          let sourceHeight = source.count / max(1, sourceWidth)
          for y in 0..<height {
            let sy = min(sourceHeight - 1, y / max(1, vFactor))
            for x in 0..<width {
              plane[y * width + x] = source[sy * sourceWidth + min(sourceWidth - 1, x / max(1, hFactor))]
            }
          }
          full.append(plane)
        }
      }
      if isRGB {
        for index in 0..<(width * height) {
          pixels[index * 3] = full[0][index]
          pixels[index * 3 + 1] = full[1][index]
          pixels[index * 3 + 2] = full[2][index]
        }
      } else {
        YCbCr.convert(full[0], full[1], full[2], into: &pixels)
      }
    }
    return oriented(RGBImage(width: width, height: height, pixels: pixels))
  }

  /// libjpeg's choice: triangular upsampling for 2×1 and 2×2 when the component had a
  /// real IDCT (more than its DC); plain replication otherwise.
  private func usesFancyUpsampling(_ component: Component, _ hFactor: Int, _ vFactor: Int) -> Bool {
    blockScale(component) > 1 && hFactor == 2 && vFactor <= 2 && frame.maxH % component.h == 0
      && frame.maxV % component.v == 0
  }

  /// A component's meaningful samples at the output scale (its plane is padded to blocks).
  private func sampleSize(_ component: Component) -> (width: Int, height: Int) {
    let size = blockScale(component)
    return (
      (frame.width * component.h * size + frame.maxH * 8 - 1) / (frame.maxH * 8),
      (frame.height * component.v * size + frame.maxV * 8 - 1) / (frame.maxV * 8)
    )
  }

  /// Whether the frame is stored as RGB rather than YCbCr (Adobe transform 0, or three
  /// components named R, G, B without JFIF).
  private var isRGB: Bool {
    adobeTransform == 0
      || (adobeTransform == nil && !sawJFIF && frame.components.map(\.id) == [0x52, 0x47, 0x42])
  }

  /// The common case in one pass, row by row: YCbCr whose chroma is at full resolution or
  /// subsampled 2×1 / 2×2 (fancy upsampling), converted straight into the pixels without
  /// full-size chroma planes. `nil` for anything else (the general path handles it).
  private func fusedYCbCr(
    _ planes: [[UInt8]], _ planeWidths: [Int], _ upsampling: [(h: Int, v: Int)], _ width: Int, _ height: Int
  ) -> [UInt8]? {
    guard frame.components.count == 3, !isRGB, upsampling[0] == (1, 1), upsampling[1] == upsampling[2]
    else { return nil }
    let (hFactor, vFactor) = upsampling[1]
    let chroma = frame.components[1]
    let native = hFactor == 1 && vFactor == 1
    let fancy =
      usesFancyUpsampling(chroma, hFactor, vFactor) && frame.components[2].h == chroma.h
      && frame.components[2].v == chroma.v
    guard native || fancy else { return nil }
    let inWidth = native ? width : sampleSize(chroma).width
    let inHeight = native ? height : sampleSize(chroma).height
    // Every row read below must lie inside the planes (they are padded to whole blocks).
    for index in 0..<3 {
      let needed = index == 0 ? (width, height) : (inWidth, inHeight)
      guard planeWidths[index] >= needed.0, planes[index].count >= planeWidths[index] * needed.1 else {
        return nil
      }
    }
    let count = width * height * 3
    let rowCapacity = max(width, 2 * inWidth + 18)
    var cbRow = [UInt8](repeating: 0, count: rowCapacity)
    var crRow = [UInt8](repeating: 0, count: rowCapacity)
    var sums = [Int16](repeating: 0, count: inWidth + 16)
    return [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
      planes[0].withUnsafeBufferPointer { luma in
        planes[1].withUnsafeBufferPointer { cb in
          planes[2].withUnsafeBufferPointer { cr in
            cbRow.withUnsafeMutableBufferPointer { cbRow in
              crRow.withUnsafeMutableBufferPointer { crRow in
                sums.withUnsafeMutableBufferPointer { sums in
                  for y in 0..<height {
                    let cbLine: UnsafePointer<UInt8>
                    let crLine: UnsafePointer<UInt8>
                    if native {
                      cbLine = cb.baseAddress! + y * planeWidths[1]
                      crLine = cr.baseAddress! + y * planeWidths[2]
                    } else {
                      fancyRow(
                        cb.baseAddress!, planeWidths[1], inWidth, inHeight, vertical: vFactor == 2, y,
                        sums.baseAddress!, cbRow.baseAddress!)
                      fancyRow(
                        cr.baseAddress!, planeWidths[2], inWidth, inHeight, vertical: vFactor == 2, y,
                        sums.baseAddress!, crRow.baseAddress!)
                      cbLine = UnsafePointer(cbRow.baseAddress!)
                      crLine = UnsafePointer(crRow.baseAddress!)
                    }
                    YCbCr.convertRow(
                      luma.baseAddress! + y * planeWidths[0], cbLine, crLine,
                      output.baseAddress! + y * width * 3,
                      width)
                  }
                }
              }
            }
          }
        }
      }
      initialized = count
    }
  }

  private func crop(_ plane: [UInt8], _ planeWidth: Int, _ width: Int, _ height: Int) -> [UInt8] {
    let planeHeight = plane.count / max(1, planeWidth)
    if planeWidth == width, planeHeight >= height { return Array(plane[0..<(width * height)]) }
    var result = [UInt8](repeating: 0, count: width * height)
    let rowBytes = min(width, planeWidth)
    plane.withUnsafeBufferPointer { source in
      result.withUnsafeMutableBufferPointer { target in
        for y in 0..<min(height, planeHeight) {
          (target.baseAddress! + y * width).update(
            from: source.baseAddress! + y * planeWidth, count: rowBytes)
        }
      }
    }
    return result
  }

  /// A whole plane through ``fancyRow(_:_:_:_:vertical:_:_:_:)`` (for layouts the fused
  /// path does not take).
  private func fancyUpsample(
    _ plane: [UInt8], _ planeWidth: Int, _ inWidth: Int, _ inHeight: Int, vertical: Bool, _ width: Int,
    _ height: Int
  ) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: width * height)
    var sums = [Int16](repeating: 0, count: inWidth + 16)
    var row = [UInt8](repeating: 0, count: 2 * inWidth + 18)
    let outRows = min(height, vertical ? inHeight * 2 : inHeight)
    plane.withUnsafeBufferPointer { input in
      result.withUnsafeMutableBufferPointer { output in
        sums.withUnsafeMutableBufferPointer { sums in
          row.withUnsafeMutableBufferPointer { row in
            for outY in 0..<outRows {
              fancyRow(
                input.baseAddress!, planeWidth, inWidth, inHeight, vertical: vertical, outY,
                sums.baseAddress!,
                row.baseAddress!)
              (output.baseAddress! + outY * width).update(
                from: row.baseAddress!, count: min(width, 2 * inWidth))
            }
          }
        }
      }
    }
    return result
  }

  /// The EXIF orientation applied (1–8).
  private func oriented(_ image: RGBImage) -> RGBImage {
    guard orientation != 1 else { return image }
    let w = image.width
    let h = image.height
    let swaps = orientation >= 5
    let outWidth = swaps ? h : w
    let outHeight = swaps ? w : h
    var pixels = [UInt8](repeating: 0, count: image.pixels.count)
    for y in 0..<outHeight {
      for x in 0..<outWidth {
        let (sx, sy): (Int, Int)
        switch orientation {
        case 2: (sx, sy) = (w - 1 - x, y)
        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
        case 4: (sx, sy) = (x, h - 1 - y)
        case 5: (sx, sy) = (y, x)
        case 6: (sx, sy) = (y, h - 1 - x)
        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
        default: (sx, sy) = (w - 1 - y, x)  // 8
        }
        let source = (sy * w + sx) * 3
        let target = (y * outWidth + x) * 3
        pixels[target] = image.pixels[source]
        pixels[target + 1] = image.pixels[source + 1]
        pixels[target + 2] = image.pixels[source + 2]
      }
    }
    return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
  }
}

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

  /// Converts `count` samples of Y, Cb and Cr into RGB triples.
  @inline(__always)
  static func convertRow(
    _ y: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
    _ out: UnsafeMutablePointer<UInt8>, _ count: Int
  ) {
    // libjpeg's table formulas computed inline (the same integers), eight pixels at a time.
    var index = 0
    while index + 8 <= count {
      let luma = SIMD8<Int32>(
        truncatingIfNeeded: UnsafeRawPointer(y + index).loadUnaligned(as: SIMD8<UInt8>.self))
      let blue =
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(cb + index).loadUnaligned(as: SIMD8<UInt8>.self))
        &- 128
      let red =
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(cr + index).loadUnaligned(as: SIMD8<UInt8>.self))
        &- 128
      let half = SIMD8<Int32>(repeating: Self.half)
      let zero = SIMD8<Int32>(repeating: 0)
      let top = SIMD8<Int32>(repeating: 255)
      let r = (luma &+ ((Self.rFromCr &* red &+ half) &>> 16)).clamped(lowerBound: zero, upperBound: top)
      let g = (luma &+ ((Self.gFromCb &* blue &+ half &+ Self.gFromCr &* red) &>> 16))
        .clamped(lowerBound: zero, upperBound: top)
      let b = (luma &+ ((Self.bFromCb &* blue &+ half) &>> 16)).clamped(lowerBound: zero, upperBound: top)
      let target = out + index * 3
      for lane in 0..<8 {
        target[lane * 3] = UInt8(truncatingIfNeeded: r[lane])
        target[lane * 3 + 1] = UInt8(truncatingIfNeeded: g[lane])
        target[lane * 3 + 2] = UInt8(truncatingIfNeeded: b[lane])
      }
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
