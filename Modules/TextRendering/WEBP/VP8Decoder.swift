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
  private(set) var y: [UInt8]
  private(set) var u: [UInt8]
  private(set) var v: [UInt8]
  var yStride: Int { macroblocksWide * 16 }
  var uvStride: Int { macroblocksWide * 8 }

  private let data: [UInt8]
  /// Work areas for one macroblock, kept from one to the next.
  private var lumaWork = VP8Work(size: 16, extra: 4)
  private var chromaWork = VP8Work(size: 8, extra: 0)
  private var header: VP8BoolDecoder
  private var partitions: [VP8BoolDecoder] = []

  // Frame header.
  private var segmentsEnabled = false
  private var segmentMapUpdated = false
  private var segmentValuesAbsolute = true
  private var segmentQuantizers = [0, 0, 0, 0]
  private var segmentFilterLevels = [0, 0, 0, 0]
  private var segmentProbabilities: [UInt8] = [255, 255, 255]
  private var simpleFilter = false
  private var filterLevel = 0
  private var sharpness = 0
  private var filterDeltas = false
  private var referenceDelta = 0
  private var modeDelta = 0
  private var quantizers: [Quantizer] = []
  private var coefficientProbabilities = VP8Tables.defaultCoefficientProbabilities
  private var skipProbability: UInt8?

  /// Dequantisation factors of one segment: (DC, AC) for luma, the luma DC block, chroma.
  private struct Quantizer {
    var y1: (Int32, Int32)
    var y2: (Int32, Int32)
    var uv: (Int32, Int32)
  }

  /// How the loop filter treats one macroblock.
  private struct FilterInfo {
    var limit = 0
    var interiorLimit = 0
    var hevThreshold = 0
    /// Whether the edges inside the macroblock are filtered too.
    var inner = false
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

  private mutating func readFrameHeader(partitionsStart: Int, end: Int) throws(ImageDecodingError) {
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

  private mutating func readPartitions(from start: Int, to end: Int) throws(ImageDecodingError) {
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

  private mutating func readQuantizers() {
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
    if filterLevel > 0 {
      let (yStride, uvStride, simple) = (yStride, uvStride, simpleFilter)
      y.withUnsafeMutableBufferPointer { y in
        u.withUnsafeMutableBufferPointer { u in
          v.withUnsafeMutableBufferPointer { v in
            let planes = FilterPlanes(
              y: y.baseAddress!, u: u.baseAddress!, v: v.baseAddress!, yStride: yStride, uvStride: uvStride)
            for mbY in 0..<macroblocksHigh {
              for mbX in 0..<macroblocksWide {
                Self.filter(planes, x: mbX, y: mbY, filters[mbY * macroblocksWide + mbX], simple: simple)
              }
            }
          }
        }
      }
    }
  }

  /// What one macroblock says before its pixels are made.
  private struct Macroblock {
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

  private mutating func readModes(
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
  private func readSubblockMode(_ bit: (Int) -> Bool) -> Int {
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

  // MARK: Coefficients

  private static let zigzag = [0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15]
  private static let bands = [0, 1, 2, 3, 6, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 0]
  private static let categoryProbabilities: [[UInt8]] = [
    [173, 148, 140], [176, 155, 140, 135], [180, 157, 141, 134, 130],
    [254, 254, 243, 230, 196, 177, 153, 140, 133, 130, 129],
  ]

  /// Reads a macroblock's coefficients, dequantised; whether any is not zero.
  private func readResiduals(
    into macroblock: inout Macroblock, tokens: inout VP8BoolDecoder, above: inout [Bool], left: inout [Bool]
  ) -> Bool {
    let quantizer = quantizers[macroblock.segment]
    var any = false
    var firstLuma = 0
    var lumaType = 3
    if !macroblock.isI4x4 {
      let context = (above[8] ? 1 : 0) + (left[8] ? 1 : 0)
      let count = readCoefficients(
        &tokens, type: 1, context: context, dequantize: quantizer.y2, first: 0,
        into: &macroblock.coefficients, at: 24 * 16)
      above[8] = count > 0
      left[8] = count > 0
      any = any || count > 0
      firstLuma = 1
      lumaType = 0
    }
    for row in 0..<4 {
      for col in 0..<4 {
        let context = (above[col] ? 1 : 0) + (left[row] ? 1 : 0)
        let block = row * 4 + col
        let count = readCoefficients(
          &tokens, type: lumaType, context: context, dequantize: quantizer.y1, first: firstLuma,
          into: &macroblock.coefficients, at: block * 16)
        above[col] = count > firstLuma
        left[row] = count > firstLuma
        macroblock.nonZero[block] = count > firstLuma
        any = any || count > firstLuma
      }
    }
    for plane in 0..<2 {
      for row in 0..<2 {
        for col in 0..<2 {
          let context = (above[4 + plane * 2 + col] ? 1 : 0) + (left[4 + plane * 2 + row] ? 1 : 0)
          let block = 16 + plane * 4 + row * 2 + col
          let count = readCoefficients(
            &tokens, type: 2, context: context, dequantize: quantizer.uv, first: 0,
            into: &macroblock.coefficients, at: block * 16)
          above[4 + plane * 2 + col] = count > 0
          left[4 + plane * 2 + row] = count > 0
          macroblock.nonZero[block] = count > 0
          any = any || count > 0
        }
      }
    }
    return any
  }

  /// Reads one block's tokens (RFC 6386, 13); returns one past the last coefficient read.
  private func readCoefficients(
    _ tokens: inout VP8BoolDecoder, type: Int, context: Int, dequantize: (Int32, Int32), first: Int,
    into coefficients: inout [Int16], at offset: Int
  ) -> Int {
    let probabilities = coefficientProbabilities
    func node(_ position: Int, _ context: Int) -> Int {
      ((type * 8 + Self.bands[position]) * 3 + context) * 11
    }
    var position = first
    var p = node(position, context)
    while position < 16 {
      if !tokens.bit(probabilities[p]) { return position }  // end of block
      while !tokens.bit(probabilities[p + 1]) {  // a zero
        position += 1
        if position == 16 { return 16 }
        p = node(position, 0)
      }
      let value: Int
      if !tokens.bit(probabilities[p + 2]) {
        value = 1
        p = node(position + 1, 1)
      } else {
        value = Self.largeValue(&tokens, probabilities, p)
        p = node(position + 1, 2)
      }
      let factor = position > 0 ? dequantize.1 : dequantize.0
      let signed = tokens.bit(128) ? -value : value
      coefficients[offset + Self.zigzag[position]] = Int16(truncatingIfNeeded: Int32(signed) * factor)
      position += 1
    }
    return 16
  }

  /// A coefficient of 2 or more (the token tree below "one", RFC 6386, 13.2).
  private static func largeValue(_ tokens: inout VP8BoolDecoder, _ probabilities: [UInt8], _ p: Int) -> Int {
    if !tokens.bit(probabilities[p + 3]) {
      if !tokens.bit(probabilities[p + 4]) { return 2 }
      return 3 + (tokens.bit(probabilities[p + 5]) ? 1 : 0)
    }
    if !tokens.bit(probabilities[p + 6]) {
      if !tokens.bit(probabilities[p + 7]) { return 5 + (tokens.bit(159) ? 1 : 0) }
      return 7 + (tokens.bit(165) ? 2 : 0) + (tokens.bit(145) ? 1 : 0)
    }
    let high = tokens.bit(probabilities[p + 8]) ? 1 : 0
    let low = tokens.bit(probabilities[p + 9 + high]) ? 1 : 0
    let category = 2 * high + low
    var extra = 0
    for probability in categoryProbabilities[category] {
      extra = extra << 1 | (tokens.bit(probability) ? 1 : 0)
    }
    return extra + 3 + (8 << category)
  }

  // MARK: Reconstruction

  /// Predicts a macroblock from its unfiltered neighbours and adds its residue.
  private mutating func reconstruct(_ macroblock: inout Macroblock, x mbX: Int, y mbY: Int) {
    if !macroblock.isI4x4 {
      VP8Transform.inverseWalshHadamard(&macroblock.coefficients, from: 24 * 16)
      for block in 0..<16 where macroblock.coefficients[block * 16] != 0 { macroblock.nonZero[block] = true }
    }
    let coefficients = macroblock.coefficients
    let lumaNonZero = macroblock.nonZero
    // Luma, in a work area with the row above (and 4 pixels past it) and the column left.
    var work = lumaWork
    defer { lumaWork = work }
    work.load(y, stride: yStride, x: mbX * 16, y: mbY * 16, isRightmost: mbX == macroblocksWide - 1)
    if macroblock.isI4x4 {
      work.repeatAboveRight()
      for block in 0..<16 {
        let origin = work.origin + (block / 4) * 4 * work.stride + (block % 4) * 4
        VP8Predict.subblock(&work.pixels, origin, work.stride, mode: macroblock.modes[block])
        if lumaNonZero[block] {
          VP8Transform.inverseDCT(coefficients, from: block * 16, into: &work.pixels, origin, work.stride)
        }
      }
    } else {
      VP8Predict.block(
        &work.pixels, work.origin, work.stride, size: 16, mode: macroblock.modes[0], hasAbove: mbY > 0,
        hasLeft: mbX > 0)
      for block in 0..<16 where lumaNonZero[block] {
        let origin = work.origin + (block / 4) * 4 * work.stride + (block % 4) * 4
        VP8Transform.inverseDCT(coefficients, from: block * 16, into: &work.pixels, origin, work.stride)
      }
    }
    work.store(into: &y, stride: yStride, x: mbX * 16, y: mbY * 16)
    // Chroma.
    var chroma = chromaWork
    defer { chromaWork = chroma }
    for plane in 0..<2 {
      var work = chroma
      defer { chroma = work }
      work.load(plane == 0 ? u : v, stride: uvStride, x: mbX * 8, y: mbY * 8, isRightmost: false)
      VP8Predict.block(
        &work.pixels, work.origin, work.stride, size: 8, mode: macroblock.chromaMode, hasAbove: mbY > 0,
        hasLeft: mbX > 0)
      for index in 0..<4 where lumaNonZero[16 + plane * 4 + index] {
        let origin = work.origin + (index / 2) * 4 * work.stride + (index % 2) * 4
        VP8Transform.inverseDCT(
          coefficients, from: (16 + plane * 4 + index) * 16, into: &work.pixels, origin, work.stride)
      }
      if plane == 0 {
        work.store(into: &u, stride: uvStride, x: mbX * 8, y: mbY * 8)
      } else {
        work.store(into: &v, stride: uvStride, x: mbX * 8, y: mbY * 8)
      }
    }
  }

  // MARK: Loop filter

  /// The filter of each segment, for 16×16 (index 0) and 4×4 (index 1) prediction.
  private func filterStrengths() -> [[FilterInfo]] {
    (0..<4).map { segment in
      var base = filterLevel
      if segmentsEnabled {
        base = segmentFilterLevels[segment] + (segmentValuesAbsolute ? 0 : filterLevel)
      }
      return (0..<2).map { i4x4 in
        var level = base
        if filterDeltas {
          level += referenceDelta
          if i4x4 == 1 { level += modeDelta }
        }
        level = min(max(level, 0), 63)
        var info = FilterInfo()
        info.inner = i4x4 == 1
        guard level > 0 else { return info }
        var interior = level
        if sharpness > 0 {
          interior >>= sharpness > 4 ? 2 : 1
          interior = min(interior, 9 - sharpness)
        }
        interior = max(interior, 1)
        info.interiorLimit = interior
        info.limit = 2 * level + interior
        info.hevThreshold = level >= 40 ? 2 : level >= 15 ? 1 : 0
        return info
      }
    }
  }

  /// The three planes, for the loop filter, which changes them in place.
  private struct FilterPlanes {
    let y: UnsafeMutablePointer<UInt8>
    let u: UnsafeMutablePointer<UInt8>
    let v: UnsafeMutablePointer<UInt8>
    let yStride: Int
    let uvStride: Int
  }

  /// Filters one macroblock's edges: left, inner vertical, top, inner horizontal.
  private static func filter(_ planes: FilterPlanes, x mbX: Int, y mbY: Int, _ info: FilterInfo, simple: Bool)
  {
    guard info.limit > 0 else { return }
    let (yStride, uvStride) = (planes.yStride, planes.uvStride)
    let luma = mbY * 16 * yStride + mbX * 16
    let chroma = mbY * 8 * uvStride + mbX * 8
    let edge = info.limit + 4
    if simple {
      if mbX > 0 { VP8LoopFilter.simple(planes.y, luma, across: 1, along: yStride, count: 16, limit: edge) }
      if info.inner {
        for offset in stride(from: 4, through: 12, by: 4) {
          VP8LoopFilter.simple(
            planes.y, luma + offset, across: 1, along: yStride, count: 16, limit: info.limit)
        }
      }
      if mbY > 0 { VP8LoopFilter.simple(planes.y, luma, across: yStride, along: 1, count: 16, limit: edge) }
      if info.inner {
        for offset in stride(from: 4, through: 12, by: 4) {
          VP8LoopFilter.simple(
            planes.y, luma + offset * yStride, across: yStride, along: 1, count: 16, limit: info.limit)
        }
      }
      return
    }
    let interior = info.interiorLimit
    let hev = info.hevThreshold
    func both(_ offset: Int, across: Int, along: Int, _ limit: Int, isEdge: Bool) {
      VP8LoopFilter.normal(
        planes.u, offset, across: across, along: along, count: 8, limit, interior, hev, isEdge: isEdge)
      VP8LoopFilter.normal(
        planes.v, offset, across: across, along: along, count: 8, limit, interior, hev, isEdge: isEdge)
    }
    if mbX > 0 {
      VP8LoopFilter.normal(
        planes.y, luma, across: 1, along: yStride, count: 16, edge, interior, hev, isEdge: true)
      both(chroma, across: 1, along: uvStride, edge, isEdge: true)
    }
    if info.inner {
      for offset in stride(from: 4, through: 12, by: 4) {
        VP8LoopFilter.normal(
          planes.y, luma + offset, across: 1, along: yStride, count: 16, info.limit, interior, hev,
          isEdge: false)
      }
      both(chroma + 4, across: 1, along: uvStride, info.limit, isEdge: false)
    }
    if mbY > 0 {
      VP8LoopFilter.normal(
        planes.y, luma, across: yStride, along: 1, count: 16, edge, interior, hev, isEdge: true)
      both(chroma, across: uvStride, along: 1, edge, isEdge: true)
    }
    if info.inner {
      for offset in stride(from: 4, through: 12, by: 4) {
        VP8LoopFilter.normal(
          planes.y, luma + offset * yStride, across: yStride, along: 1, count: 16, info.limit, interior, hev,
          isEdge: false)
      }
      both(chroma + 4 * uvStride, across: uvStride, along: 1, info.limit, isEdge: false)
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
