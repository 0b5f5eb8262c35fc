import DogAPIClient
import Foundation
import LocalFiles
import TextRendering

/// A shell `completions` writes a script for.
package enum Shell: String, CaseIterable, Equatable, Sendable {
  case bash, zsh, fish
}

/// The shells' completion scripts (`DogBreedsCLI completions bash|zsh|fish`), made from
/// the parser's own tables (``Arguments/options``, ``Arguments/commands``), and the breed
/// names they offer (`DogBreedsCLI completions --names [PREFIX]`, which the scripts run
/// as the user presses Tab).
package enum Completions {
  /// The program the scripts complete.
  package static let program = "DogBreedsCLI"

  /// Prints what `request` asks for.
  package static func run(_ request: Options.CompletionRequest, environment: [String: String]) -> Int32 {
    switch request {
    case .script(let shell):
      Output.write(script(for: shell))
    case .names(let prefix):
      Output.text(names(startingWith: prefix, environment: environment).map { $0 + "\n" }.joined())
    }
    return ExitCode.success
  }

  // MARK: - Breed names

  /// The breed names a shell offers where a breed goes, for a word that starts with
  /// `prefix`: each breed and sub-breed as the API names it (`hound`, `hound/afghan`),
  /// then as the list shows it (`Hound`, `Afghan Hound`). From the list saved by the last
  /// run that reached the network, else the one built in: never the network, so that Tab
  /// never waits. A name in a damaged saved list that is no breed name is left out.
  ///
  /// Names that start with `prefix` as typed; where none does, those that start with it in
  /// any case (`HOU`: `hound`…).
  package static func names(startingWith prefix: String, environment: [String: String]) -> [String] {
    let cache = BreedListCache(directory: UserFolders(environment: environment).cache)
    let breeds = (cache.load() ?? DogAPIClient.bundledBreedList).breeds.filter { BreedName.isValid($0.name) }
    var paths: [String] = []
    var titles: [String] = []
    for breed in breeds {
      paths.append(breed.name)
      titles.append(.breedName(breed.name))
      for subBreed in breed.subBreeds where BreedName.isValid(subBreed) {
        paths.append(BreedName.path(breed.name, subBreed))
        titles.append(.breedTitle(breed.name, subBreed: subBreed))
      }
    }
    var seen: Set<String> = []
    let all = (paths.sorted() + titles.sorted()).filter { seen.insert($0).inserted }
    let exact = all.filter { $0.hasPrefix(prefix) }
    guard exact.isEmpty else { return exact }
    let folded = prefix.lowercased()
    return all.filter { $0.lowercased().hasPrefix(folded) }
  }

  // MARK: - Scripts

  /// The completion script for `shell`.
  package static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: bash()
    case .zsh: zsh()
    case .fish: fish()
    }
  }

  /// The options a shell offers, by the names the help lists.
  private static var offered: [OptionSpec] { Arguments.listedOptions }

  /// Every name of every option that takes a value, hidden ones and aliases included: the
  /// word after one is its value, not a command.
  private static var valueNames: [String] {
    Arguments.options.filter { $0.value != nil }.flatMap(\.allNames)
  }

  /// What an option does, in a line a shell can show beside it: its first clause, cut
  /// short where that is long.
  package static func shortHelp(_ text: String) -> String {
    var short = Substring(text)
    for end in ["; ", ". "] {
      if let range = short.range(of: end) { short = short[..<range.lowerBound] }
    }
    if short.count > 60 {
      let cut = short.prefix(57)
      short = Substring(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)] + "...")
    }
    // A bracket the cut left open is closed.
    let open = short.count { $0 == "(" } - short.count { $0 == ")" }
    return String(short) + String(repeating: ")", count: max(0, open))
  }

  /// `text` in single quotes, for bash and zsh.
  package static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// `text` in single quotes, for fish (which escapes `\` and `'` inside them).
  package static func fishQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
  }

  private static let header = """
    # Completions for \(program): written by `\(program) completions SHELL` from the
    # parser's own tables. Breed names come from `\(program) completions --names`, which
    # reads the saved breed list (or the built-in one), never the network.
    """

  /// The arms of a `case` on the command, in bash and zsh alike, `indent` columns in: by
  /// how many words of the command are typed, what `offer` offers.
  private static func commandArms(indent: Int, _ offer: (Completion) -> String) -> String {
    let pad = String(repeating: " ", count: indent)
    return Arguments.commands.map { command in
      let names = command.allNames.joined(separator: "|")
      guard !command.arguments.isEmpty || command.rest != .nothing else { return "\(pad)\(names)) ;;" }
      let positions = command.arguments.enumerated().map {
        "\(pad)    \($0.offset + 1)) \(offer($0.element)) ;;"
      }
      return
        (["\(pad)\(names))", "\(pad)  case ${#args[@]} in"] + positions + [
          "\(pad)    *) \(offer(command.rest)) ;;", "\(pad)  esac ;;",
        ]).joined(separator: "\n")
    }
    .joined(separator: "\n")
  }

  // MARK: bash

  private static func bash() -> String {
    func offer(_ completion: Completion) -> String {
      switch completion {
      case .nothing: ":"
      case .words(let words):
        #"mapfile -t COMPREPLY < <(compgen -W \#(quoted(words.joined(separator: " "))) -- "$cur")"#
      case .files: #"_\#(program)_files "$cur""#
      case .breeds: #"_\#(program)_breeds "$cur""#
      }
    }
    let valueArms = offered.compactMap { option in
      option.value.map { "      \(option.allNames.joined(separator: "|"))) \(offer($0.completion)) ;;" }
    }
    let optionNames = offered.flatMap(\.names).joined(separator: " ")
    let commandNames = Arguments.commands.map(\.name).joined(separator: " ")
    return #"""
      \#(header)
      # bash: source this file, or install it as
      # share/bash-completion/completions/\#(program).

      _\#(program)_files() {
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$1")
      }

      _\#(program)_breeds() {
        local program=${COMP_WORDS[0]} word=$1 quote= name
        [[ $program == "~/"* ]] && program=$HOME/${program:2}
        case $word in
          \"* | \'*) quote=${word:0:1} word=${word:1} ;;
        esac
        word=${word//\\/}
        while IFS= read -r name; do
          [[ -z $quote ]] && printf -v name '%q' "$name"
          COMPREPLY+=("$quote$name")
        done < <("$program" completions --names -- "$word" 2>/dev/null)
      }

      _\#(program)() {
        COMPREPLY=()
        local cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} prev= join=
        ((cword > 0)) && prev=${COMP_WORDS[cword - 1]}
        # --option=value: one word, or three where COMP_WORDBREAKS holds "=".
        if [[ $cur == --*=* ]]; then
          prev=${cur%%=*} cur=${cur#*=}
          join=$prev=
        elif [[ $cur == = ]]; then
          cur=
        elif [[ $prev == = ]] && ((cword > 1)); then
          prev=${COMP_WORDS[cword - 2]}
        fi
        # An option's value.
        local valued=
        if [[ $prev == -* ]]; then
          valued=1
          case $prev in
      \#(valueArms.joined(separator: "\n"))
            *) valued= ;;
          esac
        fi
        # The words so far that are neither options nor their values: the command and its
        # arguments.
        local -a args=()
        local i word
        for ((i = 1; i < cword; i++)); do
          word=${COMP_WORDS[i]}
          case $word in
            \#(valueNames.joined(separator: "|")))
              ((i++))
              [[ ${COMP_WORDS[i]} == = ]] && ((i++))
              ;;
            -* | =) ;;
            *) args+=("$word") ;;
          esac
        done
        if [[ -n $valued ]]; then
          :
        elif [[ $cur == -* ]]; then
          mapfile -t COMPREPLY < <(compgen -W \#(quoted(optionNames)) -- "$cur")
        else
          case ${args[0]} in
            '') mapfile -t COMPREPLY < <(compgen -W \#(quoted(commandNames)) -- "$cur") ;;
      \#(commandArms(indent: 6, offer))
          esac
        fi
        [[ -n $join ]] && COMPREPLY=("${COMPREPLY[@]/#/$join}")
        return 0
      }

      complete -F _\#(program) \#(program)

      """#
  }

  // MARK: zsh

  private static func zsh() -> String {
    func offer(_ completion: Completion) -> String {
      switch completion {
      case .nothing: "_message 'no completions'"
      case .words(let words): "compadd -- \(words.map(quoted).joined(separator: " "))"
      case .files: "_files"
      case .breeds: "_\(program)_breeds"
      }
    }
    let valueArms = offered.compactMap { option in
      option.value.map { value in
        // Free text: zsh says what is wanted.
        let action =
          value.completion == .nothing ? "_message \(quoted(value.placeholder))" : offer(value.completion)
        return "      \(option.allNames.joined(separator: "|"))) \(action); return ;;"
      }
    }
    let optionList = offered.flatMap { option in
      option.names.map { "    " + quoted("\($0):\(shortHelp(option.help))") }
    }
    let commandList = Arguments.commands.map { "    " + quoted("\($0.name):\($0.summary)") }
    return #"""
      #compdef \#(program)
      \#(header)
      # zsh: install it as _\#(program) in a folder of $fpath (share/zsh/site-functions),
      # or source it after compinit.

      _\#(program)_breeds() {
        local program=${words[1]/#\~/$HOME}
        local -a names
        names=(${(f)"$($program completions --names 2>/dev/null)"})
        compadd -a names
      }

      _\#(program)() {
        local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
        local -a option_list command_list args
        option_list=(
      \#(optionList.joined(separator: "\n"))
        )
        command_list=(
      \#(commandList.joined(separator: "\n"))
        )
        # --option=value: the value is completed after the "=".
        if [[ $cur == --*=* ]]; then
          prev=${cur%%=*}
          compset -P '*='
          cur=${cur#*=}
        elif [[ $prev == = ]]; then
          prev=${words[CURRENT-2]}
        fi
        if [[ $prev == -* ]]; then
          case $prev in
      \#(valueArms.joined(separator: "\n"))
          esac
        fi
        # The words so far that are neither options nor their values.
        local i
        for ((i = 2; i < CURRENT; i++)); do
          case ${words[i]} in
            \#(valueNames.joined(separator: "|"))) ((i++)) ;;
            -*) ;;
            *) args+=("${words[i]}") ;;
          esac
        done
        if [[ $cur == -* ]]; then
          _describe -t options option option_list
          return
        fi
        case ${args[1]} in
          '') _describe -t commands command command_list ;;
      \#(commandArms(indent: 4, offer))
        esac
      }

      if [[ $funcstack[1] == _\#(program) ]]; then
        _\#(program) "$@"
      else
        compdef _\#(program) \#(program)
      fi

      """#
  }

  // MARK: fish

  private static func fish() -> String {
    func offer(_ completion: Completion, when condition: String) -> String {
      let start = "complete -c \(program) -n \(fishQuoted(condition))"
      switch completion {
      case .nothing: return ""
      case .words(let words): return "\(start) -a \(fishQuoted(words.joined(separator: " ")))"
      case .files: return "\(start) -F"
      case .breeds: return "\(start) -a '(__\(program)_breeds)'"
      }
    }
    let optionLines = offered.map { option in
      var line = "complete -c \(program)"
      for name in option.names {
        line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
      }
      switch option.value?.completion {
      case nil: break
      case .nothing: line += " -x"
      case .words(let words): line += " -x -a \(fishQuoted(words.joined(separator: " ")))"
      case .files: line += " -r -F"
      case .breeds: line += " -x -a '(__\(program)_breeds)'"
      }
      return line + " -d \(fishQuoted(shortHelp(option.help)))"
    }
    let commandLines = Arguments.commands.map { command in
      "complete -c \(program) -n '__\(program)_at 0' -a \(command.name) -d \(fishQuoted(command.summary))"
    }
    let argumentLines = Arguments.commands.flatMap { command in
      let names = command.allNames.joined(separator: " ")
      return command.arguments.enumerated().map {
        offer($0.element, when: "__\(program)_at \($0.offset + 1) \(names)")
      }
        + [offer(command.rest, when: "__\(program)_at \(command.arguments.count + 1)+ \(names)")]
    }
    return #"""
      \#(header)
      # fish: install it as share/fish/vendor_completions.d/\#(program).fish, or source it.

      # The words before the cursor that are neither options nor their values.
      function __\#(program)_args
          set -l tokens (commandline -opc)
          set -e tokens[1]
          set -l skip 0
          for token in $tokens
              if test $skip -eq 1
                  set skip 0
                  continue
              end
              switch $token
                  case \#(valueNames.joined(separator: " "))
                      set skip 1
                  case '-*'
                  case '*'
                      echo $token
              end
          end
      end

      # Whether there are COUNT such words (COUNT+: at least COUNT), the first one of NAMES.
      function __\#(program)_at
          set -l args (__\#(program)_args)
          set -l count (string trim -r -c + -- $argv[1])
          if string match -q -- '*+' $argv[1]
              test (count $args) -ge $count; or return 1
          else
              test (count $args) -eq $count; or return 1
          end
          test $count -eq 0; or contains -- $args[1] $argv[2..-1]
      end

      function __\#(program)_breeds
          set -l program (commandline -opc)[1]
          set program (string replace -r '^~/' "$HOME/" -- $program)
          $program completions --names 2>/dev/null
      end

      complete -c \#(program) -f
      \#((optionLines + commandLines + argumentLines.filter { !$0.isEmpty }).joined(separator: "\n"))

      """#
  }
}
