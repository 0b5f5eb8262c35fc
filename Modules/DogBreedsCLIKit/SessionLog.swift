import AppFeature
import Core
import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// A session as `--record` writes it and `replay` reads it: JSON Lines, one object per
/// line, each with one key saying what it is.
///
/// - `{"header": …}` first: the format and its version, the app's version, the arguments,
///   and what shapes the reducer (whether pictures were decoded, favourites kept).
/// - `{"screen": …}`: how frames were drawn from then on (the window's size, characters,
///   pictures, colours, a cell's pixels); one at the start and one for every change.
/// - `{"blob": …}`: a picture, once, before the first step that carries it (steps refer to
///   it by the hash of its bytes): the file it was decoded from, which replay decodes again
///   to the same pixels, or the pixels of one made otherwise.
/// - `{"step": …, "state": …}`: one action the app's store reduced (the action, who sent
///   it, when, in nanoseconds from the start), and the fingerprint of the state it produced.
///
/// Nothing else is written: what was typed and chosen (as actions), the server's address
/// (in the arguments and the pictures' addresses), and the favourites (as loaded and saved).
enum SessionLog {
  /// The first line's `format`.
  static let format = "DogBreeds session"
  /// The version of the format this app writes and reads.
  static let version = 1

  /// The first line.
  struct Header: Codable, Equatable {
    var format = SessionLog.format
    var version = SessionLog.version
    /// The app that wrote it (`DogBreedsCLI 0.1.0`).
    var app: String
    /// The command line, without the program's name.
    var arguments: [String]
    /// Whether the app decoded pictures (the Favourites tab then loads thumbnails).
    var pictures: Bool
    /// Whether the app kept favourites (it then saves them).
    var favourites: Bool
  }

  /// How frames were drawn.
  struct Screen: Codable, Equatable {
    var columns: Int
    var rows: Int
    var unicode: Bool
    /// A ``PictureMode``'s raw value.
    var picture: String
    /// `none`, `16`, `256` or `24bit`.
    var colour: String
    var lightBackground: Bool
    /// A cell's pixels, across and down.
    var cell: [Int]

    init(size: (columns: Int, rows: Int), style: ScreenStyle, cell: TerminalPicture.CellSize) {
      columns = size.columns
      rows = size.rows
      unicode = style.unicode
      picture = style.pictureMode.rawValue
      colour = Self.colourNames[style.colorMode] ?? "none"
      lightBackground = style.lightBackground
      self.cell = [cell.width, cell.height]
    }

    static let colourNames: [ColorMode: String] = [
      .none: "none", .ansi16: "16", .ansi256: "256", .truecolor: "24bit",
    ]

    /// The frame of `state` as the app drew it on this screen (its spinner, if one shows,
    /// at its first frame).
    func frame(of state: AppFeature.State) -> Frame {
      AppView.render(
        AppFeature.ViewState(state), width: max(1, columns), height: max(1, rows), unicode: unicode,
        pictureMode: PictureMode(rawValue: picture) ?? .none, lightBackground: lightBackground,
        cell: TerminalPicture.CellSize(width: max(1, cell.first ?? 10), height: max(1, cell.last ?? 20)),
        colorMode: colorMode)
    }

    /// The colours the frame was drawn in.
    var colorMode: ColorMode { Self.colourNames.first { $0.value == colour }?.key ?? .none }
  }

  /// One action the store reduced, and the fingerprint of the state it produced.
  struct Step: Equatable {
    var entry: RecordedAction<AppFeature.Action>
    var state: Fingerprint
  }

  /// One line of a log.
  enum Line: Equatable {
    case header(Header)
    case screen(Screen)
    case blob(RGBImage.PixelStore.Blob)
    case step(Step)
  }
}

extension SessionLog.Line: Codable {
  enum Key: String, CodingKey {
    case header, screen, blob, step, state
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    if container.contains(.header) {
      self = .header(try container.decode(SessionLog.Header.self, forKey: .header))
    } else if container.contains(.screen) {
      self = .screen(try container.decode(SessionLog.Screen.self, forKey: .screen))
    } else if container.contains(.blob) {
      self = .blob(try container.decode(RGBImage.PixelStore.Blob.self, forKey: .blob))
    } else if container.contains(.step) {
      self = .step(
        SessionLog.Step(
          entry: try container.decode(RecordedAction<AppFeature.Action>.self, forKey: .step),
          state: try container.decode(Fingerprint.self, forKey: .state)))
    } else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "a line has one of the keys header, screen, blob or step"))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case .header(let header): try container.encode(header, forKey: .header)
    case .screen(let screen): try container.encode(screen, forKey: .screen)
    case .blob(let blob): try container.encode(blob, forKey: .blob)
    case .step(let step):
      try container.encode(step.entry, forKey: .step)
      try container.encode(step.state, forKey: .state)
    }
  }
}

