#!/bin/sh
# Prints `-use-ld=lld` (a swiftc flag) where the Swift toolchain on Linux carries lld, as
# swift.org's do; otherwise nothing, and swiftc links with its default, gold.
#
# Used for the links gold makes noisy: AddressSanitizer builds (gold warns "Cannot export
# local symbol" about each of the sanitizer's ~400 helpers) and the release build that
# carries Foundation (gold repeats glibc's warning about `mktemp`, which Foundation's
# atomic-write code references and uses safely: it opens the name with O_CREAT | O_EXCL and
# tries again if it is taken). lld links the same programs without them.
set -eu
[ "$(uname -s)" = Linux ] || exit 0
swift=$(command -v "${SWIFT:-swift}") || exit 0
tools=$(dirname "$(readlink -f "$swift")")
if [ -x "$tools/ld.lld" ] || command -v ld.lld >/dev/null 2>&1; then
  echo "-use-ld=lld"
fi
