"""First slots filled at set-up, now read against the empty point beside: do the bare ones stand apart? (issue 9)

A diagnostic of stop 60 (bench/RESULTS.md, branch band61); nothing in tavli_pi uses it. On the
set-up-calibrated real-like frames (``diag_spots.py``'s set and cache), every point's first slot the
start position filled that ``swapped.empty_point_features`` reads again against the empty point beside
it (the slot nearer that empty point than the set-up view: a checker of the other colour come, or the
checker gone) is written with the truth and what might tell a bare point from a checker there:

- ``chg``: the slot's change from the empty point (mean over its box of the largest channel's change,
  grey levels); ``log_chg``/``log_chg0``: log(1 + it), and the same from the set-up view;
- ``con``: the contrast a checker would make there, the bare point's colour against the nearer learnt
  checker colour; ``con_loc``: the same with those colours lit as the set-up checker on that slot was
  (its look there over its learnt colour, per channel);
- ``ratio``: the slot's colour's distance to the nearer checker colour where it lies
  (``lighting.slot_colours``) over its distance to the bare point's;
- ``pe``: the set-up model's reading against the empty point (``setup_logit``, the empty kind).

Prints the phantoms (no checker there, one read) and, per measure, the real checkers on the phantoms'
side of the least separated phantom. ``--frames A-B`` (default 0-200).

    nice .venv/bin/python bench/probe_emptied_slots.py --frames 0-200
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
from tavli_pi.vision import setup_slots  # noqa: E402
from tavli_pi.vision import swapped  # noqa: E402
from tavli_pi.vision.background import BG_SCALE  # noqa: E402
from tavli_pi.vision.lighting import light_at, slot_colours  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402

#: per (frame, point): the last reading's measures (a frame is read more than once: the last stands)
SEEN: dict[tuple[int, int], dict[str, float]] = {}
_NOW: dict[str, int] = {}


def _probe(feats: np.ndarray, ch: Any, cal: Any, lay: Any, cols: np.ndarray, slots: np.ndarray,
           empty_at_setup: np.ndarray, now: np.ndarray, background: np.ndarray, gain: np.ndarray,
           radii: np.ndarray, taught: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """``swapped.empty_point_features``, writing the measures of each first slot it reads."""
    got = _ORIGINAL(feats, ch, cal, lay, cols, slots, empty_at_setup, now, background, gain, radii, taught)
    held = swapped.setup_colours(cal.learnt_from)
    light, dark = (np.asarray(v, np.float32) for v in slot_colours(cal, ch.x, ch.y)[:2])
    lc, dc = np.asarray(cal.light_bgr, np.float32), np.asarray(cal.dark_bgr, np.float32)
    h, w = background.shape[:2]
    for i, k, f in got:
        c = int(cols[i])
        s = swapped.empty_beside(lay, c, 0, empty_at_setup)
        if k != 0 or s is None:
            continue
        x, y = float(ch.x[i, 0]), float(ch.y[i, 0])
        sx = x + lay.columns[s].x - lay.columns[c].x
        lit = light_at(cal, np.asarray([x, sx]), np.asarray([y, y]))
        light_ratio = 1.0 if lit is None else float(lit[0][0] / max(float(lit[0][1]), 1e-3))
        half = 0.5 * float(radii[i]) / BG_SCALE
        ys, xs = swapped._box(y / BG_SCALE, half, h), swapped._box(x / BG_SCALE, half, w)
        shift = int(round((sx - x) / BG_SCALE))
        empty = background[ys, slice(xs.start + shift, xs.stop + shift)] * np.float32(light_ratio)
        bare = empty.reshape(-1, 3).mean(axis=0)
        q = max(int(round(half / 2)), 1)
        cy, cx = (ys.start + ys.stop) // 2, (xs.start + xs.stop) // 2
        there = background[cy - q:cy + q + 1, cx - q:cx + q + 1].reshape(-1, 3).mean(axis=0)
        fac = there / np.maximum(lc if held[c] > 0 else dc, 1.0)
        d_bare = float(np.linalg.norm(ch.bgr[i, 0] - bare / gain))
        d_chk = float(min(np.linalg.norm(ch.bgr[i, 0] - light[i, 0]), np.linalg.norm(ch.bgr[i, 0] - dark[i, 0])))
        z = float(setup_slots.setup_logit(f, False, setup_slots.taught(cal)))
        SEEN[(_NOW["frame"], c + 1)] = {
            "chg": float(np.expm1(f[swapped.CHG])), "log_chg": float(f[swapped.CHG]),
            "log_chg0": float(feats[i, 0, swapped.CHG]),
            "con": float(min(np.linalg.norm(lc - bare), np.linalg.norm(dc - bare))),
            "con_loc": float(min(np.linalg.norm(lc * fac - bare), np.linalg.norm(dc * fac - bare))),
            "ratio": d_chk / max(d_bare, 1e-3), "pe": 1.0 / (1.0 + np.exp(-z)),
        }
    return got


_ORIGINAL = swapped.empty_point_features


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", default="0-200", help="A-B: the frames A to B-1 of diag_spots.py's set (seed 0)")
    args = ap.parse_args()
    a, b = (int(v) for v in args.frames.split("-"))
    setattr(setup_slots, "empty_point_features", _probe)  # (setup_slots reads it by its own name)
    scenes = reallike_scenes(b, 0)
    rows: list[tuple[int, int, int, int, dict[str, float]]] = []  # frame, point, truth, read, measures
    for i in range(a, b):
        r, s = rendered(i, scenes[i], 0)
        _NOW["frame"] = i
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cal = calibrate_setup(s)
            obs = BoardReader(cal).read(r.image)
        except TavliError as e:
            print(f"frame {i}: {e}")
            continue
        t = r.truth
        for (f, p), m in sorted(SEEN.items()):
            if f == i:
                rows.append((f, p, t.light[p - 1] + t.dark[p - 1], obs.points[p - 1].light.best
                             + obs.points[p - 1].dark.best, m))
    phantoms = [row for row in rows if row[2] == 0 and row[3] > 0]
    real = [row for row in rows if row[2] > 0]
    print(f"first slots filled at set-up read against the empty point: {len(rows)} ({len(real)} hold a checker), "
          f"frames {a}-{b - 1}; phantoms {len(phantoms)}:")
    for f, p, _, n, m in phantoms:
        print(f"  frame {f} point {p}: read {n}, " + ", ".join(f"{k} {v:.2f}" for k, v in m.items()))
    # a bare point should change little from the empty point for its contrast, and be its colour
    for key, low in (("log_chg", True), ("chg/con", True), ("chg/con_loc", True), ("ratio", False), ("pe", True)):
        def val(m: dict[str, float]) -> float:
            if "/" in key:
                u, v = key.split("/")
                return m[u] / max(m[v], 1e-3)
            return m[key]
        if not phantoms:
            break
        edge = max(val(row[4]) for row in phantoms) if low else min(val(row[4]) for row in phantoms)
        over = [row for row in real if (val(row[4]) <= edge if low else val(row[4]) >= edge)]
        print(f"{key}: phantoms {min(val(r[4]) for r in phantoms):.2f}-{max(val(r[4]) for r in phantoms):.2f}; "
              f"real checkers on their side of {edge:.2f}: {len(over)} "
              + " ".join(f"f{r[0]}p{r[1]}({val(r[4]):.2f})" for r in sorted(over, key=lambda r: val(r[4]))[:12]))


if __name__ == "__main__":
    main()
