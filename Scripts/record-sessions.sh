#!/usr/bin/env bash
# Records the sessions the AppFeature tests are made from, in tmux, with the debug build,
# against the stub server on this machine (one that fails 30% of requests, one that does
# not), into Tests/AppFeatureTests/Recordings; then writes the tests again
# (`make session-tests`). For when the app's state or actions change and the logs no longer
# replay to their recorded states (`make session-tests` refuses them then).
#
#   Scripts/record-sessions.sh
#
# Needs tmux and python3. Favourites go to a scratch home, never the user's.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product DogBreedsCLI
scratch=$(mktemp -d)
picture=Tests/ImageDecodingTests/Fixtures/jpeg/g-detailed-500x375.jpg
out=Tests/AppFeatureTests/Recordings
mkdir -p "$out"
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  tmux kill-session -t dogbreeds-recording 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# record NAME PORT FAILING WIDTH HEIGHT KEYS…: one session; each key is sent, then a pause
# (a key `sleep:S` pauses S seconds, `resize:WxH` resizes the window).
record() {
  local name=$1 port=$2 failing=$3 width=$4 height=$5
  shift 5
  python3 Scripts/dog-api-stub.py "$port" "$picture" "$failing" &
  servers+=($!)
  sleep 1
  mkdir -p "$scratch/$name"
  local home=$scratch/$name
  tmux new-session -d -s dogbreeds-recording -x "$width" -y "$height" \
    "env HOME=$home XDG_CONFIG_HOME=$home/config XDG_CACHE_HOME=$home/cache TERM=xterm-256color .build/debug/DogBreedsCLI --base-url http://127.0.0.1:$port/api --record $scratch/$name.jsonl; sleep 5"
  sleep 3
  for key in "$@"; do
    case $key in
      sleep:*) sleep "${key#sleep:}" ;;
      resize:*)
        size=${key#resize:}
        tmux resize-window -t dogbreeds-recording -x "${size%x*}" -y "${size#*x}"
        sleep 2
        ;;
      *) tmux send-keys -t dogbreeds-recording "$key"; sleep 1 ;;
    esac
  done
  sleep 2
  tmux kill-session -t dogbreeds-recording 2>/dev/null || true
  cp "$scratch/$name.jsonl" "$out/$name.jsonl"
  .build/debug/DogBreedsCLI replay "$out/$name.jsonl" --check
}

# A flaky server: the list, a breed's picture three times, a star, its thumbnail on the
# Favourites tab, another breed whose
# picture fails, a marker.
record flaky-server 18768 0.3 100 30 \
  h sleep:1 Enter sleep:2 n sleep:1 n f C-t Escape Tab sleep:2 Tab BSpace p Enter sleep:1 C-t Escape C-c
# A working server: the keys overlay, moving, a breed and a sub-breed, a resize, a star, the
# tabs (the Favourites tab with its thumbnail).
record breeds-and-tabs 18769 0 90 28 \
  '?' Escape Down Up Enter sleep:1 Down Enter sleep:1 resize:110x34 f Escape Tab sleep:2 Tab C-c
# A bug report against a flaky server: both tabs, a breed typed and opened, retried,
# starred, its thumbnail, opened from the Favourites tab, another picture asked for.
record bug-report 18770 0.3 120 32 \
  Tab Tab p u Enter sleep:1 r sleep:0.5 f sleep:0.5 Escape sleep:0.5 Tab sleep:0.5 Enter sleep:1 n sleep:0.5 \
  Escape C-c
make session-tests
