"""Base against branch: CPU of TableApp.process on the changed frames, the two trees alternated (issue 12).

Run: .venv/bin/python bench/ab_loop.py BASE_TREE BRANCH_TREE [--rounds 2] [--frames 80]

Each round runs ``bench/profile_loop.py`` (the demo's first ``--frames`` frames at 10 fps through
a TableApp, incremental reading on) once in each tree, in a fresh process, the order swapped every
round, and prints its figures: process() and the stages' CPU (``thread_time``) medians and means
on the changed frames, with the load average beside each run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def main() -> None:
    args = sys.argv[1:]
    base, branch = Path(args[0]).resolve(), Path(args[1]).resolve()
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 2
    frames = args[args.index("--frames") + 1] if "--frames" in args else "80"
    script = Path(__file__).resolve().parent / "profile_loop.py"
    for r in range(rounds):
        order = [("base", base), ("branch", branch)]
        if r % 2:
            order.reverse()
        for name, tree in order:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            # the branch's profiler, importing the tree's tavli_pi (its stage list names only
            # functions both trees have)
            out = subprocess.run([sys.executable, str(script), "--frames", frames, "--tree", str(tree)],
                                 env=env, capture_output=True, text=True, check=True).stdout
            print(f"== round {r + 1}, {name} ({tree})\n{out}", flush=True)


if __name__ == "__main__":
    main()
