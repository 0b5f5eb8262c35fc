/// A pure-Swift JPEG decoder for terminal pictures.
///
/// Baseline and extended Huffman (SOF0/SOF1) and progressive (SOF2), 8-bit, grey or
/// YCbCr (or Adobe RGB), any sampling factors up to 4×4, restart intervals, and EXIF
/// orientation. Arithmetic coding, lossless, hierarchical, 12-bit and CMYK are refused
/// with a clear error, as is anything that is not a JPEG at all.
///
/// Terminal pictures are small, so decoding can stop early: at ``Scale/eighth`` only the
/// DC coefficient of each 8×8 block is kept (it is the block's average), which skips the
/// inverse DCT entirely; a progressive file then needs only its first scan.
///
/// ```swift
/// let picture = try JPEGDecoder.decode(bytes, fitting: (120, 88))
/// ```
public enum JPEGDecoder {
  /// The output scale, a power of two.
  public enum Scale: Int, Sendable, CaseIterable {
    /// Each output pixel covers 1×1, 2×2, 4×4 or 8×8 pixels of the picture.
    case full = 1, half = 2, quarter = 4, eighth = 8
  }

  /// Decodes at `scale`.
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - scale: 1/1, 1/2, 1/4 or 1/8 of the full size (rounded up).
  /// - Returns: RGB pixels, orientation applied; ``RGBImage/isReduced`` below full scale.
  /// - Throws: ``ImageDecodingError``.
  public static func decode(_ bytes: [UInt8], scale: Scale = .full) throws(ImageDecodingError) -> RGBImage {
    try ImageFormat.jpeg.require(bytes)
    var decoder = try JPEGFileDecoder(bytes: bytes, scale: scale)
    try decoder.run()
    var image = try decoder.output()
    image.isReduced = scale != .full
    return image
  }

  /// Decodes at the smallest scale that still has the pixels the picture takes fitted in
  /// `target` with its shape kept (or the full size), for a picture that will be shown
  /// fitted in `target`.
  public static func decode(_ bytes: [UInt8], fitting target: (width: Int, height: Int))
    throws(ImageDecodingError)
    -> RGBImage
  {
    try ImageFormat.jpeg.require(bytes)
    let header = try JPEGFileDecoder(bytes: bytes, scale: .full)
    // Orientations 5…8 turn the picture a quarter: its rows become the shown columns.
    let rotated = header.orientation >= 5
    let factor = ImageDecoder.reduction(
      width: rotated ? header.frame.height : header.frame.width,
      height: rotated ? header.frame.width : header.frame.height, fitting: target)
    return try decode(bytes, scale: Scale(rawValue: factor) ?? .full)
  }

  /// The declared size (before orientation), without decoding.
  public static func size(of bytes: [UInt8]) throws(ImageDecodingError) -> (width: Int, height: Int) {
    try ImageFormat.jpeg.require(bytes)
    let header = try JPEGFileDecoder(bytes: bytes, scale: .full)
    return (header.frame.width, header.frame.height)
  }
}

/// One component of the frame, with its coefficients.
struct Component {
  let id: Int
  let h: Int
  let v: Int
  let quantizationTable: Int
  /// Blocks per line and per column covering the component (padded to whole MCUs).
  var blocksPerLine = 0
  var blocksPerColumn = 0
  /// Coefficients, 64 per block (only 1 per block, the DC, at 1/8 scale).
  var coefficients = CoefficientStorage(count: 0)
  var dcTable = 0
  var acTable = 0
  /// Coefficients stored per block: 64, or 1 when only the DC is kept (1/8 scale).
  var perBlock = 64
}

struct JPEGFrame {
  var width = 0
  var height = 0
  var progressive = false
  var components: [Component] = []
  var maxH = 1
  var maxV = 1
  var mcusPerLine = 0
  var mcusPerColumn = 0
}

