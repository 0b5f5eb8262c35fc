import Foundation
import TestSupport
import Testing

@testable import CommandLineInterface

/// The man page, DogBreedsCLI(1), against `--help`.
@Suite struct ManPageTests {
  /// The words of roff text as they are read: escapes undone, fonts dropped, macros' lines
  /// left out but for the headings within a section (`.SS`); the sections' titles and the
  /// comments are no text.
  static func words(ofRoff roff: String) -> [String] {
    var words: [String] = []
    for line in roff.split(separator: "\n") {
      if line.hasPrefix(".SS ") {
        words += Self.words(unescaped(String(line.dropFirst(4))))
      } else if !line.hasPrefix(".") {
        words += Self.words(unescaped(String(line)))
      }
    }
    return words
  }

  /// roff's escapes as what they stand for.
  static func unescaped(_ line: String) -> String {
    var text = ""
    var rest = Substring(line)
    while let slash = rest.firstIndex(of: "\\") {
      text += rest[..<slash]
      rest = rest[rest.index(after: slash)...]
      if rest.hasPrefix("[u"), let close = rest.firstIndex(of: "]"),
        let value = UInt32(rest[rest.index(rest.startIndex, offsetBy: 2)..<close], radix: 16),
        let scalar = Unicode.Scalar(value)
      {
        text.unicodeScalars.append(scalar)
        rest = rest[rest.index(after: close)...]
      } else if rest.hasPrefix("fB") || rest.hasPrefix("fR") || rest.hasPrefix("fI") {
        rest = rest.dropFirst(2)
      } else if let next = rest.first {
        text += ["-": "-", "e": "\\", "&": ""][next] ?? "\\\(next)"
        rest = rest.dropFirst()
      }
    }
    return text + rest
  }

  /// Words compared as a reader reads them: in any case, without the brackets and full
  /// stops around them; a lone dash is no word.
  static func words(_ text: String) -> [String] {
    text.split(whereSeparator: \.isWhitespace).map {
      $0.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "()."))
    }
    .filter { !["", "-", "—"].contains($0) }
  }

  /// The help's words, without the sections' titles (a note beside one is text).
  static func words(ofHelp help: String) -> [String] {
    help.split(separator: "\n").enumerated().flatMap { number, line -> [String] in
      guard number > 0, line.first?.isWhitespace == false else { return words(String(line)) }
      return line.firstIndex(of: "(").map { words(String(line[$0...])) } ?? []
    }
  }

  /// The man page says what the help says, word for word: both are made from one
  /// structure, and this fails where either leaves something out or adds to it.
  @Test func theManPageSaysWhatTheHelpSays() {
    let page = Self.words(ofRoff: ManPage.roff())
    let help = Self.words(ofHelp: Arguments.help)
    #expect(help.count > 500)
    #expect(page == help, "first difference at word \(zip(page, help).prefix { $0 == $1 }.count)")
    // The check sees a difference: a word the page has and the help has not.
    var manual = Manual.app
    manual.sections[0].blocks.append(.paragraphs(["Only here."]))
    #expect(Self.words(ofRoff: ManPage.roff(manual)) != help)
  }

  /// The page is roff in ASCII, with man(7)'s macros only, every option and key in it.
  @Test func thePageIsManMacrosInASCII() {
    let page = ManPage.roff()
    #expect(page.hasPrefix(#".\" DogBreedsCLI(1)"#))
    #expect(page.contains("\n.TH DogBreedsCLI 1 \"\" \"\(Arguments.version)\" \"User Commands\"\n"))
    #expect(page.unicodeScalars.allSatisfy { $0.isASCII && ($0.value >= 0x20 || $0 == "\n") })
    let macros = Set(page.split(separator: "\n").filter { $0.hasPrefix(".") }.map { $0.prefix { $0 != " " } })
    #expect(macros == [#".\""#, ".TH", ".nh", ".SH", ".SS", ".PP", ".TP", ".nf", ".fi"], "\(macros)")
    #expect(!page.split(separator: "\n").contains { $0.hasPrefix("'") })
    for section in ["NAME", "SYNOPSIS", "OPTIONS", "KEYS", "EXIT STATUS", "ENVIRONMENT", "FILES"] {
      #expect(page.contains("\n.SH \(section)\n"), "\(section)")
    }
    for option in Arguments.listedOptions {
      #expect(page.contains("\\fB" + ManPage.escape(option.names.joined(separator: ", "))), "\(option.names)")
    }
    for place in Manual.keySections() {
      #expect(page.contains(".SS \(ManPage.escape(place.title))\n"))
      for key in place.keys {
        #expect(page.contains("\\fB\(ManPage.escape(key.keys))\\fR\n\(ManPage.escape(key.does))\n"))
      }
    }
  }

  /// Text is escaped for roff: a backslash, a hyphen, a character outside ASCII, and a
  /// line that would start with a control character.
  @Test func textIsEscapedForRoff() {
    #expect(ManPage.escape(#"a\b"#) == #"a\eb"#)
    #expect(ManPage.escape("--no-mouse") == #"\-\-no\-mouse"#)
    #expect(ManPage.escape("Tuléar ← 😀") == #"Tul\[u00E9]ar \[u2190] \[u1F600]"#)
    #expect(ManPage.escape(".SH no") == #"\&.SH no"#)
    #expect(ManPage.escape("'quoted'") == #"\&'quoted'"#)
    #expect(ManPage.escape("a.b 'c'") == "a.b 'c'")
    #expect(Self.unescaped(ManPage.escape(#"x\y -z é"#)) == #"x\y -z é"#)
  }

  /// groff reads the page without a warning, where groff is installed.
  @Test(
    .enabled(
      if: installedProgram("groff") != nil, "groff is not installed: the page's roff is not checked by it"))
  func groffReadsThePageWithoutAWarning() throws {
    let file = ScratchFolder.path("page")
    try ManPage.roff().write(to: file, atomically: true, encoding: .utf8)
    let run = try runProgram(
      try #require(installedProgram("groff")), ["-man", "-Tutf8", "-ww", "-z", file.path])
    #expect(run.status == 0 && run.error.isEmpty, "\(run.error)")
  }

  /// Every command is in the usage, and the usage names no command the parser does not take.
  @Test func theUsageNamesEveryCommand() throws {
    guard case .lines(let usage) = Manual.app.sections[0].blocks[0] else {
      Issue.record("The usage is not the first block of the first section.")
      return
    }
    for command in Arguments.commands where !["help", "version"].contains(command.name) {
      #expect(usage.contains { $0.hasPrefix("DogBreedsCLI \(command.name) ") }, "\(command.name)")
    }
    for line in usage where line.hasPrefix("DogBreedsCLI ") {
      let word = line.split(separator: " ")[1]
      #expect(
        word.hasPrefix("-") || word.hasPrefix("[") || Arguments.command(named: String(word)) != nil, "\(line)"
      )
    }
  }
}
