#!/usr/bin/env python3
"""Times commands in a real kitty: run it inside kitty, which runs under Xvfb, e.g.

    Xvfb :42 -screen 0 1280x800x24 &
    DISPLAY=:42 LIBGL_ALWAYS_SOFTWARE=1 kitty --config NONE -o initial_window_width=80c \\
      -o initial_window_height=24c -o remember_window_size=no \\
      python3 Scripts/kitty-timing.py ROUNDS commands.json results.txt

commands.json is a list of {"label": ..., "cmd": shell command, "env": {optional}}. For
each round and command (in rotating order) it clears the screen and deletes kitty's
pictures, runs the command on the terminal, notes when it exits, then sends a graphics
query (a=q) and notes when kitty answers it: kitty answers only once it has parsed
everything before the query and loaded the picture. The medians and quartiles of both
times go to results.txt. Development only (Performance.md says what was measured with it)."""
import os, sys, time, termios, tty, select, subprocess, statistics, json

rounds, commands, results_path = int(sys.argv[1]), json.load(open(sys.argv[2])), sys.argv[3]
saved = termios.tcgetattr(0)


def wait_for_kitty(timeout=10):
    """Sends a graphics query and reads until its answer (or the timeout)."""
    tty.setraw(0)
    os.write(1, b'\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\')
    answer, end = b'', time.perf_counter() + timeout
    while not (b'i=31' in answer and b'\x1b\\' in answer.split(b'i=31', 1)[1]):
        ready, _, _ = select.select([0], [], [], max(0, end - time.perf_counter()))
        if not ready:
            break
        answer += os.read(0, 4096)
    termios.tcsetattr(0, termios.TCSANOW, saved)
    return answer


times = {c['label']: {'exit': [], 'drawn': []} for c in commands}
for round in range(rounds):
    shift = round % len(commands)
    for command in commands[shift:] + commands[:shift]:
        os.write(1, b'\x1b_Ga=d\x1b\\\x1b[H\x1b[2J')
        wait_for_kitty()
        env = dict(os.environ, **command.get('env', {}))
        start = time.perf_counter()
        subprocess.run(command['cmd'], shell=True, env=env, stdin=0, stdout=1, stderr=subprocess.DEVNULL)
        exited = time.perf_counter()
        answer = wait_for_kitty()
        drawn = time.perf_counter()
        times[command['label']]['exit'].append((exited - start) * 1000)
        times[command['label']]['drawn'].append((drawn - start) * 1000 if b'OK' in answer else float('nan'))
with open(results_path, 'w') as results:
    for label, measured in times.items():
        line = f'{label:34s}'
        for kind in ('exit', 'drawn'):
            values = sorted(measured[kind])
            quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
            line += f'  {kind} median {statistics.median(values):6.1f} ms (quartiles {quartiles[0]:.1f}–{quartiles[2]:.1f})'
        results.write(line + '\n')
