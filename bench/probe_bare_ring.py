"""A first slot the set-up filled, as the learnt board would ring with its checker taken out (issue 9).

A diagnostic of stop 60 (bench/RESULTS.md, branch band61); nothing in tavli_pi uses it. For each
FRAME:POINT given (``diag_spots.py``'s set, seed 0, read with the set-up calibration), the ring-only
logit of the point's first slot (``spot_slots.slot_logits``) on: the frame; the set-up frame (the checker
there); the set-up frame with the slot's box (2.6 radii square) replaced by the same box of the empty
point beside (``swapped.empty_beside``: the bare point as the learnt board would show it, the band,
letters and frame round it kept); and that empty point itself. Writes each crop (set-up, made bare,
frame) to ``bench/out/bare_ring/``.

    nice .venv/bin/python bench/probe_bare_ring.py 97:1 155:1 116:12 199:19 53:24 73:19
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import calibrate_setup  # noqa: E402
from diag_spots import rendered  # noqa: E402

from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.vision import checkers as ck  # noqa: E402
from tavli_pi.vision import setup_slots  # noqa: E402
from tavli_pi.vision import spot_slots  # noqa: E402
from tavli_pi.vision import stacks as st  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tavli_pi.vision.swapped import empty_beside  # noqa: E402

OUT = Path(__file__).resolve().parent / "out" / "bare_ring"


def first_ring(canon: np.ndarray, cal: Calibration, column: int) -> tuple[float, float, float]:
    """(ring logit, x, y) of ``column``'s first slot on ``canon``."""
    ch = st.spot_chains(ck.gradients(canon), st.cv2_integral(canon), cal.layout, cal, cols=np.r_[column, 24, 25])
    return float(spot_slots.slot_logits(ch)[0, 0]), float(ch.x[0, 0]), float(ch.y[0, 0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("spots", nargs="+", help="FRAME:POINT (light numbering)")
    args = ap.parse_args()
    want = [(int(a.split(":")[0]), int(a.split(":")[1])) for a in args.spots]
    scenes = reallike_scenes(max(f for f, _ in want) + 1, 0)
    OUT.mkdir(parents=True, exist_ok=True)
    for f, p in want:
        r, s = rendered(f, scenes[f], 0)
        with contextlib.redirect_stdout(io.StringIO()):
            cal = calibrate_setup(s)
        reader = BoardReader(cal)
        setup, now = reader.warp(s.image), reader.warp(r.image)
        c, lay = p - 1, cal.layout
        e = empty_beside(lay, c, 0, ~setup_slots.known_slots(cal))
        if e is None:
            print(f"frame {f} point {p}: no empty point beside")
            continue
        ring_setup, x, y = first_ring(setup, cal, c)
        radius = float(spot_slots.spot_geometry(lay, cal)[3][c])
        dx, a = int(round(lay.columns[e].x - lay.columns[c].x)), int(round(1.3 * radius))
        y0, y1 = max(int(y) - a, 0), min(int(y) + a + 1, setup.shape[0])
        x0, x1 = max(int(x) - a, 0), min(int(x) + a + 1, setup.shape[1])
        bare = setup.copy()
        bare[y0:y1, x0:x1] = setup[y0:y1, x0 + dx:x1 + dx]
        print(f"frame {f} point {p}: ring now {first_ring(now, cal, c)[0]:.2f}, set-up {ring_setup:.2f}, "
              f"set-up made bare {first_ring(bare, cal, c)[0]:.2f}, empty point beside ({e + 1}) "
              f"{first_ring(setup, cal, e)[0]:.2f}")
        b = int(2.5 * radius)
        ys, xs = slice(max(int(y) - b, 0), int(y) + b), slice(max(int(x) - b, 0), int(x) + b)
        cv2.imwrite(str(OUT / f"f{f}_p{p}.png"), np.hstack([setup[ys, xs], bare[ys, xs], now[ys, xs]]))


if __name__ == "__main__":
    main()
