"""Letter slots: an overlay's letter or a print on the empty set-up board, read as a checker (issue 9).

A diagnostic of stop 25 (bench/RESULTS.md, branch bands25), kept for a later refit; nothing in
tavli_pi uses it. A slot the start position leaves empty, whose learnt empty board rings like a checker (an overlay
band's letters, the board's print), is read by the set-up slot model (``setup_slots.SETUP_W``) as a
checker whenever the ring shows; whether it holds one is told by how much it changed from the
learnt board against the rest of its column. Per such slot of seed-21 real-like frames learnt at
set-up (``bench_reallike.calibrate_setup``; the benches use seeds 0-2): the set-up model's logit,
log(1 + the slot's shift-tolerant change) - log(1 + its column's noise) (``printed_slots``), and the
truth. Prints the errors of the shipped model and of a logistic refit on these two inputs (a held-out
half, then all), and its weights. ``--under LIST --seed S``: of the wrong spots in view that
``bench/diag_spots.py --frames 120 --seed S --list`` wrote to LIST, those under an overlay band.

    nice .venv/bin/python bench/probe_letter_slots.py [--frames 160]
    nice .venv/bin/python bench/probe_letter_slots.py --under diag0.txt --seed 0
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
from fit_setup_slots import SEED, _rendered, fit  # noqa: E402
from letter_slot_features import _box, learnt_gradients, slot_change  # noqa: E402

from tavli_pi.errors import TavliError  # noqa: E402
from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.vision import checkers as ck  # noqa: E402
from tavli_pi.vision.background import BG_SCALE  # noqa: E402
from tavli_pi.vision import setup_slots  # noqa: E402
from tavli_pi.vision import spot_slots  # noqa: E402
from tavli_pi.vision import stacks  # noqa: E402


#: the least number of other slots of a column, empty at set-up and searched, that give its noise
REFERENCES = 2


def tolerant_change(now: np.ndarray, bg: np.ndarray, gain: np.ndarray, x: float, y: float, half: float) -> float:
    """``letter_slot_features.slot_change``'s shift-tolerant change of the box of half-size ``half``
    round (``x``, ``y``) from the learnt board (inf where the box falls off the board)."""
    if _box(bg.shape, x, y, half) is None:
        return float("inf")
    return slot_change(now, bg, gain, x, y, half)[0]


def letter_slots(filled: np.ndarray, searched: np.ndarray, ch: ck.Chains, radii: np.ndarray,
                 learnt: ck.Gradients, down: np.ndarray, slot_w: np.ndarray, slot_b: float, now: np.ndarray,
                 bg: np.ndarray, gain: np.ndarray, cand: np.ndarray | None = None) -> list[tuple[int, int, float]]:
    """(column, slot, change) of each slot empty at set-up (``filled`` False) and searched, with at
    least ``REFERENCES`` other such slots in its column, whose learnt empty board rings like a checker
    (the ring model ``slot_w``, ``slot_b`` -- ``spot_slots.SLOT_W``, ``SLOT_B`` -- above 0 there): change is
    log(1 + its ``tolerant_change``) less log(1 + the median of the other such slots'), its change
    beyond its column's noise. ``cand`` (C, K) bool: only these slots.

    ``ch``: the chains read (their slots' places), ``radii`` (C,) each column's checker radius,
    ``learnt``: ``learnt_gradients`` of the board, ``down`` (C,) bool: the column's stack grows down;
    ``now``, ``bg``, ``gain``: the frame and the learnt board on the background's grid, and the
    brightness match (``setup_slots.SetupView``)."""
    ref = searched & ~filled
    enough = ref.sum(axis=1) > REFERENCES
    pick = ref & enough[:, None] & (cand if cand is not None else True)
    ii, kk = np.nonzero(pick)
    if len(ii) == 0:
        return []
    f = ck.ring_features(learnt, ch.x[ii, kk], ch.y[ii, kk], radii[ii], down[ii])
    rings = f @ slot_w + slot_b > 0.0
    half = 0.5 * radii / BG_SCALE
    seen: dict[tuple[int, int], float] = {}

    def change(i: int, k: int) -> float:
        if (i, k) not in seen:
            seen[i, k] = tolerant_change(now, bg, gain, float(ch.x[i, k]) / BG_SCALE, float(ch.y[i, k]) / BG_SCALE,
                                         float(half[i]))
        return seen[i, k]

    out = []
    for i, k, r in zip(ii.tolist(), kk.tolist(), rings.tolist()):
        if not r:
            continue
        noise = float(np.median([change(i, j) for j in np.flatnonzero(ref[i]).tolist() if j != k]))
        out.append((i, k, float(np.log1p(change(i, k)) - np.log1p(noise))))
    return out


def rows(n: int) -> dict[str, np.ndarray]:
    out: dict[str, list[Any]] = {"X": [], "y": [], "frame": [], "base": []}
    for i, scene in enumerate(reallike_scenes(n, SEED)):
        r, s = _rendered(i, scene, None)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cal = calibrate_setup(s)
        except TavliError:
            continue
        canon = cal.warp(r.image)
        lay = cal.layout
        ch = stacks.spot_chains(ck.gradients(canon), stacks.cv2_integral(canon), lay, cal, stop=True)
        view = setup_slots.setup_view(canon, lay, cal)
        if view is None:
            continue
        feats = setup_slots.setup_slot_features(canon, lay, cal, ch, None, view)
        assert feats is not None
        filled = setup_slots.known_slots(cal)
        z = np.where(filled, feats @ setup_slots.SETUP_W[1, :-1] + setup_slots.SETUP_W[1, -1],
                     feats @ setup_slots.SETUP_W[0, :-1] + setup_slots.SETUP_W[0, -1])
        learnt = learnt_gradients(cal.background, canon.shape[:2])
        assert learnt is not None
        _x, _b, sign, radii = spot_slots.spot_geometry(lay, cal)
        t = r.truth
        counts = [t.light[q] + t.dark[q] for q in range(24)] + [t.bar[0], t.bar[1]]
        searched = np.arange(spot_slots.SLOTS)[None, :] < ch.searched[:, None]
        for row in letter_slots(filled, searched, ch, radii, learnt, sign > 0, spot_slots.SLOT_W, spot_slots.SLOT_B,
                                   view.now, view.background, view.gain):
            c, k, feat = row
            if counts[c] > 5:
                continue
            out["X"].append([z[c, k], feat])
            out["y"].append(1.0 if k < counts[c] else 0.0)
            out["frame"].append(i)
    return {k: np.asarray(v, np.float64) for k, v in out.items() if v}


def under_bands(listing: Path, seed: int) -> None:
    """Of the wrong point spots in view in ``listing`` (``diag_spots.py --list``, seed ``seed``, its
    render cache), those whose first checkers (read or true, and the slot beyond) lie under a band."""
    import pickle
    import re

    from tavli_pi.sim import _layout as L
    from tavli_pi.sim._pose import project

    scenes = list(reallike_scenes(120, seed))
    pat = re.compile(r"frame\s+(\d+) point\s+(\d+): true L(\d+) D(\d+) read L(\d+) D(\d+) \((\w+), "
                     r"conf ([\d.]+)\) hand=(\w+)(?: hidden=([\d.]+))?")
    seen = banded = 0
    kinds: dict[str, int] = {}
    for line in listing.read_text().splitlines():
        m = pat.match(line)
        if not m or (m.group(10) and float(m.group(10)) >= 0.5):
            continue
        f, p, tl, td, rl, rd = (int(m.group(k)) for k in range(1, 7))
        seen += 1
        sc = scenes[f]
        bands = [o for o in sc.overlays if o.kind == "band"]
        if not bands:
            continue
        with open(f"/tmp/diag_spots_cache/{seed}_{f}.pkl", "rb") as fh:
            shot = pickle.load(fh)[0]
        lay = L.layout(sc.home, sc.trays, sc.build.bar)
        at = np.asarray(lay.stack(p, min(max(tl + td, rl + rd, 1) + 1, 6)), np.float64)
        q = project(shot.truth.homography, at)
        rad = float(np.linalg.norm(project(shot.truth.homography, at[:1] + [[L.R, 0]]) - q[:1]))
        if any(((q[:, 0] > o.box[0] * sc.width - rad) & (q[:, 0] < o.box[2] * sc.width + rad)
                & (q[:, 1] > o.box[1] * sc.height - rad) & (q[:, 1] < o.box[3] * sc.height + rad)).any()
               for o in bands):
            banded += 1
            kinds[m.group(7)] = kinds.get(m.group(7), 0) + 1
            print("   ", line[:100])
    print(f"seed {seed}: wrong point spots in view {seen}, under an overlay band {banded} {kinds}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=160)
    ap.add_argument("--under", type=Path, default=None, help="a diag_spots.py --list output: its wrong spots under bands")
    ap.add_argument("--seed", type=int, default=0, help="the seed of --under's listing")
    args = ap.parse_args()
    if args.under is not None:
        under_bands(args.under, args.seed)
        return
    d = rows(args.frames)
    X, y, frame = d["X"], d["y"], d["frame"]
    print(f"{len(y)} letter slots, {int(y.sum())} holding a checker")
    half = frame < np.median(frame)
    w = fit(X[half], y[half])
    test = ~half
    z = np.c_[X, np.ones(len(X))] @ w
    for name, part in (("held-out", test), ("all", np.ones(len(y), bool))):
        print(f"{name}: {int(part.sum())} slots; errors: shipped model {int(((X[part, 0] > 0) != y[part]).sum())}, "
              f"refit {int(((z[part] > 0) != y[part]).sum())}; sure and wrong (>= 0.9): shipped "
              f"{int(((np.abs(X[part, 0]) > 2.2) & ((X[part, 0] > 0) != y[part])).sum())}, refit "
              f"{int(((np.abs(z[part]) > 2.2) & ((z[part] > 0) != y[part])).sum())}")
    print("PRINT_W = np.asarray([" + ", ".join(f"{v:.3f}" for v in fit(X, y)) + "])")


if __name__ == "__main__":
    main()
