import ImageDecoding
import TestSupport
import Testing

extension PictureSuites {
  /// Every frame of an animated GIF, composited as the format says, with its delay and the
  /// loop count; on GIFs written here byte by byte, a few pixels each, so that every pixel
  /// of every frame is known.
  struct GIFAnimationTests {
    /// The colours of the GIFs below, by index: 0 black, 1 red, 2 green, 3 blue.
    static let (k, r, g, b): (UInt8, UInt8, UInt8, UInt8) = (0, 1, 2, 3)
    static let rgb: [[UInt8]] = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]]

    /// A frame's pixels as colour indices, read back from RGB (one per pixel).
    static func indices(_ image: RGBImage) -> [UInt8] {
      stride(from: 0, to: image.pixels.count, by: 3).map { offset in
        UInt8(rgb.firstIndex(of: Array(image.pixels[offset..<offset + 3])) ?? 9)
      }
    }

    @Test func aStillGIFIsOneFramePlayedOnce() throws {
      let bytes = GIFFixture.bytes("photo-64x48.gif")
      let animation = try GIFDecoder.decodeAnimation(bytes)
      #expect(animation.frames.count == 1 && animation.plays == .times(1) && animation.isComplete)
      #expect(animation.frames.first?.image == (try GIFDecoder.decode(bytes)))
      #expect(animation.frames.first?.delay == .milliseconds(100))
    }

    /// Pillow's two frames of 100 ms and no loop count: once.
    @Test func theAnimatedFixtureGivesBothFramesFittedAsTheFirstIs() throws {
      let bytes = GIFFixture.bytes("animated-48x36.gif")
      let animation = try GIFDecoder.decodeAnimation(bytes)
      #expect(animation.frames.count == 2 && animation.plays == .times(1) && animation.isComplete)
      #expect(animation.frames.map(\.delay) == [.milliseconds(100), .milliseconds(100)])
      #expect(animation.frames[0].image == (try GIFDecoder.decode(bytes)))
      #expect(animation.frames[0].image != animation.frames[1].image)
      // Fitted: each frame reduced as the first frame alone is.
      let fitted = try GIFDecoder.decodeFrames(bytes, fitting: (12, 9))
      let first = try GIFDecoder.decode(bytes, fitting: (12, 9))
      #expect(fitted.count == 2 && fitted[0].image == first)
      #expect(fitted.allSatisfy { $0.image.width == 12 && $0.image.height == 9 && $0.image.isReduced })
    }

    /// Disposal 0 and 1 leave each frame where it is: the next is drawn over it.
    @Test(arguments: [0, 1, 4, 7])
    func framesThatAreLeftStayUnderTheNext(disposal: Int) throws {
      var gif = GIFWriter(width: 4, height: 3, colors: Self.rgb)
      gif.frame([UInt8](repeating: Self.r, count: 12), disposal: disposal)
      gif.frame([Self.g, Self.g], left: 1, top: 1, width: 2, height: 1, disposal: disposal)
      gif.frame([Self.b], left: 3, top: 2, width: 1, height: 1)
      let frames = try GIFDecoder.decodeFrames(gif.file)
      #expect(
        frames.map { Self.indices($0.image) } == [
          [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
          [1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1],
          [1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 3],
        ])
    }

    /// Disposal 2 clears the frame's area to the background (black: transparent, as a
    /// browser clears it) before the next frame, and nothing else.
    @Test func restoringToTheBackgroundClearsTheFramesAreaOnly() throws {
      var gif = GIFWriter(width: 4, height: 3, colors: Self.rgb)
      gif.frame([UInt8](repeating: Self.r, count: 12))
      gif.frame([Self.g, Self.g, Self.g, Self.g], left: 1, top: 0, width: 2, height: 2, disposal: 2)
      gif.frame([Self.b], left: 0, top: 2, width: 1, height: 1, disposal: 2)
      gif.frame([Self.g], left: 3, top: 2, width: 1, height: 1)
      let frames = try GIFDecoder.decodeFrames(gif.file)
      #expect(
        frames.map { Self.indices($0.image) } == [
          [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
          [1, 2, 2, 1, 1, 2, 2, 1, 1, 1, 1, 1],
          [1, 0, 0, 1, 1, 0, 0, 1, 3, 1, 1, 1],
          [1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 2],
        ])
    }

    /// Disposal 3 puts back what the frame's area held before it was drawn (a first frame's:
    /// the empty canvas), whatever frames were disposed of before.
    @Test func restoringToThePreviousPutsBackWhatWasUnder() throws {
      var gif = GIFWriter(width: 4, height: 3, colors: Self.rgb)
      gif.frame([Self.b, Self.b], left: 0, top: 0, width: 2, height: 1, disposal: 3)
      gif.frame([UInt8](repeating: Self.r, count: 8), left: 0, top: 1, width: 4, height: 2)
      gif.frame([Self.g, Self.g, Self.g, Self.g], left: 1, top: 1, width: 2, height: 2, disposal: 3)
      gif.frame([Self.b], left: 3, top: 0, width: 1, height: 1, disposal: 3)
      gif.frame([Self.g], left: 0, top: 0, width: 1, height: 1)
      let frames = try GIFDecoder.decodeFrames(gif.file)
      #expect(
        frames.map { Self.indices($0.image) } == [
          [3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
          [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1],
          [0, 0, 0, 0, 1, 2, 2, 1, 1, 2, 2, 1],
          [0, 0, 0, 3, 1, 1, 1, 1, 1, 1, 1, 1],
          [2, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1],
        ])
    }

    /// A frame's transparent colour leaves what is under it; the colour is the frame's own
    /// (its graphic control extension's), not the next frame's.
    @Test func transparentPixelsShowTheFramesBefore() throws {
      var gif = GIFWriter(width: 3, height: 2, colors: Self.rgb)
      gif.frame([Self.r, Self.g, Self.b, Self.b, Self.g, Self.r])
      gif.frame([Self.k, Self.k, Self.g, Self.k, Self.k, Self.k], transparent: Self.k)
      gif.frame([Self.k, Self.b, Self.k, Self.k, Self.k, Self.k], transparent: Self.b)
      gif.frame([Self.k, Self.b, Self.k, Self.k, Self.k, Self.k], control: false)
      let frames = try GIFDecoder.decodeFrames(gif.file)
      #expect(
        frames.map { Self.indices($0.image) } == [
          [1, 2, 3, 3, 2, 1],
          [1, 2, 2, 3, 2, 1],
          [0, 2, 0, 0, 0, 0],
          [0, 3, 0, 0, 0, 0],
        ])
    }

    /// A frame placed partly off the canvas is drawn, and disposed of, where it is on it;
    /// one wholly off it changes nothing; a local colour table is the frame's own.
    @Test func framesAreDrawnAtTheirOffsetsWithinTheCanvas() throws {
      var gif = GIFWriter(width: 4, height: 3, colors: Self.rgb)
      gif.frame([UInt8](repeating: Self.r, count: 12))
      gif.frame([UInt8](repeating: Self.g, count: 9), left: 2, top: 1, width: 3, height: 3, disposal: 2)
      gif.frame([UInt8](repeating: Self.b, count: 4), left: 4, top: 0, width: 2, height: 2)
      // Index 1 of this frame's own table is white.
      gif.frame([Self.r], left: 0, top: 0, width: 1, height: 1, localColors: [[9, 9, 9], [255, 255, 255]])
      let frames = try GIFDecoder.decodeFrames(gif.file)
      #expect(
        frames.prefix(3).map { Self.indices($0.image) } == [
          [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
          [1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2],
          [1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0],
        ])
      #expect(Array(frames[3].image.pixels.prefix(6)) == [255, 255, 255, 255, 0, 0])
    }

    /// Interlaced frames in an animation are placed row by row as a still one's are.
    @Test func anInterlacedFrameIsDrawnInPictureOrder() throws {
      var gif = GIFWriter(width: 1, height: 5, colors: Self.rgb)
      gif.frame([Self.k, Self.k, Self.k, Self.k, Self.k])
      // Stored rows: 0, 4 (pass 2), 2 (pass 3), 1, 3 (pass 4).
      gif.frame([Self.r, Self.b, Self.g, Self.r, Self.b], interlaced: true)
      let frames = try GIFDecoder.decodeFrames(gif.file)
      #expect(Self.indices(frames[1].image) == [1, 1, 2, 3, 3])
    }

    /// Hundredths of a second, as written; 0 and 1 (and no graphic control extension) are
    /// 10, as browsers take them.
    @Test func delaysAreTheFilesButNeverUnderTwoHundredths() throws {
      var gif = GIFWriter(width: 1, height: 1, colors: Self.rgb)
      for delay in [0, 1, 2, 7, 10, 150, 65_535] { gif.frame([Self.r], delay: delay) }
      gif.frame([Self.r], control: false)
      let frames = try GIFDecoder.decodeFrames(gif.file)
      #expect(frames.map(\.delay) == [100, 100, 20, 70, 100, 1_500, 655_350, 100].map { .milliseconds($0) })
    }

    /// NETSCAPE2.0's loop count, as browsers count it: 0 for ever, `n` for `n + 1` plays;
    /// without it, once. ANIMEXTS1.0 is the same extension under another name; another
    /// application's is not it.
    @Test func theLoopCountSaysHowManyTimesTheFramesPlay() throws {
      func plays(_ application: String?, _ count: Int) throws -> Animation.Plays {
        var gif = GIFWriter(width: 1, height: 1, colors: Self.rgb)
        if let application { gif.loop(count, application: application) }
        gif.frame([Self.r])
        gif.frame([Self.g])
        return try GIFDecoder.decodeAnimation(gif.file).plays
      }
      #expect(try plays(nil, 0) == .times(1))
      #expect(try plays("NETSCAPE2.0", 0) == .forever)
      #expect(try plays("NETSCAPE2.0", 1) == .times(2))
      #expect(try plays("NETSCAPE2.0", 65_535) == .times(65_536))
      #expect(try plays("ANIMEXTS1.0", 4) == .times(5))
      #expect(try plays("XMP DataXMP", 0) == .times(1))
    }

    /// Past the limits decoding stops, keeping the frames before and saying it did; the
    /// first frame is always decoded. By default, 1,000 frames.
    @Test func decodingStopsAtTheLimits() throws {
      var gif = GIFWriter(width: 4, height: 4, colors: Self.rgb)
      for index in 0..<5 { gif.frame([UInt8](repeating: UInt8(index % 4), count: 16)) }
      let all = try GIFDecoder.decodeAnimation(gif.file)
      #expect(all.frames.count == 5 && all.isComplete)
      let three = try GIFDecoder.decodeAnimation(gif.file, limits: .init(frames: 3, bytes: .max))
      #expect(three.frames.count == 3 && !three.isComplete && three.frames == Array(all.frames.prefix(3)))
      // Each frame costs its canvas in RGB and its indices: 48 + 16 bytes.
      let twoBytes = try GIFDecoder.decodeAnimation(gif.file, limits: .init(frames: 100, bytes: 2 * 64))
      #expect(twoBytes.frames.count == 2 && !twoBytes.isComplete)
      let justOver = try GIFDecoder.decodeAnimation(gif.file, limits: .init(frames: 100, bytes: 2 * 64 - 1))
      #expect(justOver.frames.count == 1 && !justOver.isComplete)
      let none = try GIFDecoder.decodeAnimation(gif.file, limits: .init(frames: 0, bytes: 0))
      #expect(none.frames.count == 1 && !none.isComplete)

      var many = GIFWriter(width: 1, height: 1, colors: Self.rgb)
      for _ in 0..<1_001 { many.frame([Self.r], delay: 2) }
      let capped = try GIFDecoder.decodeAnimation(many.file)
      #expect(Animation.Limits.default == .init(frames: 1_000, bytes: 256 << 20))
      #expect(capped.frames.count == 1_000 && !capped.isComplete)
    }

    /// A frame's declared rectangle counts against the limit before it is decoded: a large
    /// frame on a one-pixel canvas costs what its indices would.
    @Test func aLargeFrameOnASmallCanvasCountsItsOwnPixels() throws {
      var gif = GIFWriter(width: 1, height: 1, colors: Self.rgb)
      gif.frame([Self.r])
      gif.frame([UInt8](repeating: Self.g, count: 100 * 100), width: 100, height: 100)
      let cut = try GIFDecoder.decodeAnimation(gif.file, limits: .init(frames: 10, bytes: 4 + 3 + 9_999))
      #expect(cut.frames.count == 1 && !cut.isComplete)
      let whole = try GIFDecoder.decodeAnimation(gif.file, limits: .init(frames: 10, bytes: 4 + 3 + 10_000))
      #expect(whole.frames.count == 2 && whole.isComplete && Self.indices(whole.frames[1].image) == [2])
    }

    /// Cut anywhere: an error while the first frame is incomplete, as for a still GIF; after
    /// it, the frames read so far, never a crash, and never fewer for more bytes.
    @Test func aTruncatedAnimationKeepsTheFramesReadSoFar() throws {
      var gif = GIFWriter(width: 3, height: 2, colors: Self.rgb)
      gif.loop(0)
      gif.frame([UInt8](repeating: Self.r, count: 6))
      let first = gif.file.count - 1
      gif.frame([Self.g], left: 1, top: 1, width: 1, height: 1, disposal: 3)
      gif.frame([Self.b], left: 2, top: 0, width: 1, height: 1, disposal: 2)
      let whole = try GIFDecoder.decodeAnimation(gif.file)
      #expect(whole.frames.count == 3 && whole.isComplete && whole.plays == .forever)
      var previous = 0
      for length in 0..<gif.file.count {
        let bytes = Array(gif.file.prefix(length))
        guard let animation = try? GIFDecoder.decodeAnimation(bytes) else {
          #expect(length < first, "\(length)")
          continue
        }
        #expect(!animation.isComplete && animation.frames.count >= max(1, previous), "\(length)")
        #expect(animation.frames == Array(whole.frames.prefix(animation.frames.count)), "\(length)")
        previous = animation.frames.count
      }
    }

    /// The first frame's faults are the still decoder's errors.
    @Test func aGIFWithoutAFrameIsTheSameError() {
      var gif = GIFWriter(width: 1, height: 1, colors: Self.rgb)
      gif.loop(0)
      #expect(throws: ImageDecodingError.corrupt("GIF without an image")) {
        try GIFDecoder.decodeAnimation(gif.file)
      }
      #expect(throws: ImageDecodingError.unsupportedFormat(.png)) {
        try GIFDecoder.decodeAnimation(PNGFixture.bytes("c2-8bit.png"))
      }
    }

    /// Every byte damaged in turn: an error or frames of the canvas's size, never a crash
    /// or a hang.
    @Test func damagedAnimationsAreAnErrorOrFramesNeverACrash() {
      let bytes = GIFFixture.bytes("animated-48x36.gif")
      for offset in stride(from: 6, to: bytes.count, by: 3) {
        for mask: UInt8 in [0x01, 0xFF] {
          var damaged = bytes
          damaged[offset] ^= mask
          if let animation = try? GIFDecoder.decodeAnimation(damaged, fitting: (12, 9)) {
            #expect(!animation.frames.isEmpty)
            for frame in animation.frames {
              #expect(frame.image.pixels.count == frame.image.width * frame.image.height * 3)
              #expect(frame.image.width == animation.frames[0].image.width)
            }
          }
        }
      }
    }
  }
}
