// A macroblock's coefficients: the token trees, contexts and dequantisation (RFC 6386, 13).

extension VP8Decoder {
  static let zigzag = [0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15]
  static let bands = [0, 1, 2, 3, 6, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 0]
  static let categoryProbabilities: [[UInt8]] = [
    [173, 148, 140], [176, 155, 140, 135], [180, 157, 141, 134, 130],
    [254, 254, 243, 230, 196, 177, 153, 140, 133, 130, 129],
  ]

  /// Reads a macroblock's coefficients, dequantised; whether any is not zero.
  func readResiduals(
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
  func readCoefficients(
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
  static func largeValue(_ tokens: inout VP8BoolDecoder, _ probabilities: [UInt8], _ p: Int) -> Int {
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
}
