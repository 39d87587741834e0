"""Dice reliability (issue 9): how often a die value read at a given confidence is right.

Run: .venv/bin/python bench/bench_dice.py [--reallike 120] [--seed 0] [--cache DIR] [--sets a,b]

Sets (each die value read flat, with a value, is scored against the truth):
- ``reallike``: the real-like simulated set (``reallike_scenes(n, seed)``), each frame read by
  ``BoardReader`` with the set-up calibration, as bench_reallike.py's "set-up" line reads it;
  ``reallike-read``: the same frames calibrated on themselves (its "read" line);
- ``sim``: the plain simulated dice tests' sets (test_dice_sim.py's easy 14/11, hard 30/11 and
  hard 80/21; test_dice_grid.py's flat and cocked grids; test_dice_grid_designs.py's wood and
  green grids), read by ``find_dice`` with the true corners and checker discs;
- ``boards``: the labelled real board photos, read as ``bench_vision.py --real`` reads them
  ("corners": calibrated on the frame with its labelled corners, ``still_photo``);
- ``photos``: the real dice photo sets (banachowicz d6, fudw classes 0-4), ``read_pips`` on
  each labelled crop (as tests/vision/test_dice_real.py).

A reading with a value and no true die near it (a phantom) counts as wrong. A reading not flat
(cocked, on a checker) carries the "cocked" verdict's confidence and is left out of the table.
``--cache DIR`` keeps every set's inputs to the dice finder (frames, calibrations, checker
discs, hand masks) in DIR, so a second run measures the dice step alone on the same inputs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import pickle
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()

import tavli_pi.vision.reader as reader_mod  # noqa: E402
from tavli_pi.vision.dice import find_dice, read_pips  # noqa: E402
from tavli_pi.vision.dice_vet import vet_dice  # noqa: E402

#: the real photos: beside the checkout (../shared), or the shared folder of a worktree
REAL = next((p for p in (Path(__file__).resolve().parents[2] / "shared/data/real", Path("/work/shared/data/real"))
             if p.is_dir()), Path("/work/shared/data/real"))
#: the confidence bins of the table
BINS = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01)


@dataclass
class FrameCase:
    """One frame's input to the dice step and its true dice: (x, y, value, flat, moving)."""

    args: tuple[Any, ...]  # find_dice(canon, lay, cal, discs, hand_mask, image)
    vet: tuple[Any, Any, bool] | None  # (cal, background difference, still photo): vet_dice as the reader does
    truth: list[tuple[float, float, int, bool, bool]]
    radius: float
    legible: list[bool] = field(default_factory=list)  # per true die: scored (not too small to read)
    vet_rest: tuple[Any, ...] = ()  # vet_dice's further arguments the reader gave (checker discs, discs not learnt)
    vet_kw: dict[str, Any] = field(default_factory=dict)  # ... and its keywords (valued_only, table_px)


@dataclass
class Tally:
    """(confidence, right) of every value read, and what the bins say."""

    reads: list[tuple[float, bool]] = field(default_factory=list)
    missed: int = 0
    no_value: int = 0
    seconds: float = 0.0

    def add(self, conf: float, right: bool) -> None:
        self.reads.append((conf, right))

    def line(self, name: str) -> str:
        if not self.reads:
            return f"{name}: no values read"
        c = np.asarray([r[0] for r in self.reads])
        ok = np.asarray([r[1] for r in self.reads])
        cells = []
        for lo, hi in zip(BINS[:-1], BINS[1:]):
            m = (c >= lo) & (c < hi)
            if m.any():
                cells.append(f"[{lo:.2f},{min(hi, 1.0):.2f}) {int(ok[m].sum())}/{int(m.sum())}")
        wrong_hi = int(((c >= 0.9) & ~ok).sum())
        right_hi = int(((c >= 0.9) & ok).sum())
        return (f"{name}: {len(c)} values, right {int(ok.sum())}, wrong {int((~ok).sum())}; wrong at >= 0.9: "
                f"{wrong_hi}, max wrong {c[~ok].max() if (~ok).any() else 0:.2f}; right at >= 0.9: {right_hi}/"
                f"{int(ok.sum())}, right at >= 0.8: {int(((c >= 0.8) & ok).sum())}; missed {self.missed}, "
                f"found with no value {self.no_value}; dice step {self.seconds:.1f} s\n    " + "; ".join(cells))


