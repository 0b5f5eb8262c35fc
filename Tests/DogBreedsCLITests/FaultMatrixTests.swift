import Foundation
import TestHTTPServer
import TestSupport
import Testing

/// Every fault × every scriptable command, against the built app and a local server.
///
/// For each cell: the exit code and the one-sentence message are the documented ones,
/// nothing raw reaches stdout or stderr, the run ends within the timeout plus a second,
/// and a cache written beforehand is intact afterwards. The table is printed at the end.
@Suite(.serialized)
struct FaultMatrixTests {
  struct Fault: Sendable {
    var name: String
    /// Reply for the breed list, for a random-image request, and for the picture bytes.
    var list: @Sendable (String) -> TestHTTPServer.Reply
    var image: @Sendable (String) -> TestHTTPServer.Reply
    var picture: @Sendable () -> TestHTTPServer.Reply
    var refused = false
  }

  /// What a cell must produce.
  struct Expectation {
    var status: Int32
    var stderr: String?  // a fragment of the one sentence, or nil for "no error line"
  }

  static let breeds = #"{"message":{"hound":["afghan"],"pug":[]},"status":"success"}"#
  static let jpeg = PictureScriptTests.jpeg
  /// A 1×1 lossy WEBP (cwebp -q 5 of a black pixel).
  static let webp: [UInt8] = [
    0x52, 0x49, 0x46, 0x46, 0x24, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x20, 0x18,
    0x00,
    0x00, 0x00, 0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x01, 0x00, 0x01, 0x00, 0x09, 0x00, 0xAC, 0x25, 0xA4,
    0x00,
    0x03, 0x70, 0x00, 0xFE, 0xEE, 0xCE, 0x40, 0x00,
  ]