/// One JPEG file being decoded: its markers read, its tables, its frame, and the scans
/// decoded into it.
struct JPEGFileDecoder {
  let bytes: [UInt8]
  let scale: JPEGDecoder.Scale
  var frame = JPEGFrame()
  var quantization = [[Int32]](repeating: [Int32](repeating: 1, count: 64), count: 4)
  var dcTables = [HuffmanTable?](repeating: nil, count: 4)
  var acTables = [HuffmanTable?](repeating: nil, count: 4)
  var restartInterval = 0
  var adobeTransform: Int?
  var sawJFIF = false
  var orientation = 1
  var position = 2
  var frameFound = false
  var scansDone = 0
  /// Each component's samples at the output scale, once rendered (see JPEGOutput.swift).
  var planes: [[UInt8]] = []
  /// Whether a baseline frame is decoded one MCU row at a time: its single interleaved
  /// scan renders each row of blocks into the planes as soon as it is decoded, so the
  /// coefficients of the whole picture are never held (less memory to fault in, which
  /// costs more than the decoding itself on small machines).
  var streaming = false
  var finished = false
  /// Output samples per block side for a component, chosen as libjpeg does: 8 / scale
  /// (a reduced IDCT: 4×4 at 1/2, 2×2 at 1/4, the DC alone at 1/8), doubled for a
  /// subsampled component while that does not exceed the output resolution. So 4:2:0
  /// chroma at 1/2 uses the full 8×8 IDCT and needs no upsampling at all, and at 1/8 a
  /// 2×2 IDCT gives it real detail instead of one value per 2×2 pixels.
  func blockScale(_ component: Component) -> Int {
    let smallest = 8 / scale.rawValue
    var size = smallest
    // libjpeg's rule: double only while the ratio to the largest sampling factor stays a
    // whole number (with factors like 3:1 the next size would need 1.5× upsampling).
    while size < 8 && (frame.maxH * smallest) % (component.h * size * 2) == 0
      && (frame.maxV * smallest) % (component.v * size * 2) == 0
    {
      size *= 2
    }
    return size
  }

  /// Coefficients stored per block for a component: 1 when only the DC is used.
  func coefficientsPerBlock(_ component: Component) -> Int {
    blockScale(component) == 1 ? 1 : 64
  }

  /// Reads markers up to the frame header (so the size is known).
  init(bytes: [UInt8], scale: JPEGDecoder.Scale) throws(ImageDecodingError) {
    self.bytes = bytes
    self.scale = scale
    while !frameFound {
      try nextSegment()
    }
  }

  mutating func run() throws(ImageDecodingError) {
    while !finished {
      try nextSegment()
    }
    guard scansDone > 0 else { throw .truncated }
  }

  private func uint16(at index: Int) throws(ImageDecodingError) -> Int {
    guard index + 1 < bytes.count else { throw .truncated }
    return Int(bytes[index]) << 8 | Int(bytes[index + 1])
  }

  /// Handles the next marker segment.
  private mutating func nextSegment() throws(ImageDecodingError) {
    // Find the next marker, skipping fill bytes.
    guard position < bytes.count else {
      // A baseline file whose scan completed may lack its EOI; a progressive one may be
      // missing scans, so it must end properly.
      if scansDone > 0 && frameFound && !frame.progressive {
        finished = true
        return
      }
      throw .truncated
    }
    guard bytes[position] == 0xFF else { throw .corrupt("expected a marker") }
    while position < bytes.count, bytes[position] == 0xFF { position += 1 }
    guard position < bytes.count else { throw .truncated }
    let marker = bytes[position]
    position += 1
    switch marker {
    case 0xD8, 0x01, 0xD0...0xD7:
      return  // SOI, TEM, stray RST: no length
    case 0xD9:
      finished = true
      return
    default:
      break
    }
    let length = try uint16(at: position)
    guard length >= 2, position + length <= bytes.count else {
      throw position + length > bytes.count ? .truncated : .corrupt("bad segment length")
    }
    let start = position + 2
    let end = position + length
    position = end
    switch marker {
    case 0xC0, 0xC1, 0xC2:
      try readFrame(start, end, progressive: marker == 0xC2)
    case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
      throw .unsupportedFeature(
        marker >= 0xC9 ? "arithmetic-coded JPEG" : marker == 0xC3 ? "lossless JPEG" : "hierarchical JPEG")
    case 0xC4:
      try readHuffmanTables(start, end)
    case 0xDB:
      try readQuantizationTables(start, end)
    case 0xDD:
      restartInterval = try uint16(at: start)
    case 0xDA:
      guard frameFound else { throw .corrupt("scan before frame") }
      try readScan(start, end)
    case 0xE0:
      if end - start >= 5, Array(bytes[start..<(start + 5)]) == Array("JFIF\0".utf8) { sawJFIF = true }
    case 0xE1:
      readEXIF(start, end)
    case 0xEE:
      if end - start >= 12, Array(bytes[start..<(start + 5)]) == Array("Adobe".utf8) {
        adobeTransform = Int(bytes[start + 11])
      }
    default:
      break  // APPn, COM, DNL and others: skipped
    }
  }

