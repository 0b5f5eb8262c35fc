import ImageDecoding

/// When each frame of an animation is drawn, after the first (drawn at the start): one
/// after the other, each when the one before has stayed its delay, `plays` times over
/// the frames, and none due after `limit`.
struct PlaybackSchedule: Sequence, IteratorProtocol {
  /// How long each frame stays.
  let delays: [Duration]
  /// How many times the frames play.
  let plays: Int
  /// The latest a frame may be due, from the start; `nil`: no limit.
  let limit: Duration?
  private var frame = 0
  private var play = 0
  private var due: Duration = .zero

  init(delays: [Duration], plays: Int, limit: Duration?) {
    self.delays = delays
    self.plays = plays
    self.limit = limit
  }

  /// How many times an animation plays in `show`: `asked` (`--loops`) where given, else
  /// as the file says, but ``foreverPlays`` times for one that loops for ever.
  static func plays(_ file: Animation.Plays, asked: Int?) -> Int {
    if let asked { return asked }
    switch file {
    case .times(let count): return count
    case .forever: return foreverPlays
    }
  }

  /// How many times `show` plays an animation that loops for ever, unless told.
  static let foreverPlays = 3
  /// How long `show` plays an animation at most, unless told how many times to play it.
  static let defaultLimit: Duration = .seconds(10)

  /// The next frame to draw and when it is due, from the start; `nil` once the last has been.
  mutating func next() -> (frame: Int, due: Duration)? {
    guard !delays.isEmpty else { return nil }
    due += delays[frame]
    frame += 1
    if frame == delays.count {
      frame = 0
      play += 1
    }
    guard play < plays, limit.map({ due <= $0 }) ?? true else { return nil }
    return (frame, due)
  }
}