/// Writes a session as it happens (`--record FILE`): every line with one `write`, so a
/// crash leaves a log whole up to its last line; synced to the disk when the app ends.
@MainActor
final class SessionRecorder {
  private let fd: Int32
  let path: String
  private let encoder = JSONEncoder()
  private let pictures = RGBImage.PixelStore()
  private var lastScreen: SessionLog.Screen?
  /// Why writing stopped, if it did (a full disk, say): said when the app ends.
  private(set) var failure: String?
  /// How many steps were written.
  private(set) var steps = 0

  /// Creates (or replaces) the log at `path`, readable by its owner only (it holds what
  /// was typed), and writes the header.
  ///
  /// - Throws: ``ExitCode/Failure`` after saying why, where the file cannot be made.
  init(path: String, header: SessionLog.Header) throws(ExitCode.Failure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      Output.error(
        "Cannot write the session log \(Output.quoted(path)): \(String(cString: strerror(errno))).")
      throw ExitCode.Failure(code: ExitCode.failure)
    }
    self.fd = fd
    self.path = path
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.userInfo[RGBImage.pixelStoreKey] = pictures
    write(.header(header))
  }

  /// Records how frames are drawn from now on, when it changed.
  func screen(_ screen: SessionLog.Screen) {
    guard screen != lastScreen else { return }
    lastScreen = screen
    write(.screen(screen))
  }

  /// Records one step: a picture it carries first, if it is new.
  func step(_ entry: RecordedAction<AppFeature.Action>, state: AppFeature.State) {
    steps += 1
    write(.step(SessionLog.Step(entry: entry, state: Fingerprint(of: state))))
  }

  /// Syncs the log to the disk and closes it; returns a warning if writing failed.
  func finish() -> String? {
    fsync(fd)
    close(fd)
    return failure.map { "The session log \(Output.quoted(path)) stopped after \(steps) steps: \($0)" }
  }

  private func write(_ line: SessionLog.Line) {
    guard failure == nil else { return }
    do {
      let encoded = try encoder.encode(line)
      var bytes: [UInt8] = []
      for blob in pictures.takeNew() {
        bytes += try encoder.encode(SessionLog.Line.blob(blob)) + [UInt8(ascii: "\n")]
      }
      bytes += encoded + [UInt8(ascii: "\n")]
      if let error = Output.writeFully(bytes, to: fd) {
        failure = String(cString: strerror(error))
      }
    } catch {
      failure = "\(error)"
    }
  }
}

/// A log read back: its header, its steps, and the screen each step's frame was drawn on.
struct SessionReplay {
  let header: SessionLog.Header
  let steps: [SessionLog.Step]
  /// The screen of the frame of each state, from the initial one (index 0) to the state
  /// after the last step: the last screen recorded before the next step (the first screen
  /// for states before it).
  let screens: [SessionLog.Screen]
  /// What was wrong with the end of the log, if anything (a line cut short by a crash):
  /// the steps before it replay.
  let warning: String?

  /// A log that cannot be replayed; exit status 2.
  struct Unreadable: Error, Equatable {
    var message: String
  }

