#!/usr/bin/env bash
# The CPU the full-screen app takes while the Breed screen plays an animated GIF
# (Docs/Performance.md, "An animation playing"): a 480 × 270 GIF of 25 frames at 10
# frames a second, made with ImageMagick from a test photograph, served by a local
# server laid out as the Dog CEO API, shown by the release app in tmux at 80 × 24;
# the app's user and system time over SECONDS seconds (10 by default), from
# /proc/PID/stat, as a share of one core. Then the same with --loops 0 (the first
# frame alone), for the floor.
#
# Development only: needs tmux, ImageMagick (convert) and python3. Run from the
# repository root after `make release`:
#
#   Scripts/animation-cpu.sh [SECONDS] [COLUMNSxROWS]
set -euo pipefail

seconds=${1:-10}
size=${2:-80x24}
app=${DOGBREEDS_CLI:-$PWD/.build/release/DogBreedsCLI}
photo=$PWD/Tests/TextRenderingTests/Fixtures/photos/chelsea-360x240.jpg
port=${PORT:-8765}
work=$(mktemp -d)
session=dogbreeds-animation-cpu-$$
server=

cleanup() {
  tmux kill-session -t "$session" 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The GIF: the photograph at 480 × 270, each frame moved on and brightened a little.
convert "$photo" -resize 480x270^ -gravity center -extent 480x270 "$work/base.png"
for i in $(seq 0 24); do
  convert "$work/base.png" -roll +$((i * 19))+0 -modulate $((100 + i)),100,100 \
    "$work/frame-$(printf %02d "$i").png"
done
mkdir -p "$work/site/api/breeds/list" "$work/site/api/breed/hound/images" "$work/site/breeds/hound"
convert -delay 10 -loop 0 "$work"/frame-*.png -layers Optimize "$work/site/breeds/hound/dog.gif"
echo '{"message":{"hound":[],"pug":[]},"status":"success"}' >"$work/site/api/breeds/list/all"
echo "{\"message\":\"http://127.0.0.1:$port/breeds/hound/dog.gif\",\"status\":\"success\"}" \
  >"$work/site/api/breed/hound/images/random"
echo "GIF: $(identify "$work/site/breeds/hound/dog.gif" | wc -l) frames of 480x270," \
  "$(stat -c %s "$work/site/breeds/hound/dog.gif") bytes"

(cd "$work/site" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
sleep 1

# CPU seconds (user + system) the process `pid` has taken so far.
cpu() { awk -v tick="$(getconf CLK_TCK)" '{ print ($14 + $15) / tick }' "/proc/$1/stat"; }

measure() {
  local label=$1
  shift
  tmux new-session -d -s "$session" -x "${size%x*}" -y "${size#*x}" \
    "env COLORTERM=truecolor DOGBREEDS_DATA_DIR=$work/data DOGBREEDS_CACHE_DIR=$work/cache \
     $app --base-url http://127.0.0.1:$port/api $*"
  for _ in $(seq 50); do
    tmux capture-pane -p -t "$session" | grep -q Hound && break
    sleep 0.1
  done
  tmux send-keys -t "$session" Enter
  # Until the picture is on screen, and four seconds more: its frames decoded, and once
  # round them (2.5 s), each frame's cells fitted the first time it shows.
  for _ in $(seq 100); do
    tmux capture-pane -p -t "$session" | grep -q "dog.gif" && break
    sleep 0.1
  done
  sleep 4
  local pid before after
  pid=$(tmux list-panes -t "$session" -F '#{pane_pid}')
  before=$(cpu "$pid")
  sleep "$seconds"
  after=$(cpu "$pid")
  awk -v a="$before" -v b="$after" -v s="$seconds" -v l="$label" \
    'BEGIN { printf "%s: %.2f CPU s in %d s: %.1f %% of a core\n", l, b - a, s, 100 * (b - a) / s }'
  tmux kill-session -t "$session"
  sleep 0.5
}

measure "playing (25 frames at 10 fps, $size)"
measure "still (--loops 0, $size)" --loops 0
