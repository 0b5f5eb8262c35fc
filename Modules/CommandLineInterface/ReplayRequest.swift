/// What `replay` was asked to do.
package enum ReplayRequest: Equatable {
  /// Step through the session full screen.
  case view
  /// Replay it headless and compare every state with the recording's.
  case check
  /// Print one step's frame.
  case frame(FrameChoice)
  /// Write the session as an asciicast to this path.
  case cast(String)
  /// Write the session as a test, with the log it reads, into this folder.
  case test(String)
}

/// Which frame `replay --frame` prints.
package enum FrameChoice: Equatable {
  /// The frame after this step (0 is before the first action).
  case step(Int)
  /// The frame after the last step.
  case last
  /// The frame where the user dropped this marker (`m1`) while recording.
  case marker(String)
}
