import AppFeature
import CommandLineInterface
import Foundation
import ImageDecoding
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// A log read back: its header and its steps (and, for a log of the format's first
/// version, how each step's frame was drawn).
package struct SessionReplay {
  package let header: SessionLog.Header
  package let steps: [SessionLog.Step]
  /// In a log of the format's first version, whose states do not say how frames were
  /// drawn: the display of the frame of each state, from the initial one (index 0) to the
  /// state after the last step (the last recorded before the next step; the first for
  /// states before it). `nil` for a log of this version.
  package let displays: [Display]?
  /// The places the user marked, in order: each marker's name and the step it follows
  /// (0: before the first).
  package var markers: [(name: String, step: Int)] = []
  /// What was wrong with the end of the log, if anything (a line cut short by a crash):
  /// the steps before it replay.
  package let warning: String?

  /// A log that cannot be replayed; exit status 2.
  package struct Unreadable: Error, Equatable {
    package var message: String
  }

  /// Reads the log at `path`; one that cannot be read is refused with what is wrong (a
  /// folder, no such file, the system's reason) and its path.
  package static func read(path: String) throws(Unreadable) -> SessionReplay {
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
  package static func parse(_ data: Data, name: String) throws(Unreadable) -> SessionReplay {
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
    var markers: [(name: String, step: Int)] = []
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
        guard found.format == SessionLog.format, SessionLog.readable.contains(found.version) else {
          throw Unreadable(message: describe(nil, line: number, bytes: Data(bytes), name: name, header: nil))
        }
        header = found
      case _ where header == nil:
        throw Unreadable(message: describe(nil, line: number, bytes: Data(bytes), name: name, header: nil))
      case .screen(let found):
        screen = found
      case .blob(let blob):
        pictures.add(blob)
      case .marker(let marker):
        markers.append((marker.name, steps.count))
      case .step(let step):
        screens.append(screen)
        steps.append(step)
      }
    }
    guard let header else {
      throw Unreadable(message: "\(name) is empty: a session log starts with its header.")
    }
    screens.append(screen)
    guard header.version == 1 else {
      var replay = SessionReplay(header: header, steps: steps, displays: nil, warning: warning)
      replay.markers = markers
      return replay
    }
    // Steps before the first frame (the filter given with --filter) are drawn on its screen.
    guard let first = screens.first(where: { $0 != nil }) ?? nil else {
      throw Unreadable(message: "\(name) has no screen line: the app ended before it drew anything.")
    }
    return SessionReplay(
      header: header, steps: steps, displays: screens.map { ($0 ?? first).display }, warning: warning)
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
        let version = found["version"] as? Int, !SessionLog.readable.contains(version)
      {
        return
          "\(name) is a session log of format version \(version), from another version of DogBreeds; this one reads versions \(SessionLog.readable.lowerBound) to \(SessionLog.readable.upperBound)."
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
  package static func actionName(_ value: Any) -> String {
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
