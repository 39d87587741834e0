"""Which spots does taking a band's straight edges out of the rings change? (issue 9)

For each of ``bench_reallike.py``'s set-up-calibrated frames (seed 0; rendered and cached as
``diag_spots.py`` does) whose learnt board holds a straight edge across the field
(``straight_edges.learnt_edges``), the frame is read twice, with and without the edges taken out
(``stacks.BAND_EDGES``), and every spot (24 points, light numbering, and the bar) whose reading
differs is listed with the truth: right/wrong before and after, and the confidence of each reading.
``--crops DIR`` writes each such frame's canonical view with its edges drawn.

    nice .venv/bin/python bench/probe_band_edges.py --frames 200
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import calibrate_setup  # noqa: E402
from diag_spots import rendered  # noqa: E402

from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.vision import spot_slots  # noqa: E402
from tavli_pi.vision import stacks  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tavli_pi.vision.straight_edges import learnt_edges  # noqa: E402


def reading(obs: Any, p: int) -> tuple[int, int, float]:
    """Spot ``p``'s (light, dark, least confidence): 0-23 a point (light numbering), 24 the bar."""
    ev = obs.points[p] if p < 24 else obs.bar
    return ev.light.best, ev.dark.best, min(ev.light.confidence, ev.dark.confidence)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", type=int, nargs="*", default=None, help="just these frames")
    ap.add_argument("--crops", type=Path, default=None)
    args = ap.parse_args()
    scenes = reallike_scenes(args.start + args.frames, args.seed)
    tally = {"frames with edges": 0, "right->wrong": 0, "wrong->right": 0, "wrong->wrong": 0, "right->right": 0,
             "newly wrong >= 0.9": 0}
    wrong = [0, 0]
    frames = args.only if args.only else range(args.start, args.start + args.frames)
    if args.only:
        scenes = reallike_scenes(max(args.only) + 1, args.seed)
    for f in frames:
        r, s = rendered(f, scenes[f], args.seed)
        with contextlib.redirect_stdout(io.StringIO()):
            cal = calibrate_setup(s)
        lay = cal.layout
        rad = float(np.median(spot_slots.spot_geometry(lay, cal)[3][:24]))
        canon = cal.warp(r.image)
        edges = learnt_edges(cal.background, lay, rad, canon.shape[:2]) if cal.background else ()
        if not edges:
            continue
        tally["frames with edges"] += 1
        got = []
        for on in (False, True):
            stacks.BAND_EDGES = on
            got.append(BoardReader(cal).read(r.image))
        stacks.BAND_EDGES = True
        kinds = sorted({o.kind for o in scenes[f].overlays})
        print(f"frame {f} {kinds} edges {[(round(e.y_at((e.x0 + e.x1) / 2)), int(e.x0), int(e.x1)) for e in edges]}")
        for p in range(25):
            truth = ((int(r.truth.light[p]), int(r.truth.dark[p])) if p < 24
                     else (int(r.truth.bar[0]), int(r.truth.bar[1])))
            a, b = reading(got[0], p), reading(got[1], p)
            ra, rb = a[:2] == truth, b[:2] == truth
            wrong[0] += not ra
            wrong[1] += not rb
            if a == b:
                continue
            key = f"{'right' if ra else 'wrong'}->{'right' if rb else 'wrong'}"
            if a[:2] != b[:2] or not ra or not rb:
                tally[key] += 1
                tally["newly wrong >= 0.9"] += int(ra and not rb and b[2] >= 0.9)
            print(f"  {'bar' if p == 24 else f'p{p + 1}'}: truth L{truth[0]} D{truth[1]}; before L{a[0]} D{a[1]} ({a[2]:.2f}) "
                  f"after L{b[0]} D{b[1]} ({b[2]:.2f}) {key}")
        if args.crops is not None:
            img = canon.copy()
            for e in edges:
                cv2.line(img, (int(e.x0), int(round(e.y_at(e.x0)))), (int(e.x1), int(round(e.y_at(e.x1)))),
                         (0, 255, 0), 1)
            args.crops.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.crops / f"f{f:03d}.png"), img)
        sys.stdout.flush()
    print(f"points wrong on these frames: before {wrong[0]}, after {wrong[1]}; {tally}")


if __name__ == "__main__":
    main()
