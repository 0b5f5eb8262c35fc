/// Zero-initialised coefficient memory with a stable address, freed with its owner.
final class CoefficientStorage {
  let buffer: UnsafeMutableBufferPointer<Int16>
  init(count: Int) {
    buffer = .allocate(capacity: count)
    buffer.initialize(repeating: 0)
  }
  deinit { buffer.deallocate() }
}

/// The parameters of one scan.
struct Scan {
  var components: [Int]
  var ss: Int
  var se: Int
  var ah: Int
  var al: Int
  var eobrun = 0
}

extension JPEGFileDecoder {
  mutating func decodeScan(_ scan: inout Scan, reader: inout BitReader) throws(ImageDecodingError) {
    for index in scan.components {
      let component = frame.components[index]
      let needsDC = scan.ss == 0 && scan.ah == 0
      let needsAC = !frame.progressive || scan.ss > 0
      if needsDC && dcTables[component.dcTable] == nil { throw .corrupt("missing DC Huffman table") }
      if needsAC && acTables[component.acTable] == nil { throw .corrupt("missing AC Huffman table") }
    }
    let single = scan.components.count == 1
    var unitsPerLine: Int
    var unitCount: Int
    if single {
      let component = frame.components[scan.components[0]]
      let width = (frame.width * component.h + frame.maxH - 1) / frame.maxH
      let height = (frame.height * component.v + frame.maxV - 1) / frame.maxV
      unitsPerLine = (width + 7) / 8
      unitCount = unitsPerLine * ((height + 7) / 8)
    } else {
      unitsPerLine = frame.mcusPerLine
      unitCount = frame.mcusPerLine * frame.mcusPerColumn
    }
    if !frame.progressive {
      try decodeBaselineScan(scan.components, single: single, unitsPerLine, unitCount, &reader)
      return
    }
    // What each component of the scan needs, gathered once: per block, no table lookups,
    // no copies of components and no reference counting.
    let parts = scan.components.map { index in
      let component = frame.components[index]
      return ProgressivePart(
        table: scan.ss == 0 ? dcTables[component.dcTable] : acTables[component.acTable],
        coefficients: component.coefficients.buffer.baseAddress!, blocksPerLine: component.blocksPerLine,
        perBlock: component.perBlock, h: component.h, v: component.v)
    }
    var predictors = [Int](repeating: 0, count: parts.count)
    let first = parts[0]  // a local: passing an array's element would retain its table per block
    for unit in 0..<unitCount {
      if restartInterval > 0, unit > 0, unit % restartInterval == 0 {
        try reader.restart()
        scan.eobrun = 0
        for slot in predictors.indices { predictors[slot] = 0 }
      }
      let row = unit / unitsPerLine
      let column = unit % unitsPerLine
      if single {
        try decodeBlock(first, row: row, column: column, &predictors[0], &scan, &reader)
      } else {
        for (slot, part) in parts.enumerated() {
          for v in 0..<part.v {
            for h in 0..<part.h {
              try decodeBlock(
                part, row: row * part.v + v, column: column * part.h + h, &predictors[slot], &scan, &reader)
            }
          }
        }
      }
      if reader.ranOut { throw .truncated }
    }
  }

  /// What a progressive scan needs of one component: the Huffman table it reads with
  /// (the DC table for DC scans, the AC table for the others; none for a DC refinement,
  /// which reads raw bits) and where its coefficients are.
  private struct ProgressivePart {
    let table: HuffmanTable?
    let coefficients: UnsafeMutablePointer<Int16>
    let blocksPerLine: Int
    let perBlock: Int
    let h: Int
    let v: Int
  }

  /// What a baseline scan needs of one component, gathered once so the per-block loop
  /// touches no arrays of structs and no reference counts.
  private struct BaselinePart {
    let dc: HuffmanTable
    let ac: HuffmanTable
    let coefficients: UnsafeMutablePointer<Int16>
    let blocksPerLine: Int
    let perBlock: Int
    let h: Int
    let v: Int
    var predictor = 0
  }

  /// Streaming: renders the MCU row just decoded into the planes and clears the row's
  /// coefficients for the next one.
  private mutating func flushStreamedRow(_ mcuRow: Int) {
    for index in frame.components.indices {
      let component = frame.components[index]
      let coefficients = component.coefficients.buffer
      renderBlockRows(
        index, from: coefficients.baseAddress!, firstRow: mcuRow * component.v, rowCount: component.v)
    }
  }

