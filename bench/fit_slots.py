"""Fit the slot-occupancy logistic (tavli_pi.vision.spot_slots.SLOT_W / SLOT_B) on simulated boards.

Uses sim seeds the tests (3, 5) and the bench (11) do not use. Prints the
weights to paste into spot_slots.py and the fit's accuracy.

Run: .venv/bin/python bench/fit_slots.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.sim.datasets import easy_scenes, hard_scenes  # noqa: E402
from tavli_pi.vision import checkers as ck  # noqa: E402
from tavli_pi.vision.spot_slots import SLOTS  # noqa: E402
from tavli_pi.vision.stacks import spot_chains  # noqa: E402
from tests.vision._eval import sim_calibration  # noqa: E402


def rows(seed: int, n_easy: int, n_hard: int) -> tuple[np.ndarray, np.ndarray]:
    X, y = [], []
    hard = [s for s in hard_scenes(3 * n_hard, seed) if s.hand is None][:n_hard]
    for i, sc in enumerate(easy_scenes(n_easy, seed) + hard):
        cal, r = sim_calibration(sc, 5000 + i)
        canon = cal.warp(r.image)
        ch = spot_chains(ck.gradients(canon), np.asarray(cv2.integral(canon), np.float64), cal.layout, cal)
        t = r.truth
        counts = [t.light[p] + t.dark[p] for p in range(24)] + [t.bar[0], t.bar[1]]
        for c, n in enumerate(counts):
            if n > 5:
                continue  # squeezed stacks are read from their rims, not slot by slot
            for k in range(min(SLOTS, n + 2)):
                X.append(ch.feats[c, k])
                y.append(1.0 if k < n else 0.0)
    return np.asarray(X, np.float64), np.asarray(y)


def fit(X: np.ndarray, y: np.ndarray, l2: float = 1e-2) -> np.ndarray:
    A = np.c_[X, np.ones(len(X))]
    w = np.zeros(A.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(A @ w, -30, 30)))
        grad = A.T @ (p - y) + l2 * w
        H = (A * (p * (1 - p))[:, None]).T @ A + l2 * np.eye(len(w))
        w -= np.linalg.solve(H, grad)
    return w


def main() -> None:
    X, y = rows(1, 20, 40)
    w = fit(X, y)
    Xt, yt = rows(2, 10, 20)
    for name, A, b in (("train", X, y), ("held-out", Xt, yt)):
        p = 1 / (1 + np.exp(-np.clip(np.c_[A, np.ones(len(A))] @ w, -30, 30)))
        ll = np.mean(np.log(np.where(b > 0, p, 1 - p) + 1e-12))
        print(f"{name}: {len(b)} slots, accuracy {np.mean((p > 0.5) == (b > 0)):.4f}, mean log-lik {ll:.4f}")
    print("SLOT_W =", np.round(w[:-1], 3).tolist(), " SLOT_B =", round(float(w[-1]), 3))


if __name__ == "__main__":
    main()
