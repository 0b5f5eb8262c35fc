import Testing
import TextRendering

@testable import DogBreedsCLIKit

/// How long `show` waits for a terminal's answers, and how it reads them.
struct TerminalProbeTests {
  /// A terminal that has said nothing is given up on after `silence`; one that has begun
  /// to answer gets `total` from the questions.
  @Test func theDeadlineIsSilenceUntilTheTerminalSaysSomething() {
    let asked = ContinuousClock.now
    let local = TerminalProbe.Patience.local
    #expect(local.deadline(asked: asked, heardAnything: false) == asked + .milliseconds(100))
    #expect(local.deadline(asked: asked, heardAnything: true) == asked + .milliseconds(500))
    let remote = TerminalProbe.Patience.remote
    #expect(remote.deadline(asked: asked, heardAnything: false) == asked + .milliseconds(500))
  }

  /// Over SSH (any of the variables its server sets) the terminal is far away: waited for
  /// longer, and sent pictures compressed.
  @Test(arguments: ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"])
  func aSessionOverSSHIsRemote(variable: String) {
    let remote = TerminalLink.of(environment: [variable: "192.0.2.1 50000 192.0.2.2 22"])
    #expect(remote == .remote && remote.patience == .remote && remote.compressesPictures)
    let local = TerminalLink.of(environment: [variable: "", "TERM": "xterm-kitty"])
    #expect(local == .local && local.patience == .local && !local.compressesPictures)
  }

  /// The terminal's attributes (`CSI ? … c`), the last answer asked for, complete the
  /// answers; a key read meanwhile is dropped.
  @Test func theAttributesEndTheAnswers() {
    var answers = TerminalProbe.Answers()
    var decoder = KeyDecoder()
    for event in decoder.feed(Array("x\u{1B}[6;20;9t\u{1B}[?62;22".utf8)) { answers.take(event) }
    #expect(!answers.complete)
    #expect(answers.cellSize?.width == 9 && answers.cellSize?.height == 20)
    for event in decoder.feed([UInt8(ascii: "c")]) { answers.take(event) }
    #expect(answers.complete)
    #expect(!answers.drawsSixel)
  }

  /// Attributes that list sixel (4) say the terminal draws it.
  @Test func attributesWithSixelSaySo() {
    var answers = TerminalProbe.Answers()
    var decoder = KeyDecoder()
    for event in decoder.feed(Array("\u{1B}[?1;2;4c".utf8)) { answers.take(event) }
    #expect(answers.complete && answers.drawsSixel)
  }
}
