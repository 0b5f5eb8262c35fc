import Testing
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// The one reader of a terminal's input, on a pipe.
struct InputReaderTests {
  /// A pipe: its read end, and a way to write to it and close it.
  final class Pipe {
    let read: Int32
    private(set) var write: Int32
    init() {
      var ends: [Int32] = [-1, -1]
      _ = pipe(&ends)
      (read, write) = (ends[0], ends[1])
    }
    func send(_ text: String) {
      _ = text.utf8.withContiguousStorageIfAvailable { Glibc.write(write, $0.baseAddress, $0.count) }
    }
    func closeWriting() {
      close(write)
      write = -1
    }
    deinit {
      close(read)
      if write >= 0 { close(write) }
    }
  }

  @Test func bytesBecomeKeysAndTheEndOfInputEndsIt() {
    let pipe = Pipe()
    var reader = InputReader(fd: pipe.read)
    pipe.send("ab\u{1B}[A")
    #expect(reader.read() == .events([.key(.character("a")), .key(.character("b")), .key(.up)]))
    pipe.closeWriting()
    #expect(reader.read() == .ended(failed: false))
  }

  /// A lone Esc waits the escape delay for the rest of a sequence, then is Esc.
  @Test func aLoneEscapeIsFlushedAfterTheDelay() {
    let pipe = Pipe()
    var reader = InputReader(fd: pipe.read, escapeDelay: .milliseconds(5))
    pipe.send("\u{1B}")
    #expect(reader.read() == .events([]))
    #expect(reader.read() == .events([.key(.escape)]))
  }

  /// Without an escape delay (the probe's answers), a sequence begun is waited for until
  /// the deadline, not flushed after the delay; with one, the rest of it, come in time,
  /// makes it whole.
  @Test func withoutAnEscapeDelayASequenceBegunIsWaitedForUntilTheDeadline() {
    let pipe = Pipe()
    var reader = InputReader(fd: pipe.read, escapeDelay: nil)
    pipe.send("\u{1B}[")
    #expect(reader.read() == .events([]))
    let start = ContinuousClock.now
    _ = reader.read(until: start + .milliseconds(300))
    // (A lower bound: a loaded machine only makes the wait longer.)
    #expect(ContinuousClock.now - start >= .milliseconds(250))
    pipe.send("\u{1B}[")
    #expect(reader.read() == .events([]))
    pipe.send("12;3R")
    #expect(reader.read(until: .now + .seconds(10)) == .events([.reply(.cursorPosition(row: 12, column: 3))]))
  }

  @Test func aDeadlineWithNoInputTimesOutAndAnotherDescriptorIsNamed() {
    let pipe = Pipe()
    let other = Pipe()
    var reader = InputReader(fd: pipe.read)
    #expect(reader.read(until: .now + .milliseconds(5)) == .timedOut)
    other.send("x")
    #expect(reader.read(also: [other.read]) == .ready([other.read]))
  }

  /// One byte at a time, what follows the answer waited for stays in the queue.
  @Test func oneByteAtATimeLeavesTheRestQueued() {
    let pipe = Pipe()
    var reader = InputReader(fd: pipe.read, oneByteAtATime: true)
    pipe.send("ab")
    #expect(reader.read() == .events([.key(.character("a"))]))
    var byte: UInt8 = 0
    #expect(Glibc.read(pipe.read, &byte, 1) == 1 && byte == UInt8(ascii: "b"))
  }
}
