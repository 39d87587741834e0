"""Whether the fine dice search can help beside a six read from its clean bars (issue 12).

Run: PYTHONPATH=$PWD .venv/bin/python bench/probe_bar_six_skip.py CACHE

``CACHE``: a ``bench/bench_dice.py --cache`` folder (its real-like, simulated and board sets). Every
frame's dice are found twice: as the tree has it (a clean bar-six counts as read clearly towards
sparing the finer search, ``dice._clear``) and with the old rule (only ``CLEAR``). Printed: the frames
whose fine search the new rule spares, those whose dice differ, each side's dice scored against the
truth there, and every clean bar-six the canonical search read (right or wrong against the truth).
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()

import bench_dice as bd  # noqa: E402

sys.modules["__main__"].FrameCase = bd.FrameCase  # type: ignore[attr-defined]  (the cache pickled it from bench_dice run as a script)
import tavli_pi.vision.dice as dice_mod  # noqa: E402
from tavli_pi.vision.dice_vet import vet_dice  # noqa: E402


def run(case: Any, old: bool) -> tuple[list[Any], bool]:
    """The case's vetted dice, and whether the fine search ran."""
    ran = {"fine": False}
    keep_clear, keep_fine = dice_mod._clear, dice_mod.fine_view

    def fine(*a: Any, **k: Any) -> Any:
        ran["fine"] = True
        return keep_fine(*a, **k)

    if old:
        dice_mod._clear = lambda d, bars: d.value_confidence >= dice_mod.CLEAR  # type: ignore[assignment]
    dice_mod.fine_view = fine  # type: ignore[assignment]
    try:
        got = dice_mod.find_dice(*case.args)
    finally:
        dice_mod._clear, dice_mod.fine_view = keep_clear, keep_fine  # type: ignore[assignment]
    if case.vet is not None:
        cal, diff, still = case.vet
        got = vet_dice(got, cal, diff, *case.vet_rest, **getattr(case, "vet_kw", {}))
        if still:
            got = [d for d in got if not d.moving]
    return got, ran["fine"]


def score(case: Any, dice: list[Any]) -> tuple[int, int]:
    """(right, wrong) valued flat still dice against the truth (bench_dice's matching)."""
    t = bd.Tally()
    keep = bd.find_dice, bd.vet_dice
    bd.find_dice = lambda *a: dice  # type: ignore[assignment]
    bd.vet_dice = lambda d, *a, **k: d  # type: ignore[assignment]
    try:
        bd.score_frame(case, t)
    finally:
        bd.find_dice, bd.vet_dice = keep  # type: ignore[assignment]
    ok = sum(1 for _, r in t.reads if r)
    return ok, len(t.reads) - ok


def main() -> None:
    cache = Path(sys.argv[1])
    bars_seen: list[tuple[str, bool, float]] = []
    keep_find = dice_mod._find

    def spy(*a: Any, **k: Any) -> Any:
        out = keep_find(*a, **k)
        if k.get("bars") is not None:
            _NOW["bars"] = list(k["bars"])
        return out

    for name in ("reallike-120-0", "reallike-read-120-0", "sim", "boards"):
        p = cache / f"{name}.pkl"
        if not p.exists():
            continue
        with p.open("rb") as fh:
            cases = pickle.load(fh)
        spared = differ = 0
        new_score = [0, 0]
        old_score = [0, 0]
        for case in cases:
            dice_mod._find = spy  # type: ignore[assignment]
            _NOW["bars"] = []
            try:
                new, fine_new = run(case, old=False)
            finally:
                dice_mod._find = keep_find  # type: ignore[assignment]
            for b in _NOW["bars"]:
                if b.value_confidence >= dice_mod.READ:
                    near = [t for t in case.truth if np.hypot(b.xy[0] - t[0], b.xy[1] - t[1]) < case.radius]
                    bars_seen.append((name, bool(near) and near[0][2] == 6, b.value_confidence))
            old, fine_old = run(case, old=True)
            if fine_old and not fine_new:
                spared += 1
                key = lambda d: (d.value, round(d.value_confidence, 3), d.flat, d.moving, round(d.xy[0], 1), round(d.xy[1], 1))  # noqa: E731
                if sorted(map(key, new)) != sorted(map(key, old)):
                    differ += 1
                    print(f"  {name}: differs: new {sorted(map(key, new))} old {sorted(map(key, old))} truth {case.truth}")
                for acc, dice in ((new_score, new), (old_score, old)):
                    r, w = score(case, dice)
                    acc[0] += r
                    acc[1] += w
        print(f"{name}: {len(cases)} frames; fine search spared on {spared}, dice differ on {differ}; "
              f"there right/wrong new {new_score[0]}/{new_score[1]}, old {old_score[0]}/{old_score[1]}")
    right = sum(1 for _, r, _ in bars_seen if r)
    print(f"clean bar-sixes read (canonical view, at READ): {len(bars_seen)}, right {right}, wrong {len(bars_seen) - right}")
    for n, r, c in bars_seen:
        if not r:
            print(f"  wrong: {n} at {c:.2f}")


_NOW: dict[str, Any] = {}

if __name__ == "__main__":
    main()
