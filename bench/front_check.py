"""The front patch's readings against a full warp's, frame by frame, on noisy real-like referee games
(issue 12; vision/front_patch.py).

Run: .venv/bin/python bench/front_check.py --only 130,138 [--games 200] [--seed 0] [--drift D] [--every N]

Plays the games of ``bench/bench_reallike.py --frames 0`` (the same tables, scripts and camera seeds:
sensor noise varying frame to frame) through the app with its incremental reader, the front patch
on. Every frame the reader reads is read twice from the same state: by a copy of the reader made
just before, with the whole canonical view and its gradients made as without the patch, and by the
reader itself, patched; the app goes on with the patched reading. It prints, per game, the frames
read, those read anew (not reused), and how many Observations differ: in any field (floats
exactly) and in what is read -- every point's, the bar's and the trays' likeliest counts, the dice
(value, half, flat, on a checker, moving, note), the cube, hand, motion, the trays' sources,
problems and pinned checkers -- with the first few such differences.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bench_reallike  # noqa: E402
from tavli_pi.vision import front_patch  # noqa: E402
from tavli_pi.vision.observation import Observation  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402


def reading(o: Observation) -> tuple[Any, ...]:
    """What an Observation reads, without its likelihoods and confidences."""
    return (tuple(p.light.best for p in o.points), tuple(p.dark.best for p in o.points),
            o.bar.light.best, o.bar.dark.best, o.off.light.best, o.off.dark.best,
            tuple((d.value, d.half, d.flat, d.on_checker, d.moving, d.note) for d in o.dice),
            (o.cube.value, o.cube.place) if o.cube is not None else None,
            o.hand, o.motion, o.off_source, o.problems, o.pinned)


class Tally:
    def __init__(self) -> None:
        self.frames = self.anew = self.fields = self.readings = 0
        self.firsts: list[str] = []
        self.area: list[float] = []  # share of the view made again, each patched read

    def add(self, kind: str, full: Observation, patched: Observation) -> None:
        self.frames += 1
        self.anew += kind != "unchanged"
        diff = [f.name for f in dataclasses.fields(Observation) if getattr(full, f.name) != getattr(patched, f.name)]
        self.fields += bool(diff)
        if reading(full) != reading(patched):
            self.readings += 1
            if len(self.firsts) < 3:
                self.firsts.append(f"frame {patched.frame_index}: full {reading(full)!r:.300} / patched {reading(patched)!r:.300}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", required=True)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--drift", type=int, default=front_patch.DRIFT)
    ap.add_argument("--every", type=int, default=front_patch.WHOLE_EVERY)
    args = ap.parse_args()
    front_patch.DRIFT, front_patch.WHOLE_EVERY = args.drift, args.every
    tally = Tally()
    read = BoardReader.read

    def both(self: BoardReader, image: Any, frame_index: int = 0) -> Observation:
        front = self._front  # noqa: SLF001
        if front is None:
            return read(self, image, frame_index)
        front._drift, front._whole_every = args.drift, args.every  # noqa: SLF001
        twin = copy.deepcopy(self, {id(front): None})  # the same state, the whole view made as without the patch
        full = read(twin, image, frame_index)
        patched = read(self, image, frame_index)
        tally.add(self.last_kind, full, patched)
        if self.last_kind == "changed":
            h, w = self.layout.size[1], self.layout.size[0]
            tally.area.append(sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in front.windows) / (w * h))
        return patched

    BoardReader.read = both  # type: ignore[method-assign]
    for g in sorted(int(x) for x in args.only.split(",")):
        tally.__init__()  # type: ignore[misc]
        bench_reallike.games(args.games, args.seed, 8, verbose=True, only=frozenset({g}))
        print(f"game {g}: {tally.frames} frames read, {tally.anew} anew; Observations differing in any field "
              f"{tally.fields}, in the reading {tally.readings}; share of the view made again on a changed read: "
              f"median {np.median(tally.area) if tally.area else 0:.2f}, mean {np.mean(tally.area) if tally.area else 0:.2f}", flush=True)
        for line in tally.firsts:
            print("   ", line)


if __name__ == "__main__":
    main()