  private mutating func readFrame(_ start: Int, _ end: Int, progressive: Bool) throws(ImageDecodingError) {
    guard !frameFound else { throw .corrupt("two frames") }
    guard end - start >= 6 else { throw .corrupt("short frame header") }
    guard bytes[start] == 8 else { throw .unsupportedFeature("\(bytes[start])-bit JPEG") }
    let height = try uint16(at: start + 1)
    let width = try uint16(at: start + 3)
    let count = Int(bytes[start + 5])
    guard width > 0, height > 0 else { throw .corrupt("zero size") }
    guard width <= ImageDecoder.maxDimension, height <= ImageDecoder.maxDimension,
      width * height <= ImageDecoder.maxPixels
    else { throw .tooLarge(width: width, height: height) }
    guard count == 1 || count == 3 else {
      throw count == 4 ? .unsupportedFeature("CMYK JPEG") : .corrupt("\(count) components")
    }
    guard end - start >= 6 + 3 * count else { throw .corrupt("short frame header") }
    var components: [Component] = []
    for index in 0..<count {
      let offset = start + 6 + 3 * index
      let h = Int(bytes[offset + 1] >> 4)
      let v = Int(bytes[offset + 1] & 15)
      let table = Int(bytes[offset + 2])
      guard (1...4).contains(h), (1...4).contains(v), table < 4 else {
        throw .corrupt("bad sampling factors")
      }
      components.append(Component(id: Int(bytes[offset]), h: h, v: v, quantizationTable: table))
    }
    frame.width = width
    frame.height = height
    frame.progressive = progressive
    frame.maxH = components.map(\.h).max()!
    frame.maxV = components.map(\.v).max()!
    // Like libjpeg, only whole-number ratios between a component and the largest.
    guard components.allSatisfy({ frame.maxH % $0.h == 0 && frame.maxV % $0.v == 0 }) else {
      throw .unsupportedFeature("JPEG with fractional sampling")
    }
    frame.mcusPerLine = (width + 8 * frame.maxH - 1) / (8 * frame.maxH)
    frame.mcusPerColumn = (height + 8 * frame.maxV - 1) / (8 * frame.maxV)
    for index in components.indices {
      components[index].blocksPerLine = frame.mcusPerLine * components[index].h
      components[index].blocksPerColumn = frame.mcusPerColumn * components[index].v
    }
    frame.components = components
    frameFound = true
  }

  /// Allocates coefficient storage once the first scan starts (after the header checks):
  /// one MCU row of blocks when streaming, else every block.
  private mutating func allocateCoefficients() {
    for index in frame.components.indices where frame.components[index].coefficients.buffer.isEmpty {
      let component = frame.components[index]
      let perBlock = coefficientsPerBlock(component)
      let rows = streaming ? component.v : component.blocksPerColumn
      frame.components[index].perBlock = perBlock
      frame.components[index].coefficients = CoefficientStorage(
        count: component.blocksPerLine * rows * perBlock)
    }
  }

  private mutating func readHuffmanTables(_ start: Int, _ end: Int) throws(ImageDecodingError) {
    var index = start
    while index < end {
      guard index + 17 <= end else { throw .corrupt("short Huffman table") }
      let kind = Int(bytes[index] >> 4)
      let id = Int(bytes[index] & 15)
      guard kind <= 1, id < 4 else { throw .corrupt("bad Huffman table id") }
      let counts = Array(bytes[(index + 1)..<(index + 17)])
      let total = counts.reduce(0) { $0 + Int($1) }
      guard index + 17 + total <= end else { throw .corrupt("short Huffman table") }
      let table = try HuffmanTable(
        counts: counts, symbols: Array(bytes[(index + 17)..<(index + 17 + total)]), isDC: kind == 0)
      if kind == 0 { dcTables[id] = table } else { acTables[id] = table }
      index += 17 + total
    }
  }

  private mutating func readQuantizationTables(_ start: Int, _ end: Int) throws(ImageDecodingError) {
    var index = start
    while index < end {
      let precision = Int(bytes[index] >> 4)
      let id = Int(bytes[index] & 15)
      guard precision <= 1, id < 4 else { throw .corrupt("bad quantization table") }
      let size = precision == 0 ? 64 : 128
      guard index + 1 + size <= end else { throw .corrupt("short quantization table") }
      var table = [Int32](repeating: 0, count: 64)
      for k in 0..<64 {
        let value =
          precision == 0
          ? Int32(bytes[index + 1 + k])
          : Int32(bytes[index + 1 + 2 * k]) << 8 | Int32(bytes[index + 2 + 2 * k])
        table[zigzag[k]] = value
      }
      quantization[id] = table
      index += 1 + size
    }
  }