def score_frame(case: FrameCase, tally: Tally) -> None:
    t0 = time.process_time()
    dice = find_dice(*case.args)
    if case.vet is not None:
        cal, diff, still = case.vet
        dice = vet_dice(dice, cal, diff, *case.vet_rest, **getattr(case, "vet_kw", {}))
        if still:
            dice = [d for d in dice if not d.moving]
    tally.seconds += time.process_time() - t0
    cand = sorted((float(np.hypot(d.xy[0] - t[0], d.xy[1] - t[1])), i, j)
                  for i, t in enumerate(case.truth) for j, d in enumerate(dice))
    got: dict[int, Any] = {}
    used: set[int] = set()
    for dist, i, j in cand:
        if dist < case.radius and i not in got and j not in used:
            got[i] = dice[j]
            used.add(j)
    for i, (_, _, value, flat, moving) in enumerate(case.truth):
        legible = case.legible[i] if case.legible else True
        d = got.get(i)
        if moving or not flat or not value:
            continue
        if d is None:
            tally.missed += legible
        elif not d.flat:
            continue
        elif not d.value:
            tally.no_value += legible
        else:
            tally.add(d.value_confidence, d.value == value)
    for j, d in enumerate(dice):
        if j not in used and d.value and d.flat and not d.moving:
            tally.add(d.value_confidence, False)


def _capturing(read: Callable[[], Any]) -> tuple[tuple[Any, ...], tuple[Any, Any, tuple[Any, ...]]]:
    """Run ``read`` (a BoardReader.read) and return the arguments it gave find_dice and vet_dice."""
    seen: dict[str, Any] = {}

    def fd(*args: Any, **kwargs: Any) -> Any:
        seen["find"] = args  # (its keywords -- the incremental reader's memo, the learnt board's
        # ``stands_out`` and ``changes``, the reader's ``lay_still`` -- are closures over the reader and
        # its frame: not kept, so the bench reads each frame's dice without them)
        return find_dice(*args, **kwargs)

    def vd(found: Any, cal: Any, diff: Any, *rest: Any, **kw: Any) -> Any:
        seen["vet"] = (cal, diff, rest, kw)  # rest: the checker discs and the discs not learnt (vet_dice's)
        return vet_dice(found, cal, diff, *rest, **kw)

    old = reader_mod.find_dice, reader_mod.vet_dice
    reader_mod.find_dice, reader_mod.vet_dice = fd, vd  # type: ignore[assignment]
    try:
        read()
    finally:
        reader_mod.find_dice, reader_mod.vet_dice = old  # type: ignore[assignment]
    return seen["find"], seen["vet"]


def reallike_cases(n: int, seed: int, mode: str) -> Iterator[FrameCase]:
    from tavli_pi.errors import TavliError
    from tavli_pi.sim.datasets import SMALL_DIE_PX, reallike_scenes, reallike_setup
    from tavli_pi.sim.render import render
    from tavli_pi.vision.reader import BoardReader
    from bench.bench_reallike import calibrate_read, calibrate_setup

    for i, scene in enumerate(reallike_scenes(n, seed)):
        r = render(scene, seed * 100003 + i)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                if mode == "read":
                    cal = calibrate_read(r)
                else:
                    cal = calibrate_setup(render(reallike_setup(scene), seed * 100003 + i))
            args, (vcal, diff, rest, kw) = _capturing(lambda: BoardReader(cal).read(r.image))
        except TavliError:
            continue
        truth = [(t.xy[0], t.xy[1], t.value, t.flat, t.moving) for t in r.truth.dice]
        radius = max([0.9 * t.size_px for t in r.truth.dice] + [8.0])
        yield FrameCase(args, (vcal, diff, False), truth, radius, [t.size_px >= SMALL_DIE_PX for t in r.truth.dice], rest,
                        kw)


