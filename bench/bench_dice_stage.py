"""The dice stage's CPU time in the app's reader, per kind of read (issue 12).

Run: .venv/bin/python bench/bench_dice_stage.py [--every 3] [--games]

The demo match (and with ``--games`` random game 5, 8 turns) is rendered at 10 fps
and read twice: by an incremental ``BoardReader`` (as the app's frame loop reads;
its first frame is a full read, then ``changed`` and ``unchanged`` frames), and
by a full reader on every ``--every``-th frame. Per frame, the CPU time
(``time.process_time``) of the dice stage (``find_dice``, wrapped where the
reader calls it) and of the whole read is kept; the medians and means are
printed per kind of read. CPU time, not wall time: on a shared machine the
wall time of a stage mostly measures the other processes.

It also checks that every incremental reading equals the full reading of the
same frame (every field but the motion gate's, whose previous frame differs
when the full reader skips frames; tests/vision/test_incremental.py compares
every field over every frame), and prints how many dice candidates' readings the incremental
reader kept (``DiceMemo.hits``, and per kind of reading ``DiceMemo.kept`` of those asked).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()

import tavli_pi.vision.reader as reader_mod  # noqa: E402
from tavli_pi.sim.camera import SimCamera  # noqa: E402
from tavli_pi.sim.script import Moment, demo_match, random_game  # noqa: E402
from tavli_pi.sim.table import scenes_of  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
from tavli_pi.vision.observation import Observation  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tavli_pi.vision.setup import learn_board  # noqa: E402

#: the CPU seconds of each find_dice call the reader made since the list was last cleared
_dice: list[float] = []
_find_dice = reader_mod.find_dice


def _timed(*args: Any, **kwargs: Any) -> Any:
    c = time.process_time()
    out = _find_dice(*args, **kwargs)
    _dice.append(time.process_time() - c)
    return out


reader_mod.find_dice = _timed  # type: ignore[assignment]


def _frames(moments: Sequence[Moment], seed: int) -> tuple[list[np.ndarray], Calibration]:
    images: list[np.ndarray] = []
    cal: Calibration | None = None
    with SimCamera(scenes_of(moments), fps=10.0, seed=seed) as cam:
        for f in cam:
            if cal is None:
                truth = cam.last_truth
                assert truth is not None
                cal = learn_board(f.image, Calibration(truth.corners, home=truth.home))  # type: ignore[arg-type]
            images.append(f.image)
    assert cal is not None
    return images, cal


def _read(reader: BoardReader, images: list[np.ndarray], which: range) -> dict[int, tuple[Any, str, float, float]]:
    """Per frame index: (observation, kind of read, dice CPU s, read CPU s)."""
    out = {}
    for i in which:
        _dice.clear()
        c = time.process_time()
        obs = reader.read(images[i], i)
        c = time.process_time() - c
        out[i] = (obs, reader.last_kind, sum(_dice), c)
    return out


def _still(obs: Observation) -> Observation:
    """The reading without what the motion gate adds (the full reader skips frames, so its
    previous frame is another one)."""
    return dataclasses.replace(obs, motion=False, extras={k: v for k, v in obs.extras.items() if k != "motion_share"})


def _line(label: str, rows: list[tuple[Any, str, float, float]]) -> str:
    d = np.asarray([r[2] for r in rows]) * 1000
    t = np.asarray([r[3] for r in rows]) * 1000
    return (f"  {label:22s} x{len(rows):3d}: dice CPU median {np.median(d):5.1f} mean {d.mean():5.1f} ms; "
            f"whole read CPU median {np.median(t):5.1f} mean {t.mean():5.1f} ms")


def main() -> None:
    every = int(sys.argv[sys.argv.index("--every") + 1]) if "--every" in sys.argv else 3
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; cores {os.cpu_count()}")
    games = [("demo", demo_match(), 7)]
    if "--games" in sys.argv:
        games.append(("random game 5 (8 turns)", random_game(5, turns=8), 5))
    for name, moments, seed in games:
        images, cal = _frames(moments, seed)
        inc = BoardReader(cal, incremental=True)
        got = _read(inc, images, range(len(images)))
        full = _read(BoardReader(cal), images, range(0, len(images), every))
        same = all(_still(full[i][0]) == _still(got[i][0]) for i in full)
        memo = inc.dice_memo
        hits = memo.hits if memo is not None else 0
        kinds = "" if memo is None else ", ".join(
            f"{k} {memo.kept[k]}/{memo.kept[k] + memo.made[k]}" for k in sorted(set(memo.kept) | set(memo.made)))
        print(f"\n{name}: {len(images)} frames; incremental == full on the {len(full)} frames read both ways: "
              f"{same}; dice candidates' readings kept: {hits} (kept/asked: {kinds})")
        for kind in ("full", "changed", "unchanged"):
            rows = [r for r in got.values() if r[1] == kind]
            if rows:
                print(_line(f"incremental, {kind}", rows))
        print(_line(f"full reads (every {every})", list(full.values())))
    print(f"\nload average at end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
