/// One frame of an animated picture: the whole canvas as it shows then, and how long it
/// stays before the next.
public struct AnimationFrame: Hashable, Sendable {
  /// The canvas with this frame drawn on it.
  public var image: RGBImage
  /// How long the frame stays on screen.
  public var delay: Duration

  /// Creates a frame.
  public init(image: RGBImage, delay: Duration) {
    self.image = image
    self.delay = delay
  }
}

/// An animated picture's frames, in order, and how many times they play.
public struct Animation: Hashable, Sendable {
  /// How many times an animation plays its frames.
  public enum Plays: Hashable, Sendable {
    /// This many times (1: once, with no repeat).
    case times(Int)
    /// Over and over, until the viewer stops it.
    case forever
  }

  /// How much decoding an animation may take: past either limit it stops, keeping the
  /// frames before (never fewer than the first).
  public struct Limits: Hashable, Sendable {
    /// The most frames kept.
    public var frames: Int
    /// The most bytes decoded across the frames: each frame's canvas in RGB (3 bytes a
    /// pixel) and its own rectangle's colour indices (1 byte a pixel).
    public var bytes: Int

    /// Creates limits.
    public init(frames: Int, bytes: Int) {
      self.frames = frames
      self.bytes = bytes
    }

    /// 1,000 frames and 256 MiB: a minute of a lively animation at a common size, decoded
    /// in about a second.
    public static let `default` = Limits(frames: 1_000, bytes: 256 << 20)
  }

  /// The frames, each drawn over the ones before as the file says; at least one.
  public var frames: [AnimationFrame]
  /// How many times the frames play.
  public var plays: Plays
  /// Whether every frame of the file is here: `false` where the limits, or damage after
  /// the first frame, cut the animation short (the frames before are kept).
  public var isComplete: Bool

  /// Creates an animation.
  public init(frames: [AnimationFrame], plays: Plays, isComplete: Bool = true) {
    self.frames = frames
    self.plays = plays
    self.isComplete = isComplete
  }
}
