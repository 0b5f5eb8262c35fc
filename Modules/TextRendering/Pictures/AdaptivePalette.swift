/// Up to 256 colours chosen for one picture, and each pixel's colour among them: what a
/// sixel picture is drawn with (a fixed palette such as xterm's bands a photo's skies and
/// fur; one fitted to the picture does not).
///
/// Median cut: the pixels are counted in a histogram of 32 levels per channel; the box of
/// colours that is most populous times widest is split at its median along its widest
/// channel until there are `count` boxes (or no box holds two colours). Each box's colour is
/// the mean of the pixels in it, and every pixel takes its box's colour.
struct AdaptivePalette {
  /// The palette, RGB.
  var colors: [(r: UInt8, g: UInt8, b: UInt8)]
  /// For each pixel, its colour's index in ``colors``.
  var indices: [UInt8]

  /// - Parameters:
  ///   - pixels: RGB bytes.
  ///   - count: The most colours to use (1–256).
  init(pixels: [UInt8], count: Int = 256) {
    let pixelCount = pixels.count / 3
    func key(_ index: Int) -> Int {
      Int(pixels[index * 3] >> 3) << 10 | Int(pixels[index * 3 + 1] >> 3) << 5
        | Int(pixels[index * 3 + 2] >> 3)
    }
    var population = [Int](repeating: 0, count: 1 << 15)
    for index in 0..<pixelCount { population[key(index)] += 1 }
    var keys = population.indices.filter { population[$0] > 0 }

    func channel(_ key: Int, _ channel: Int) -> Int { key >> (10 - 5 * channel) & 31 }
    struct Box {
      var range: Range<Int>  // in `keys`
      var pixels: Int
      var widest: (channel: Int, extent: Int)
    }
    func makeBox(_ range: Range<Int>) -> Box {
      var (lowR, lowG, lowB) = (31, 31, 31)
      var (highR, highG, highB) = (0, 0, 0)
      var total = 0
      for position in range {
        let key = keys[position]
        total += population[key]
        let (r, g, b) = (channel(key, 0), channel(key, 1), channel(key, 2))
        lowR = min(lowR, r)
        highR = max(highR, r)
        lowG = min(lowG, g)
        highG = max(highG, g)
        lowB = min(lowB, b)
        highB = max(highB, b)
      }
      // The first of the widest, red before green before blue.
      var widest = (channel: 0, extent: highR - lowR)
      if highG - lowG > widest.extent { widest = (1, highG - lowG) }
      if highB - lowB > widest.extent { widest = (2, highB - lowB) }
      return Box(range: range, pixels: total, widest: widest)
    }

    var boxes = keys.isEmpty ? [] : [makeBox(keys.indices)]
    while boxes.count < max(1, min(count, 256)) {
      // The box to split: most pixels times widest extent (a box of one colour cannot split).
      guard
        let chosen = boxes.indices.filter({ boxes[$0].widest.extent > 0 })
          .max(by: { boxes[$0].pixels * boxes[$0].widest.extent < boxes[$1].pixels * boxes[$1].widest.extent }
          )
      else { break }
      let box = boxes[chosen]
      let along = box.widest.channel
      keys[box.range].sort { channel($0, along) < channel($1, along) }
      // The weighted median, kept strictly inside so both halves hold a colour.
      var seen = 0
      var split = box.range.lowerBound + 1
      for position in box.range {
        seen += population[keys[position]]
        if seen * 2 >= box.pixels {
          split = min(position + 1, box.range.upperBound - 1)
          break
        }
      }
      boxes[chosen] = makeBox(box.range.lowerBound..<split)
      boxes.append(makeBox(split..<box.range.upperBound))
    }

    var boxOfKey = [UInt8](repeating: 0, count: 1 << 15)
    for (number, box) in boxes.enumerated() {
      for position in box.range { boxOfKey[keys[position]] = UInt8(number) }
    }
    var sums = [Int](repeating: 0, count: boxes.count * 4)
    var indices = [UInt8](repeating: 0, count: pixelCount)
    for index in 0..<pixelCount {
      let number = boxOfKey[key(index)]
      indices[index] = number
      let sum = Int(number) * 4
      sums[sum] += Int(pixels[index * 3])
      sums[sum + 1] += Int(pixels[index * 3 + 1])
      sums[sum + 2] += Int(pixels[index * 3 + 2])
      sums[sum + 3] += 1
    }
    colors = boxes.indices.map { number in
      let count = max(1, sums[number * 4 + 3])
      return (
        UInt8(sums[number * 4] / count), UInt8(sums[number * 4 + 1] / count),
        UInt8(sums[number * 4 + 2] / count)
      )
    }
    self.indices = indices
  }
}
