import CPseudoTerminal
import Foundation
import ImageDecoding
import TestSupport
import Testing
import TextRendering

@testable import CommandLineInterface
@testable import DogAPIClient
@testable import DogBreedsCLIKit

#if canImport(Glibc)
  import Glibc
#endif

/// `show` decodes its picture for the box it draws it in, not for the whole window: the
/// window less the text printed under the picture. On a terminal of 30 × 12, Akita's text
/// (its name and the picture's address) and the prompt after it leave 30 × 9 cells; the
/// fake API's 500 × 375 photo fitted there in half blocks needs half its pixels, where the
/// window less the prompt alone (what `show` decodes for before it knows its text) would
/// need all of them.
@MainActor
struct ShowDecodeTests {
  @Test func theDecodeIsForTheBoxTheTextLeaves() async throws {
    let cell = SymbolSet.samplesPerCell(.default)
    let photo = [UInt8](FakeImages.baseline)
    let forBox = try ImageDecoder.decode(photo, fitting: (30 * cell.across, 9 * cell.down))
    let forWindow = try ImageDecoder.decode(photo, fitting: (30 * cell.across, 11 * cell.down))
    // The two differ, so the test tells one from the other.
    #expect(forBox.width < forWindow.width)

    let run = try await runOnTerminal(
      ["show", "akita", "--api", "fake", "--picture", "blocks", "--trace"], columns: 30, rows: 12)
    #expect(run.status == 0, "\(run.error.suffix(400))")
    // --trace prints each state change; the picture arrives decoded once.
    let decoded = run.error.components(separatedBy: "+       picture: .loaded(").dropFirst().first ?? ""
    #expect(decoded.contains("width: \(forBox.width)\n"), "\(decoded.prefix(200))")
    #expect(decoded.contains("height: \(forBox.height)\n"), "\(decoded.prefix(200))")
  }

  /// Runs the app in this process with its standard output a pseudo-terminal of
  /// `columns` × `rows` cells (whose output is read and dropped) and its standard error a
  /// file, as ``runInProcess(_:environment:)`` does otherwise.
  func runOnTerminal(_ arguments: [String], columns: Int, rows: Int) async throws -> InProcessRun {
    var name = [CChar](repeating: 0, count: 256)
    let master = dogbreeds_open_pty(&name, name.count)
    try #require(master >= 0)
    defer { close(master) }
    let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let terminal = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    try #require(terminal >= 0)
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    try #require(ioctl(terminal, UInt(TIOCSWINSZ), &size) == 0)
    // The terminal's side is read as the app writes, so that no write waits on a full buffer.
    let drained = DispatchSemaphore(value: 0)
    let reader = Thread {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while read(master, &buffer, buffer.count) > 0 {}
      drained.signal()
    }
    reader.start()
    let folder = ScratchFolder.path("on-terminal")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let errorPath = folder.appendingPathComponent("error").path
    let error = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    defer { close(error) }
    let environment = [
      "DOGBREEDS_CACHE_DIR": folder.appendingPathComponent("cache").path,
      "DOGBREEDS_DATA_DIR": folder.appendingPathComponent("data").path, "LANG": "C.UTF-8",
      "TERM": "xterm-256color", "COLORTERM": "truecolor", "TERMINFO": TerminfoFixtures.folder,
    ]
    let status = await Output.$streams.withValue(Output.Streams(output: terminal, error: error)) {
      await CommandLineApp.run(arguments: arguments, environment: environment)
    }
    // With the terminal's side closed, the reader's next read ends.
    close(terminal)
    drained.wait()
    return InProcessRun(
      status: status, output: "", error: try String(contentsOfFile: errorPath, encoding: .utf8))
  }
}