  /// EXIF orientation (tag 0x0112 in IFD0), if present and sane.
  private mutating func readEXIF(_ start: Int, _ end: Int) {
    guard end - start >= 14, Array(bytes[start..<(start + 6)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] else {
      return
    }
    let tiff = start + 6
    let little = bytes[tiff] == 0x49
    func read16(_ at: Int) -> Int? {
      guard at + 1 < end else { return nil }
      return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }
    func read32(_ at: Int) -> Int? {
      guard let high = read16(little ? at + 2 : at), let low = read16(little ? at : at + 2) else {
        return nil
      }
      return high << 16 | low
    }
    guard let ifdOffset = read32(tiff + 4), ifdOffset < end - tiff, let count = read16(tiff + ifdOffset)
    else { return }
    for entry in 0..<min(count, 64) {
      let at = tiff + ifdOffset + 2 + entry * 12
      guard let tag = read16(at) else { return }
      if tag == 0x0112, let value = read16(at + 8), (1...8).contains(value) {
        orientation = value
        return
      }
    }
  }

  private mutating func readScan(_ start: Int, _ end: Int) throws(ImageDecodingError) {
    guard end - start >= 1 else { throw .corrupt("short scan header") }
    let count = Int(bytes[start])
    guard (1...4).contains(count), end - start >= 1 + 2 * count + 3 else { throw .corrupt("bad scan header") }
    var scanComponents: [Int] = []
    for index in 0..<count {
      let id = Int(bytes[start + 1 + 2 * index])
      let tables = bytes[start + 2 + 2 * index]
      guard let component = frame.components.firstIndex(where: { $0.id == id }),
        !scanComponents.contains(component)
      else { throw .corrupt("scan names an unknown component") }
      frame.components[component].dcTable = Int(tables >> 4) & 3
      frame.components[component].acTable = Int(tables & 15) & 3
      scanComponents.append(component)
    }
    let spectral = start + 1 + 2 * count
    let ss = Int(bytes[spectral])
    let se = Int(bytes[spectral + 1])
    let ah = Int(bytes[spectral + 2] >> 4)
    let al = Int(bytes[spectral + 2] & 15)
    if frame.progressive {
      guard ss <= se, se <= 63, (ss == 0) || (count == 1 && ss > 0), al <= 13 else {
        throw .corrupt("bad progressive scan")
      }
    }
    if streaming {
      // Every component was in the streamed scan; a further scan has nothing to add.
      position = bytes.withUnsafeBufferPointer { EntropyCodedData.scanEnd(of: $0, from: end) }
      return
    }
    // Streamed: a first scan holding every component, in MCU rows of `v` block rows. A
    // scan of one component is not interleaved (one block per MCU), so that only holds
    // when the component is not subsampled (plain greyscale).
    let component = frame.components[scanComponents[0]]
    if scansDone == 0 && !frame.progressive && count == frame.components.count
      && (count > 1 || (component.h == 1 && component.v == 1))
    {
      streaming = true
      allocatePlanes()
    }
    allocateCoefficients()
    var scan = Scan(
      components: scanComponents, ss: frame.progressive ? ss : 0, se: frame.progressive ? se : 63,
      ah: frame.progressive ? ah : 0, al: frame.progressive ? al : 0)
    // At 1/8 scale an AC-only progressive scan of components that keep only their DC
    // adds nothing we use: skip its data.
    let skip =
      frame.progressive && scan.ss > 0
      && scanComponents.allSatisfy { coefficientsPerBlock(frame.components[$0]) == 1 }
    if skip {
      position = bytes.withUnsafeBufferPointer { EntropyCodedData.scanEnd(of: $0, from: end) }
    } else {
      let data = bytes.withUnsafeBufferPointer { EntropyCodedData($0, from: end) }
      try withExtendedLifetime(data) { () throws(ImageDecodingError) in
        var reader = BitReader(data)
        try decodeScan(&scan, reader: &reader)
        if reader.ranOut { throw .truncated }
      }
      position = data.scanEnd
    }
    scansDone += 1
  }
}
