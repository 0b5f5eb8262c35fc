import Foundation
import ImageDecoding
import TestSupport
import Testing

extension PictureSuites {
  struct JPEGFuzzRegressionTests {
    /// Found by `make fuzz-jpeg`: a 2.7 KB file declaring a large picture whose data ends at
    /// once took seconds (decoding millions of empty blocks). It must fail fast.
    @Test func aTinyFileDeclaringAHugePictureFailsFast() {
      let bytes = FixtureFolder.fuzzFindings("jpeg").bytes("timeout-huge-declared.bin")
      #expect(bytes.count > 0)
      let start = ContinuousClock.now
      for scale in [JPEGDecoder.Scale.full, .eighth] {
        #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(bytes, scale: scale) }
      }
      #expect(ContinuousClock.now - start < Duration.seconds(1).scaled)
    }

    /// Found by `make fuzz-jpeg`: a fractional sampling ratio (3:2) made a smaller plane be
    /// read as full size (index out of range). Refused now, as libjpeg refuses it.
    @Test func fractionalSamplingIsRefusedNotCrashedOn() {
      let bytes = FixtureFolder.fuzzFindings("jpeg").bytes("crash-1.bin")
      #expect(bytes.count > 0)
      for scale in JPEGDecoder.Scale.allCases {
        #expect(throws: ImageDecodingError.self) { try JPEGDecoder.decode(bytes, scale: scale) }
      }
    }

    /// A fuzz input decoded at every scale ends in an error or in a whole picture (the
    /// crashes themselves are what the sanitizer runs would catch).
    static func expectCleanResultOrErrorAtEveryScale(_ bytes: [UInt8]) {
      #expect(bytes.count > 0)
      for scale in JPEGDecoder.Scale.allCases {
        if let image = try? JPEGDecoder.decode(bytes, scale: scale) {
          #expect(image.pixels.count == image.width * image.height * 3)
        }
      }
    }

    /// Found by `make fuzz-jpeg`: luma sampled 3×2 against 1×1 chroma. At 1/2 the chroma
    /// transform was doubled to 8×8, which needs 1.5× upsampling; the ratio was truncated to
    /// 1 and the fused colour conversion read past the chroma plane (a heap overflow under
    /// ASan). libjpeg doubles only while the ratio stays whole, and so do we now.
    @Test func threeToOneSamplingDecodesAtEveryScale() throws {
      let bytes = FixtureFolder.fuzzFindings("jpeg").bytes("crash-2.bin")
      // The file is damaged further on; what matters is a clean result or a clean error.
      Self.expectCleanResultOrErrorAtEveryScale(bytes)
      #expect(try JPEGDecoder.size(of: bytes) == (64, 48))
    }

    /// Found by `make fuzz-jpeg`: a one-component baseline frame declaring 2×2 sampling.
    /// Its scan is not interleaved (one block per MCU), but it was streamed as if its MCU
    /// rows were two blocks high, writing past the plane (a heap overflow under ASan).
    @Test func aSampledSingleComponentFrameIsNotStreamedAsInterleaved() throws {
      Self.expectCleanResultOrErrorAtEveryScale(FixtureFolder.fuzzFindings("jpeg").bytes("crash-3.bin"))
      // The same layout, valid (`cjpeg -grayscale -sample 2x2`), decodes like libjpeg.
      #expect(
        try JPEGDecoderTests.compareWithEveryScaledReference("g-gray-sampled-2x2-21x13", tolerance: 1) == 4)
    }

    /// A valid file with 3×2 luma sampling (made with `cjpeg -sample 3x2,1x1,1x1`) decodes
    /// like libjpeg at every scale: chroma is upsampled 3× horizontally, 2× vertically.
    @Test func threeByTwoSamplingMatchesLibjpegAtEveryScale() throws {
      #expect(try JPEGDecoderTests.compareWithEveryScaledReference("g-sampling-3x2-50x34", tolerance: 1) == 4)
    }
  }
}
