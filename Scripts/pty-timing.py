#!/usr/bin/env python3
"""Times commands end to end in a fresh pseudo-terminal each run, in alternating rounds.

    Scripts/pty-timing.py ROUNDS 'LABEL=[VAR=VALUE ...] COMMAND ...' ...

Each run gets a new pseudo-terminal of 80 x 24 cells (TERM=xterm-kitty, or PTY_TERM),
whose window reports no pixel sizes unless PTY_PIXELS=WIDTHxHEIGHT says so; everything the
command writes is read, and the run is timed from the fork to its exit with its output
drained. A label starting with '!' makes the terminal answer the attributes question
(ESC [ c) as a terminal does; otherwise it answers nothing, as `script` with its input not
a terminal. The commands run in rotating order, round after round; the median, quartiles
and minimum of each are printed, with the bytes it wrote. Development only (Performance.md
says what was measured with it)."""
import os, pty, sys, time, fcntl, termios, struct, select, statistics, shlex


def run(words, extra, answers):
    master, slave = pty.openpty()
    pixels = [int(n) for n in os.environ.get('PTY_PIXELS', '0x0').split('x')]
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, 80, *pixels))
    env = dict(os.environ, TERM=os.environ.get('PTY_TERM', 'xterm-kitty'))
    env.update(extra)
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.close(slave)
        os.execvpe(words[0], words, env)
    os.close(slave)
    total, tail = 0, b''
    while True:
        try:
            ready, _, _ = select.select([master], [], [], 5)
            if not ready:
                break
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        total += len(data)
        if answers:
            tail = (tail + data)[-8:]
            if b'\x1b[c' in tail:
                os.write(master, b'\x1b[?62;22c')
                tail = b''
    os.waitpid(pid, 0)
    elapsed = (time.perf_counter() - start) * 1000
    os.close(master)
    return elapsed, total


def main():
    rounds = int(sys.argv[1])
    specs = []
    for spec in sys.argv[2:]:
        label, command = spec.split('=', 1)
        words, extra = shlex.split(command), {}
        while words and '=' in words[0] and not words[0].startswith('/'):
            name, value = words.pop(0).split('=', 1)
            extra[name] = value
        specs.append((label, words, extra))
    times = {label: [] for label, _, _ in specs}
    sizes = {}
    for round in range(rounds):
        shift = round % len(specs)
        for label, words, extra in specs[shift:] + specs[:shift]:
            elapsed, sizes[label] = run(words, extra, label.startswith('!'))
            times[label].append(elapsed)
    for label, _, _ in specs:
        values = sorted(times[label])
        quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
        print(f'{label:30s} median {statistics.median(values):6.1f} ms  '
              f'(quartiles {quartiles[0]:.1f}–{quartiles[2]:.1f}, min {values[0]:.1f})  {sizes[label]} bytes')


main()