  private mutating func decodeBaselineScan(
    _ components: [Int], single: Bool, _ unitsPerLine: Int, _ unitCount: Int, _ reader: inout BitReader
  ) throws(ImageDecodingError) {
    // Plain pointers and a local reader, no closures: nothing the loops touch is captured,
    // so the reader's bit buffer and count stay in registers and no access is checked
    // dynamically.
    let parts = UnsafeMutablePointer<BaselinePart>.allocate(capacity: components.count)
    for (slot, index) in components.enumerated() {
      let component = frame.components[index]
      (parts + slot).initialize(
        to: BaselinePart(
          dc: dcTables[component.dcTable]!, ac: acTables[component.acTable]!,
          coefficients: component.coefficients.buffer.baseAddress!, blocksPerLine: component.blocksPerLine,
          perBlock: component.perBlock, h: single ? 1 : component.h, v: single ? 1 : component.v))
    }
    defer {
      parts.deinitialize(count: components.count)
      parts.deallocate()
    }
    let partCount = components.count
    let order = zigzagPointer
    let streaming = self.streaming
    let restartInterval = self.restartInterval
    let rows = unitCount / unitsPerLine
    var local = reader
    defer { reader = local }
    var untilRestart = restartInterval
    for row in 0..<rows {
      for column in 0..<unitsPerLine {
        if restartInterval > 0 {
          if untilRestart == 0 {
            try local.restart()
            for index in 0..<partCount { parts[index].predictor = 0 }
            untilRestart = restartInterval
          }
          untilRestart -= 1
        }
        for index in 0..<partCount {
          let part = parts + index
          let firstRow = streaming ? 0 : row * part.pointee.v
          let first =
            part.pointee.coefficients
            + (firstRow * part.pointee.blocksPerLine + column * part.pointee.h) * part.pointee.perBlock
          // One loop per kind of block, so the choice is made once per component.
          if part.pointee.perBlock == 64 {
            try Self.decodeBaselineBlocks(first, keepsAC: true, part, order, &local)
          } else {
            try Self.decodeBaselineBlocks(first, keepsAC: false, part, order, &local)
          }
        }
        if local.ranOut { throw .truncated }
      }
      if streaming { flushStreamedRow(row) }
    }
  }

  /// The `v` rows of `h` blocks one component has in an MCU.
  @inline(__always)
  private static func decodeBaselineBlocks(
    _ first: UnsafeMutablePointer<Int16>, keepsAC: Bool, _ part: UnsafeMutablePointer<BaselinePart>,
    _ zigzag: UnsafePointer<Int>, _ reader: inout BitReader
  ) throws(ImageDecodingError) {
    let (v, h, perBlock, blocksPerLine) = (
      part.pointee.v, part.pointee.h, part.pointee.perBlock, part.pointee.blocksPerLine
    )
    var block = first
    for _ in 0..<v {
      for offset in 0..<h {
        try decodeBaselineBlock(block + offset * perBlock, keepsAC: keepsAC, &part.pointee, zigzag, &reader)
      }
      block += blocksPerLine * perBlock
    }
  }

  /// One baseline block: the DC difference, then the AC coefficients, mostly through the
  /// table's one-lookup fast path. At 1/8 scale (`perBlock == 1`) the AC coefficients are
  /// decoded only to be skipped.
  @inline(__always)
  private static func decodeBaselineBlock(
    _ block: UnsafeMutablePointer<Int16>, keepsAC: Bool, _ part: inout BaselinePart,
    _ zigzag: UnsafePointer<Int>, _ reader: inout BitReader
  ) throws(ImageDecodingError) {
    if keepsAC {
      // Only non-zero coefficients are written; clear what the last block left here.
      let raw = UnsafeMutableRawPointer(block)
      for word in 0..<16 { raw.storeBytes(of: 0, toByteOffset: word * 8, as: UInt64.self) }
    }
    let dc = part.dc.fast[reader.peekLookahead()]
    if dc != 0 {
      reader.skip(Int(dc & 31))
      part.predictor &+= Int(dc >> 16)
    } else {
      part.predictor &+= try reader.receiveExtend(try reader.decode(part.dc))
    }
    block[0] = Int16(truncatingIfNeeded: part.predictor)
    let table = part.ac
    var k = 1
    while k < 64 {
      let fast = table.fast[reader.peekLookahead()]
      if fast != 0 {
        reader.skip(Int(fast & 31))
        if fast & HuffmanTable.endOfBlock != 0 { break }
        k &+= Int((fast >> 8) & 15)
        if k < 64, keepsAC { block[zigzag[k]] = Int16(truncatingIfNeeded: fast >> 16) }
        k &+= 1
        continue
      }
      let rs = try reader.decode(table)
      let r = rs >> 4
      let size = rs & 15
      if size == 0 {
        if r != 15 { break }
        k &+= 16
        continue
      }
      k &+= r
      let value = reader.extend(size)
      if k < 64, keepsAC { block[zigzag[k]] = Int16(truncatingIfNeeded: value) }
      k &+= 1
    }
  }

