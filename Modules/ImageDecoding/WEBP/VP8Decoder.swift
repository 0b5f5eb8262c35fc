/// Decodes a VP8 key frame (a lossy WEBP's picture, RFC 6386) into Y, U and V planes.
///
/// Planes are whole macroblocks (16×16 luma, 8×8 chroma) wide and high; the caller crops.
/// Intra prediction reads unfiltered neighbours, so the loop filter runs over the whole
/// frame once every macroblock is reconstructed, in macroblock order, as the format
/// defines it.
struct VP8Decoder {
  let width: Int
  let height: Int
  let macroblocksWide: Int
  let macroblocksHigh: Int
  var y: [UInt8]
  var u: [UInt8]
  var v: [UInt8]
  var yStride: Int { macroblocksWide * 16 }
  var uvStride: Int { macroblocksWide * 8 }

  let data: [UInt8]
  /// Work areas for one macroblock, kept from one to the next.
  var lumaWork = VP8Work(size: 16, extra: 4)
  var chromaWork = VP8Work(size: 8, extra: 0)
  var header: VP8BoolDecoder
  var partitions: [VP8BoolDecoder] = []

  // Frame header.
  var segmentsEnabled = false
  var segmentMapUpdated = false
  var segmentValuesAbsolute = true
  var segmentQuantizers = [0, 0, 0, 0]
  var segmentFilterLevels = [0, 0, 0, 0]
  var segmentProbabilities: [UInt8] = [255, 255, 255]
  var simpleFilter = false
  var filterLevel = 0
  var sharpness = 0
  var filterDeltas = false
  var referenceDelta = 0
  var modeDelta = 0
  var quantizers: [Quantizer] = []
  var coefficientProbabilities = VP8Tables.defaultCoefficientProbabilities
  var skipProbability: UInt8?

  /// Dequantisation factors of one segment: (DC, AC) for luma, the luma DC block, chroma.
  struct Quantizer {
    var y1: (Int32, Int32)
    var y2: (Int32, Int32)
    var uv: (Int32, Int32)
  }

  /// Reads the frame's headers; `data[start..<end]` is the VP8 chunk's payload.
  init(_ data: [UInt8], from start: Int, to end: Int) throws(ImageDecodingError) {
    guard end - start >= 10 else { throw .truncated }
    let tag = Int(data[start]) | Int(data[start + 1]) << 8 | Int(data[start + 2]) << 16
    guard tag & 1 == 0 else { throw .corrupt("VP8 frame that is not a key frame") }
    guard (tag >> 1) & 7 <= 3 else { throw .corrupt("VP8 profile") }
    let firstPartitionSize = tag >> 5
    guard data[start + 3] == 0x9D, data[start + 4] == 0x01, data[start + 5] == 0x2A else {
      throw .corrupt("VP8 start code")
    }
    width = (Int(data[start + 6]) | Int(data[start + 7]) << 8) & 0x3FFF
    height = (Int(data[start + 8]) | Int(data[start + 9]) << 8) & 0x3FFF
    guard width > 0, height > 0 else { throw .corrupt("empty VP8 frame") }
    guard width * height <= ImageDecoder.maxPixels else { throw .tooLarge(width: width, height: height) }
    macroblocksWide = (width + 15) / 16
    macroblocksHigh = (height + 15) / 16
    let headerStart = start + 10
    guard headerStart + firstPartitionSize <= end else { throw .truncated }
    self.data = data
    header = VP8BoolDecoder(data, from: headerStart, to: headerStart + firstPartitionSize)
    y = []
    u = []
    v = []
    try readFrameHeader(partitionsStart: headerStart + firstPartitionSize, end: end)
  }

