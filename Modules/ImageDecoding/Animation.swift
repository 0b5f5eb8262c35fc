/// One frame of an animated picture: the whole canvas as it shows then, and how long it
/// stays before the next.
public struct AnimationFrame: Hashable, Sendable, Codable {
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
  public enum Plays: Hashable, Sendable, Codable {
    /// This many times (1: once, with no repeat).
    case times(Int)
    /// Over and over, until the viewer stops it.
    case forever
  }

  /// How much decoding an animation may take: past either limit it stops, keeping the
  /// frames before (never fewer than the first).
  public struct Limits: Hashable, Sendable, Codable {
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
  /// What ``GIFDecoder/decodeAnimation(_:fitting:limits:)`` made these frames from, when
  /// it did: decoding that again gives these very frames, so a log keeps the file, a
  /// fraction of the frames' size, in their place. Not part of the animation's equality.
  public internal(set) var source: Source?

  /// An encoded animation, and how it was decoded.
  public struct Source: Sendable {
    /// The file.
    public let bytes: [UInt8]
    /// The size it was decoded to fit; `nil`: full size.
    public let fitting: (width: Int, height: Int)?
    /// How much it was allowed to decode.
    public let limits: Limits
  }

  /// Creates an animation.
  public init(frames: [AnimationFrame], plays: Plays, isComplete: Bool = true) {
    self.frames = frames
    self.plays = plays
    self.isComplete = isComplete
  }

  /// Whether two animations have the same frames, plays and completeness (wherever they
  /// came from).
  public static func == (left: Animation, right: Animation) -> Bool {
    left.frames == right.frames && left.plays == right.plays && left.isComplete == right.isComplete
  }

  /// Hashes the frames, plays and completeness.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(frames)
    hasher.combine(plays)
    hasher.combine(isComplete)
  }
}

extension Animation: CustomReflectable {
  /// Mirrors as the frames' count, size and delays, the first frame, the plays and
  /// completeness: dumps and diffs (`--trace`, a session's fingerprints) stay a few lines,
  /// and cost the hash of one frame's pixels, not of all of them.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "frames": FramesSummary(self), "first": frames.first?.image as Any, "plays": plays,
        "isComplete": isComplete,
      ],
      displayStyle: .struct)
  }
}

/// How ``Animation`` shows its frames in dumps: `3 frames of 8×6, 20 ms each`, or
/// `25 frames of 480×270, 40 to 100 ms, 2500 ms in all`.
struct FramesSummary: CustomStringConvertible, CustomReflectable {
  let description: String

  init(_ animation: Animation) {
    let size = animation.frames.first.map { "\($0.image.width)×\($0.image.height)" } ?? "nothing"
    let delays = animation.frames.map { Int(($0.delay / .milliseconds(1)).rounded()) }
    let (least, most) = (delays.min() ?? 0, delays.max() ?? 0)
    description =
      "\(delays.count) frames of \(size), "
      + (least == most ? "\(least) ms each" : "\(least) to \(most) ms, \(delays.reduce(0, +)) ms in all")
  }

  /// No children: dumps show the description.
  var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
