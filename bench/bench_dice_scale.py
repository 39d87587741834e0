"""Dice reading under a few percent of warp scale (issue 9): every still die read at the canonical
warp and with the field's corners drawn in or pushed out about their centre, so the board (and its
dice) show ``s`` times larger or smaller in the canonical view -- what a field fit a little
narrower or wider does (stop 58: a field fit 6.5 % narrower turned a 4 read at 0.96 into 0.67).

Run: .venv/bin/python bench/bench_dice_scale.py [--frames 60] [--seed 0] [--scales 0.94,0.97,1.03,1.065]
     [--sets reallike,real] [--verbose]

Sets:
- ``reallike``: the real-like simulated frames (``reallike_scenes``; 640 and 1280 px), the board learnt
  from the same table's set-up frame (as ``bench_reallike.calibrate_setup``) at the scaled corners,
  each frame read by ``BoardReader``; only frames with a flat die of ``SMALL_DIE_PX`` or more;
- ``video``: the still dice of recorded 640 px clips (``--video SEED:GAME``; s7j640 game 4, where stop 58
  lost a catch to the pip search's answer at 6.5 % scale), the board learnt on the first frame, once per
  distinct still moment;
- ``real``: the labelled real photos with dice, calibrated on themselves at their labelled corners
  scaled (as ``bench_dice_shift.py`` moves them), read as a still photo.

Each legible flat die is paired with the nearest reading (within 0.9 of its side, at least 8 px; a
real photo's 2.5 % of its size). Per scale, against the truth: read right, read wrong, wrong at
>= 0.9 (surely wrong), no value or missed; against the canonical warp's reading of the same die:
value changed, and sure (>= 0.9 right) readings that fall under 0.9. ``--verbose`` lists every die
whose reading changes with the scale.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

REAL = Path(os.environ.get("TAVLI_REAL_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data" / "real")

Read = tuple[int, float]  # (value, confidence); (0, 0.0) for no value or not found


@dataclass
class Case:
    """One frame: its name, the true dice (x, y, value) in image px, the pairing radius, and a
    reader of the frame at a scale giving the dice read (x, y, value, confidence, flat)."""

    name: str
    truth: list[tuple[float, float, int]]
    radius: float
    read: Callable[[float], list[tuple[float, float, int, float, bool]]]


def scaled_corners(corners: np.ndarray, scale: float) -> np.ndarray:
    """The four corners drawn towards their centre by ``1 / scale``: the field's warp shows the board
    ``scale`` times larger."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    mid = c.mean(axis=0)
    out: np.ndarray = (mid + (c - mid) / scale).astype(np.float32)
    return out


def _dice_of(obs: Any) -> list[tuple[float, float, int, float, bool]]:
    return [(float(d.xy[0]), float(d.xy[1]), int(d.value), float(d.value_confidence), bool(d.flat and not d.moving))
            for d in obs.dice]


def reallike_cases(n: int, seed: int) -> Iterator[Case]:
    from tavli_pi.errors import TavliError
    from tavli_pi.sim.datasets import SMALL_DIE_PX, reallike_scenes, reallike_setup
    from tavli_pi.sim.render import render
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.refine import refine
    from tavli_pi.vision.setup import learn_board

    for i, scene in enumerate(reallike_scenes(n, seed)):
        if scene.hand is not None:
            continue
        r = render(scene, seed * 100003 + i)
        truth = [(float(t.xy[0]), float(t.xy[1]), int(t.value)) for t in r.truth.dice
                 if t.flat and not t.moving and t.value and t.size_px >= SMALL_DIE_PX]
        if not truth:
            continue
        setup = render(reallike_setup(scene), seed * 100003 + i)

        def read(s: float, r: Any = r, setup: Any = setup) -> list[tuple[float, float, int, float, bool]]:
            corners = scaled_corners(np.asarray(setup.truth.corners), s)
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    base = refine(Calibration(corners, home=setup.truth.home), setup.image)
                    cal = learn_board(setup.image, base)
                    return _dice_of(BoardReader(cal).read(r.image))
            except TavliError:
                return []

        radius = max([0.9 * t.size_px for t in r.truth.dice] + [8.0])
        yield Case(f"reallike {i} ({r.image.shape[1]} px)", truth, radius, read)


