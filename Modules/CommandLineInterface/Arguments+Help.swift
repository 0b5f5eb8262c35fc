import AppFeature
import DogAPIClient
import Foundation
import TextRendering

/// The app's manual: what `--help` prints and the man page (``ManPage``) shows, made from
/// one structure, so that the two say the same. The options come from
/// ``Arguments/options`` and the keys from the app's key table (``Manual/keySections()``).
package struct Manual {
  /// A term and what it means: an option, a key, a variable.
  package struct Entry: Equatable {
    package var term: String
    package var text: String
  }

  /// A part of a section.
  package enum Block: Equatable {
    /// Lines kept as they are (the usage).
    case lines([String])
    /// Paragraphs, each wrapped to the page.
    case paragraphs([String])
    /// Terms and what each means, under a heading of their own if `heading` is given.
    case entries(heading: String?, [Entry])

    /// Entries under a heading of their own.
    package var isHeaded: Bool {
      if case .entries(heading: _?, _) = self { true } else { false }
    }
  }

  /// A section: its title (`OPTIONS`), a note the help puts beside it, and its blocks.
  package struct Section: Equatable {
    package var title: String
    /// The man page's title for it, where that differs (`SYNOPSIS` for `USAGE`).
    package var manTitle: String?
    package var note: String?
    package var blocks: [Block]
  }

  /// The program's name.
  package var name: String
  /// What it is, in a line.
  package var summary: String
  package var sections: [Section]

  /// The app's manual.
  package static let app = Manual(
    name: "DogBreedsCLI", summary: "browse dog breeds from the Dog CEO API.",
    sections: [
      Section(
        title: "USAGE", manTitle: "SYNOPSIS",
        blocks: [
          .lines([
            "DogBreedsCLI [options]                 interactive browser (in a terminal)",
            "DogBreedsCLI list [--filter TEXT] [--json]",
            "DogBreedsCLI show BREED[/SUB-BREED] [--json] [--picture MODE] [--size WxH]",
            "                       [--symbols SET] [--loops N]",
            "DogBreedsCLI favourites [--json]       the breeds you starred, one per line",
            "DogBreedsCLI favourites add|remove BREED[/SUB-BREED]...",
            "DogBreedsCLI --record FILE             the browser, recording to FILE",
            "DogBreedsCLI replay FILE [--check | --frame N|last|mN | --cast FILE |",
            "                       --test DIR]",
            "DogBreedsCLI completions bash|zsh|fish the shell's completion script",
            "DogBreedsCLI man                       this manual as a man page (roff)",
          ]),
          .paragraphs([
            "BREED is a name as listed (Hound, \"Afghan Hound\"), as the API names it (hound, hound/afghan), or as people write it (\"Shih Tzu\", \"St. Bernard\", \"Brabançon\": shihtzu, stbernard, brabancon).",
            "Without a command and without a terminal, `list` runs.",
          ]),
        ]),
      Section(
        title: "OPTIONS", note: "a value follows its option, or comes after \"=\": --filter=hou",
        blocks: [
          .entries(
            heading: nil,
            Arguments.listedOptions.map { option in
              Entry(
                term: option.names.joined(separator: ", ")
                  + (option.value.map { " " + $0.placeholder } ?? ""),
                text: option.help)
            })
        ]),
      Section(
        title: "KEYS", note: "the full-screen browser; there, ? shows the keys of the screen you are on",
        blocks: keySections().map { place in
          .entries(heading: place.title, place.keys.map { Entry(term: $0.keys, text: $0.does) })
        }),
      Section(
        title: "EXIT STATUS",
        blocks: [
          .lines([
            "0 success · 1 runtime failure (network, server, unwritable output)",
            "2 usage error · 3 not found · a closed pipe (| head) ends quietly with 0",
            "130/143/129/131 interrupted by SIGINT/SIGTERM/SIGHUP/SIGQUIT",
          ])
        ]),
      Section(
        title: "ENVIRONMENT",
        blocks: [
          .entries(
            heading: nil,
            [
              Entry(term: "DOG_API_BASE_URL", text: "API root, when --base-url is not given"),
              Entry(
                term: "http_proxy, https_proxy, ALL_PROXY, no_proxy",
                text:
                  "the proxy on Linux, by libcurl's rules, except that this machine's own addresses are reached directly (macOS uses the system's settings)"
              ),
              Entry(
                term: "NO_COLOR, CLICOLOR_FORCE, FORCE_COLOR, COLORTERM, TERM",
                text:
                  "colour policy (see --color) and depth; without COLORTERM=truecolor, a terminal that says, when asked, that it draws 24-bit colour gets it"
              ),
              Entry(
                term: "LC_ALL, LC_CTYPE, LANG",
                text:
                  "a locale that is not UTF-8 (LANG=C) gets ASCII only, as does the Linux console (TERM=linux), and the browser and show's pictures on a terminal that draws box-drawing characters two columns wide (a CJK setting; both ask the terminal)"
              ),
              Entry(term: "ESCDELAY", text: "ms to wait before a lone Esc counts (default 50)"),
              Entry(
                term: "DOGBREEDS_FAKE_LATENCY_MS",
                text: "delay each answer of --api fake (to see loading states)"),
            ])
        ]),
      Section(
        title: "FILES",
        blocks: [
          .paragraphs([
            "Breed list cache: $DOGBREEDS_CACHE_DIR, else $XDG_CACHE_HOME/dogbreeds, else ~/.cache/dogbreeds (with no home folder, one under the temporary folder). Written atomically; a damaged cache is ignored.",
            "Favourites: favourites.json in $DOGBREEDS_DATA_DIR, else $XDG_DATA_HOME/dogbreeds, else ~/.local/share/dogbreeds. Saves merge with other running apps' and scripts'; a damaged file is kept aside as favourites.json.damaged-TIME.",
          ])
        ]),
    ])

  /// The key table as the manual shows it: each place's title, and its bindings' keys and
  /// what they do. The one place the manual reads the key table.
  package static func keySections() -> [(title: String, keys: [(keys: String, does: String)])] {
    KeyPlace.allCases.map { place in
      (place.title, AppFeature.keys(of: place).map { ($0.keys, $0.does) })
    }
  }

  /// Where the help starts a term's text: a term is indented 2 (4 under a heading), its
  /// text starts this many columns after that.
  package static let termColumn = 23

  /// The manual as `--help` prints it, in lines of at most `width` columns.
  package func help(width: Int = 80) -> String {
    var lines = ["\(name) — \(summary)"]
    for section in sections {
      lines.append("")
      lines.append(section.title + (section.note.map { " (\($0))" } ?? ""))
      for (number, block) in section.blocks.enumerated() {
        // Blocks apart, but a heading's entries follow the entries before them.
        if number > 0, !block.isHeaded { lines.append("") }
        switch block {
        case .lines(let kept): lines += kept.map { "  " + $0 }
        case .paragraphs(let paragraphs):
          for paragraph in paragraphs {
            lines += ModalBox.wrap(paragraph, width: width - 2).map { "  " + $0 }
          }
        case .entries(let heading, let entries):
          let indent = heading == nil ? 2 : 4
          if let heading { lines.append("  " + heading) }
          for entry in entries { lines += Self.lines(entry, indent: indent, width: width) }
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// An entry's lines: the term, then its text wrapped in a column of its own, beside the
  /// term where the term leaves room, else under it.
  private static func lines(_ entry: Entry, indent: Int, width: Int) -> [String] {
    let column = indent + termColumn
    let text = ModalBox.wrap(entry.text, width: width - column)
    let pad = String(repeating: " ", count: column)
    let term = String(repeating: " ", count: indent) + entry.term
    let termWidth = DisplayWidth.of(term)
    guard termWidth < column, let first = text.first else {
      return [term] + text.map { pad + $0 }
    }
    return [term + String(repeating: " ", count: column - termWidth) + first]
      + text.dropFirst().map { pad + $0 }
  }
}

extension Arguments {
  /// What `--help` prints: the usage, the options, the keys, the exit statuses, the
  /// environment and the files.
  package static let help = Manual.app.help()
}
