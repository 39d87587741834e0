"""Which learnt parts of a board learnt from a mid-game position help, and which hurt.

A board learnt from a known position (``vision.setup.learn_board``) carries four parts beside
the corners: the geometry (edges, bar, pitch), the checker looks (colours, hue spread), the
background (the board as seen: dice, hands, trays; with the known position's slots), and the
set-up slot model that reads each slot against that background (``setup_slots.setup_slot_probability``).
Each variant here keeps some of them, over the unlearnt calibration (the corners, refined), and
reads the same frames:

- the WTC 2022 real board, leave one out (as ``bench_vision.py --learn``): each whole, hand-free
  frame teaches with its labelled position, every other WTC frame is read;
- the simulated real-like set (as ``bench_reallike.py --known N``): each table learnt from a
  random mid-game position, the frame read.

    nice .venv/bin/python bench/bench_learn_parts.py [--known 60] [--seed 0] [--skip-sim] [--skip-wtc]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.vision import setup_slots  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402

GEOMETRY = ("u0", "u1", "bar", "v0", "v1", "aspect", "checker_r")
LOOKS = ("light_bgr", "dark_bgr", "checker_hue")
BACKGROUND = ("background", "skin", "clear", "trays", "position", "unseen", "field_bgr")

#: variant name -> (the parts taken from the learnt calibration, how the set-up slot model reads:
#: "on" as shipped, "off" (ring fit only), "empty" (only on the slots the known position left
#: empty; the ones it filled by their ring fit))
VARIANTS: dict[str, tuple[tuple[str, ...], str]] = {
    "unlearnt": ((), "off"),
    "learnt (all)": (("geometry", "looks", "background"), "on"),
    "all but the slot model": (("geometry", "looks", "background"), "off"),
    "all, slot model on slots empty when learnt": (("geometry", "looks", "background"), "empty"),
    "geometry + looks": (("geometry", "looks"), "off"),
    "geometry": (("geometry",), "off"),
    "looks": (("looks",), "off"),
    "background + slot model": (("background",), "on"),
}


def mix(base: Calibration, learnt: Calibration, parts: tuple[str, ...]) -> Calibration:
    """``base`` with the named parts of ``learnt``."""
    fields: dict[str, object] = {}
    for part, names in (("geometry", GEOMETRY), ("looks", LOOKS), ("background", BACKGROUND)):
        if part in parts:
            fields |= {n: getattr(learnt, n) for n in names}
    return base.with_(**fields)


@contextlib.contextmanager
def slot_model(mode: str) -> Iterator[None]:
    """The set-up slot model on (as shipped), off (every slot read by its ring fit alone), or "empty"
    (on the slots the known position left empty; the filled ones by their ring fit)."""
    kept, prob, reads = setup_slots.SETUP_W, setup_slots.setup_slot_probability, setup_slots.slot_model_reads

    def empty_only(feats: np.ndarray, cols: np.ndarray | None = None, filled: np.ndarray | None = None,
                   by_taught: bool = True) -> np.ndarray:
        p = prob(feats, cols, filled, by_taught)
        f = (setup_slots.start_slots() if filled is None else filled)[:, : feats.shape[1]]
        f = f if cols is None else f[cols]
        ring = 1.0 / (1.0 + np.exp(-feats[..., setup_slots.RING]))
        return np.asarray(np.where(f, ring, p))

    if mode == "off":
        setup_slots.SETUP_W = np.zeros_like(kept)
    else:  # the model reads any learnt board, whatever position it was learnt from (as on branch learnany)
        setup_slots.slot_model_reads = lambda cal: bool(cal.background)
    if mode == "empty":
        setup_slots.setup_slot_probability = empty_only
    try:
        yield
    finally:
        setup_slots.SETUP_W, setup_slots.setup_slot_probability, setup_slots.slot_model_reads = kept, prob, reads


def wtc() -> None:
    from bench_vision import REAL
    from tests.vision._eval import known_of_label
    from tavli_pi.errors import CalibrationError
    from tavli_pi.vision.refine import refine
    from tavli_pi.vision.setup import learn_board
    from tests.vision._eval import real_frames, score_real

    frames = [f for f in real_frames(REAL) if f.board_set == "wtc2022"]
    teachers = [f for f in frames if f.truth is not None and not f.label["hand"] and f.label["complete"]]
    tot = {v: {"spots": 0, "wrong": 0, "conf": 0, "perfect": 0, "complete": 0} for v in VARIANTS}
    errs: dict[str, list[str]] = {v: [] for v in VARIANTS}
    for t in teachers:
        base = refine(Calibration(t.corners, home=t.label["home"]), t.image)
        try:
            learnt = learn_board(t.image, base, known_of_label(t.truth))
        except CalibrationError as exc:
            print(f"  {t.name} taught nothing: {exc}")
            continue
        for v, (parts, mode) in VARIANTS.items():
            cal = mix(base, learnt, parts)
            for f in frames:
                if f.name == t.name:
                    continue
                with slot_model(mode):
                    obs = BoardReader(cal, still_photo=True).read(f.image)
                sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
                s = tot[v]
                s["spots"] += sc.spots
                s["wrong"] += len(sc.spot_errors)
                s["conf"] += sc.confident_wrong
                s["complete"] += sc.perfect is not None
                s["perfect"] += bool(sc.perfect)
                if sc.spot_errors:
                    errs[v].append(f"{t.name}->{f.name} {sc.spot_errors[:3]}")
    for v, s in tot.items():
        print(f"WTC leave-one-out, {v}: per-spot error {100 * s['wrong'] / max(s['spots'], 1):.2f}% "
              f"({s['wrong']}/{s['spots']}), perfect {s['perfect']}/{s['complete']}, confidently wrong {s['conf']}")
        for e in errs[v][:6]:
            print(f"    {e}")


def sim(n: int, seed: int) -> None:
    from bench_reallike import FrameScore, calibrate_setup
    from tavli_pi.errors import TavliError
    from tavli_pi.sim.datasets import random_layout, reallike_scenes, reallike_setup
    from tavli_pi.sim.render import render
    from tavli_pi.vision.known import KnownBoard

    scores = {v: FrameScore() for v in VARIANTS}
    for i, scene in enumerate(reallike_scenes(n, seed)):
        rng = np.random.default_rng([seed, 11, i])
        light, dark, bar, off = random_layout(rng, cap=5, max_bar=1, max_off=2)
        known = KnownBoard.of_counts(list(light) + [bar[0], off[0]], list(dark) + [bar[1], off[1]])
        r = render(scene, seed * 100003 + i)
        mid = render(reallike_setup(scene, (light, dark, bar, off)), seed * 100003 + i)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                base = calibrate_setup(mid, learn=False)
                learnt = calibrate_setup(mid, known)
        except TavliError:
            for sc in scores.values():
                sc.fail(r.truth)
            continue
        for v, (parts, mode) in VARIANTS.items():
            with slot_model(mode):
                obs = BoardReader(mix(base, learnt, parts)).read(r.image)
            scores[v].add(obs, r.truth, 0.0)
    print(f"real-like set: {n} frames, seed {seed}, each table learnt from a random mid-game position")
    for v, sc in scores.items():
        sc.report(f"reader, {v}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--known", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip-sim", action="store_true")
    ap.add_argument("--skip-wtc", action="store_true")
    ap.add_argument("--variants", default="", help="variant names separated by ';' (default all)")
    args = ap.parse_args()
    if args.variants:
        keep = [v.strip() for v in args.variants.split(";")]
        for v in list(VARIANTS):
            if v not in keep:
                del VARIANTS[v]
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if not args.skip_wtc:
        wtc()
    if not args.skip_sim:
        sim(args.known, args.seed)


if __name__ == "__main__":
    main()