def video_cases(spec: str) -> Iterator[Case]:
    """Each frame with still dice of a recorded clip ``SEED:GAME`` (as ``/work/wt/clipsall.sh`` names
    s{SEED}j640: 640 px tables, 10 turns, from the roll after play 4 held 15 frames, each roll lying 15
    more), the board learnt on its first frame from the position it shows (true corners scaled), each
    distinct still-dice moment once."""
    import tempfile

    from tavli_pi.referee.evidence import spot_counts
    from tavli_pi.sim.datasets import reallike_game_tables
    from tavli_pi.sim.render import Truth
    from tavli_pi.sim.script import random_game
    from tavli_pi.vision.calibration import Calibration
    from tavli_pi.vision.known import KnownBoard
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.refine import refine
    from tavli_pi.vision.setup import learn_board
    from bench.bench_video import decoded, midgame, thinking, write_video

    seed, game = (int(v) for v in spec.split(":"))
    g = game  # (bench_video's game index: the table's index among all, kept with --size 640)
    kw = reallike_game_tables(8 * (game + 1), seed)[g]
    assert kw["width"] == 640, f"game {game} of seed {seed} is no 640 px table"
    plant = (2 + g % 8) if g % 2 == 0 else 0
    moments = thinking(midgame(random_game(1000 * seed + g, turns=10, plant_illegal=plant), 4, 15, True), 15)
    truths: list[Truth] = []
    with tempfile.TemporaryDirectory() as d:
        video = Path(d) / "game.mp4"
        write_video(video, moments, kw, 1000 * seed + g, 1, truths)
        frames = decoded(video)
    light, dark = spot_counts(moments[0].position)  # type: ignore[arg-type]
    known = KnownBoard.of_counts(light, dark)
    t0 = truths[0]
    cals: dict[float, Any] = {}

    def cal_at(s: float) -> Any:
        if s not in cals:
            with contextlib.redirect_stdout(io.StringIO()):
                base = refine(Calibration(scaled_corners(np.asarray(t0.corners), s), home=t0.home), frames[0])  # type: ignore[arg-type]
                cals[s] = learn_board(frames[0], base, known)
        return cals[s]

    seen: set[tuple[tuple[float, float, int], ...]] = set()
    for i, (img, t) in enumerate(zip(frames, truths)):
        if any(d.moving for d in t.dice) or t.hand:
            continue
        truth = [(float(d.xy[0]), float(d.xy[1]), int(d.value)) for d in t.dice if d.flat and d.value]
        key = tuple((round(x), round(y), v) for x, y, v in truth)
        if not truth or key in seen:
            continue
        seen.add(key)

        def read(s: float, img: Any = img) -> list[tuple[float, float, int, float, bool]]:
            with contextlib.redirect_stdout(io.StringIO()):
                return _dice_of(BoardReader(cal_at(s)).read(img))

        radius = max([0.9 * d.size_px for d in t.dice] + [8.0])
        yield Case(f"s{seed}j640 game {game} frame {i}", truth, radius, read)


def real_cases() -> Iterator[Case]:
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.reader import BoardReader
    from bench.bench_dice_shift import _corner_text
    from tests.vision._eval import real_frames

    for f in real_frames(REAL):
        truth = [(float(d["xy"][0]), float(d["xy"][1]), int(d["value"])) for d in f.label.get("dice", [])
                 if d.get("value") and d.get("flat", True) is not False]
        if not truth:
            continue

        def read(s: float, f: Any = f) -> list[tuple[float, float, int, float, bool]]:
            with contextlib.redirect_stdout(io.StringIO()):
                cal = calibrate_image(f.image, _corner_text(scaled_corners(f.corners, s)), f.label["home"])
                return _dice_of(BoardReader(cal, still_photo=True).read(f.image))

        yield Case(f"real {f.name}", truth, 0.025 * max(f.image.shape[:2]), read)


def pair(case: Case, dice: list[tuple[float, float, int, float, bool]]) -> list[Read]:
    """Each true die's reading (value, confidence), paired globally by distance."""
    cand = sorted((float(np.hypot(d[0] - t[0], d[1] - t[1])), i, j)
                  for i, t in enumerate(case.truth) for j, d in enumerate(dice))
    got: dict[int, Read] = {}
    used: set[int] = set()
    for dist, i, j in cand:
        if dist < case.radius and i not in got and j not in used:
            d = dice[j]
            got[i] = (d[2], d[3]) if d[4] else (0, 0.0)
            used.add(j)
    return [got.get(i, (0, 0.0)) for i in range(len(case.truth))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=60, help="real-like scenes drawn (default 60; those with a die kept)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scales", default="0.94,0.97,1.03,1.065")
    ap.add_argument("--sets", default="reallike,real")
    ap.add_argument("--video", default="7:4", help="the ``video`` set's clips, SEED:GAME[,SEED:GAME] (s7j640 game 4)")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    scales = [1.0] + [float(s) for s in a.scales.split(",")]
    sets = a.sets.split(",")
    for name in sets:
        cases = (reallike_cases(a.frames, a.seed) if name == "reallike" else real_cases() if name == "real" else
                 (c for v in a.video.split(",") for c in video_cases(v)))
        rows = {s: dict.fromkeys(("right", "wrong", "sure_wrong", "none", "changed", "sure_lost", "sure_gained"), 0)
                for s in scales}
        dice = 0
        notes: list[str] = []
        for case in cases:
            reads = {s: pair(case, case.read(s)) for s in scales}
            for k, (_, _, value) in enumerate(case.truth):
                dice += 1
                v0, c0 = reads[1.0][k]
                for s in scales:
                    v, c = reads[s][k]
                    row = rows[s]
                    row["right"] += v == value
                    row["wrong"] += bool(v) and v != value
                    row["sure_wrong"] += bool(v) and v != value and c >= 0.9
                    row["none"] += not v
                    row["changed"] += v != v0
                    row["sure_lost"] += v0 == value and c0 >= 0.9 and not (v == value and c >= 0.9)
                    row["sure_gained"] += not (v0 == value and c0 >= 0.9) and v == value and c >= 0.9
                if any(reads[s][k][0] != v0 or abs(reads[s][k][1] - c0) >= 0.1 for s in scales):
                    notes.append(f"  {case.name} die {value} at ({case.truth[k][0]:.0f},{case.truth[k][1]:.0f}): "
                                 + " ".join(f"{s:g}:{reads[s][k][0]}@{reads[s][k][1]:.2f}" for s in scales))
        print(f"{name}: {dice} legible flat dice")
        print("  scale  right  wrong  surely-wrong  none  value-changed  sure-lost  sure-gained")
        for s in scales:
            r = rows[s]
            print(f"  {s:5.3f}  {r['right']:5d}  {r['wrong']:5d}  {r['sure_wrong']:12d}  {r['none']:4d}  "
                  f"{r['changed']:13d}  {r['sure_lost']:9d}  {r['sure_gained']:11d}")
        unsteady = len(notes)
        print(f"  dice whose reading moves (value, or confidence by 0.1) at some scale: {unsteady}/{dice}")
        if a.verbose:
            print("\n".join(notes))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
