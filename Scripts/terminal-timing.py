#!/usr/bin/env python3
"""Times commands in the terminal it runs in, in alternating rounds.

    xterm -e Scripts/terminal-timing.py OUT.json ROUNDS 'LABEL=COMMAND ...' ...
    kitty Scripts/terminal-timing.py OUT.json ROUNDS 'LABEL=COMMAND ...' ...

Started as a terminal's program, it runs each command with its output on that terminal,
from the spawn to the exit (what the terminal takes in slows a command that writes much),
clearing the screen and kitty's pictures before each run. The commands run in rotating
order, round after round; the median, quartiles and minimum of each go to OUT.json.
Development only (Performance.md says what was measured with it)."""
import json, shlex, statistics, subprocess, sys, time


def main():
    out, rounds = sys.argv[1], int(sys.argv[2])
    specs = []
    for spec in sys.argv[3:]:
        label, command = spec.split('=', 1)
        specs.append((label, shlex.split(command)))
    times = {label: [] for label, _ in specs}
    for round in range(rounds):
        shift = round % len(specs)
        for label, words in specs[shift:] + specs[:shift]:
            sys.stdout.write('\033[H\033[2J\033_Ga=d\033\\')
            sys.stdout.flush()
            time.sleep(0.15)
            start = time.perf_counter()
            subprocess.run(words, stderr=subprocess.DEVNULL)
            times[label].append((time.perf_counter() - start) * 1000)
            time.sleep(0.15)
    results = {}
    for label, _ in specs:
        values = sorted(times[label])
        quartiles = statistics.quantiles(values, n=4)
        results[label] = dict(median=statistics.median(values), q1=quartiles[0], q3=quartiles[2], min=values[0])
    with open(out, 'w') as file:
        json.dump(results, file, indent=1)


main()
