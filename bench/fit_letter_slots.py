"""Letter slots, many of them: data and a fit for the slots an overlay's letters or a print make look like a checker.

A slot the start position leaves empty, whose learnt empty board (``Calibration.background``)
rings like a checker there (the ring model ``spot_slots.SLOT_W`` above ``LETTER_RING`` on the learnt
board: an overlay band's letters, the board's print), is read by the set-up slot model as a
checker whenever the ring shows. What tells a letter from a checker under it is the change since
set-up at that slot, against how much the slot's own neighbours (the other set-up-empty slots of
its column) changed (bench/RESULTS.md, stop 25, bands25). This script collects such slots, with
their truth, from real-like frames of seeds no bench or test uses (21, the set-up model's own,
and 31-39: ``--seeds``), only tables with a broadcast band or a print on the field, each learnt
at set-up as the app does (``bench_reallike.calibrate_setup``), and saves per slot the features
``stacks.letter_slot_features`` gives with the set-up model's logit and the truth
(``--out``, an .npz). ``--fit`` then fits a logistic on them (a held-out half by table, then all)
and prints its errors against the shipped model's, and its weights (``LETTER_W``); ``--eval`` the
errors of ``LETTER_W`` on a set; ``--filled`` collects the slots the set-up filled instead.

    nice .venv/bin/python bench/fit_letter_slots.py --seeds 21,31,32 --frames 400 --out /tmp/letters.npz
    nice .venv/bin/python bench/fit_letter_slots.py --fit /tmp/letters.npz
    nice .venv/bin/python bench/fit_letter_slots.py --seeds 0,1,2 --frames 120 --out /tmp/bench012.npz
    nice .venv/bin/python bench/fit_letter_slots.py --eval /tmp/bench012.npz
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reallike import calibrate_setup  # noqa: E402
from fit_setup_slots import fit  # noqa: E402

from tavli_pi.errors import TavliError  # noqa: E402
from tavli_pi.sim.datasets import reallike_scenes, reallike_setup  # noqa: E402
from tavli_pi.sim.render import render  # noqa: E402
from tavli_pi.vision import checkers as ck  # noqa: E402
from tavli_pi.vision import setup_slots  # noqa: E402
from tavli_pi.vision import spot_slots  # noqa: E402
from tavli_pi.vision import stacks  # noqa: E402

import letter_slot_features as letter_slots  # noqa: E402

CACHE = Path("/tmp/fit_letter_slots_cache")
#: the weights fitted on seeds 21 and 31-33 (``--fit``, 927 letter slots of 431 tables, 131 holding a
#: checker) and the logit's cap, as the reader used them in 924b35c (``--eval``)
LETTER_W = np.asarray([0.195, -0.258, 0.328, -0.914, -0.874, 2.330, 1.059, -1.257, -3.642])
LETTER_CAP = 2.0
#: fit_setup_slots.py's renders of seed 21 (same recipe: frame, set-up frame), used when there
OLD_CACHE = Path("/tmp/fit_setup_slots_cache")
#: diag_spots.py's renders (seeds 0-2, the same recipe), for ``--eval`` on the benches' own frames
DIAG_CACHE = Path("/tmp/diag_spots_cache")
#: --filled: collect the slots the set-up position filled instead (``letter_slots.filled_features``)
FILLED = "--filled" in sys.argv


def marked(scene: Any) -> bool:
    """The table has a broadcast band over the picture or a print on the field."""
    return any(o.kind == "band" for o in scene.overlays) or any(
        0.0 < p.v < 1.0 for p in scene.build.prints)


def rendered(seed: int, i: int, scene: Any) -> tuple[Any, Any]:
    key = f"{seed}_{i}_{scene.digest()}"  # keyed by the scene: a changed table renders anew
    for path in (OLD_CACHE / f"{key}.pkl", DIAG_CACHE / f"{key}.pkl", CACHE / f"{key}.pkl"):
        if path.exists():
            with path.open("rb") as fh:
                got: tuple[Any, Any] = pickle.load(fh)
                return got
    pair = (render(scene, seed * 100003 + i), render(reallike_setup(scene), seed * 100003 + i))
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f"{key}.pkl").open("wb") as fh:
        pickle.dump(pair, fh)
    return pair


def frame_rows(job: tuple[int, int, Any]) -> list[list[float]]:
    """Rows (seed, frame, column, slot, hand, truth, shipped logit, letter features...) of one frame."""
    seed, i, scene = job
    r, s = rendered(seed, i, scene)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            cal = calibrate_setup(s)
    except TavliError:
        return []
    canon = cal.warp(r.image)
    lay = cal.layout
    g = ck.gradients(canon)
    ch = stacks.spot_chains(g, stacks.cv2_integral(canon), lay, cal, stop=True)
    view = setup_slots.setup_view(canon, lay, cal)
    if view is None:
        return []
    feats = setup_slots.setup_slot_features(canon, lay, cal, ch, None, view)
    if feats is None:
        return []
    filled = setup_slots.known_slots(cal)
    z = setup_slots.setup_logit(feats, filled[:, : feats.shape[1]], setup_slots.taught(cal))  # (the model's own design)
    depth = ch.searched if ch.searched is not None else np.full(len(ch.x), spot_slots.SLOTS)
    searched = np.arange(spot_slots.SLOTS)[None, :] < depth[:, None]
    learnt = letter_slots.learnt_gradients(cal.background, canon.shape[:2])
    if learnt is None:
        return []
    _x, _b, sign, radii = spot_slots.spot_geometry(lay, cal)
    if FILLED:
        got = letter_slots.filled_features(ch, learnt, radii, filled, searched, view.now, view.background, view.gain,
                                           view.typical, feats[..., -1])
    else:
        got = letter_slots.letter_features(ch, learnt, radii, sign > 0, filled, searched, view.now, view.background,
                                           view.gain, view.typical, feats[..., -1], spot_slots.SLOT_W, spot_slots.SLOT_B)
    t = r.truth
    counts = [t.light[q] + t.dark[q] for q in range(24)] + [t.bar[0], t.bar[1]]
    hand = 1.0 if scene.hand is not None else 0.0
    out = []
    for c, k, f in got:
        if counts[c] > 5:
            continue
        out.append([seed, i, c, k, hand, 1.0 if k < counts[c] else 0.0, float(z[c, k]), *f.tolist()])
    return out


def collect(seeds: list[int], frames: int, out: Path, workers: int) -> None:
    jobs = [(seed, i, sc) for seed in seeds for i, sc in enumerate(reallike_scenes(frames, seed)) if marked(sc)]
    print(f"{len(jobs)} tables with a band or a print", flush=True)
    rows: list[list[float]] = []
    with multiprocessing.Pool(workers) as pool:
        for n, got in enumerate(pool.imap_unordered(frame_rows, jobs, chunksize=2)):
            rows += got
            if n % 50 == 0:
                print(f"  {n} tables, {len(rows)} slots", flush=True)
                np.savez(out, rows=np.asarray(rows, np.float64))  # (a partial set, read while it runs)
    np.savez(out, rows=np.asarray(rows, np.float64))
    print(f"{len(rows)} letter slots saved to {out}")


def report(path: Path) -> None:
    rows = np.load(path)["rows"]
    if not FILLED:
        rows = rows[rows[:, 7] > letter_slots.LETTER_RING]  # (a set collected with a lower threshold)
    seed, frame, y, z0 = rows[:, 0], rows[:, 1], rows[:, 5], rows[:, 6]
    X = np.c_[z0, rows[:, 7:]]
    print(f"{len(y)} letter slots ({int(y.sum())} holding a checker), {len(set(zip(seed, frame)))} tables")
    table = seed * 100003 + frame
    half = (np.floor(table * 0.61803) % 2) == 0
    for name, train, test in (("held-out", half, ~half), ("held-out (swapped)", ~half, half),
                              ("all", np.ones(len(y), bool), np.ones(len(y), bool))):
        w = fit(X[train], y[train])
        zz = np.c_[X, np.ones(len(X))] @ w
        for nm, zs in (("shipped", z0), ("refit", zz)):
            wrong = (zs > 0) != (y > 0.5)
            sure = np.abs(zs) > 2.2
            print(f"{name:20s} {nm:8s} {int(test.sum())} slots: errors {int((wrong & test).sum())} "
                  f"(missed {int((wrong & test & (y > 0.5)).sum())}, phantoms {int((wrong & test & (y < 0.5)).sum())}), "
                  f"sure and wrong {int((wrong & sure & test).sum())}")
    w = fit(X, y)
    print("LETTER_W = np.asarray([" + ", ".join(f"{v:.3f}" for v in w) + "])")


def evaluate(path: Path) -> None:
    """The shipped set-up model against it with ``LETTER_W`` (held within ``LETTER_CAP``) on a
    collected set (``--seeds 0,1,2 --frames 120``: the benches' frames, never fitted on)."""
    rows = np.load(path)["rows"]
    rows = rows[rows[:, 7] > letter_slots.LETTER_RING]
    y, z0 = rows[:, 5] > 0.5, rows[:, 6]
    z = np.clip(np.c_[z0, rows[:, 7:], np.ones(len(rows))] @ LETTER_W, -LETTER_CAP, LETTER_CAP)
    for name, zs in (("shipped", z0), ("letter model", z)):
        wrong = (zs > 0) != y
        print(f"{name:13s} {len(y)} letter slots ({int(y.sum())} holding a checker): errors {int(wrong.sum())} "
              f"(missed {int((wrong & y).sum())}, phantoms {int((wrong & ~y).sum())}), wrong at p >= 0.9 "
              f"{int((wrong & (np.abs(zs) > 2.197)).sum())}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seeds", default="21,31,32")
    ap.add_argument("--frames", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("/tmp/letter_slots.npz"))
    ap.add_argument("--eval", type=Path, default=None, help="an .npz this script saved: the shipped letter model on it")
    ap.add_argument("--filled", action="store_true", help="the slots the set-up filled, not letter slots")
    ap.add_argument("--fit", type=Path, default=None, help="an .npz this script saved: fit and report")
    args = ap.parse_args()
    if args.fit is not None:
        report(args.fit)
        return
    if args.eval is not None:
        evaluate(args.eval)
        return
    collect([int(s) for s in args.seeds.split(",")], args.frames, args.out, args.workers)


if __name__ == "__main__":
    main()
