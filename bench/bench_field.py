"""The playing field found without corners or markers, on simulated real-like frames (issue 9).

Each frame of ``tavli_pi.sim.datasets.reallike_set`` is read as ``tavli-pi read IMAGE`` reads a
photo with no ``--corners`` and no markers (``read_photo.photo_calibration(image)``, then the reading tempered
where the seat was assumed, as ``commands/read_photo`` does). A found field is right when every
corner is within 5 % of the field's width of the true one (a point is about 7.7 %), else wrong.
Printed: found right / found wrong / "no board found"; positions printed (a complete reading,
an XGID) and how many of them are wrong; spots read wrong at confidence >= 0.9 (on every frame,
and on the frames whose field was found wrong), as printed and before read's tempering.

    .venv/bin/python bench/bench_field.py [--frames 40] [--seed 0] [--verbose]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.commands.read_photo import complete_position, photo_calibration, read_observation  # noqa: E402
from tavli_pi.errors import CalibrationError  # noqa: E402
from tavli_pi.sim.datasets import reallike_set  # noqa: E402
from tavli_pi.vision.calibrate import ASSUMED  # noqa: E402
from tavli_pi.vision.doubt import temper  # noqa: E402
from tavli_pi.sim.render import Truth  # noqa: E402
from tavli_pi.vision.observation import Observation  # noqa: E402

#: a corner further than this share of the field's width from the true one is a wrong field
RIGHT = 0.05
CONFIDENT = 0.9


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance, the corners matched in the best cyclic order (px)."""
    f, t = np.asarray(found, np.float32), np.asarray(truth, np.float32)
    return min(float(np.abs(np.roll(f, k, 0) - t).max()) for k in range(4))


def _sure_wrong(obs: Observation, t: Truth) -> int:
    """Point and bar counts read wrong at confidence CONFIDENT or more."""
    n = 0
    for p in range(24):
        for ev, k in ((obs.points[p].light, t.light[p]), (obs.points[p].dark, t.dark[p])):
            n += ev.best != k and ev.confidence >= CONFIDENT
    for ev, k in ((obs.bar.light, t.bar[0]), (obs.bar.dark, t.bar[1])):
        n += ev.best != k and ev.confidence >= CONFIDENT
    return n


def recheck(n: int, seed: int) -> None:
    """The app's re-check of a known field (``fieldfit.field_still_there``) on each frame at its
    true corners: how often it says the field is there, and its CPU time a frame."""
    from tavli_pi.vision.calibration import order_corners
    from tavli_pi.vision.fieldfit import field_still_there, known_field

    there, cpu = 0, []
    for r in reallike_set(n, seed):
        known = known_field(r.image, order_corners(np.asarray(r.truth.corners, np.float32)))
        t0 = time.process_time()
        there += field_still_there(known, r.image).there
        cpu.append(time.process_time() - t0)
    print(f"field_still_there on {n} real-like frames (seed {seed}, {r.image.shape[1]}x{r.image.shape[0]} last): "
          f"there {there}/{n}; CPU median {1000 * np.median(cpu):.1f} ms, max {1000 * max(cpu):.1f} ms a frame")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--recheck", action="store_true",
                    help="only the cost of fieldfit.field_still_there at the true field (CPU ms a frame)")
    args = ap.parse_args()
    if args.recheck:
        recheck(args.frames, args.seed)
        return
    right = wrong = refused = printed = printed_wrong = sure_wrong = sure_wrong_on_wrong = 0
    raw_wrong = raw_wrong_on_wrong = 0
    seconds = []
    for i, r in enumerate(reallike_set(args.frames, args.seed)):
        t = r.truth
        width = float(np.linalg.norm(np.asarray(t.corners[1]) - np.asarray(t.corners[0])))
        t0 = time.perf_counter()
        try:
            cal, learnt = photo_calibration(r.image)
        except CalibrationError as exc:
            refused += 1
            seconds.append(time.perf_counter() - t0)
            if args.verbose:
                print(f"  {i}: {str(exc)[:80]}")
            continue
        obs = read_observation(r.image, cal, learnt)
        seconds.append(time.perf_counter() - t0)
        err = corner_error(cal.corners, t.corners)
        ok = err <= RIGHT * width
        right += ok
        wrong += not ok
        raw = _sure_wrong(obs, t)  # as the reader gives them, before read's tempering
        if cal.source == ASSUMED:  # as read_photo: the numbering may be turned round
            obs = dataclasses.replace(obs, problems=obs.problems + ("seat assumed",),
                                      points=tuple(temper(s) for s in obs.points))
        sure = _sure_wrong(obs, t)
        sure_wrong += sure
        sure_wrong_on_wrong += sure if not ok else 0
        raw_wrong += raw
        raw_wrong_on_wrong += raw if not ok else 0
        pos = complete_position(obs)
        if pos is not None:
            printed += 1
            lt, dk = obs.best_counts()
            same = (tuple(lt), tuple(dk), (obs.bar.light.best, obs.bar.dark.best)) == (tuple(t.light), tuple(t.dark), tuple(t.bar))
            printed_wrong += not same or not ok
        if args.verbose:
            print(f"  {i}: {'right' if ok else 'WRONG'} corner error {err:.0f} px ({100 * err / width:.1f} % of the width), "
                  f"source {cal.source}, confidently wrong {sure} (untempered {raw}), position {'printed' if pos is not None else 'none'}")
    n = args.frames
    print(f"markerless field on {n} real-like frames (seed {args.seed}): found right {right}/{n}, found wrong {wrong}, "
          f"no board found {refused}; positions printed {printed} (wrong {printed_wrong}); "
          f"spots wrong at conf >= {CONFIDENT}: {sure_wrong} ({sure_wrong_on_wrong} on wrong fields), before read's "
          f"tempering {raw_wrong} ({raw_wrong_on_wrong}); "
          f"median {np.median(seconds):.1f} s a frame")


if __name__ == "__main__":
    main()
