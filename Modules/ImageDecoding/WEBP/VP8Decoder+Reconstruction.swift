// Turning a macroblock's modes and coefficients into pixels, and the work areas that hold
// a block with the neighbours prediction reads.

extension VP8Decoder {
  /// Predicts a macroblock from its unfiltered neighbours and adds its residue.
  mutating func reconstruct(_ macroblock: inout Macroblock, x mbX: Int, y mbY: Int) {
    if !macroblock.isI4x4 {
      VP8Transform.inverseWalshHadamard(&macroblock.coefficients, from: 24 * 16)
      for block in 0..<16 where macroblock.coefficients[block * 16] != 0 { macroblock.nonZero[block] = true }
    }
    let coefficients = macroblock.coefficients
    let lumaNonZero = macroblock.nonZero
    // Luma, in a work area with the row above (and 4 pixels past it) and the column left.
    // (The work areas are used in place: a copy would share their pixels with the
    // decoder's, and writing to it would copy them for every macroblock.)
    lumaWork.load(y, stride: yStride, x: mbX * 16, y: mbY * 16, isRightmost: mbX == macroblocksWide - 1)
    if macroblock.isI4x4 {
      lumaWork.repeatAboveRight()
      for block in 0..<16 {
        let origin = lumaWork.origin + (block / 4) * 4 * lumaWork.stride + (block % 4) * 4
        VP8Predict.subblock(&lumaWork.pixels, origin, lumaWork.stride, mode: macroblock.modes[block])
        if lumaNonZero[block] {
          VP8Transform.inverseDCT(
            coefficients, from: block * 16, into: &lumaWork.pixels, origin, lumaWork.stride)
        }
      }
    } else {
      VP8Predict.block(
        &lumaWork.pixels, lumaWork.origin, lumaWork.stride, size: 16, mode: macroblock.modes[0],
        hasAbove: mbY > 0,
        hasLeft: mbX > 0)
      for block in 0..<16 where lumaNonZero[block] {
        let origin = lumaWork.origin + (block / 4) * 4 * lumaWork.stride + (block % 4) * 4
        VP8Transform.inverseDCT(
          coefficients, from: block * 16, into: &lumaWork.pixels, origin, lumaWork.stride)
      }
    }
    lumaWork.store(into: &y, stride: yStride, x: mbX * 16, y: mbY * 16)
    // Chroma.
    for plane in 0..<2 {
      chromaWork.load(plane == 0 ? u : v, stride: uvStride, x: mbX * 8, y: mbY * 8, isRightmost: false)
      VP8Predict.block(
        &chromaWork.pixels, chromaWork.origin, chromaWork.stride, size: 8, mode: macroblock.chromaMode,
        hasAbove: mbY > 0,
        hasLeft: mbX > 0)
      for index in 0..<4 where lumaNonZero[16 + plane * 4 + index] {
        let origin = chromaWork.origin + (index / 2) * 4 * chromaWork.stride + (index % 2) * 4
        VP8Transform.inverseDCT(
          coefficients, from: (16 + plane * 4 + index) * 16, into: &chromaWork.pixels, origin,
          chromaWork.stride)
      }
      if plane == 0 {
        chromaWork.store(into: &u, stride: uvStride, x: mbX * 8, y: mbY * 8)
      } else {
        chromaWork.store(into: &v, stride: uvStride, x: mbX * 8, y: mbY * 8)
      }
    }
  }
}

/// Prediction modes, numbered as the 4×4 mode probabilities are indexed. The 16×16 and
/// chroma modes are DC, TM, VE (vertical) and HE (horizontal).
enum VP8Mode {
  static let dc = 0
  static let tm = 1
  static let ve = 2
  static let he = 3
  static let rd = 4
  static let vr = 5
  static let ld = 6
  static let vl = 7
  static let hd = 8
  static let hu = 9
}

/// A block being reconstructed, with the pixels prediction reads around it: the row above
/// (with `extra` pixels past its right end) and the column to the left, as VP8 defines
/// them at the picture's edges (127 above the first row, 129 left of the first column).
struct VP8Work {
  let size: Int
  let stride: Int
  var pixels: [UInt8]
  /// Where the block's top left pixel is.
  var origin: Int { stride + 1 }

  init(size: Int, extra: Int) {
    self.size = size
    stride = 1 + size + extra
    pixels = [UInt8](repeating: 0, count: stride * (size + 1))
  }

  mutating func load(_ plane: [UInt8], stride planeStride: Int, x: Int, y: Int, isRightmost: Bool) {
    let extra = stride - 1 - size
    if y == 0 {
      for index in 0..<stride { pixels[index] = 127 }
    } else {
      let above = (y - 1) * planeStride + x
      pixels[0] = x == 0 ? 129 : plane[above - 1]
      for index in 0..<size { pixels[1 + index] = plane[above + index] }
      for index in 0..<extra {
        pixels[1 + size + index] = isRightmost ? plane[above + size - 1] : plane[above + size + index]
      }
    }
    for row in 0..<size {
      pixels[(row + 1) * stride] = x == 0 ? 129 : plane[(y + row) * planeStride + x - 1]
    }
  }

  /// Copies the pixels past the above row's end down to rows 4, 8 and 12: 4×4 blocks on
  /// the right edge read their above-right pixels there.
  mutating func repeatAboveRight() {
    for row in [4, 8, 12] {
      for index in 0..<4 { pixels[row * stride + 1 + size + index] = pixels[1 + size + index] }
    }
  }

  func store(into plane: inout [UInt8], stride planeStride: Int, x: Int, y: Int) {
    for row in 0..<size {
      for col in 0..<size { plane[(y + row) * planeStride + x + col] = pixels[origin + row * stride + col] }
    }
  }
}