  static func imageAt(_ base: String) -> TestHTTPServer.Reply {
    .json(#"{"message":"\#(base)\/breeds\/hound\/dog.jpg","status":"success"}"#)
  }

  static let faults: [Fault] = [
    Fault(name: "healthy", list: { _ in .json(breeds) }, image: imageAt, picture: { .bytes(jpeg) }),
    Fault(
      name: "latency 0.5 s", list: { _ in .delayed(.milliseconds(500), .json(breeds)) },
      image: { base in .delayed(.milliseconds(500), imageAt(base)) }, picture: { .bytes(jpeg) }),
    Fault(
      // (The list's message with an escape in it: the warning that quotes it shows it.)
      name: "500 JSON",
      list: { _ in .json(#"{"status":"error","message":"Boom\u001b[2J","code":500}"#, status: 500) },
      image: { _ in .json(#"{"status":"error","message":"Boom","code":500}"#, status: 500) },
      picture: { .bytes(jpeg) }),
    Fault(
      name: "500 HTML", list: { _ in .text("<h1>oops</h1>", status: 500, contentType: "text/html") },
      image: { _ in .text("<h1>oops</h1>", status: 500, contentType: "text/html") }, picture: { .bytes(jpeg) }
    ),
    Fault(
      name: "503 text", list: { _ in .text("Service Unavailable", status: 503) },
      image: { _ in .text("Service Unavailable", status: 503) }, picture: { .bytes(jpeg) }),
    Fault(
      name: "200 without status", list: { _ in .json(#"{"message":"Internal server error"}"#) },
      image: { _ in .json(#"{"message":"Internal server error"}"#) }, picture: { .bytes(jpeg) }),
    Fault(
      name: "malformed JSON", list: { _ in .json(#"{"message":{"hound":["#) },
      image: { _ in .json("{\"mess") },
      picture: { .bytes(jpeg) }),
    Fault(
      name: "slow drip past timeout",
      list: { _ in .drip(status: 200, body: Array(breeds.utf8), bytesPerChunk: 2, pause: .milliseconds(200))
      },
      image: { _ in .drip(status: 200, body: Array(breeds.utf8), bytesPerChunk: 2, pause: .milliseconds(200))
      },
      picture: { .bytes(jpeg) }),
    Fault(
      name: "connection refused", list: { _ in .hangUp }, image: { _ in .hangUp }, picture: { .hangUp },
      refused: true),
    Fault(
      name: "404 breed", list: { _ in .json(breeds) },
      image: { _ in
        .json(
          #"{"status":"error","message":"Breed not found (master breed does not exist)","code":404}"#,
          status: 404)
      },
      picture: { .bytes(jpeg) }),
    Fault(
      name: "image 404", list: { _ in .json(breeds) }, image: imageAt,
      picture: { .text("Not Found", status: 404) }),
    Fault(
      // What a wrong base URL meets: nothing at any address (and no API envelope).
      name: "404 everywhere", list: { _ in .text("", status: 404) }, image: { _ in .text("", status: 404) },
      picture: { .text("", status: 404) }),
    Fault(
      name: "PNG behind .jpg", list: { _ in .json(breeds) }, image: imageAt,
      picture: {
        .bytes(
          PNGWriter.png(width: 2, height: 2, rows: [[0, 200, 30, 40, 10, 20, 30], [2, 0, 0, 0, 0, 0, 0]]))
      }),
    Fault(
      name: "WEBP behind .jpg", list: { _ in .json(breeds) }, image: imageAt, picture: { .bytes(webp) }),
    Fault(
      name: "AVIF behind .jpg", list: { _ in .json(breeds) }, image: imageAt,
      picture: {
        .bytes(
          Array("\u{0}\u{0}\u{0}\u{1C}ftypavif\u{0}\u{0}\u{0}\u{0}".utf8) + [UInt8](repeating: 7, count: 100))
      }),
    Fault(
      name: "truncated JPEG", list: { _ in .json(breeds) }, image: imageAt,
      picture: { .bytes(Array(jpeg.prefix(jpeg.count / 2))) }),
    Fault(
      name: "escapes in names",
      list: { _ in
        .json(
          #"{"message":{"hound":["a\u001b[2J","..\/..\/x","q\"uo\\x"],"e\u009b31m\u001b]0;x\u0007":[]},"status":"success"}"#
        )
      },
      image: { base in .json(#"{"message":"\#(base)\/breeds\/hound\/a\u001b[31m.jpg","status":"success"}"#) },
      picture: { .bytes(jpeg) }),
  ]

  static let commands: [(name: String, arguments: [String])] = [
    ("list", ["list"]), ("list --json", ["list", "--json"]), ("show", ["show", "hound"]),
    ("show --json", ["show", "hound", "--json"]),
    ("show --picture blocks", ["show", "hound", "--picture", "blocks"]),
  ]

  /// The documented outcome of `command` under `fault`.
  static func expected(_ fault: String, _ command: String) -> Expectation {
    let isList = command.hasPrefix("list")
    let wantsPicture = command.contains("--picture")
    let listFallback: [String: String] = [
      "500 JSON": "The server had an error (HTTP 500): Boom␛[2J.", "500 HTML": "(HTTP 500).",
      "503 text": "(HTTP 503).", "200 without status": "(HTTP 200): Internal server error.",
      "malformed JSON": "could not be understood.", "slow drip past timeout": "took longer than 1 s",
      "connection refused": "Can't connect to 127.0.0.1:", "404 everywhere": "(HTTP 404).",
    ]
    if isList {
      if let reason = listFallback[fault] { return Expectation(status: 0, stderr: reason) }
      return Expectation(status: 0, stderr: nil)
    }
    // show: the list falls back (warning), then the picture's address may fail.
    switch fault {
    case "healthy", "latency 0.5 s", "escapes in names":
      return Expectation(status: 0, stderr: nil)
    case "404 breed":
      return Expectation(status: 3, stderr: "Not found: Breed not found (master breed does not exist).")
    case "image 404":
      return wantsPicture
        ? Expectation(
          status: 1, stderr: "Couldn't download the picture. The server reported an error (HTTP 404).")
        : Expectation(status: 0, stderr: nil)
    case "PNG behind .jpg":
      return Expectation(status: 0, stderr: nil)
    case "WEBP behind .jpg":
      return Expectation(status: 0, stderr: nil)
    case "AVIF behind .jpg":
      return wantsPicture
        ? Expectation(status: 1, stderr: "The picture is an AVIF, an unsupported image format.")
        : Expectation(status: 0, stderr: nil)
    case "truncated JPEG":
      return wantsPicture
        ? Expectation(status: 1, stderr: "The picture file is incomplete.")
        : Expectation(status: 0, stderr: nil)
    default:
      return Expectation(status: 1, stderr: "Couldn't load a picture of ")
    }
  }

  /// Runs one command against one fault; the cell's text, and what went wrong if anything.
  static func runCell(_ fault: Fault, _ command: (name: String, arguments: [String])) async throws -> (
    cell: String, failure: String?
  ) {
    let holder = PortHolder()
    let server = try TestHTTPServer { request in
      let base = "http:\\/\\/127.0.0.1:\(holder.port)"
      if request.path.hasPrefix("/breeds/") { return fault.picture() }
      if request.path.contains("images/random") { return fault.image(base) }
      return fault.list(base)
    }
    holder.port = Int(server.port)
    if fault.refused { server.stop() }
    let environment = cleanEnvironment()
    // A cache written before the run must survive it (offline fallbacks read it).
    let cacheFile = environment["DOGBREEDS_CACHE_DIR"]! + "/breeds.json"
    try FileManager.default.createDirectory(
      atPath: environment["DOGBREEDS_CACHE_DIR"]!, withIntermediateDirectories: true)
    let seeded =
      #"{"breeds":[{"name":"akita","subBreeds":[]},{"name":"hound","subBreeds":["afghan"]}],"fetchedAt":700000000,"version":1}"#
    let wantsCache =
      fault.name != "healthy" && fault.name != "latency 0.5 s" && fault.name != "escapes in names"
      && ![
        "404 breed", "image 404", "PNG behind .jpg", "WEBP behind .jpg", "AVIF behind .jpg", "truncated JPEG",
      ].contains(
        fault.name)
    if wantsCache { try Data(seeded.utf8).write(to: URL(fileURLWithPath: cacheFile)) }
    let run = try await runCLI(
      command.arguments + ["--timeout", "1", "--base-url", server.baseURL.absoluteString + "/api"],
      environment: environment, limit: Duration.seconds(10).scaled)
    server.stop()
    let expectation = Self.expected(fault.name, command.name)
    var problems: [String] = []
    if run.status != expectation.status {
      problems.append("exit \(run.status), expected \(expectation.status)")
    }
    let errorLines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
    if let fragment = expectation.stderr {
      if !run.stderr.contains(fragment) { problems.append("stderr lacks “\(fragment)”: \(run.stderr)") }
    } else if !errorLines.isEmpty {
      problems.append("unexpected error: \(run.stderr)")
    }
    if errorLines.count > 1 { problems.append("more than one error line") }
    if hasRawControls(run.stderr)
      || hasRawControls(run.stdout.replacingOccurrences(of: "\u{1B}[", with: ""))
    {
      problems.append("raw control characters in the output")
    }
    // Each request is bounded by the timeout (1 s); `show` makes up to two that can time
    // out. Four seconds more for starting a debug build on a machine busy with the other
    // tests (two seconds were once 0.2 s short beside two CPU-bound processes): without
    // the timeout, URLSession would wait 60 s and the run would be killed at 10.
    let limit = (command.name.hasPrefix("show") ? Duration.seconds(6) : .seconds(5)).scaled
    if run.elapsed > limit { problems.append("took \(run.elapsed)") }
    // JSON output is JSON, whatever the names in it (quotes, backslashes, escapes).
    if command.name.hasSuffix("--json"), !run.stdout.isEmpty,
      (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) == nil
    {
      problems.append("stdout is not JSON: \(run.stdout)")
    }
    if wantsCache {
      let after = (try? String(contentsOfFile: cacheFile, encoding: .utf8)) ?? ""
      if after != seeded { problems.append("cache changed") }
    }
    if problems.isEmpty { return ("ok \(run.status)", nil) }
    return ("FAIL", "\(fault.name) × \(command.name): \(problems.joined(separator: "; "))")
  }

  /// Every cell, one per core at a time (each with its own server and cache directory).
  @Test func theFaultMatrix() async throws {
    var cells: [[String]] = Array(
      repeating: Array(repeating: "", count: Self.commands.count), count: Self.faults.count)
    var failures: [(row: Int, column: Int, text: String)] = []
    var waiting = Self.faults.indices.flatMap { row in Self.commands.indices.map { (row, $0) } }
      .makeIterator()
    func cell(_ row: Int, _ column: Int) -> @Sendable () async throws -> (Int, Int, String, String?) {
      {
        let (cell, failure) = try await Self.runCell(Self.faults[row], Self.commands[column])
        return (row, column, cell, failure)
      }
    }
    try await withThrowingTaskGroup(of: (Int, Int, String, String?).self) { group in
      for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
        if let (row, column) = waiting.next() { group.addTask(operation: cell(row, column)) }
      }
      for try await (row, column, text, failure) in group {
        cells[row][column] = text
        if let failure { failures.append((row, column, failure)) }
        if let (row, column) = waiting.next() { group.addTask(operation: cell(row, column)) }
      }
    }
    let table = [["fault"] + Self.commands.map(\.name)] + zip(Self.faults, cells).map { [$0.name] + $1 }
    // The table, as the run's record.
    let widths = (0..<table[0].count).map { column in table.map { $0[column].count }.max()! }
    var text = "\nFault matrix (exit code per cell; \(Self.faults.count * Self.commands.count) runs):\n"
    for (index, row) in table.enumerated() {
      text +=
        "| "
        + row.enumerated().map {
          $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0)
        }
        .joined(separator: " | ") + " |\n"
      if index == 0 {
        text += "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
      }
    }
    print(text)
    // Reported in the table's order, whatever order the cells finished in.
    let report = failures.sorted { ($0.row, $0.column) < ($1.row, $1.column) }.map(\.text)
    #expect(failures.isEmpty, "\(report.joined(separator: "\n"))")
  }
}
