"""A stack's next slot on paint of its own checkers' colour: how often is the count short? (issue 9)

A diagnostic of stop 63 (branch stack64); nothing in tavli_pi uses it. Real-like seed 0 frame 39
(club board, 640x360): point 6's two light checkers read one at 0.89. The second checker lies on
the point's cream paint, which the light (white) checkers match to a grey level or two: its tip-side
rim makes no contrast (ring features p10 0.02, tip 0.02; ring logit -8.8), its colour is the paint's
as much as the checker's, and the set-up slot model put the slot at 0.007.

For every point read holding n >= 1 checkers of one colour (on the set-up-calibrated frames of
``diag_spots.py``), this writes the chromaticity distance (``foreign.chroma``) between that colour as
lit at the stack's next slot (slot n, ``lighting.slot_colours``) and the bare paint there (the same
slot of the nearest point of its row and paint the start position left empty, ``swapped.empty_beside``,
as the set-up view shows it): where it is small, a further checker would show neither by colour nor
by a tip-side rim. It prints, per distance bound, the spots below it: right, right at >= 0.9, wrong
(a point read with both colours is counted once per colour).

Seed 0, 200 frames (base b55e0e7): 1408 stacks, 33 wrong. Next-slot paint within 1 of the checker
colour: 19 stacks, 17 right (10 at >= 0.9), 2 wrong, both one short (frame 39 point 6 at 0.89, frame
96 point 6 at 0.52); within 1.5: 49, 45 right (21 at >= 0.9), 4 wrong; within 2.5: 130, 126 (53), 4;
within 5: 394, 383 (195), 11. The class is read right 17 times in 19 (0.89): frame 39's 0.89 is about
what such a count deserves, and a hold below 0.9 there would lose 10 right counts at >= 0.9 to lower
no wrong one at >= 0.9 (there is none). Nothing was changed on the strength of it.

    nice .venv/bin/python bench/probe_next_paint.py --frames 200
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import calibrate_setup  # noqa: E402
from diag_spots import rendered  # noqa: E402

from tavli_pi.errors import TavliError  # noqa: E402
from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.vision import setup_slots, stacks  # noqa: E402
from tavli_pi.vision.foreign import chroma  # noqa: E402
from tavli_pi.vision.lighting import slot_colours  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402
from tavli_pi.vision.spot_slots import spot_geometry  # noqa: E402
from tavli_pi.vision.swapped import empty_beside  # noqa: E402

_ORIGINAL = setup_slots._occupancy
#: the last whole reading's distances (24, K, 2: light, dark); NaN where no empty point of the paint
_SEEN: dict[str, np.ndarray] = {}


def _probe(canon: np.ndarray, g: Any, lay: Any, cal: Any, ch: Any, cols: np.ndarray, whole: bool,
           view: Any) -> tuple[np.ndarray, np.ndarray | None]:
    """``setup_slots._occupancy`` (as the reader calls it), writing each slot's paint-to-checker distances."""
    got = _ORIGINAL(canon, g, lay, cal, ch, cols, whole, view)
    if whole and view is not None:
        K = ch.x.shape[1]
        lt, dk = (np.broadcast_to(np.asarray(c, np.float64), (*ch.x.shape, 3)) for c in slot_colours(cal, ch.x, ch.y)[:2])
        radii = spot_geometry(lay, cal)[3]
        empty = ~setup_slots.known_slots(cal)
        dist = np.full((24, K, 2), np.nan)
        for i in range(24):
            for k in range(K):
                s = empty_beside(lay, i, k, empty)
                if s is None:
                    continue
                sx = np.asarray([float(ch.x[i, k]) + lay.columns[s].x - lay.columns[i].x], np.float32)
                paint = chroma(np.asarray(setup_slots._learnt_colour(
                    cal, view, sx, np.asarray([float(ch.y[i, k])], np.float32),
                    np.asarray([float(radii[i])], np.float32))[0], np.float64))
                dist[i, k] = [np.linalg.norm(paint - chroma(lt[i, k])), np.linalg.norm(paint - chroma(dk[i, k]))]
        _SEEN["dist"] = dist
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--list", action="store_true", help="one line per spot measured")
    args = ap.parse_args()
    setattr(stacks, "_occupancy", _probe)  # the reader's (stacks imported it by name)
    scenes = reallike_scenes(args.frames, args.seed)
    rows: list[tuple[float, bool, float, str]] = []
    for f in range(args.frames):
        r, s = rendered(f, scenes[f], args.seed)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cal = calibrate_setup(s)
            _SEEN.clear()
            obs = BoardReader(cal).read(r.image)
        except TavliError as e:
            print(f"frame {f}: {e}")
            continue
        dist = _SEEN.get("dist")
        if dist is None:
            continue
        for p in range(24):
            ev = obs.points[p]
            tl, td = r.truth.light[p], r.truth.dark[p]
            rl, rd = ev.light.best, ev.dark.best
            right = (rl, rd) == (min(tl, 15), min(td, 15))
            conf = min(ev.light.confidence, ev.dark.confidence)
            for c, n in ((0, rl), (1, rd)):
                if 1 <= n < dist.shape[1] and not np.isnan(dist[p, n, c]):
                    text = f"frame {f:3d} point {p + 1:2d}: true L{tl} D{td} read L{rl} D{rd} conf {conf:.2f}"
                    rows.append((float(dist[p, n, c]), right, conf, text))
                    if args.list:
                        print(f"{text} next-slot paint distance {dist[p, n, c]:.2f}")
    print(f"{len(rows)} stacks (n >= 1, next slot with an empty point of its paint), "
          f"wrong {sum(not r for _, r, _, _ in rows)}")
    for bound in (1.0, 1.5, 2.5, 5.0):
        sel = [row for row in rows if row[0] < bound]
        good = [row for row in sel if row[1]]
        bad = [row for row in sel if not row[1]]
        print(f"distance < {bound:g}: {len(sel)} stacks, right {len(good)} "
              f"(at >= 0.9: {sum(c >= 0.9 for _, _, c, _ in good)}), wrong {len(bad)}")
        for _, _, _, line in bad:
            print(f"  {line}")


if __name__ == "__main__":
    main()