  private func decodeBlock(
    _ part: borrowing ProgressivePart, row: Int, column: Int, _ predictor: inout Int, _ scan: inout Scan,
    _ reader: inout BitReader
  ) throws(ImageDecodingError) {
    let block = part.coefficients + (row * part.blocksPerLine + column) * part.perBlock
    if scan.ss == 0 {
      if scan.ah == 0 {
        predictor += try reader.receiveExtend(try reader.decode(part.table!))
        block[0] = Int16(truncatingIfNeeded: predictor << scan.al)
      } else if reader.bit() == 1 {
        block[0] |= Int16(truncatingIfNeeded: 1 << scan.al)
      }
    } else if part.perBlock == 64 {
      if scan.ah == 0 {
        try decodeACFirst(block, part.table!, &scan, &reader)
      } else {
        try decodeACRefine(block, part.table!, &scan, &reader)
      }
    }
  }

  private func decodeACFirst(
    _ block: UnsafeMutablePointer<Int16>, _ table: HuffmanTable, _ scan: inout Scan, _ reader: inout BitReader
  ) throws(ImageDecodingError) {
    if scan.eobrun > 0 {
      scan.eobrun -= 1
      return
    }
    var k = scan.ss
    while k <= scan.se {
      let rs = try reader.decode(table)
      let r = rs >> 4
      let size = rs & 15
      if size == 0 {
        if r < 15 {
          scan.eobrun = (1 << r) - 1
          if r > 0 { scan.eobrun += reader.bits(r) }
          break
        }
        k += 16
        continue
      }
      k += r
      guard k <= 63 else { throw .corrupt("coefficient index past the block") }
      block[zigzag[k]] = Int16(truncatingIfNeeded: try reader.receiveExtend(size) * (1 << scan.al))
      k += 1
    }
  }

  /// Successive approximation of AC coefficients (ITU T.81 G.1.2.3): one more bit of
  /// precision for coefficients already non-zero, and new ±1 coefficients in zero runs.
  private func decodeACRefine(
    _ block: UnsafeMutablePointer<Int16>, _ table: HuffmanTable, _ scan: inout Scan, _ reader: inout BitReader
  ) throws(ImageDecodingError) {
    let positive = Int16(truncatingIfNeeded: 1 << scan.al)
    let negative = Int16(truncatingIfNeeded: -1 << scan.al)
    var k = scan.ss
    func refine(_ position: Int, _ reader: inout BitReader) {
      let value = block[position]
      if reader.bit() == 1, value & positive == 0 {
        block[position] = value >= 0 ? value &+ positive : value &+ negative
      }
    }
    if scan.eobrun == 0 {
      while k <= scan.se {
        let rs = try reader.decode(table)
        var r = rs >> 4
        let size = rs & 15
        var newValue: Int16 = 0
        if size != 0 {
          guard size == 1 else { throw .corrupt("bad refinement coefficient") }
          newValue = reader.bit() == 1 ? positive : negative
        } else if r != 15 {
          scan.eobrun = 1 << r
          if r > 0 { scan.eobrun += reader.bits(r) }
          break
        }
        while k <= scan.se {
          let position = zigzag[k]
          if block[position] != 0 {
            refine(position, &reader)
          } else {
            if r == 0 { break }
            r -= 1
          }
          k += 1
        }
        if newValue != 0, k <= 63 { block[zigzag[k]] = newValue }
        k += 1
      }
    }
    if scan.eobrun > 0 {
      while k <= scan.se {
        let position = zigzag[k]
        if block[position] != 0 { refine(position, &reader) }
        k += 1
      }
      scan.eobrun -= 1
    }
  }
}
