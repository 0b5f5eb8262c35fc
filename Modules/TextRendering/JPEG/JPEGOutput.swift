/// Turning coefficients into pixels: inverse DCT, chroma upsampling, colour conversion,
/// orientation. The arithmetic follows libjpeg's accurate integer path (`ISLOW` IDCT,
/// "fancy" triangular upsampling for 2×1 and 2×2 chroma, fixed-point YCbCr), so full
/// decodes match the reference decoder to within rounding.
extension Decoder {
  mutating func output() throws(JPEGError) -> RGBImage {
    let step = scale.rawValue
    // Each component as a plane of samples at the output scale.
    var planes: [[UInt8]] = []
    var planeWidths: [Int] = []
    var upsampling: [(h: Int, v: Int)] = []
    for component in frame.components {
      let blockSize = blockScale(component)
      let lumaScale = dcOnly ? 1 : blockSize
      upsampling.append(
        (
          frame.maxH * lumaScale / (component.h * blockSize),
          frame.maxV * lumaScale / (component.v * blockSize)
        ))
      let width = component.blocksPerLine * blockSize
      // Every sample of every block is written below: no need to zero the plane first.
      let planeCount = width * component.blocksPerColumn * blockSize
      var plane = [UInt8](unsafeUninitializedCapacity: planeCount) { _, count in count = planeCount }
      let table = quantization[component.quantizationTable]
      plane.withUnsafeMutableBufferPointer { output in
        table.withUnsafeBufferPointer { q in
          let coefficients = component.coefficients.buffer.baseAddress!
          var samples = [UInt8](repeating: 0, count: 64)
          for row in 0..<component.blocksPerColumn {
            for column in 0..<component.blocksPerLine {
              let block = row * component.blocksPerLine + column
              if blockSize == 1 {
                let dc = (Int(coefficients[block]) * Int(q[0]) + 4) >> 3
                output[row * width + column] = clamp(dc + 128)
                continue
              }
              if dcOnly {
                inverseDCT2x2(
                  coefficients + block * 64, q.baseAddress!,
                  output.baseAddress! + row * 2 * width + column * 2, width)
                continue
              }
              let x0 = column * blockSize
              let y0 = row * blockSize
              if step == 1 {
                inverseDCT(
                  coefficients + block * 64, q.baseAddress!, output.baseAddress! + y0 * width + x0, width)
                continue
              }
              samples.withUnsafeMutableBufferPointer { out in
                inverseDCT(coefficients + block * 64, q.baseAddress!, out.baseAddress!, 8)
              }
              // Reduced scales: the block box-filtered to `blockSize` × `blockSize`.
              for y in 0..<blockSize {
                for x in 0..<blockSize {
                  var sum = 0
                  for dy in 0..<step {
                    for dx in 0..<step { sum += Int(samples[(y * step + dy) * 8 + x * step + dx]) }
                  }
                  output[(y0 + y) * width + x0 + x] = UInt8((sum + step * step / 2) / (step * step))
                }
              }
            }
          }
        }
      }
      planes.append(plane)
      planeWidths.append(width)
    }

    let width = (frame.width + step - 1) / step
    let height = (frame.height + step - 1) / step
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
        } else if step == 1, hFactor == 2, vFactor <= 2, frame.maxH % component.h == 0,
          frame.maxV % component.v == 0
        {
          let componentWidth = (frame.width * component.h + frame.maxH - 1) / frame.maxH
          let componentHeight = (frame.height * component.v + frame.maxV - 1) / frame.maxV
          full.append(
            fancyUpsample(
              planes[index], planeWidths[index], componentWidth, componentHeight, vertical: vFactor == 2,
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
      let isRGB =
        adobeTransform == 0
        || (adobeTransform == nil && !sawJFIF && frame.components.map(\.id) == [0x52, 0x47, 0x42])
      if isRGB {
        for index in 0..<(width * height) {
          pixels[index * 3] = full[0][index]
          pixels[index * 3 + 1] = full[1][index]
          pixels[index * 3 + 2] = full[2][index]
        }
      } else {
        ColorTables.shared.convert(full[0], full[1], full[2], into: &pixels)
      }
    }
    return oriented(RGBImage(width: width, height: height, pixels: pixels))
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

  /// libjpeg's triangular ("fancy") upsampling: each output sample is 3/4 of the nearer
  /// input sample and 1/4 of the farther one, horizontally (and vertically for 2×2).
  private func fancyUpsample(
    _ plane: [UInt8], _ planeWidth: Int, _ inWidth: Int, _ inHeight: Int, vertical: Bool, _ width: Int,
    _ height: Int
  ) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: width * height)
    // Column sums of the row pair for one output row (3 × near row + far row for 2×2).
    var sums = [Int](repeating: 0, count: inWidth)
    let outRows = min(height, vertical ? inHeight * 2 : inHeight)
    plane.withUnsafeBufferPointer { input in
      result.withUnsafeMutableBufferPointer { output in
        sums.withUnsafeMutableBufferPointer { sum in
          for outY in 0..<outRows {
            let inY = vertical ? outY / 2 : outY
            let near = input.baseAddress! + inY * planeWidth
            if vertical {
              let farY = outY % 2 == 0 ? max(0, inY - 1) : min(inHeight - 1, inY + 1)
              let far = input.baseAddress! + farY * planeWidth
              for x in 0..<inWidth { sum[x] = Int(near[x]) * 3 + Int(far[x]) }
            } else {
              for x in 0..<inWidth { sum[x] = Int(near[x]) }
            }
            let row = output.baseAddress! + outY * width
            if inWidth == 1 {
              let value = UInt8(clamping: vertical ? (sum[0] * 4 + 8) >> 4 : sum[0])
              row[0] = value
              if width > 1 { row[1] = value }
              continue
            }
            let last = inWidth - 1
            for inX in 0...last {
              let this = sum[inX]
              let left: Int
              let right: Int
              if vertical {
                left = inX == 0 ? (this * 4 + 8) >> 4 : (this * 3 + sum[inX - 1] + 8) >> 4
                right = inX == last ? (this * 4 + 7) >> 4 : (this * 3 + sum[inX + 1] + 7) >> 4
              } else {
                left = inX == 0 ? this : (this * 3 + sum[inX - 1] + 1) >> 2
                right = inX == last ? this : (this * 3 + sum[inX + 1] + 2) >> 2
              }
              let outX = inX * 2
              if outX < width { row[outX] = UInt8(truncatingIfNeeded: left) }
              if outX + 1 < width { row[outX + 1] = UInt8(truncatingIfNeeded: right) }
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
  value < 0 ? 0 : value > 255 ? 255 : UInt8(value)
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
@inline(__always)
func inverseDCT(
  _ input: UnsafeMutablePointer<Int16>, _ quantization: UnsafePointer<Int32>,
  _ output: UnsafeMutablePointer<UInt8>, _ stride: Int
) {
  let constBits = 13
  let pass1Bits = 2
  var workspace = (
    Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
    Int(0),
    Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
    Int(0),
    Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
    Int(0),
    Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
    Int(0),
    Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0)
  )
  withUnsafeMutableBytes(of: &workspace) { raw in
    let ws = raw.baseAddress!.assumingMemoryBound(to: Int.self)
    @inline(__always) func dq(_ index: Int) -> Int { Int(input[index]) * Int(quantization[index]) }
    // Pass 1: columns, kept scaled by 2^pass1Bits.
    let shift1 = constBits - pass1Bits
    let round1 = 1 << (shift1 - 1)
    for column in 0..<8 {
      if input[8 + column] == 0 && input[16 + column] == 0 && input[24 + column] == 0
        && input[32 + column] == 0
        && input[40 + column] == 0 && input[48 + column] == 0 && input[56 + column] == 0
      {
        let dc = dq(column) << pass1Bits
        for row in 0..<8 { ws[row * 8 + column] = dc }
        continue
      }
      let r = islowPass(
        dq(column), dq(8 + column), dq(16 + column), dq(24 + column), dq(32 + column), dq(40 + column),
        dq(48 + column), dq(56 + column))
      ws[column] = (r.0 + round1) >> shift1
      ws[8 + column] = (r.1 + round1) >> shift1
      ws[16 + column] = (r.2 + round1) >> shift1
      ws[24 + column] = (r.3 + round1) >> shift1
      ws[32 + column] = (r.4 + round1) >> shift1
      ws[40 + column] = (r.5 + round1) >> shift1
      ws[48 + column] = (r.6 + round1) >> shift1
      ws[56 + column] = (r.7 + round1) >> shift1
    }
    // Pass 2: rows, descaled and level-shifted to samples.
    let shift2 = constBits + pass1Bits + 3
    let round2 = 1 << (shift2 - 1)
    for row in 0..<8 {
      let w = ws + row * 8
      let out = output + row * stride
      if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
        let value = clamp(((w[0] + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128)
        for x in 0..<8 { out[x] = value }
        continue
      }
      let r = islowPass(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
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
  var workspace = [Int](repeating: 0, count: 16)
  for column in [0, 1, 3, 5, 7] {
    if input[8 + column] == 0 && input[24 + column] == 0 && input[40 + column] == 0 && input[56 + column] == 0
    {
      let dc = dq(column) << pass1Bits
      workspace[column] = dc
      workspace[8 + column] = dc
      continue
    }
    let tmp10 = dq(column) << (constBits + 2)
    let tmp0 =
      dq(56 + column) * -fix0_720959822 + dq(40 + column) * fix0_850430095 + dq(24 + column) * -fix1_272758580
      + dq(8 + column) * fix3_624509785
    let shift = constBits - pass1Bits + 2
    workspace[column] = (tmp10 + tmp0 + (1 << (shift - 1))) >> shift
    workspace[8 + column] = (tmp10 - tmp0 + (1 << (shift - 1))) >> shift
  }
  for row in 0..<2 {
    let w = row * 8
    let out = output + row * stride
    if workspace[w + 1] == 0 && workspace[w + 3] == 0 && workspace[w + 5] == 0 && workspace[w + 7] == 0 {
      let value = clamp(((workspace[w] + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128)
      out[0] = value
      out[1] = value
      continue
    }
    let tmp10 = workspace[w] << (constBits + 2)
    let tmp0 =
      workspace[w + 7] * -fix0_720959822 + workspace[w + 5] * fix0_850430095 + workspace[w + 3]
      * -fix1_272758580
      + workspace[w + 1] * fix3_624509785
    let shift = constBits + pass1Bits + 3 + 2
    out[0] = clamp(((tmp10 + tmp0 + (1 << (shift - 1))) >> shift) + 128)
    out[1] = clamp(((tmp10 - tmp0 + (1 << (shift - 1))) >> shift) + 128)
  }
}

/// libjpeg's fixed-point YCbCr → RGB tables.
final class ColorTables: Sendable {
  static let shared = ColorTables()
  let crToR: [Int]
  let cbToB: [Int]
  let crToG: [Int]
  let cbToG: [Int]

  private init() {
    let half = 1 << 15
    func fix(_ value: Double) -> Int { Int(value * 65536 + 0.5) }
    crToR = (0..<256).map { (fix(1.40200) * ($0 - 128) + half) >> 16 }
    cbToB = (0..<256).map { (fix(1.77200) * ($0 - 128) + half) >> 16 }
    crToG = (0..<256).map { -fix(0.71414) * ($0 - 128) }
    cbToG = (0..<256).map { -fix(0.34414) * ($0 - 128) + half }
  }

  func convert(_ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8], into pixels: inout [UInt8]) {
    let count = min(y.count, cb.count, cr.count, pixels.count / 3)
    y.withUnsafeBufferPointer { y in
      cb.withUnsafeBufferPointer { cb in
        cr.withUnsafeBufferPointer { cr in
          crToR.withUnsafeBufferPointer { crToR in
            cbToB.withUnsafeBufferPointer { cbToB in
              crToG.withUnsafeBufferPointer { crToG in
                cbToG.withUnsafeBufferPointer { cbToG in
                  pixels.withUnsafeMutableBufferPointer { out in
                    let out = out.baseAddress!
                    for index in 0..<count {
                      let luma = Int(y[index])
                      let blue = Int(cb[index])
                      let red = Int(cr[index])
                      out[index * 3] = clamp(luma + crToR[red])
                      out[index * 3 + 1] = clamp(luma + ((cbToG[blue] + crToG[red]) >> 16))
                      out[index * 3 + 2] = clamp(luma + cbToB[blue])
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
