import Foundation
import ImageDecoding
import TestSupport
import Testing

extension PictureSuites.JPEGDecoderTests {
  @Test(
    arguments: [
      (0xC3, "lossless JPEG"), (0xC5, "hierarchical JPEG"), (0xC7, "hierarchical JPEG"),
      (0xC9, "arithmetic-coded JPEG"), (0xCA, "arithmetic-coded JPEG"), (0xCF, "arithmetic-coded JPEG"),
    ] as [(UInt8, String)])
  func framesOfOtherJPEGProcessesAreRefusedByName(marker: UInt8, feature: String) throws {
    var bytes = JPEGFixture.bytes("g-420-64x48.jpg")
    let sof = try #require(Self.offsets(of: 0xC0, in: bytes).first)
    bytes[sof + 1] = marker
    #expect(throws: ImageDecodingError.unsupportedFeature(feature)) { try JPEGDecoder.decode(bytes) }
  }

  @Test func otherFormatsAndFeaturesAreRefusedClearly() {
    #expect(throws: ImageDecodingError.unsupportedFormat(.png)) {
      try JPEGDecoder.decode(JPEGFixture.bytes("g-png-named.jpg"))
    }
    #expect(throws: ImageDecodingError.unsupportedFormat(.webp)) {
      try JPEGDecoder.decode(JPEGFixture.bytes("synthetic-400x300.webp"))
    }
    #expect(throws: ImageDecodingError.unsupportedFeature("CMYK JPEG")) {
      try JPEGDecoder.decode(JPEGFixture.bytes("g-cmyk-16x16.jpg"))
    }
    #expect(throws: ImageDecodingError.unsupportedFormat(.unknown)) {
      try JPEGDecoder.decode(Array("hello".utf8))
    }
    #expect(throws: ImageDecodingError.unsupportedFormat(.unknown)) { try JPEGDecoder.decode([]) }
    #expect(
      ImageDecodingError.unsupportedFormat(.png).message
        == "The picture is a PNG, an unsupported image format.")
    #expect(throws: ImageDecodingError.unsupportedFormat(.gif)) {
      try JPEGDecoder.decode(Array("GIF89a\u{1}\u{0}".utf8))
    }
    #expect(
      ImageDecodingError.unsupportedFormat(.gif).message
        == "The picture is a GIF, an unsupported image format.")
    #expect(
      ImageDecodingError.unsupportedFeature("CMYK JPEG").message
        == "The picture uses a feature we cannot show (CMYK JPEG).")
    // A RIFF file of another kind (a WAV) is no WEBP.
    #expect(ImageFormat(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == .unknown)
  }

  @Test func everyTruncationIsAnErrorNotACrash() {
    let bytes = JPEGFixture.bytes("g-progressive-420-64x48.jpg")
    for length in stride(from: 0, to: bytes.count - 2, by: 7) {
      #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(Array(bytes.prefix(length))) }
    }
    let baseline = JPEGFixture.bytes("synthetic-500x375-baseline.jpg")
    #expect(throws: ImageDecodingError.truncated) {
      try JPEGDecoder.decode(Array(baseline.prefix(baseline.count / 2)))
    }
  }

  /// A download cut just before the end marker still holds a whole baseline picture (its
  /// one scan is complete); a progressive file cut there may lack scans, so it is refused.
  @Test func onlyABaselineFileMayLackItsEndMarker() throws {
    let baseline = JPEGFixture.bytes("g-420-64x48.jpg")
    #expect(baseline.suffix(2) == [0xFF, 0xD9])
    #expect(
      try JPEGDecoder.decode(Array(baseline.dropLast(2))).pixels == JPEGDecoder.decode(baseline).pixels)
    let progressive = JPEGFixture.bytes("g-progressive-420-64x48.jpg")
    #expect(progressive.suffix(2) == [0xFF, 0xD9])
    #expect(throws: ImageDecodingError.truncated) { try JPEGDecoder.decode(Array(progressive.dropLast(2))) }
  }

  /// The entropy-coded data is unstuffed and split at restart markers once per scan:
  /// fill bytes (any number of extra `FF`s before a marker, which the standard allows)
  /// must change nothing, and a missing restart marker is an error, not a misread.
  @Test func fillBytesAndRestartMarkersAreHandledAsTheStandardSays() throws {
    let bytes = JPEGFixture.bytes("g-restart-420-64x48.jpg")
    guard let sos = Self.offsets(of: 0xDA, in: bytes).first
    else {
      Issue.record("no SOS")
      return
    }
    let data = sos + 2 + Int(bytes[sos + 2]) << 8 + Int(bytes[sos + 3])
    let markers = (data..<(bytes.count - 1)).filter {
      bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1])
        || (bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9)
    }
    #expect(markers.count > 2, "the fixture has restart markers")
    var padded = bytes
    for marker in markers.reversed() {
      padded.insert(contentsOf: [0xFF, 0xFF, 0xFF], at: marker)
    }
    for scale in JPEGDecoder.Scale.allCases {
      let plain = try JPEGDecoder.decode(bytes, scale: scale)
      let withFill = try JPEGDecoder.decode(padded, scale: scale)
      #expect(withFill.pixels == plain.pixels, "\(scale)")
    }
    var missing = bytes
    missing.removeSubrange(markers[0]..<(markers[0] + 2))
    #expect(throws: ImageDecodingError.corrupt("expected a restart marker")) {
      try JPEGDecoder.decode(missing)
    }
  }

  @Test func absurdDimensionsAreRefusedBeforeAllocating() throws {
    var bytes = JPEGFixture.bytes("g-444-64x48.jpg")
    // Find SOF0 and declare 65535×65535.
    let sof = try #require(Self.offsets(of: 0xC0, in: bytes).first)
    bytes[sof + 5] = 0xFF
    bytes[sof + 6] = 0xFF
    bytes[sof + 7] = 0xFF
    bytes[sof + 8] = 0xFF
    let start = ContinuousClock.now
    #expect(throws: ImageDecodingError.tooLarge(width: 65535, height: 65535)) {
      try JPEGDecoder.decode(bytes)
    }
    // Filling 12 GB would take many seconds; refusing takes microseconds (a second leaves
    // room for a busy machine).
    #expect(ContinuousClock.now - start < Duration.seconds(1).scaled)
  }

  @Test func wrongSegmentLengthsAndBrokenTablesAreErrors() throws {
    let original = JPEGFixture.bytes("g-420-64x48.jpg")
    var longSegment = original
    let dqt = try #require(
      Self.offsets(of: 0xDB, in: original).first)
    longSegment[dqt + 2] = 0xFF
    #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(longSegment) }
    var brokenHuffman = original
    let dht = try #require(
      Self.offsets(of: 0xC4, in: original).first)
    for offset in 5..<21 { brokenHuffman[dht + offset] = 0xFF }  // impossible code-length counts
    #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(brokenHuffman) }
  }

  @Test func structuralFaultsAreNamedErrors() throws {
    let original = JPEGFixture.bytes("g-420-64x48.jpg")
    func marker(_ code: UInt8, in bytes: [UInt8]) throws -> Int {
      try #require(Self.offsets(of: code, in: bytes).first)
    }
    let sof = try marker(0xC0, in: original)
    let sofEnd = sof + 2 + (Int(original[sof + 2]) << 8 | Int(original[sof + 3]))
    #expect(original[sof + 9] == 3)  // three components

    var twoFrames = original
    twoFrames.insert(contentsOf: original[sof..<sofEnd], at: sofEnd)
    #expect(throws: ImageDecodingError.corrupt("two frames")) { try JPEGDecoder.decode(twoFrames) }

    var noFrame = original
    noFrame.removeSubrange(sof..<sofEnd)
    #expect(throws: ImageDecodingError.corrupt("scan before frame")) { try JPEGDecoder.decode(noFrame) }

    // The frame's length leaves room for one component of the three it declares.
    var shortFrame = original
    shortFrame.replaceSubrange((sof + 2)...(sof + 3), with: [0, 11])
    #expect(throws: ImageDecodingError.corrupt("short frame header")) { try JPEGDecoder.decode(shortFrame) }

    var badTableID = original
    let dqt = try marker(0xDB, in: original)
    badTableID[dqt + 4] = 0x05  // 8-bit precision, table 5 of 0...3
    #expect(throws: ImageDecodingError.corrupt("bad quantization table")) {
      try JPEGDecoder.decode(badTableID)
    }

    // Tables and frame, then the end: no scan at all.
    let sos = try marker(0xDA, in: original)
    let noScan = Array(original[..<sos]) + [0xFF, 0xD9]
    #expect(throws: ImageDecodingError.truncated) { try JPEGDecoder.decode(noScan) }

    // A progressive AC scan (Ss > 0) must name one component; this one names three.
    var progressive = JPEGFixture.bytes("g-progressive-420-64x48.jpg")
    let firstScan = try marker(0xDA, in: progressive)
    #expect(progressive[firstScan + 4] == 3)
    progressive[firstScan + 11] = 1  // Ss
    progressive[firstScan + 12] = 63  // Se
    #expect(throws: ImageDecodingError.corrupt("bad progressive scan")) {
      try JPEGDecoder.decode(progressive)
    }
  }

  /// Every check of the markers, the frame, the tables and the scan header, each met by
  /// one edit of a baseline file (4:2:0, one table per DHT segment) and named.
  @Test func everyHeaderFaultIsANamedError() throws {
    let original = JPEGFixture.bytes("g-420-64x48.jpg")
    func marker(_ code: UInt8, _ nth: Int = 0, in bytes: [UInt8] = original) throws -> Int {
      try #require(Self.offsets(of: code, in: bytes).dropFirst(nth).first)
    }
    let (sof, dqt, sos) = (try marker(0xC0), try marker(0xDB), try marker(0xDA))
    let (dcTable, acTable) = (try marker(0xC4, 0), try marker(0xC4, 1))
    #expect(original[dcTable + 4] == 0x00 && original[acTable + 4] == 0x10)
    let dcSymbols = (original[(dcTable + 5)..<(dcTable + 21)].reduce(0) { $0 + Int($1) })
    #expect(dcSymbols == 12)
    func edited(_ edits: [(Int, [UInt8])]) -> [UInt8] {
      var bytes = original
      for (at, values) in edits { bytes.replaceSubrange(at..<at + values.count, with: values) }
      return bytes
    }
    let cases: [([(Int, [UInt8])], ImageDecodingError)] = [
      // Markers and segments.
      ([(dqt + 2, [0, 1])], .corrupt("bad segment length")),
      // Frame: precision, size, components, sampling (h, v 1…4; tables 0…3).
      ([(sof + 4, [12])], .unsupportedFeature("12-bit JPEG")),
      ([(sof + 5, [0, 0])], .corrupt("zero size")),
      ([(sof + 9, [2])], .corrupt("2 components")),
      ([(sof + 11, [0x52])], .corrupt("bad sampling factors")),
      ([(sof + 11, [0x25])], .corrupt("bad sampling factors")),
      ([(sof + 11, [0x02])], .corrupt("bad sampling factors")),
      ([(sof + 11, [0x20])], .corrupt("bad sampling factors")),
      ([(sof + 12, [4])], .corrupt("bad sampling factors")),
      ([(sof + 11, [0x32]), (sof + 14, [0x21])], .unsupportedFeature("JPEG with fractional sampling")),
      // Huffman tables: class 0 or 1, id 0…3; as long as their counts say; codes that fit.
      ([(dcTable + 4, [0x20])], .corrupt("bad Huffman table id")),
      ([(dcTable + 4, [0x04])], .corrupt("bad Huffman table id")),
      ([(dcTable + 2, [0, 12])], .corrupt("short Huffman table")),
      ([(dcTable + 20, [0xFF])], .corrupt("short Huffman table")),
      (
        // Three codes of one bit, where there are two.
        [(dcTable + 5, [3] + [UInt8](repeating: 0, count: 14) + [UInt8(dcSymbols - 3)])],
        .corrupt("bad Huffman table")
      ),
      // Scan header: its length, 1…4 components of the frame's, each once; tables defined.
      ([(sos + 2, [0, 2])], .corrupt("short scan header")),
      ([(sos + 4, [0])], .corrupt("bad scan header")),
      ([(sos + 4, [4])], .corrupt("bad scan header")),
      ([(sos + 5, [9])], .corrupt("scan names an unknown component")),
      ([(sos + 7, [original[sos + 5]])], .corrupt("scan names an unknown component")),
      ([(sos + 6, [0x33])], .corrupt("missing DC Huffman table")),
      ([(sos + 6, [0x03])], .corrupt("missing AC Huffman table")),
      // Data: every DC code of 16 bits (the data's codes are not among them); DC sizes past
      // 16. (A baseline block's AC run past the 64th coefficient is dropped, as libjpeg
      // drops it; a progressive one's is an error, below.)
      (
        [(dcTable + 5, [UInt8](repeating: 0, count: 15) + [UInt8(dcSymbols)])], .corrupt("bad Huffman code")
      ),
      ([(dcTable + 21, [UInt8](repeating: 17, count: dcSymbols))], .corrupt("bad coefficient size")),
    ]
    for (edits, error) in cases {
      #expect(throws: error, "\(edits)") { try JPEGDecoder.decode(edited(edits)) }
    }
    // A table segment too short for a table's counts, at the very end of the file.
    #expect(throws: ImageDecodingError.corrupt("short Huffman table")) {
      try JPEGDecoder.decode(
        Array(original[..<sos]) + [0xFF, 0xC4, 0, 12] + [UInt8](repeating: 0, count: 10))
    }
    // Something other than a marker where one belongs.
    #expect(throws: ImageDecodingError.corrupt("expected a marker")) {
      var bytes = original
      bytes.insert(0, at: dqt)
      return try JPEGDecoder.decode(bytes)
    }

    // Progressive AC scans of one component: a first scan's runs of 15 zeros and a
    // coefficient (0xF1) run past the 64th; a refinement scan's new coefficients are ±1,
    // so size 2 is none. Each time the symbols of the table defined just before the scan.
    let progressive = JPEGFixture.bytes("g-progressive-420-64x48.jpg")
    for (refines, symbol, error) in [
      (false, UInt8(0xF1), ImageDecodingError.corrupt("coefficient index past the block")),
      (true, 0x02, .corrupt("bad refinement coefficient")),
    ] {
      // SOS, Ns (+4) 1, Ss (+7) 1, Se (+8) 63, Ah (+9, high half) 0 or not.
      func isScan(_ at: Int) -> Bool {
        guard progressive[at] == 0xFF, progressive[at + 1] == 0xDA, progressive[at + 4] == 1 else {
          return false
        }
        return progressive[at + 7] == 1 && progressive[at + 8] == 63
          && (progressive[at + 9] >> 4 > 0) == refines
      }
      let scan = try #require((0..<(progressive.count - 10)).first(where: isScan))
      let table = try #require((0..<scan).last { progressive[$0] == 0xFF && progressive[$0 + 1] == 0xC4 })
      let count = progressive[(table + 5)..<(table + 21)].reduce(0) { $0 + Int($1) }
      var bytes = progressive
      bytes.replaceSubrange(
        (table + 21)..<(table + 21 + count), with: [UInt8](repeating: symbol, count: count))
      #expect(throws: error) { try JPEGDecoder.decode(bytes) }
    }
  }

  @Test func randomCorruptionNeverCrashes() {
    var generator = SystemRandomNumberGenerator()
    let sources = ["g-progressive-420-64x48.jpg", "g-restart-420-64x48.jpg", "g-420-odd-17x9.jpg"].map(
      JPEGFixture.bytes)
    for round in 0..<600 {
      var bytes = sources[round % sources.count]
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(
          in: 0...255, using: &generator)
      }
      if let image = try? JPEGDecoder.decode(bytes) {
        #expect(image.pixels.count == image.width * image.height * 3)
      }
    }
  }
}