  mutating func readFrameHeader(partitionsStart: Int, end: Int) throws(ImageDecodingError) {
    _ = header.bit(128)  // colour space: always YUV
    _ = header.bit(128)  // clamping: always required of a decoder that clamps anyway
    segmentsEnabled = header.bit(128)
    if segmentsEnabled {
      segmentMapUpdated = header.bit(128)
      if header.bit(128) {
        segmentValuesAbsolute = header.bit(128)
        for index in 0..<4 { segmentQuantizers[index] = header.optionalSigned(7) }
        for index in 0..<4 { segmentFilterLevels[index] = header.optionalSigned(6) }
      }
      if segmentMapUpdated {
        for index in 0..<3 { segmentProbabilities[index] = header.bit(128) ? UInt8(header.literal(8)) : 255 }
      }
    }
    simpleFilter = header.bit(128)
    filterLevel = header.literal(6)
    sharpness = header.literal(3)
    filterDeltas = header.bit(128)
    if filterDeltas && header.bit(128) {
      // Four reference-frame deltas, then four mode deltas; a key frame uses the first
      // of each (intra frame; 4×4 prediction).
      for index in 0..<4 where header.bit(128) {
        let delta = header.signedLiteral(6)
        if index == 0 { referenceDelta = delta }
      }
      for index in 0..<4 where header.bit(128) {
        let delta = header.signedLiteral(6)
        if index == 0 { modeDelta = delta }
      }
    }
    try readPartitions(from: partitionsStart, to: end)
    readQuantizers()
    _ = header.bit(128)  // refresh_entropy_probs: meaningless for a single frame
    for index in 0..<coefficientProbabilities.count
    where header.bit(VP8Tables.coefficientUpdateProbabilities[index]) {
      coefficientProbabilities[index] = UInt8(header.literal(8))
    }
    skipProbability = header.bit(128) ? UInt8(header.literal(8)) : nil
    if header.isPastEnd { throw .truncated }
  }

  mutating func readPartitions(from start: Int, to end: Int) throws(ImageDecodingError) {
    let count = 1 << header.literal(2)
    let sizes = start
    var partitionStart = start + 3 * (count - 1)
    guard partitionStart <= end else { throw .truncated }
    for index in 0..<count {
      var partitionEnd = end
      if index < count - 1 {
        let size =
          Int(data[sizes + 3 * index]) | Int(data[sizes + 3 * index + 1]) << 8
          | Int(data[sizes + 3 * index + 2]) << 16
        partitionEnd = min(partitionStart + size, end)
      }
      partitions.append(VP8BoolDecoder(data, from: partitionStart, to: partitionEnd))
      partitionStart = partitionEnd
    }
  }

  mutating func readQuantizers() {
    let base = header.literal(7)
    let y1DC = header.optionalSigned(4)
    let y2DC = header.optionalSigned(4)
    let y2AC = header.optionalSigned(4)
    let uvDC = header.optionalSigned(4)
    let uvAC = header.optionalSigned(4)
    func clamped(_ index: Int, _ top: Int) -> Int { min(max(index, 0), top) }
    for segment in 0..<4 {
      var q = base
      if segmentsEnabled {
        q = segmentQuantizers[segment] + (segmentValuesAbsolute ? 0 : base)
      }
      let y2AC = (VP8Tables.acQuantizer[clamped(q + y2AC, 127)] * 101_581) >> 16
      quantizers.append(
        Quantizer(
          y1: (VP8Tables.dcQuantizer[clamped(q + y1DC, 127)], VP8Tables.acQuantizer[clamped(q, 127)]),
          y2: (VP8Tables.dcQuantizer[clamped(q + y2DC, 127)] * 2, max(y2AC, 8)),
          uv: (VP8Tables.dcQuantizer[clamped(q + uvDC, 117)], VP8Tables.acQuantizer[clamped(q + uvAC, 127)])))
    }
  }

  // MARK: Macroblocks

