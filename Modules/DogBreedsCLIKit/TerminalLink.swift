/// Where the terminal is: on this machine, or at the far end of a network link, as the
/// environment says (an SSH server sets `SSH_CONNECTION`, `SSH_CLIENT` and `SSH_TTY` for the
/// session it starts).
///
/// A terminal far away is waited for longer when asked a question (a round trip can take
/// hundreds of milliseconds, and an answer that comes after `show` has gone is typed into
/// the shell), and is sent kitty pictures compressed: bytes cross a network link more
/// slowly than they are compressed, while a terminal on this machine takes them faster
/// than a photograph's pixels compress (Docs/Performance.md has the figures).
enum TerminalLink: Equatable {
  case local
  case remote

  /// ``remote`` where any of the variables an SSH server sets is set, else ``local``.
  static func of(environment: [String: String]) -> TerminalLink {
    let ssh = ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"].contains { !(environment[$0] ?? "").isEmpty }
    return ssh ? .remote : .local
  }

  /// How long to wait for the terminal's answers.
  var patience: TerminalProbe.Patience {
    switch self {
    case .local: .local
    case .remote: .remote
    }
  }

  /// Whether kitty pictures are sent as a zlib stream (`o=z`).
  var compressesPictures: Bool { self == .remote }
}
