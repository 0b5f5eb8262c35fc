import Foundation

/// What the tmux that `show` runs inside says of itself and of the terminal outside it,
/// for the pictures tmux can carry:
/// - kitty's, which tmux passes on unread only with `allow-passthrough` on;
/// - sixel, which tmux built with sixel takes from the pane and draws in the terminal
///   outside where that terminal draws sixel (elsewhere it draws a box of `+` in the
///   picture's place). tmux lists sixel in its attributes either way, so only its client's
///   features tell the two apart.
struct TmuxClient: Equatable {
  /// The features tmux found in the terminal its client runs in (`#{client_termfeatures}`).
  var features: Set<String>
  /// Whether tmux passes a program's escape sequences on to that terminal
  /// (`allow-passthrough` on, or `all`).
  var passesThrough: Bool

  /// Whether the terminal outside tmux draws the sixel tmux hands it.
  var drawsSixel: Bool { features.contains("sixel") }

  /// The format asked for: the client's features, then the option.
  static let format = "#{client_termfeatures}|#{allow-passthrough}|"

  /// Reads tmux's answer to ``format``; `nil` for anything else.
  init?(answer: String) {
    let fields = answer.split(separator: "|", omittingEmptySubsequences: false)
    guard fields.count == 3, fields[2].allSatisfy(\.isWhitespace) else { return nil }
    features = Set(fields[0].split(separator: ",").map(String.init))
    passesThrough = fields[1] == "on" || fields[1] == "all" || fields[1] == "1"
  }

  /// Asks the tmux named by `TMUX` (`tmux display-message -p`), the `tmux` found on
  /// `PATH`: `nil` where there is none, or it fails, or it says nothing within a quarter
  /// of a second.
  static func ask(environment: [String: String]) -> TmuxClient? {
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    guard
      let tmux = folders.map({ "\($0)/tmux" }).first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tmux)
    process.arguments = ["display-message", "-p", format]
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    do { try process.run() } catch { return nil }
    guard ended.wait(timeout: .now() + .milliseconds(250)) == .success else {
      process.terminate()
      return nil
    }
    guard process.terminationStatus == 0 else { return nil }
    let answer = output.fileHandleForReading.readDataToEndOfFile()
    return TmuxClient(answer: String(decoding: answer, as: UTF8.self))
  }
}