  /// Reconstructs every macroblock, then filters the frame.
  mutating func decode() throws(ImageDecodingError) {
    y = [UInt8](repeating: 0, count: yStride * macroblocksHigh * 16)
    u = [UInt8](repeating: 0, count: uvStride * macroblocksHigh * 8)
    v = u
    var filters = [FilterInfo](repeating: FilterInfo(), count: macroblocksWide * macroblocksHigh)
    let strengths = filterStrengths()
    // Prediction modes of the 4×4 blocks along the bottom of the row above and the
    // right of the macroblock to the left: the context of the next ones' modes.
    var modesAbove = [Int](repeating: 0, count: macroblocksWide * 4)
    var modesLeft = [Int](repeating: 0, count: 4)
    // Whether each 4×4 block along those edges had coefficients: 4 luma, 2 + 2 chroma,
    // and the luma DC block.
    var nonZeroAbove = [[Bool]](repeating: [Bool](repeating: false, count: 9), count: macroblocksWide)
    var nonZeroLeft = [Bool](repeating: false, count: 9)
    var macroblock = Macroblock()
    for mbY in 0..<macroblocksHigh {
      for index in 0..<4 { modesLeft[index] = 0 }
      for index in 0..<9 { nonZeroLeft[index] = false }
      var tokens = partitions[mbY % partitions.count]
      for mbX in 0..<macroblocksWide {
        readModes(into: &macroblock, above: &modesAbove, left: &modesLeft, column: mbX)
        let skip = macroblock.skip
        macroblock.coefficients.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        var hasCoefficients = false
        if skip {
          for index in 0..<24 { macroblock.nonZero[index] = false }
          for index in 0..<8 {
            nonZeroAbove[mbX][index] = false
            nonZeroLeft[index] = false
          }
          if !macroblock.isI4x4 {
            nonZeroAbove[mbX][8] = false
            nonZeroLeft[8] = false
          }
        } else {
          hasCoefficients = readResiduals(
            into: &macroblock, tokens: &tokens, above: &nonZeroAbove[mbX], left: &nonZeroLeft)
        }
        reconstruct(&macroblock, x: mbX, y: mbY)
        var filter = strengths[macroblock.segment][macroblock.isI4x4 ? 1 : 0]
        filter.inner = filter.inner || hasCoefficients
        filters[mbY * macroblocksWide + mbX] = filter
      }
      partitions[mbY % partitions.count] = tokens
      if header.isPastEnd || tokens.isPastEnd { throw .truncated }
    }
    if filterLevel > 0 { filterFrame(filters) }
  }

  /// What one macroblock says before its pixels are made.
  struct Macroblock {
    var segment = 0
    /// Whether the macroblock has no coefficients at all (nothing to read).
    var skip = false
    var isI4x4 = false
    /// The 16×16 mode, or the sixteen 4×4 modes in raster order.
    var modes = [Int](repeating: 0, count: 16)
    var chromaMode = 0
    /// 25 blocks of 16 coefficients in raster order: 16 luma, 4 U, 4 V, the luma DC block.
    var coefficients = [Int16](repeating: 0, count: 25 * 16)
    /// Which of the first 24 blocks have a coefficient that is not 0.
    var nonZero = [Bool](repeating: false, count: 24)
  }

  mutating func readModes(
    into macroblock: inout Macroblock, above: inout [Int], left: inout [Int], column: Int
  ) {
    macroblock.segment =
      segmentMapUpdated
      ? (!header.bit(segmentProbabilities[0])
        ? (header.bit(segmentProbabilities[1]) ? 1 : 0) : (header.bit(segmentProbabilities[2]) ? 3 : 2))
      : 0
    if let skipProbability {
      macroblock.skip = header.bit(skipProbability)
    } else {
      macroblock.skip = false
    }
    macroblock.isI4x4 = !header.bit(145)
    if !macroblock.isI4x4 {
      let mode =
        header.bit(156)
        ? (header.bit(128) ? VP8Mode.tm : VP8Mode.he) : (header.bit(163) ? VP8Mode.ve : VP8Mode.dc)
      macroblock.modes[0] = mode
      for index in 0..<4 {
        above[column * 4 + index] = mode
        left[index] = mode
      }
    } else {
      for row in 0..<4 {
        var leftMode = left[row]
        for col in 0..<4 {
          let base = (above[column * 4 + col] * 10 + leftMode) * 9
          let mode = readSubblockMode { header.bit(VP8Tables.subblockModeProbabilities[base + $0]) }
          above[column * 4 + col] = mode
          macroblock.modes[row * 4 + col] = mode
          leftMode = mode
        }
        left[row] = leftMode
      }
    }
    macroblock.chromaMode =
      !header.bit(142)
      ? VP8Mode.dc : !header.bit(114) ? VP8Mode.ve : header.bit(183) ? VP8Mode.tm : VP8Mode.he
  }

  /// The 4×4 mode tree (RFC 6386, 11.2), given a reader of the bit at each node.
  func readSubblockMode(_ bit: (Int) -> Bool) -> Int {
    if !bit(0) { return VP8Mode.dc }
    if !bit(1) { return VP8Mode.tm }
    if !bit(2) { return VP8Mode.ve }
    if !bit(3) {
      if !bit(4) { return VP8Mode.he }
      return !bit(5) ? VP8Mode.rd : VP8Mode.vr
    }
    if !bit(6) { return VP8Mode.ld }
    if !bit(7) { return VP8Mode.vl }
    return !bit(8) ? VP8Mode.hd : VP8Mode.hu
  }
}
