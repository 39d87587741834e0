"""Every Observation of a fixed set of streams, pickled, to compare two trees field for field (issue 12).

Run (once in each tree, then compare; PYTHONPATH names the tree read, whichever tree this file is in):
    PYTHONPATH=<tree> .venv/bin/python bench/probe_observations.py dump OUT.pkl [--random 1,2,5] [--reallike 100,103]
    .venv/bin/python bench/probe_observations.py compare BASE.pkl BRANCH.pkl

A speed change must leave every reading as it was. ``dump`` reads:

* the demo (every frame) and random games (``--random``; 3 turns below game 4, else 8), each
  frame through a full reader and an incremental one (``BoardReader(cal, incremental=True)``),
  rendered as ``bench/bench_loop.py`` renders them (noise-free);
* the real-like referee games (``--reallike``, as ``bench_reallike.py --frames 0 --games 200
  --only G`` plays them: sensor noise drawn afresh each frame, JPEG on some cameras), every
  ``BoardReader.read`` the app makes, with the reader's kind (``photo`` for the set-up's
  single-photo reads).

Each row holds the pickled Observation(s) and the kind of read; ``compare`` prints, per stream,
how many rows differ (a pickle holds every field, floats to the bit) and the first few frames that
do, and exits 1 when any differ. The process runs as the app does (one OpenCV / BLAS thread, the
heap kept: neither changes a value).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path
from typing import Any

# appended, not put first: the tree on PYTHONPATH is the one read (a base worktree dumped with this
# file), this file's own only when none is given
sys.path.append(str(Path(__file__).resolve().parent.parent))

from tavli_pi.memory import keep_heap  # noqa: E402
from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()
keep_heap()

Rows = dict[str, list[tuple[Any, ...]]]


def _ints(s: str) -> list[int]:
    return [int(x) for x in s.split(",") if x.strip()]


def dump(out: str, randoms: list[int], reallike: list[int]) -> Rows:
    """The rows of every stream (see the module doc), also written to ``out``."""
    from bench.bench_loop import _frames
    from tavli_pi.sim.script import demo_match, random_game
    from tavli_pi.vision.reader import BoardReader

    rows: Rows = {}
    t0 = time.time()
    sets = [("demo", demo_match(), 7)] + [(f"random{g}", random_game(g, turns=3 if g < 4 else 8), g) for g in randoms]
    for name, moments, seed in sets:
        frames, cal = _frames(moments, seed)
        full, inc = BoardReader(cal), BoardReader(cal, incremental=True)
        got = []
        for i, f in enumerate(frames):
            a = full.read(f.image, i)
            b = inc.read(f.image, i)
            got.append((pickle.dumps(a), pickle.dumps(b), inc.last_kind))
        rows[name] = got
        print(f"{name}: {len(got)} frames, {time.time() - t0:.0f} s", flush=True)
    if reallike:
        from bench import bench_reallike

        read = BoardReader.read
        cur: list[tuple[Any, ...]] = []

        def probe(self: BoardReader, image: Any, frame_index: int = 0) -> Any:
            obs = read(self, image, frame_index)
            cur.append((pickle.dumps(obs), self.last_kind if self.incremental else "photo"))
            return obs

        BoardReader.read = probe  # type: ignore[method-assign]
        try:
            for g in reallike:
                cur.clear()
                bench_reallike.games(200, 0, 8, only=frozenset({g}))
                rows[f"reallike{g}"] = list(cur)
                print(f"real-like game {g}: {len(cur)} reads, {time.time() - t0:.0f} s", flush=True)
        finally:
            BoardReader.read = read  # type: ignore[method-assign]
    with open(out, "wb") as f:
        pickle.dump(rows, f)
    return rows


def compare(a: Rows, b: Rows, show: int = 3) -> int:
    """Rows differing between two dumps, per stream (printed); the total."""
    total = differ = 0
    for name in sorted(set(a) | set(b)):
        ra, rb = a.get(name, []), b.get(name, [])
        bad = [i for i, (x, y) in enumerate(zip(ra, rb)) if x != y]
        d = len(bad) + abs(len(ra) - len(rb))
        where = f" (frames {bad[:show]}{'...' if len(bad) > show else ''})" if bad else ""
        print(f"{name}: {len(ra)} rows / {len(rb)}, differing {d}{where}")
        total += max(len(ra), len(rb))
        differ += d
    print(f"total {total} rows, differing {differ}")
    return differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out")
    d.add_argument("--random", default="1,2,5", help="random games (comma list; empty for none)")
    d.add_argument("--reallike", default="", help="real-like referee games (comma list)")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args()
    if args.cmd == "dump":
        dump(args.out, _ints(args.random), _ints(args.reallike))
    else:
        with open(args.a, "rb") as fa, open(args.b, "rb") as fb:
            sys.exit(1 if compare(pickle.load(fa), pickle.load(fb)) else 0)


if __name__ == "__main__":
    main()
