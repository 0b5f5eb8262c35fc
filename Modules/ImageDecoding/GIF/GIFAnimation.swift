extension GIFDecoder {
  /// Decodes every frame of a GIF, each composited on the canvas as the format says, and
  /// reduced as ``decode(_:fitting:)`` reduces the first; a still GIF is one frame.
  ///
  /// - Each frame is drawn over the canvas as the one before left it, at its own place
  ///   and size (the parts off the canvas are left out); its transparent colour leaves
  ///   what is under it.
  /// - After a frame is shown, its disposal method says what becomes of its area: left as
  ///   it is (methods 0 and 1, and the undefined 4–7), cleared to the background (2: black,
  ///   as browsers clear it to transparent), or restored to what it was before the frame
  ///   was drawn (3).
  /// - A frame stays its graphic control extension's delay; 0 or 1 hundredth of a second
  ///   (or no extension) is taken as 10 hundredths, as browsers do.
  /// - The NETSCAPE2.0 extension's loop count says how many times the frames play: 0 for
  ///   ever, `n` for `n + 1` times (the first and `n` repeats, as browsers count); without
  ///   it, once.
  /// - Decoding stops at `limits` (and at damage after the first frame, as browsers show
  ///   what they could read), keeping the frames before: ``Animation/isComplete`` says so.
  ///   The first frame is always decoded, or its error thrown, as ``decode(_:)`` does.
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - target: About the pixels the frames will be shown at; `nil` for full size.
  ///   - limits: How much may be decoded.
  /// - Returns: The frames and how many times they play.
  /// - Throws: ``ImageDecodingError`` where the first frame cannot be decoded.
  public static func decodeAnimation(
    _ bytes: [UInt8], fitting target: (width: Int, height: Int)? = nil, limits: Animation.Limits = .default
  ) throws(ImageDecodingError) -> Animation {
    var reader = GIFReader(bytes)
    let screen = try reader.screen()
    var canvas = GIFCanvas(width: screen.width, height: screen.height)
    var frames: [AnimationFrame] = []
    var spent = 0
    var isComplete = true
    // What the frame shown last asks to be done with its area before the next is drawn.
    var disposal: (method: Int, area: (x: Range<Int>, y: Range<Int>), saved: [UInt8])?
    while true {
      let image: GIFImage
      let indices: [UInt8]
      do throws(ImageDecodingError) {
        guard let next = try reader.nextImage() else {
          if frames.isEmpty { throw .corrupt("GIF without an image") }
          break
        }
        let cost = screen.width * screen.height * 3 + next.width * next.height
        guard frames.isEmpty || (frames.count < limits.frames && spent + cost <= limits.bytes) else {
          isComplete = false
          break
        }
        spent += cost
        image = next
        indices = try reader.indices(of: next)
      } catch {
        guard !frames.isEmpty else { throw error }
        isComplete = false
        break
      }
      if let disposal {
        switch disposal.method {
        case 2: canvas.clear(disposal.area)
        case 3: canvas.paste(disposal.saved, in: disposal.area)
        default: break
        }
      }
      let area = canvas.area(of: image)
      disposal = (image.disposal, area, image.disposal == 3 ? canvas.copy(area) : [])
      canvas.draw(image, indices: indices)
      let shown = target.map { canvas.image.reduced(fitting: $0) } ?? canvas.image
      frames.append(AnimationFrame(image: shown, delay: .milliseconds(10 * Self.delay(image.delay))))
    }
    let plays: Animation.Plays =
      switch reader.loopCount {
      case nil: .times(1)
      case 0?: .forever
      case let count?: .times(count + 1)
      }
    var animation = Animation(frames: frames, plays: plays, isComplete: isComplete)
    animation.source = Animation.Source(bytes: bytes, fitting: target, limits: limits)
    return animation
  }

  /// Decodes every frame of a GIF with its delay: ``decodeAnimation(_:fitting:limits:)``'s
  /// frames.
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - target: About the pixels the frames will be shown at; `nil` for full size.
  /// - Returns: At least one frame.
  /// - Throws: ``ImageDecodingError`` where the first frame cannot be decoded.
  public static func decodeFrames(_ bytes: [UInt8], fitting target: (width: Int, height: Int)? = nil)
    throws(ImageDecodingError) -> [AnimationFrame]
  {
    try decodeAnimation(bytes, fitting: target).frames
  }

  /// A frame's delay in hundredths of a second as shown: the file's, but 10 for 0 or 1
  /// (which browsers take as "as fast as you can", and slow down to 10).
  static func delay(_ declared: Int) -> Int { declared <= 1 ? 10 : declared }
}
