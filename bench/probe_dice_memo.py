"""The incremental reader's dice against a full read of the very same frame, on noisy and JPEG cameras (issue 12).

Run: PYTHONPATH=$PWD .venv/bin/python bench/probe_dice_memo.py --reallike 103,101,102,104,107 [--variant both]

Every ``BoardReader.read`` an incremental reader makes in the real-like referee games (as
``bench_reallike.py --frames 0 --games 200 --only G`` plays them) is shadowed by a full reader of the
same calibration reading the same frame (bench/probe_promise.py's shadow). Per frame its
Observation's dice are compared: their values (and whether each rolls), their confidences (a gap over
``CONF_GAP``) and their places (over ``PLACE_PX`` frame px apart, or a die more or fewer), and what a
player sees of the whole reading (``incremental.what_a_player_sees``). Printed per game and in all,
split by the kind of incremental read, with the dice memo's hits and lookups and the CPU of the
changed reads against the full reads of the same frames.

``--variant``: how a noisy camera's dice memo forgets (``_wire``): ``pixels`` (every pixel's change, as
the reader has it), ``candidates`` (the candidates by the camera's blocks, ``NoiseLevel.moved``),
``windows`` (the patched windows by them), ``both``; ``calm``: both, only after a reading with no
motion, no hand and every die sure; ``settled``: ``calm`` and the last two reads agreeing; ``sure``:
``calm`` with a hand in view too. Without it,
the tree as it is (also a tree whose ``DiceMemo.start`` takes no tests, e.g. stop 42's main).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent))

from tavli_pi.memory import keep_heap  # noqa: E402
from tavli_pi.threads import pin_threads  # noqa: E402
from tavli_pi.vision.incremental import what_a_player_sees  # noqa: E402

pin_threads()
keep_heap()

#: a die's value confidence differs when the two reads' differ by more than this
CONF_GAP = 0.02
#: a die's place differs when the two reads' lie more than this many frame px apart
PLACE_PX = 1.0
#: how a noisy camera's dice memo forgets: (candidates by the blocks, patched windows by the blocks, a guard)
VARIANTS: dict[str, tuple[bool, bool, str]] = {
    "pixels": (False, False, ""), "candidates": (True, False, ""), "windows": (False, True, ""),
    "both": (True, True, ""), "settled": (True, True, "settled"), "calm": (True, True, "calm"),
    "sure": (True, True, "sure")}
#: the reader being read and the block test it made this read (``_wire``)
_NOW: dict[str, Any] = {}


def _wire(variant: str) -> None:
    """Give the incremental reader's dice memo its noisy camera's block test (``BoardReader._change_test``'s,
    ``NoiseLevel.moved``) for the candidates and/or the patched windows (``DiceMemo.start``), as
    ``variant`` says; with a guard, only after a reading with no motion, no hand and every die sure
    (``reader._holdable``: "calm"), the last two reads agreeing too ("settled")."""
    from tavli_pi.vision import reader as rd
    from tavli_pi.vision.dice_memo import DiceMemo

    candidates, windows, guard = VARIANTS[variant]
    change_test, start = rd.BoardReader._change_test, DiceMemo.start

    def captured(self: Any) -> Any:
        _NOW["test"] = test = change_test(self)
        return test

    def started(self: DiceMemo, view: Any, *_: Any) -> None:
        test, r = _NOW.get("test"), _NOW.get("reader")
        kept = getattr(r, "_kept", None)
        if test is not None and guard == "sure":
            # (a hand in view does not stop it: the blocks it moves are read again)
            if kept is None or kept.obs.motion or not rd._sure_dice(kept.obs.dice):
                test = None
        elif test is not None and guard and not (kept is not None and (kept.stable or guard == "calm")
                                                 and rd._holdable(kept.obs)):
            test = None
        start(self, view, test if candidates else None, test if windows else None)

    rd.BoardReader._change_test = captured  # type: ignore[method-assign]
    DiceMemo.start = started  # type: ignore[method-assign,assignment]


def _dice(obs: Any) -> list[tuple[int, bool, float, float, float]]:
    return sorted((d.value, d.moving, d.value_confidence, d.xy[0], d.xy[1]) for d in obs.dice)


def _right(obs: Any, truth: Any) -> bool:
    """Whether a reading's still dice read a value are the truth's still dice (values, as a multiset)."""
    return sorted(d.value for d in obs.dice if d.value and not d.moving) == \
        sorted(d.value for d in truth.dice if not d.moving)


def compare(full: Any, inc: Any) -> list[str]:
    """What differs between two readings' dice (and the player's view of the rest)."""
    a, b = _dice(full), _dice(inc)
    out: list[str] = []
    if [(v, m) for v, m, *_ in a] != [(v, m) for v, m, *_ in b]:
        out.append("values")
    if len(a) != len(b):
        out.append("places")
    else:
        # matched by place: each of the full read's dice to the nearest of the incremental's
        used: set[int] = set()
        conf = place = False
        for v, m, c, x, y in a:
            j = min((k for k in range(len(b)) if k not in used), key=lambda k: (b[k][3] - x) ** 2 + (b[k][4] - y) ** 2)
            used.add(j)
            place |= ((b[j][3] - x) ** 2 + (b[j][4] - y) ** 2) ** 0.5 > PLACE_PX
            conf |= abs(b[j][2] - c) > CONF_GAP or b[j][0] != v
        if place:
            out.append("places")
        if conf:
            out.append("confidences")
    pa, pb = what_a_player_sees(full), what_a_player_sees(inc)
    if pa[0] != pb[0] or pa[2] != pb[2]:
        out.append("counts/hand")
    return out


class Tally:
    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self.differ: Counter[str] = Counter()  # "kind what"
        self.frames_differ: Counter[str] = Counter()  # kind
        self.examples: list[str] = []
        self.hits = self.lookups = 0
        self.cpu: dict[str, list[tuple[float, float]]] = {}
        #: frames whose dice values differ, by which read matches the truth's (``_right``)
        self.truth: Counter[str] = Counter()

    def add(self, full: Any, inc: Any, kind: str, index: int, truth: Any = None) -> None:
        self.kinds[kind] += 1
        what = compare(full, inc)
        if "values" in what and truth is not None:
            a, b = _right(full, truth), _right(inc, truth)
            self.truth["both right" if a and b else "full right" if a else "incremental right" if b else "both wrong"] += 1
        for w in what:
            self.differ[f"{kind} {w}"] += 1
        if what:
            self.frames_differ[kind] += 1
            if len(self.examples) < 6 and ("values" in what or "counts/hand" in what):
                self.examples.append(f"f{index} {kind} {what}: full {[(v, round(c, 2)) for v, _, c, *_ in _dice(full)]} "
                                     f"inc {[(v, round(c, 2)) for v, _, c, *_ in _dice(inc)]}")

    def merge(self, other: Tally) -> None:
        self.kinds.update(other.kinds)
        self.differ.update(other.differ)
        self.frames_differ.update(other.frames_differ)
        self.truth.update(other.truth)
        self.hits += other.hits
        self.lookups += other.lookups
        for k, v in other.cpu.items():
            self.cpu.setdefault(k, []).extend(v)

    def line(self, name: str, examples: bool = True) -> str:
        import numpy as np

        cpu = "; ".join(f"{k} x{len(v)}: incremental median {1e3 * np.median([a for a, _ in v]):.1f} ms, full "
                        f"{1e3 * np.median([b for _, b in v]):.1f} ms" for k, v in sorted(self.cpu.items()))
        text = (f"{name}: reads {dict(self.kinds)}; frames whose dice differ from a full read's "
                f"{dict(self.frames_differ)}; by what {dict(sorted(self.differ.items()))}; dice memo hits "
                f"{self.hits}/{self.lookups} lookups; where values differ, which read the truth's still dice: {dict(self.truth)}\n  CPU: {cpu}")
        if examples and self.examples:
            text += "\n  " + "\n  ".join(self.examples)
        return text


def reallike(games: list[int]) -> Tally:
    from bench.shadow_reads import Shadowed, shadowed_games
    from tavli_pi.sim.camera import SimCamera

    cameras: list[SimCamera] = []
    made = SimCamera.__init__

    def init(self: SimCamera, *a: Any, **kw: Any) -> None:
        made(self, *a, **kw)
        cameras[:] = [self]

    def prepare(reader: Any) -> tuple[int, int]:
        _NOW["reader"], _NOW["test"] = reader, None
        memo = reader.dice_memo
        return (memo.hits, memo.misses) if memo is not None else (0, 0)

    tally = [Tally()]
    total = Tally()

    def seen(s: Shadowed) -> None:
        memo = s.reader.dice_memo
        if memo is not None:
            h0, m0 = s.before
            tally[0].hits += memo.hits - h0
            tally[0].lookups += memo.hits - h0 + memo.misses - m0
        tally[0].cpu.setdefault(s.reader.last_kind, []).append((s.inc_s, s.full_s))
        tally[0].add(s.full, s.inc, s.reader.last_kind, s.index, cameras[0].last_truth if cameras else None)

    SimCamera.__init__ = init  # type: ignore[method-assign]
    t0 = time.time()
    try:
        for g in shadowed_games(games, seen, prepare):
            print(tally[0].line(f"real-like game {g}") + f" ({time.time() - t0:.0f} s)", flush=True)
            total.merge(tally[0])
            tally[0] = Tally()
    finally:
        SimCamera.__init__ = made  # type: ignore[method-assign]
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reallike", default="103,101,102,104,107")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default=None)
    args = ap.parse_args()
    if args.variant is not None:
        _wire(args.variant)
    games = [int(x) for x in args.reallike.split(",") if x.strip()]
    total = reallike(games)
    print(total.line(f"all ({args.variant or 'as the tree has it'})", examples=False))


if __name__ == "__main__":
    main()
