#!/bin/sh
# Prints the `swift build` flags for an optimised DogBreedsCLI that carries the Swift
# runtime and Foundation inside it (`--static-swift-stdlib`): it starts in about half the
# time (no ~30 shared libraries to map and bind) and keeps working when the toolchain is
# upgraded or removed. libcurl stays a shared library of the system.
#
# FoundationNetworking's static library asks the linker for `-lcurl`, which needs the
# development link `libcurl.so`; a machine with only the toolchain has just the runtime
# library `libcurl.so.4`. Then a private link to it under .build/ is made and passed with
# `-L`. On other systems, or without libcurl at all, nothing is printed: an ordinary
# dynamically linked build.
set -eu
[ "$(uname -s)" = Linux ] || exit 0
ldconfig_list=$( (ldconfig -p || /sbin/ldconfig -p) 2>/dev/null ) || exit 0
if printf '%s\n' "$ldconfig_list" | grep -q '^[[:space:]]*libcurl\.so[[:space:]]'; then
  echo "--static-swift-stdlib"
  exit 0
fi
runtime=$(printf '%s\n' "$ldconfig_list" | awk '$1 == "libcurl.so.4" && /x86-64|aarch64|AArch64/ { print $NF; exit }')
[ -n "$runtime" ] && [ -e "$runtime" ] || exit 0
dir="$(cd "$(dirname "$0")/.." && pwd)/.build/link-libcurl"
mkdir -p "$dir"
ln -sf "$runtime" "$dir/libcurl.so"
echo "--static-swift-stdlib -Xlinker -L$dir"
