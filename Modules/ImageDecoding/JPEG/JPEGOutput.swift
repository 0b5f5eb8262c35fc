/// Turning coefficients into pixels: planes per component (JPEGIDCT.swift), chroma
/// upsampling and colour conversion (JPEGColor.swift), orientation. The arithmetic follows
/// libjpeg's accurate integer path, so decodes match libjpeg-turbo's at every scale.
extension JPEGFileDecoder {
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
          // The DC alone: one sample per block (and one coefficient per block), a plain loop.
          let dcStep = Int(quantization[0])
          for blockRow in 0..<rowCount {
            let source = coefficients + blockRow * blocksPerLine
            let target = output.baseAddress! + (firstRow + blockRow) * width
            for column in 0..<blocksPerLine {
              target[column] = clamp(((Int(source[column]) &* dcStep &+ 4) &>> 3) &+ 128)
            }
          }
        case 2: each { inverseDCT2x2($0, quantization, $1, width) }
        case 4: each { inverseDCT4x4($0, quantization, $1, width) }
        default: each { inverseDCT($0, quantization, $1, width) }
        }
      }
    }
  }

  mutating func output() throws(ImageDecodingError) -> RGBImage {
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
