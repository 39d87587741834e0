"""Fit the set-up slot model (tavli_pi.vision.stacks.SETUP_W) on simulated real-like tables.

Each table is calibrated as the app does (its set-up frame, ``learn_board``), then a
frame of a game on it is read: every slot the reader searches gets
``stacks.setup_slot_features`` (ring features, change from the set-up view, distance to this
board's checker colours and to the set-up colour there) and the truth (occupied or not). Two
logistics are fitted: slots empty at set-up and slots the start position fills. Uses real-like
seed 21 (the real-like bench uses 0; the tests use their own). Prints the weights to paste
into stacks.py and the slot errors against the ring-only model, on a held-out half.

    nice .venv/bin/python bench/fit_setup_slots.py [--frames 200]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import calibrate_setup  # noqa: E402

from tavli_pi.errors import TavliError  # noqa: E402
from tavli_pi.sim.datasets import reallike_scenes, reallike_setup  # noqa: E402
from tavli_pi.sim.render import render  # noqa: E402
from tavli_pi.vision import checkers as ck  # noqa: E402
from tavli_pi.vision.stacks import (  # noqa: E402
    SLOTS,
    cv2_integral,
    setup_slot_features,
    slot_probability,
    spot_chains,
    start_slots,
)

SEED = 21


CACHE = Path("/tmp/fit_setup_slots_cache")


def _rendered(i: int, scene: Any) -> tuple[Any, Any]:
    """(frame, set-up frame) of scene ``i``, from the cache when there (a refit reads them again)."""
    path = CACHE / f"{SEED}_{i}.pkl"
    if path.exists():
        with path.open("rb") as fh:
            got: tuple[Any, Any] = pickle.load(fh)
            return got
    pair = (render(scene, SEED * 100003 + i), render(reallike_setup(scene), SEED * 100003 + i))
    CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        pickle.dump(pair, fh)
    return pair


def rows(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(features, occupied, filled at set-up, ring-only probability, frame index) per searched slot."""
    X, y, f, p, fr = [], [], [], [], []
    filled = start_slots()
    for i, scene in enumerate(reallike_scenes(n, SEED)):
        r, s = _rendered(i, scene)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cal = calibrate_setup(s)
        except TavliError:
            continue
        if r.truth.hand:
            continue  # what is under a hand is not a slot's look
        canon = cal.warp(r.image)
        ch = spot_chains(ck.gradients(canon), cv2_integral(canon), cal.layout, cal, stop=True)
        feats = setup_slot_features(canon, cal.layout, cal, ch)
        if feats is None:
            continue
        ring = slot_probability(ch)
        t = r.truth
        counts = [t.light[q] + t.dark[q] for q in range(24)] + [t.bar[0], t.bar[1]]
        searched = ch.searched if ch.searched is not None else np.full(26, SLOTS)
        for c, k_n in enumerate(counts):
            if k_n > 5:
                continue  # squeezed stacks are read from their rims, not slot by slot
            for k in range(int(searched[c])):
                X.append(feats[c, k])
                y.append(1.0 if k < k_n else 0.0)
                f.append(bool(filled[c, k]))
                p.append(ring[c, k])
                fr.append(i)
    return np.asarray(X, np.float64), np.asarray(y), np.asarray(f), np.asarray(p), np.asarray(fr)


def fit(X: np.ndarray, y: np.ndarray, l2: float = 1e-2) -> np.ndarray:
    A = np.c_[X, np.ones(len(X))]
    w = np.zeros(A.shape[1])
    for _ in range(60):
        q = 1 / (1 + np.exp(-np.clip(A @ w, -30, 30)))
        grad = A.T @ (q - y) + l2 * w
        H = (A * (q * (1 - q))[:, None]).T @ A + l2 * np.eye(len(w))
        w -= np.linalg.solve(H, grad)
    return w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--frames", type=int, default=200)
    args = ap.parse_args()
    X, y, filled, ring, frame = rows(args.frames)
    half = frame < np.median(frame)
    weights = []
    for kind in (False, True):
        m = filled == kind
        w = fit(X[m & half], y[m & half])
        test = m & ~half
        z = np.c_[X[test], np.ones(int(test.sum()))] @ w
        print(f"{'filled' if kind else 'empty'} at set-up: {int(m.sum())} slots; held-out slot errors: "
              f"ring only {int(((ring[test] > 0.5) != y[test]).sum())}, set-up model {int(((z > 0) != y[test]).sum())} "
              f"of {int(test.sum())}")
        weights.append(fit(X[m], y[m]))  # the weights kept: fitted on all
    print("SETUP_W = np.asarray([")
    for w in weights:
        print("    [" + ", ".join(f"{v:.3f}" for v in w) + "],")
    print("])")


if __name__ == "__main__":
    main()
