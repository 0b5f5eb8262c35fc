import AppFeature
import CommandLineInterface
import Core
import Foundation
import ImageDecoding
import TextRendering

/// A session as `--record` writes it and `replay` reads it: JSON Lines, one object per
/// line, each with one key saying what it is.
///
/// - `{"header": …}` first: the format and its version, the app's version, the arguments,
///   and what shapes the reducer (whether pictures were decoded, favourites kept).
/// - `{"blob": …}`: a picture, once, before the first step that carries it (steps refer to
///   it by the hash of its bytes): the file it was decoded from, which replay decodes again
///   to the same pixels, or the pixels of one made otherwise.
/// - `{"marker": {"name": "m1"}}`: a place the user marked (Ctrl-T while recording), after
///   the steps before it (from the format's third version).
/// - `{"step": …, "state": …, "frame": …}`: one action the app's store reduced (the action,
///   who sent it, when, in nanoseconds from the start), the fingerprint of the state it
///   produced, and that of the state's frame (``frame(of:display:)``, ``fingerprint(of:)``).
///   A log without frame fingerprints is read too; its frames go unchecked.
///   How frames are drawn is part of the state: the terminal's settings, size and answers
///   are actions (`AppFeature.Action.terminal`) like the keys.
///
/// Logs of the format's first version are read too: they have no terminal actions, and a
/// `{"screen": …}` line says how frames were drawn from then on (``Screen``); their steps
/// replay, and their states, which had no terminal in them, differ from this version's.
///
/// Nothing else is written: what was typed and chosen (as actions), the server's address
/// (in the arguments and the pictures' addresses), and the favourites (as loaded and saved).
package enum SessionLog {
  /// The first line's `format`.
  package static let format = "DogBreeds session"
  /// The version of the format this app writes.
  package static let version = 3
  /// The versions it reads.
  package static let readable = 1...3

  /// The first line.
  package struct Header: Codable, Equatable {
    package var format = SessionLog.format
    package var version = SessionLog.version
    /// The app that wrote it (`DogBreedsCLI 0.1.0`).
    package var app: String
    /// The command line, without the program's name.
    package var arguments: [String]
    /// Whether the app decoded pictures (the Favourites tab then loads thumbnails).
    package var pictures: Bool
    /// Whether the app kept favourites (it then saves them).
    package var favourites: Bool

    package init(app: String, arguments: [String], pictures: Bool, favourites: Bool) {
      self.app = app
      self.arguments = arguments
      self.pictures = pictures
      self.favourites = favourites
    }
  }

  /// How frames were drawn, in a log of the format's first version.
  package struct Screen: Codable, Equatable {
    package var columns: Int
    package var rows: Int
    package var unicode: Bool
    /// A ``PictureMode``'s raw value.
    package var picture: String
    /// A ``ColorMode``'s raw value.
    package var colour: String
    package var lightBackground: Bool
    /// A cell's pixels, across and down.
    package var cell: [Int]

    /// The display it describes.
    package var display: Display {
      Display(
        columns: max(1, columns), rows: max(1, rows), unicode: unicode,
        colorMode: ColorMode(rawValue: colour) ?? ColorMode.none, lightBackground: lightBackground,
        cell: TerminalPicture.CellSize(width: max(1, cell.first ?? 10), height: max(1, cell.last ?? 20)),
        pictureMode: PictureMode(rawValue: picture) ?? .none)
    }
  }

  /// One action the store reduced, and the fingerprints of the state it produced and of
  /// that state's frame.
  package struct Step: Equatable {
    package var entry: RecordedAction<AppFeature.Action>
    package var state: Fingerprint
    /// `nil` in a log written without frame fingerprints.
    package var frame: Fingerprint?

    package init(entry: RecordedAction<AppFeature.Action>, state: Fingerprint, frame: Fingerprint?) {
      self.entry = entry
      self.state = state
      self.frame = frame
    }
  }

  /// The frame of `state` drawn on `display`, as the app drew it (its spinner, if one
  /// shows, at its first frame): the one the recorder fingerprints and replay draws.
  @MainActor
  package static func frame(of state: AppFeature.State, display: Display) -> Frame {
    AppView.render(AppFeature.ViewState(state), display: display)
  }

  /// The fingerprint of what `frame` shows: its text and styles (in 24-bit colour, so every
  /// colour counts), where its cursor is, and where its picture goes and its size.
  package static func fingerprint(of frame: Frame) -> Fingerprint {
    let picture = frame.picture.map {
      "\($0.x),\($0.y) \($0.columns)x\($0.rows) \($0.image.width)x\($0.image.height)"
    }
    let cursor = frame.cursor.map { "\($0.x),\($0.y)" }
    return Fingerprint(
      of: "\(frame.width)x\(frame.height) cursor \(cursor ?? "hidden") picture \(picture ?? "none")\n"
        + String(decoding: ScreenDiffer.lines(of: frame, colorMode: .truecolor), as: UTF8.self))
  }

  /// A place in the session the user marked (Ctrl-T while recording): after the steps
  /// written before it.
  package struct Marker: Codable, Equatable {
    /// Its name: `m1`, `m2`… in the order they were dropped.
    package var name: String

    package init(name: String) { self.name = name }
  }

  /// One line of a log.
  package enum Line: Equatable {
    case header(Header)
    case screen(Screen)
    case blob(RGBImage.PixelStore.Blob)
    case step(Step)
    case marker(Marker)
  }
}

extension SessionLog.Line: Codable {
  package enum Key: String, CodingKey {
    case header, screen, blob, step, state, frame, marker
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    if container.contains(.header) {
      self = .header(try container.decode(SessionLog.Header.self, forKey: .header))
    } else if container.contains(.screen) {
      self = .screen(try container.decode(SessionLog.Screen.self, forKey: .screen))
    } else if container.contains(.marker) {
      self = .marker(try container.decode(SessionLog.Marker.self, forKey: .marker))
    } else if container.contains(.blob) {
      self = .blob(try container.decode(RGBImage.PixelStore.Blob.self, forKey: .blob))
    } else if container.contains(.step) {
      self = .step(
        SessionLog.Step(
          entry: try container.decode(RecordedAction<AppFeature.Action>.self, forKey: .step),
          state: try container.decode(Fingerprint.self, forKey: .state),
          frame: try container.decodeIfPresent(Fingerprint.self, forKey: .frame)))
    } else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "a line has one of the keys header, screen, blob, step or marker"))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case .header(let header): try container.encode(header, forKey: .header)
    case .screen(let screen): try container.encode(screen, forKey: .screen)
    case .blob(let blob): try container.encode(blob, forKey: .blob)
    case .marker(let marker): try container.encode(marker, forKey: .marker)
    case .step(let step):
      try container.encode(step.entry, forKey: .step)
      try container.encode(step.state, forKey: .state)
      try container.encodeIfPresent(step.frame, forKey: .frame)
    }
  }
}
