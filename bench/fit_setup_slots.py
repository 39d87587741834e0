"""Fit the set-up slot model (tavli_pi.vision.setup_slots.SETUP_W) on simulated real-like tables.

Each table is calibrated as the app does, twice: from its set-up frame (``learn_board`` with the
start position) and from a frame of a random game in progress on it (``learn_board`` with that
known position, as ``run`` learns a game it joins). Then a frame of a game on it is read, hands,
arms and sleeves over the board included: every slot the reader searches gets
``setup_slots.setup_slot_features`` (ring features, change from the learnt view and the field's
typical change, both measured on the field's quieter half, distance to this board's checker
colours, to the learnt colour there, and of the learnt colour there to the checkers) and the
truth (occupied or not; under a hand, what is there). Two logistics are fitted: slots empty
when the board was learnt, and slots the known position filled. Uses real-like seed 21 (the
real-like bench uses 0; the tests use their own). Prints the weights to paste into setup_slots.py,
and the slot errors of the ring-only model, the shipped weights (fitted on every frame: the
held-out half too) and the refit on a held-out half (the design as it stands, and as it stood
before the first slot's ring test: the fair comparison), split by frames with a hand and by
boards learnt mid-game.

    nice .venv/bin/python bench/fit_setup_slots.py [--frames 200] [--no-hands] [--no-mid]
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
from tavli_pi.vision import setup_slots  # noqa: E402
from tavli_pi.vision.setup_slots import SETUP_W, _still_design, known_slots, setup_slot_features  # noqa: E402
from tavli_pi.vision.spot_slots import SLOTS, slot_probability  # noqa: E402
from tavli_pi.vision.stacks import cv2_integral, spot_chains  # noqa: E402

SEED = 21
#: the set-up frame's second look (its sensor noise only fresh) is rendered with its seed plus this
#: (as bench/bench_setup_again.py does on the bench's own seed)
AGAIN = 7919


CACHE = Path("/tmp/fit_setup_slots_cache")


def _rendered(i: int, scene: Any, known: Any = None) -> tuple[Any, Any]:
    """(frame, teaching frame) of scene ``i``: the teaching frame shows the start position, or
    ``known`` (light, dark, bar, off: a game joined in progress); from the cache when there (a
    refit reads them again)."""
    path = CACHE / f"{SEED}_{i}_{scene.digest()}{'' if known is None else '_mid'}.pkl"  # keyed by the scene
    if path.exists():
        with path.open("rb") as fh:
            got: tuple[Any, Any] = pickle.load(fh)
            return got
    pair = (render(scene, SEED * 100003 + i), render(reallike_setup(scene, known), SEED * 100003 + i))
    CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        pickle.dump(pair, fh)
    return pair


def mid_game(i: int) -> tuple[Any, Any]:
    """A random mid-game position for scene ``i`` to teach from (as ``bench_reallike --known`` draws
    its own, on its own seed): (layout for ``reallike_setup``, KnownBoard)."""
    from tavli_pi.sim.datasets import random_layout
    from tavli_pi.vision.known import KnownBoard

    rng = np.random.default_rng([SEED, 11, i])
    light, dark, bar, off = random_layout(rng, cap=5, max_bar=1, max_off=2)
    known = KnownBoard.of_counts(list(light) + [bar[0], off[0]], list(dark) + [bar[1], off[1]])
    return (light, dark, bar, off), known


class Rows:
    """Per searched slot: features, occupied, filled when learnt, ring-only probability, frame index,
    whether a hand is in the frame, and whether the board was learnt mid-game."""

    def __init__(self) -> None:
        self.cols: dict[str, list[Any]] = {k: [] for k in ("X", "y", "filled", "ring", "frame", "hand", "mid", "thick", "slot",
                                                                 "again")}

    def add(self, **kw: Any) -> None:
        for k, v in kw.items():
            self.cols[k].append(v)

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: np.asarray(v, np.float64 if k in ("X", "y", "ring") else None) for k, v in self.cols.items()}


def rows(n: int, hands: bool = True, mid: bool = True, again: bool = True) -> dict[str, np.ndarray]:
    """Every searched slot of ``n`` seed-21 real-like frames, read with the board learnt from the
    start position and (``mid``) from a random mid-game position; frames with a hand, arm or sleeve
    over the board too (``hands``: the slots under it are labelled with what is there, so the
    model learns how little a hidden slot says); ``again``: the set-up frame seen again too."""
    out = Rows()
    for i, scene in enumerate(reallike_scenes(n, SEED)):
        if scene.hand is not None and not hands:
            continue
        teachers: list[tuple[Any, Any]] = [(None, None)]
        if mid:
            teachers.append(mid_game(i))
        for layout, known in teachers:
            r, s = _rendered(i, scene, layout)
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    cal = calibrate_setup(s, known)
            except TavliError:
                continue
            setup_slots.slot_model_reads = lambda cal: bool(cal.background)  # (whatever it reads today)
            # (the set-up frame read against itself, as ``read`` reads a photo of the start, was tried
            # too: on the real photos read without corners it lost a spot more; not kept)
            reads = [(r, scene.hand is not None, False)]
            if again and known is None:
                # the set-up board itself, seen again with fresh noise: the reader's first task
                # (the players confirm it), and the slots unchanged since the board was learnt
                seed = SEED * 100003 + i
                reads.append((render(reallike_setup(scene), seed, noise_seed=seed + AGAIN), False, True))
            for shot, hand, seen_again in reads:
                canon = cal.warp(shot.image)
                ch = spot_chains(ck.gradients(canon), cv2_integral(canon), cal.layout, cal, stop=True)
                feats = setup_slot_features(canon, cal.layout, cal, ch)
                if feats is None:
                    continue
                ring = slot_probability(ch)
                filled = known_slots(cal)
                t = shot.truth
                counts = [t.light[q] + t.dark[q] for q in range(24)] + [t.bar[0], t.bar[1]]
                searched = ch.searched if ch.searched is not None else np.full(26, SLOTS)
                for c, k_n in enumerate(counts):
                    if k_n > 5:
                        continue  # squeezed stacks are read from their rims, not slot by slot
                    for k in range(int(searched[c])):
                        out.add(X=feats[c, k], y=1.0 if k < k_n else 0.0, filled=bool(filled[c, k]), slot=k,
                                ring=ring[c, k], frame=i, hand=hand, mid=known is not None,
                                thick=scene.build.thickness > 0, again=seen_again)
    return out.arrays()


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
    ap.add_argument("--no-hands", action="store_true", help="leave out frames with a hand over the board (as before)")
    ap.add_argument("--no-mid", action="store_true", help="teach from the start position only (as before)")
    ap.add_argument("--no-again", action="store_true", help="leave out the set-up frames seen again (as before)")
    ap.add_argument("--rows", type=Path, help="keep the slots' features in this file, or read them from it when there "
                    "(a refit of the model's design alone reads no frame)")
    args = ap.parse_args()
    if args.rows is not None and args.rows.exists():
        with args.rows.open("rb") as fh:
            d = pickle.load(fh)
    else:
        d = rows(args.frames, hands=not args.no_hands, mid=not args.no_mid, again=not args.no_again)
        if args.rows is not None:
            with args.rows.open("wb") as fh:
                pickle.dump(d, fh)
    y, filled, ring, frame = d["y"], d["filled"], d["ring"], d["frame"]
    # (a point's first slot, empty when learnt, is still only where it rings no more than it did then:
    # ``_still_design``; rows kept before stop 41 hold no slot index)
    first = (d["slot"] == 0) & ~filled if "slot" in d else np.zeros(len(filled), bool)
    X = _still_design(d["X"], arrived=first)
    # the design before the first slot's ring test (stop 40), fitted on the same half: the fair
    # baseline (the shipped weights were fitted on every frame, the held-out half among them)
    X_before = _still_design(d["X"])
    shipped = SETUP_W.shape[1] == X.shape[1] + 1
    half = frame < np.median(frame)
    weights = []
    for kind in (False, True):
        m = filled == kind
        w = fit(X[m & half], y[m & half])
        test = m & ~half
        z = np.c_[X, np.ones(len(X))] @ w
        zb = np.c_[X_before, np.ones(len(X))] @ fit(X_before[m & half], y[m & half])
        zs = np.c_[X, np.ones(len(X))] @ SETUP_W[int(kind)] if shipped else np.full(len(X), np.nan)
        for name, part in (("all", test), ("hand frames", test & d["hand"]), ("no hand", test & ~d["hand"]),
                           ("learnt at the start", test & ~d["mid"]), ("learnt mid-game", test & d["mid"]),
                           ("flat checkers", test & ~d["thick"]), ("thick checkers", test & d["thick"]),
                           ("set-up seen again", test & d["again"])):
            print(f"{'filled' if kind else 'empty'} when learnt, {name}: {int(part.sum())} held-out slots; errors: "
                  f"ring only {int(((ring[part] > 0.5) != y[part]).sum())}, shipped model "
                  f"{int(((zs[part] > 0) != y[part]).sum()) if shipped else '- (another design)'} (fitted on these "
                  f"too), refit: design before "
                  f"{int(((zb[part] > 0) != y[part]).sum())}, now {int(((z[part] > 0) != y[part]).sum())}")
        weights.append(fit(X[m], y[m]))  # the weights kept: fitted on all
    taught = d["X"][:, setup_slots.TAUGHT]
    print(f"taught ring medians: empty when learnt {np.median(taught[filled == 0]):.1f}, "
          f"filled {np.median(taught[filled == 1]):.1f}")
    print("SETUP_W = np.asarray([")
    for w in weights:
        print("    [" + ", ".join(f"{v:.3f}" for v in w) + "],")
    print("])")


if __name__ == "__main__":
    main()