  /// Reads the log at `path`; one that cannot be read is refused with what is wrong (a
  /// folder, no such file, the system's reason) and its path.
  static func read(path: String) throws(Unreadable) -> SessionReplay {
    func refused(_ reason: String) -> Unreadable {
      Unreadable(message: "Cannot read the session log \(Output.quoted(path)): \(reason)")
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      throw refused(code == ENOENT ? "there is no such file." : "\(String(cString: strerror(code))).")
    }
    let file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    var status = stat()
    if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw refused("it is a folder, not a file: replay takes the file --record wrote.")
    }
    let data: Data
    do {
      data = try file.readToEnd() ?? Data()
    } catch {
      throw refused("\((error as NSError).localizedDescription).")
    }
    return try parse(data, name: path)
  }

  /// Reads a log's bytes; `name` says which file in messages.
  static func parse(_ data: Data, name: String) throws(Unreadable) -> SessionReplay {
    let decoder = JSONDecoder()
    let pictures = RGBImage.PixelStore()
    decoder.userInfo[RGBImage.pixelStoreKey] = pictures
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let endsWhole = lines.last?.isEmpty ?? true
    if endsWhole { lines.removeLast() }
    var header: SessionLog.Header?
    var steps: [SessionLog.Step] = []
    var screens: [SessionLog.Screen?] = []
    var screen: SessionLog.Screen?
    var warning: String?
    for (index, bytes) in lines.enumerated() {
      let number = index + 1
      let line: SessionLog.Line
      do {
        line = try decoder.decode(SessionLog.Line.self, from: Data(bytes))
      } catch {
        if index == lines.count - 1, !endsWhole, header != nil {
          warning =
            "The log ends in the middle of line \(number) (the app ended before writing it all): replaying the \(steps.count) steps before it."
          break
        }
        throw Unreadable(
          message: describe(error, line: number, bytes: Data(bytes), name: name, header: header))
      }
      switch line {
      case .header(let found):
        guard index == 0 else { throw Unreadable(message: "\(name), line \(number): a second header.") }
        guard found.format == SessionLog.format, found.version == SessionLog.version else {
          throw Unreadable(message: describe(nil, line: number, bytes: Data(bytes), name: name, header: nil))
        }
        header = found
      case _ where header == nil:
        throw Unreadable(message: describe(nil, line: number, bytes: Data(bytes), name: name, header: nil))
      case .screen(let found):
        screen = found
      case .blob(let blob):
        pictures.add(blob)
      case .step(let step):
        screens.append(screen)
        steps.append(step)
      }
    }
    guard let header else {
      throw Unreadable(message: "\(name) is empty: a session log starts with its header.")
    }
    screens.append(screen)
    // Steps before the first frame (the filter given with --filter) are drawn on its screen.
    guard let first = screens.first(where: { $0 != nil }) ?? nil else {
      throw Unreadable(message: "\(name) has no screen line: the app ended before it drew anything.")
    }
    return SessionReplay(
      header: header, steps: steps, screens: screens.map { $0 ?? first }, warning: warning)
  }

  /// Why a line could not be read, for people.
  private static func describe(
    _ error: (any Error)?, line number: Int, bytes: Data, name: String, header: SessionLog.Header?
  ) -> String {
    guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
      return number == 1
        ? "\(name) is not a DogBreeds session log: its first line is not JSON."
        : "\(name), line \(number): not JSON."
    }
    guard header != nil else {
      if let found = object["header"] as? [String: Any], found["format"] as? String == SessionLog.format,
        let version = found["version"] as? Int, version != SessionLog.version
      {
        return
          "\(name) is a session log of format version \(version), from another version of DogBreeds; this one reads version \(SessionLog.version)."
      }
      return "\(name) is not a DogBreeds session log: it does not start with a DogBreeds session header."
    }
    if let step = object["step"] as? [String: Any], let action = step["action"],
      let error = error as? DecodingError,
      codingPath(of: error).prefix(2).map(\.stringValue) == ["step", "action"]
    {
      let unknown =
        "\(name), line \(number): an action this version of DogBreeds does not know: \(actionName(action))."
      // The header names the app that wrote the log: this one means the log was changed since.
      guard let app = header?.app, app != Arguments.version else {
        return unknown
          + " Its header says \(Arguments.version) recorded it, so the log was edited or damaged."
      }
      return unknown + " It was recorded by \(app), a different version."
    }
    let reason = (error as? DecodingError).map(decodingReason) ?? "unreadable"
    return "\(name), line \(number): \(reason)."
  }

  /// `dogs.filterChanged`: the cases of an action as written, outermost first.
  static func actionName(_ value: Any) -> String {
    var names: [String] = []
    var value = value
    // A case is written as an object of one key, its payload inside (`_0` for an unlabeled one).
    while let object = value as? [String: Any], object.count == 1, let (key, inner) = object.first,
      let payload = inner as? [String: Any]
    {
      if !key.hasPrefix("_") { names.append(key) }
      value = payload
    }
    return names.isEmpty ? "(none)" : names.joined(separator: ".")
  }

  private static func decodingReason(_ error: DecodingError) -> String {
    let path = codingPath(of: error).map(\.stringValue).filter { !$0.hasPrefix("_") }.joined(separator: ".")
    let reason = context(of: error)?.debugDescription ?? "\(error)"
    return path.isEmpty ? reason : "\(path): \(reason)"
  }

  private static func context(of error: DecodingError) -> DecodingError.Context? {
    switch error {
    case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
      .valueNotFound(_, let context):
      return context
    @unknown default:
      return nil
    }
  }

  private static func codingPath(of error: DecodingError) -> [any CodingKey] {
    context(of: error)?.codingPath ?? []
  }
}
