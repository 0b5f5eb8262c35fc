// The loop filter's strengths and its pass over the frame (RFC 6386, 15).

extension VP8Decoder {
  /// How the loop filter treats one macroblock.
  struct FilterInfo {
    var limit = 0
    var interiorLimit = 0
    var hevThreshold = 0
    /// Whether the edges inside the macroblock are filtered too.
    var inner = false
  }

  /// The filter of each segment, for 16×16 (index 0) and 4×4 (index 1) prediction.
  func filterStrengths() -> [[FilterInfo]] {
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

  /// Filters every macroblock's edges, in macroblock order, with `filters` (one per
  /// macroblock, in raster order).
  mutating func filterFrame(_ filters: [FilterInfo]) {
    let (yStride, uvStride, simple) = (yStride, uvStride, simpleFilter)
    let (wide, high) = (macroblocksWide, macroblocksHigh)
    y.withUnsafeMutableBufferPointer { y in
      u.withUnsafeMutableBufferPointer { u in
        v.withUnsafeMutableBufferPointer { v in
          let planes = FilterPlanes(
            y: y.baseAddress!, u: u.baseAddress!, v: v.baseAddress!, yStride: yStride, uvStride: uvStride)
          for mbY in 0..<high {
            for mbX in 0..<wide {
              Self.filter(planes, x: mbX, y: mbY, filters[mbY * wide + mbX], simple: simple)
            }
          }
        }
      }
    }
  }

  /// The three planes, for the loop filter, which changes them in place.
  struct FilterPlanes {
    let y: UnsafeMutablePointer<UInt8>
    let u: UnsafeMutablePointer<UInt8>
    let v: UnsafeMutablePointer<UInt8>
    let yStride: Int
    let uvStride: Int
  }

  /// Filters one macroblock's edges: left, inner vertical, top, inner horizontal.
  static func filter(_ planes: FilterPlanes, x mbX: Int, y mbY: Int, _ info: FilterInfo, simple: Bool) {
    guard info.limit > 0 else { return }
    let (yStride, uvStride) = (planes.yStride, planes.uvStride)
    let luma = mbY * 16 * yStride + mbX * 16
    let chroma = mbY * 8 * uvStride + mbX * 8
    let edge = info.limit + 4
    // The simple filter is the normal one without the interior test and with every
    // position of high variance: it changes only the two pixels next to an edge, and
    // leaves chroma alone.
    let (interior, hev) = simple ? (255, -1) : (info.interiorLimit, info.hevThreshold)
    // Sixteen positions at a time: a luma edge's two halves, or a chroma edge in U and V.
    func lumaEdge(_ offset: Int, across: Int, along: Int, _ limit: Int, isEdge: Bool) {
      VP8LoopFilter.normal(
        planes.y + offset, planes.y + offset + 8 * along, across: across, along: along, limit, interior, hev,
        isEdge: isEdge)
    }
    func chromaEdge(_ offset: Int, across: Int, along: Int, _ limit: Int, isEdge: Bool) {
      guard !simple else { return }
      VP8LoopFilter.normal(
        planes.u + offset, planes.v + offset, across: across, along: along, limit, interior, hev,
        isEdge: isEdge)
    }
    if mbX > 0 {
      lumaEdge(luma, across: 1, along: yStride, edge, isEdge: true)
      chromaEdge(chroma, across: 1, along: uvStride, edge, isEdge: true)
    }
    if info.inner {
      for offset in stride(from: 4, through: 12, by: 4) {
        lumaEdge(luma + offset, across: 1, along: yStride, info.limit, isEdge: false)
      }
      chromaEdge(chroma + 4, across: 1, along: uvStride, info.limit, isEdge: false)
    }
    if mbY > 0 {
      lumaEdge(luma, across: yStride, along: 1, edge, isEdge: true)
      chromaEdge(chroma, across: uvStride, along: 1, edge, isEdge: true)
    }
    if info.inner {
      for offset in stride(from: 4, through: 12, by: 4) {
        lumaEdge(luma + offset * yStride, across: yStride, along: 1, info.limit, isEdge: false)
      }
      chromaEdge(chroma + 4 * uvStride, across: uvStride, along: 1, info.limit, isEdge: false)
    }
  }
}
