#!/usr/bin/env python3
"""Exec to first paint of the lab's window against a minimal QMainWindow.

Starts firstpaint_bench `minimal` and `lab` in turn, pair by pair, and reads
from each the moment its whole window had painted (CLOCK_MONOTONIC, which
time.monotonic_ns reads too). Prints each one's median and the median of the
pairs' ratios. Run it where the window can show: under X (DISPLAY set), e.g.
`Xvfb :77 -screen 0 1280x720x24 & DISPLAY=:77 python3 tests/bench/firstpaint.py`.

    python3 tests/bench/firstpaint.py [pairs] [path to firstpaint_bench]
"""
import os
import statistics
import subprocess
import sys

PAIRS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
BENCH = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'tests', 'bench',
    'firstpaint_bench')


def first_paint_ms(which):
    started = time_ns()
    out = subprocess.run([BENCH, which], capture_output=True, text=True, check=True).stdout
    painted = next(int(line.split()[1]) for line in out.splitlines() if line.startswith('painted '))
    return (painted - started) / 1e6


def time_ns():
    import time
    return time.monotonic_ns()


def main():
    first_paint_ms('minimal')  # warm the caches once
    first_paint_ms('lab')
    lab, minimal, ratios = [], [], []
    for _ in range(PAIRS):
        m = first_paint_ms('minimal')
        l = first_paint_ms('lab')
        minimal.append(m)
        lab.append(l)
        ratios.append(l / m)
    print(f"exec to first paint, {PAIRS} pairs, medians: lab {statistics.median(lab):.0f} ms, "
          f"minimal {statistics.median(minimal):.0f} ms; ratio of pairs: median "
          f"{statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")


if __name__ == '__main__':
    main()
