"""Benchmark: cold start-up of every ``tavli-pi`` subcommand (issue 12, item 3 and 4).

Each command line runs as a fresh process (the installed ``tavli-pi`` entry
script of this venv), ``--repeat`` times, interleaved command by command so a
burst of load from other jobs hits all of them alike. Per command: wall time,
CPU (user + system, from ``os.wait4``) and peak RSS of the child; best and
median of the runs. A second, untimed run of each command line in-process
(``tavli_pi.cli.main`` under ``runpy``-like conditions) lists which heavy
modules it imported (cv2, numpy, aiohttp, paho, gpiozero, the simulator).

"Cold" means a new interpreter each time; the OS page cache is warm (the
first, untimed round warms it), as it is for a table that has run before.

Aim (issue 12): ``tavli-pi plays`` on one position in at most 0.3 s of wall
time from a cold start.

Run: .venv/bin/python bench/bench_startup.py [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRY = Path(sys.executable).with_name("tavli-pi")

#: (label, argv after ``tavli-pi``)
LINES: list[tuple[str, list[str]]] = [
    ("--help", ["--help"]),
    ("plays (one position)", ["plays", "4HPwATDgc/ABMA", "3", "1"]),
    ("plays --help", ["plays", "--help"]),
    ("read --help", ["read", "--help"]),
    ("run --help", ["run", "--help"]),
    ("demo --help", ["demo", "--help"]),
    ("export --help", ["export", "--help"]),
    ("director --help", ["director", "--help"]),
    ("markers --help", ["markers", "--help"]),
]
HEAVY = ("cv2", "numpy", "aiohttp", "paho", "gpiozero", "tavli_pi.sim", "tavli_pi.vision")

_PROBE = """
import contextlib, io, json, sys
from tavli_pi.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main(json.loads(sys.argv[1]))
    except SystemExit:
        pass
heavy = json.loads(sys.argv[2])
print(json.dumps([h for h in heavy if any(m == h or m.startswith(h + ".") for m in sys.modules)]))
"""


def run_once(argv: list[str]) -> tuple[float, float, float]:
    """Wall s, CPU s, peak RSS MiB of one cold ``tavli-pi ARGV``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([str(ENTRY), *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"tavli-pi {' '.join(argv)} exited {proc.returncode}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def heavy_modules(argv: list[str]) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv), json.dumps(HEAVY)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    loaded: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="cold runs per command line (default 7)")
    args = ap.parse_args()
    if not ENTRY.exists():
        raise SystemExit(f"{ENTRY} not found: install the package in this venv (scripts/setup.sh)")
    for _, argv in LINES:  # warm the page cache (untimed)
        run_once(argv)
    runs: dict[str, list[tuple[float, float, float]]] = {label: [] for label, _ in LINES}
    for _ in range(args.repeat):
        for label, argv in LINES:
            runs[label].append(run_once(argv))
    load = os.getloadavg()
    print(f"cold start-up, {args.repeat} runs per line interleaved, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
          f"({os.cpu_count()} cores), python {sys.version.split()[0]}")
    print(f"{'tavli-pi ...':<22} {'wall best/med s':>16} {'CPU best/med s':>16} {'RSS MiB':>8}  heavy modules imported")
    for label, argv in LINES:
        w = [r[0] for r in runs[label]]
        c = [r[1] for r in runs[label]]
        m = max(r[2] for r in runs[label])
        heavy = ", ".join(heavy_modules(argv)) or "none"
        print(f"{label:<22} {min(w):7.3f} /{statistics.median(w):6.3f}  {min(c):7.3f} /{statistics.median(c):6.3f}"
              f" {m:8.1f}  {heavy}")
    plays = runs["plays (one position)"]
    print(f"aim: plays on one position <= 0.3 s wall cold: best {min(r[0] for r in plays):.3f} s, "
          f"median {statistics.median(r[0] for r in plays):.3f} s")
    bare = [_child([sys.executable, "-c", "pass"]) for _ in range(args.repeat)]
    rules = [_child([sys.executable, "-c", "import tavli_pi.rules.moves, tavli_pi.rules.ids"])
             for _ in range(args.repeat)]
    print(f"for scale (best wall / CPU s): 'python -c pass' {min(x[0] for x in bare):.3f} / "
          f"{min(x[1] for x in bare):.3f}; importing only the rules {min(x[0] for x in rules):.3f} / "
          f"{min(x[1] for x in rules):.3f}")


def _child(cmd: list[str]) -> tuple[float, float]:
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, _, ru = os.wait4(proc.pid, 0)
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime


if __name__ == "__main__":
    main()
