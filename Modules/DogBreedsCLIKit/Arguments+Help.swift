import AppFeature
import DogAPIClient
import DogsFeature
import Foundation
import TextRendering

extension Arguments {
  /// What `--help` prints: the usage, the options, the keys, the exit statuses, the
  /// environment and the files.
  static let help = """
    DogBreedsCLI — browse dog breeds from the Dog CEO API.

    USAGE
      DogBreedsCLI [options]                 interactive browser (in a terminal)
      DogBreedsCLI list [--filter TEXT] [--json]
      DogBreedsCLI show BREED[/SUB-BREED] [--json] [--picture MODE] [--size WxH]
                             [--symbols SET] [--loops N]
      DogBreedsCLI favourites [--json]       the breeds you starred, one per line
      DogBreedsCLI favourites add|remove BREED[/SUB-BREED]...
      DogBreedsCLI --record FILE             the browser, recording to FILE
      DogBreedsCLI replay FILE [--check | --frame N|last]

    BREED is a name as listed (Hound, "Afghan Hound"), as the API names it (hound,
    hound/afghan), or as people write it ("Shih Tzu", "St. Bernard", "Brabançon":
    shihtzu, stbernard, brabancon).
    Without a command and without a terminal, `list` runs.

    OPTIONS (a value follows its option, or comes after "=": --filter=hou)
      --api live|fake        live API (default) or built-in fake data
      --base-url URL         API root (default https://dog.ceo/api;
                             env DOG_API_BASE_URL)
      --offline              no network: the cached or built-in breed list
      --fresh                list, show: exit 1 where a saved or built-in list
                             stands in for the network's (without it: exit 0,
                             with a warning on standard error)
      --timeout SECONDS      per request (default 10)
      --color auto|always|never
                             auto: only on a terminal, TERM not dumb, NO_COLOR unset
                             (CLICOLOR_FORCE/FORCE_COLOR force it); a picture
                             named by --picture is in colour even piped,
                             unless never or NO_COLOR
      --picture auto|blocks|256|ascii|kitty|iterm|sixel|none
                             how `show` and the Breed screen draw the picture
                             (the browser draws iterm in cells)
      --size WxH             show: the picture in at most W columns and H rows
                             (default: on a terminal, the largest that fits
                             the window with the text after it; otherwise 80
                             columns wide, or COLUMNS)
      --symbols auto|half|quadrant|block|line|sextant
                             show: the glyphs a picture in colour cells is
                             drawn with: half blocks; also quarters; also
                             eighths (block: all in the Unicode block of the
                             half block); also lines through the middle of a
                             cell (line, and auto: in any font with half
                             blocks); also sixths (a font with Symbols for
                             Legacy Computing, Unicode 13)
      --loops N              how many times an animated GIF plays, in show and
                             on the Breed screen, where the picture is in
                             colour cells (ASCII, kitty, iTerm2 and sixel
                             pictures stay still): N from 0 (the first frame
                             alone, as when piped) to 1000. By default, as the
                             file says; one that loops for ever plays 3 times
                             in show (10 s at most; Ctrl-C stops it), and on
                             the Breed screen for as long as it is shown
      --json                 machine-readable output (list, show; alone: list)
      --filter TEXT          only breeds whose name contains TEXT, or each of its
                             words (list; the browser starts with it typed)
      --trace                every action and state change to standard error
      --record FILE          the browser writes the session to FILE as it goes
                             (JSON Lines, readable by its owner only): every
                             action, so what you typed and chose, the server's
                             address and your favourites; the pictures shown;
                             the window's size and drawing settings. Nothing else.
                             replay FILE plays it back offline and writes nothing:
                             ← → step, PgUp PgDn (or Shift-← →) ten, Home End,
                             Space plays, d shows what the step changed, q quits
      --check                replay: exit 0 if every step arrives at the state
                             recorded, else 1 naming the first that does not
      --frame N|last         replay: print the screen after step N (0: the
                             start), plain when piped
      --no-mouse             the browser leaves the mouse to the terminal (by
                             default a click highlights or opens, the wheel moves;
                             Shift with the mouse selects text either way)
      -h, --help             this help
      --version              the version

    KEYS (the full-screen browser; there, ? shows the keys of the screen you are on)
    \(AppFeature.keyHelp(indent: 2, keyColumn: 23))

    EXIT STATUS
      0 success · 1 runtime failure (network, server, unwritable output)
      2 usage error · 3 not found · a closed pipe (| head) ends quietly with 0
      130/143/129/131 interrupted by SIGINT/SIGTERM/SIGHUP/SIGQUIT

    ENVIRONMENT
      DOG_API_BASE_URL       API root, when --base-url is not given
      http_proxy, https_proxy, ALL_PROXY, no_proxy
                             the proxy on Linux, by libcurl's rules, except that
                             this machine's own addresses are reached directly
                             (macOS uses the system's settings)
      NO_COLOR, CLICOLOR_FORCE, FORCE_COLOR, COLORTERM, TERM
                             colour policy (see --color) and depth; without
                             COLORTERM=truecolor, a terminal that says, when
                             asked, that it draws 24-bit colour gets it
      LC_ALL, LC_CTYPE, LANG a locale that is not UTF-8 (LANG=C) gets ASCII only,
                             as does the Linux console (TERM=linux), and the
                             browser and show's pictures on a terminal that
                             draws box-drawing characters two columns wide (a
                             CJK setting; both ask the terminal)
      ESCDELAY               ms to wait before a lone Esc counts (default 50)
      DOGBREEDS_FAKE_LATENCY_MS
                             delay each answer of --api fake (to see loading states)

    FILES
      Breed list cache: $DOGBREEDS_CACHE_DIR, else $XDG_CACHE_HOME/dogbreeds, else
      ~/.cache/dogbreeds (with no home folder, one under the temporary folder).
      Written atomically; a damaged cache is ignored.
      Favourites: favourites.json in $DOGBREEDS_DATA_DIR, else
      $XDG_DATA_HOME/dogbreeds, else ~/.local/share/dogbreeds. Saves merge with
      other running apps' and scripts'; a damaged file is kept aside as
      favourites.json.damaged-TIME.
    """
}
