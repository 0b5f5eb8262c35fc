#!/usr/bin/env bash
# Compiles the terminfo entries the tests read (Tests/Support/terminfo), from the sources
# below, with ncurses' tic: small entries of our own, each standing for a kind of terminal,
# in both of the compiled formats (the legacy one, 16-bit numbers; and the extended one,
# 32-bit numbers, which tic writes where a number is beyond 32767). Development only: the
# compiled files are committed, so that no test depends on the terminfo of the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Support/terminfo
rm -rf "$out"
mkdir -p "$out"
source=$(mktemp)
trap 'rm -f "$source"' EXIT
cat >"$source" <<'TERMINFO'
# No colours at all: a VT100.
vt100|DogBreeds fixture: no colours,
	am, cols#80, it#8, lines#24,
	bold=\E[1m, clear=\E[H\E[J, cup=\E[%i%p1%d;%p2%dH, rev=\E[7m,
	sgr0=\E[m,
# No colours, in an entry of xterm's name.
xterm-mono|DogBreeds fixture: no colours under an xterm name,
	use=vt100,
# Eight colours (the legacy format).
xterm|DogBreeds fixture: eight colours,
	colors#8, pairs#64,
	setab=\E[4%p1%dm, setaf=\E[3%p1%dm, use=vt100,
linux|DogBreeds fixture: the Linux console, eight colours,
	use=xterm,
# Colours taken away again (colors@): the number is cancelled.
xterm-cancelled|DogBreeds fixture: colours cancelled,
	colors@, pairs@, use=xterm,
# 256 colours in the legacy format (pairs within 16 bits).
xterm-256color|DogBreeds fixture: 256 colours, legacy format,
	colors#256, pairs#32767,
	setab=\E[48;5;%p1%dm, setaf=\E[38;5;%p1%dm, use=vt100,
# 256 colours in the extended format (pairs beyond 16 bits), under a name that does not say so.
extended-256|DogBreeds fixture: 256 colours, extended format,
	colors#256, pairs#65536, use=xterm-256color,
# Direct colour: 2^24 colours.
xterm-direct|DogBreeds fixture: direct colour,
	colors#0x1000000, pairs#0x10000, use=xterm-256color,
TERMINFO
tic -o "$out" "$source"
find "$out" -type f | sort
