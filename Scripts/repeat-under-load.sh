#!/usr/bin/env bash
# Runs a test filter N times in a row while every core is kept busy by another process,
# stopping at the first failure; prints how many runs passed. The tests must be built
# already (`swift build --build-tests`): each run is `swift test --skip-build`.
#
#   Scripts/repeat-under-load.sh 50 'CoreTests|CoreTestingTests|DogsFeatureTests'
#
# The load is one CPU-bound `yes > /dev/null` per core (LOAD_PROCESSES to change how
# many), started before the first run and stopped when the script ends.
set -u
runs=${1:?usage: $0 RUNS FILTER}
filter=${2:?usage: $0 RUNS FILTER}
swift=${SWIFT:-swift}
load=${LOAD_PROCESSES:-$(nproc)}

pids=()
stop_load() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_load EXIT
for _ in $(seq "$load"); do
  yes > /dev/null &
  pids+=($!)
done
echo "Load: $load 'yes' processes (pids ${pids[*]}) on $(nproc) cores."

log=$(mktemp)
passed=0
for run in $(seq "$runs"); do
  if "$swift" test --skip-build --filter "$filter" > "$log" 2>&1; then
    passed=$((passed + 1))
    echo "run $run: passed"
  else
    echo "run $run: FAILED; its output:"
    grep -E '✘|error:|failed' "$log" | head -40
    echo "$passed of $runs runs passed before the first failure (full output in $log)."
    exit 1
  fi
done
rm -f "$log"
echo "$passed of $runs runs passed, under load."
