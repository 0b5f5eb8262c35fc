/// The frames of a loading spinner.
public enum Spinner {
  static let unicodeFrames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
  static let asciiFrames = Array("|/-\\")

  /// Frame `index` (any integer) of the spinner.
  public static func frame(_ index: Int, unicode: Bool) -> String {
    let frames = unicode ? unicodeFrames : asciiFrames
    return String(frames[frames.index(0, cyclingBy: index)])
  }
}
