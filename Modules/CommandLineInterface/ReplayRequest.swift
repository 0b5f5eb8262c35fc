/// What `replay` was asked to do.
package enum ReplayRequest: Equatable {
  /// Step through the session full screen.
  case view
  /// Replay it headless and compare every state with the recording's.
  case check
  /// Print one step's frame: its number (0 is before the first action), or `nil` for the last.
  case frame(Int?)
  /// Write the session as an asciicast to this path.
  case cast(String)
  /// Write the session as a test, with the log it reads, into this folder.
  case test(String)
}