def sim_cases() -> Iterator[FrameCase]:
    from tavli_pi.sim.datasets import easy_scenes, hard_scenes
    from tavli_pi.sim.render import render
    from tavli_pi.vision.calibration import Calibration
    from tests.vision import test_dice_grid as grid
    from tests.vision import test_dice_grid_designs as designs
    from tests.vision.test_dice_sim import true_discs

    for scenes in (easy_scenes(14, 11), hard_scenes(30, 11), hard_scenes(80, 21)):
        for i, sc in enumerate(scenes):
            if sc.hand is not None:
                continue
            r = render(sc, i)
            cal = Calibration(r.truth.corners, home=sc.home)
            yield FrameCase((cal.warp(r.image), cal.layout, cal, true_discs(sc, r.truth, cal), None, r.image), None,
                            [(t.xy[0], t.xy[1], t.value, t.flat, t.moving) for t in r.truth.dice], 14.0)
    base = grid.scene_of(grid.demo_match()[1])  # as test_dice_grid.setup calibrates
    clear = grid.render(base)
    gcal = grid.refine(grid.Calibration(clear.truth.corners), clear.image)
    gcan = gcal.warp(clear.image)
    discs = grid.read_spots(gcan, grid.ck.gradients(gcan), gcal.layout, gcal)[2]
    for cocked in (False, True):
        for scene, s in grid._frames(base, cocked):
            r = grid.render(scene, s if cocked else 7, 7 + s)
            yield FrameCase((gcal.warp(r.image), gcal.layout, gcal, discs, None, r.image), None,
                            [(t.xy[0], t.xy[1], t.value, t.flat, t.moving) for t in r.truth.dice], 12.0)
    for board in ("wood", "green"):
        base, dcal, discs = designs._setup(board)
        for scene, s in designs._frames(base):
            r = designs.render(scene, 7, 7 + s)
            yield FrameCase((dcal.warp(r.image), dcal.layout, dcal, discs, None, r.image), None,
                            [(t.xy[0], t.xy[1], t.value, t.flat, t.moving) for t in r.truth.dice], 12.0)


def board_cases() -> Iterator[FrameCase]:
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.reader import BoardReader
    from bench.bench_vision import _corner_text
    from tests.vision._eval import real_frames

    for f in real_frames(REAL):
        if "dice" not in f.label:
            continue  # hand frames: dice not labelled
        with contextlib.redirect_stdout(io.StringIO()):
            cal = calibrate_image(f.image, _corner_text(f.corners), f.label["home"])
        args, (vcal, diff, rest, kw) = _capturing(lambda: BoardReader(cal, still_photo=True).read(f.image))
        truth = [(float(d["xy"][0]), float(d["xy"][1]), int(d.get("value") or 0), d.get("flat", True) is not False,
                  False) for d in f.label["dice"]]
        yield FrameCase(args, (vcal, diff, True), truth, 0.025 * max(f.image.shape[:2]), [], rest, kw)


def photo_crops() -> list[tuple[str, np.ndarray, int]]:
    from tests.vision._eval import banachowicz_faces, fudw_faces

    out = [("banachowicz", crop, int(cls[3])) for crop, cls in banachowicz_faces(REAL / "dice/banachowicz", True)]
    out += [("fudw", crop, pips) for crop, pips in fudw_faces(REAL / "dice/fudw")]
    return out


def _cached(cache: Path | None, name: str, make: Callable[[], Any]) -> Any:
    if cache is None:
        return make()
    p = cache / f"{name}.pkl"
    if p.exists():
        with p.open("rb") as fh:
            return pickle.load(fh)
    got = make()
    cache.mkdir(parents=True, exist_ok=True)
    with p.open("wb") as fh:
        pickle.dump(got, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--reallike", type=int, default=120, help="real-like frames (default 120)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=None, help="keep the dice finder's inputs here")
    ap.add_argument("--sets", default="reallike,reallike-read,sim,boards,photos")
    args = ap.parse_args()
    sets = args.sets.split(",")
    pooled = Tally()
    makers: dict[str, Callable[[], Any]] = {
        "reallike": lambda: list(reallike_cases(args.reallike, args.seed, "setup")),
        "reallike-read": lambda: list(reallike_cases(args.reallike, args.seed, "read")),
        "sim": lambda: list(sim_cases()),
        "boards": lambda: list(board_cases()),
    }
    for name in sets:
        if name == "photos":
            continue
        key = f"{name}-{args.reallike}-{args.seed}" if name.startswith("reallike") else name
        cases = _cached(args.cache, key, makers[name])
        tally = Tally()
        for case in cases:
            score_frame(case, tally)
        print(tally.line(f"{name} ({len(cases)} frames)"), flush=True)
        pooled.reads += tally.reads
    if "photos" in sets:
        crops = _cached(args.cache, "photos", photo_crops)
        for src in ("banachowicz", "fudw"):
            tally = Tally()
            t0 = time.process_time()
            for s, crop, value in crops:
                if s == src:
                    v, c = read_pips(crop)
                    if v:
                        tally.add(c, v == value)
                    else:
                        tally.no_value += 1
            tally.seconds = time.process_time() - t0
            print(tally.line(f"photos {src} ({sum(1 for s, _, _ in crops if s == src)} faces)"), flush=True)
            pooled.reads += tally.reads
    print(pooled.line("all sets pooled"))


if __name__ == "__main__":
    main()
