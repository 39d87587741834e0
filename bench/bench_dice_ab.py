"""The dice stage of two trees, interleaved frame by frame in one process (issue 12).

Run: .venv/bin/python bench/bench_dice_ab.py --base /path/to/other/worktree [--games N]

On a shared machine two benchmark processes run under different loads, and a 10 ms change in
the dice stage drowns in the difference. Here the incremental reader reads the demo match (as
``bench_dice_stage.py``; with ``--games N`` random games 5 .. 5 + N - 1 of 8 turns too), and each of its ``find_dice`` calls is kept with the gate view of its
frame; then every call is made again through this tree's dice modules and through the base
tree's (the modules of ``MODULES`` it has, loaded from its files beside this tree's), each version with its own ``DiceMemo`` (a changed frame's read) and without one (a
full read), the two versions taking turns at going first. Prints each version's CPU medians
(``time.process_time``) and whether every reading of the two was the same.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_dice_stage as stage  # noqa: E402  (pins the threads, as the app does)

import tavli_pi.vision.dice as this_dice  # noqa: E402
import tavli_pi.vision.reader as reader_mod  # noqa: E402
from tavli_pi.vision.dice_memo import DiceMemo  # noqa: E402

#: the dice search's modules, in an order each one's imports of the others are loaded first (a
#: module the base tree lacks -- dice.py was split at stop 15 -- is not loaded from it)
MODULES = ("lie", "pips", "dice_memo", "lettering", "tumbling", "dice_vet", "dice_spots", "dice_body", "dice_groups",
           "dice_face", "dice_blobs", "fine_view", "dice")


def _base_dice(tree: Path) -> tuple[ModuleType, type]:
    """The base tree's ``dice`` module (importing the base's own dice modules) and its ``DiceMemo``."""
    here = {n: sys.modules[f"tavli_pi.vision.{n}"] for n in MODULES}
    got: dict[str, ModuleType] = {}
    if not (tree / "tavli_pi" / "vision" / "dice.py").exists():
        raise SystemExit(f"{tree}: --base must name a checkout of tavli-pi")
    try:
        for n in MODULES:
            path = tree / "tavli_pi" / "vision" / f"{n}.py"
            if not path.exists():
                continue
            spec = importlib.util.spec_from_file_location(f"base_{n}", path)
            assert spec is not None and spec.loader is not None
            m = importlib.util.module_from_spec(spec)
            sys.modules[f"base_{n}"] = m
            spec.loader.exec_module(m)
            got[n] = sys.modules[f"tavli_pi.vision.{n}"] = m  # what the base's later modules import
    finally:
        sys.modules.update({f"tavli_pi.vision.{n}": m for n, m in here.items()})
    return got["dice"], got["dice_memo"].DiceMemo  # type: ignore[no-any-return]


def _calls(images: list[np.ndarray], cal: Any) -> tuple[list[tuple[np.ndarray, list[Any], dict[str, Any]]], list[str]]:
    """The incremental reader's ``find_dice`` calls over ``images`` (gate view, arguments) and
    each one's kind of read."""
    calls: list[tuple[np.ndarray, list[Any], dict[str, Any]]] = []  # per find_dice: gate view, arguments
    view: list[np.ndarray] = []
    start = DiceMemo.start

    def seen(memo: DiceMemo, v: np.ndarray) -> None:
        view[:] = [v.copy()]
        start(memo, v)

    def kept(*a: Any, **k: Any) -> Any:
        calls.append((view[0], [x.copy() if isinstance(x, np.ndarray) else x for x in a],
                      {n: v for n, v in k.items() if n != "memo"}))
        return this_dice.find_dice(*a, **k)

    DiceMemo.start = seen  # type: ignore[method-assign]
    found = reader_mod.find_dice
    reader_mod.find_dice = kept  # type: ignore[assignment]
    inc = reader_mod.BoardReader(cal, incremental=True)
    kinds = []
    try:
        for i, im in enumerate(images):
            n = len(calls)
            inc.read(im, i)
            if len(calls) > n:
                kinds.append(inc.last_kind)
    finally:
        DiceMemo.start = start  # type: ignore[method-assign]
        reader_mod.find_dice = found  # type: ignore[assignment]
    return calls, kinds


def main() -> None:
    if "--base" not in sys.argv:
        raise SystemExit("usage: bench_dice_ab.py --base /path/to/other/worktree")
    base_dice, BaseMemo = _base_dice(Path(sys.argv[sys.argv.index("--base") + 1]))
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; cores {os.cpu_count()}")
    sets = [("demo", stage.demo_match(), 7)]
    if "--games" in sys.argv:
        for g in range(int(sys.argv[sys.argv.index("--games") + 1])):
            sets.append((f"random game {5 + g} (8 turns)", stage.random_game(5 + g, turns=8), 5 + g))
    finders = {"base": base_dice.find_dice, "this": this_dice.find_dice}
    cpu: dict[tuple[str, str], list[float]] = {(w, k): [] for w in finders for k in ("changed", "full")}
    for name, moments, seed in sets:
        images, cal = stage._frames(moments, seed)
        calls, kinds = _calls(images, cal)
        memos = {"base": BaseMemo(cal), "this": DiceMemo(cal)}
        same = True
        for j, ((v, a, k), kind) in enumerate(zip(calls, kinds)):
            got = {}
            for who in (("base", "this") if j % 2 else ("this", "base")):
                memos[who].start(v)
                c = time.process_time()
                got[who] = finders[who](*a, memo=memos[who], **k)
                if kind == "changed":
                    cpu[(who, "changed")].append(time.process_time() - c)
                c = time.process_time()
                got[who + " full"] = finders[who](*a, **k)
                cpu[(who, "full")].append(time.process_time() - c)
            same &= got["base"] == got["this"] and got["base full"] == got["this full"]
        print(f"{name}: {len(images)} frames, {len(calls)} dice searches; every reading the same both ways: {same}")
    for (who, kind), xs in cpu.items():
        ms = np.asarray(xs) * 1000
        print(f"  {who:4s} {kind:7s} x{len(ms):3d}: dice CPU median {np.median(ms):5.1f} mean {ms.mean():5.1f} ms")
    print(f"load average at end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
