import Core
import ImageDecoding

extension BreedFeature {
  /// Whether the Breed screen plays animated pictures.
  public enum Motion: Equatable, Sendable {
    /// Every picture stays still: an animated GIF shows its first frame. For pictures drawn
    /// where frames cannot be drawn over each other cheaply (ASCII, a terminal's own
    /// graphics) or where the user asked for stillness (`--loops 0`).
    case still
    /// Animated GIFs play, `times` times, or, where `times` is `nil`, as many times as the
    /// file says (one that loops for ever, for as long as it is on screen, as browsers
    /// play it).
    case plays(times: Int?)
  }

  /// An animated picture on screen: its frames, the one shown, and where its playing
  /// stands.
  ///
  /// Each frame stays its delay (the decoder's: 0 or 10 ms are taken as 100 ms, as
  /// browsers do), then the next shows; after the last comes the first while plays are
  /// left, and the last stays once none is.
  public struct Playback: Equatable, Sendable {
    /// The frames, and how many times they play.
    public var animation: Animation
    /// The index of the frame shown.
    public var frame: Int
    /// How many times the frames have played through before the play under way.
    public var played: Int
    /// Whether something covers the picture (the keys overlay, an alert): the frame shown
    /// stays until it is uncovered.
    public var isCovered: Bool

    /// Starts playing `animation` at its first frame.
    ///
    /// - Parameters:
    ///   - animation: The frames and how many times they play.
    ///   - frame: The frame shown.
    ///   - played: How many times the frames have played through already.
    ///   - isCovered: Whether something covers the picture.
    public init(animation: Animation, frame: Int = 0, played: Int = 0, isCovered: Bool = false) {
      self.animation = animation
      self.frame = frame
      self.played = played
      self.isCovered = isCovered
    }

    /// The frame shown.
    public var image: RGBImage { animation.frames[frame].image }

    /// Whether nothing more is to come: the last frame of the last play shows.
    public var isOver: Bool {
      guard frame == animation.frames.count - 1 else { return false }
      switch animation.plays {
      case .forever: return false
      case .times(let times): return played + 1 >= times
      }
    }

    /// The next frame (the first again after the last), unless it is over.
    public mutating func advance() {
      guard !isOver else { return }
      if frame + 1 < animation.frames.count {
        frame += 1
      } else {
        frame = 0
        // (An animation that plays for ever counts no further than this: nothing reads it.)
        if case .times = animation.plays { played += 1 }
      }
    }
  }

  /// Decodes every frame of `picture`, when the screen plays animations and the picture is
  /// a GIF that has more than one, and sends them; otherwise stops the animation on screen,
  /// if any.
  func animate(_ picture: RGBImage) -> Effect<Action> {
    guard case .plays(let times) = motion, let source = picture.source,
      ImageFormat(sniffing: source.bytes) == .gif
    else { return .cancel(id: CancelID.animation) }
    return .run { send in
      // Off the main actor, after the first frame is on screen (decoding every frame of a
      // large GIF takes a while): the same file, fitted to the same size.
      guard var animation = try? GIFDecoder.decodeAnimation(source.bytes, fitting: source.fitting),
        animation.frames.count > 1
      else { return }
      if let times { animation.plays = .times(times) }
      await send(.animationDecoded(animation))
    }
    .cancellable(id: CancelID.animation, cancelInFlight: true)
  }

  /// Waits for the frame shown to stay its delay, on the feature's clock, then says so;
  /// nothing while it is covered or over.
  func waitForNextFrame(_ playback: Playback) -> Effect<Action> {
    guard !playback.isCovered, !playback.isOver else { return .cancel(id: CancelID.animation) }
    let delay = playback.animation.frames[playback.frame].delay
    return .run { [clock] send in
      try await clock.sleep(for: delay)
      await send(.frameDelayElapsed)
    }
    .cancellable(id: CancelID.animation, cancelInFlight: true)
  }
}
