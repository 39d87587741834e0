"""Dice on the wood and green board designs, at the demo's camera: every value, both halves, both places.

As tests/vision/test_dice_grid.py, but on the two other designs of ``tavli_pi.sim``
with the look of tests/test_app_e2e.py's games on them (sensor noise 2, uneven
light 0.2): a white die with black pips on a pale, grained wood board (its six
stands out little from the light points, its crowded pips ring each other),
and a red die with white pips on green baize (as bright as the baize in grey).
The calibration is refined on the clear board and the checker discs come from
the checker reader, as the referee sees them (E3: a roll stands only on two
flat dice read with confidence >= 0.6).

Measured (bench/RESULTS.md, "Vision on the wood and green board designs"):
every flat die found; read right with confidence >= 0.6: wood 240/240, green
239/240 (a six read 4 at 0.37); none confidently wrong, none called cocked.
Before this change: wood 192/240 (white sixes missed), green 179/240 (red
ones missed, sixes missed, 4s and 5s called cocked).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator

import pytest

from tavli_pi.sim.render import render
from tavli_pi.sim.scene import DieSpec, Look, Scene
from tavli_pi.sim.script import demo_match
from tavli_pi.sim.table import DIE_PLACES, scene_of
from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice import find_dice
from tavli_pi.vision.refine import refine
from tavli_pi.vision.stacks import read_spots
from tests.vision._eval import pair_dice

PLACES = [(half, slot) for half in ("right", "left") for slot in (0, 1)]

Setup = tuple[Scene, Calibration, list[tuple[float, float, float]]]


def _setup(board: str) -> Setup:
    look = Look(board=board, noise=2.0, light_gradient=0.2)
    base = scene_of(demo_match()[1], look=look)  # the set-up board, calibrated on as the demo does
    clear = render(base)
    cal = refine(Calibration(clear.truth.corners), clear.image)
    canon = cal.warp(clear.image)
    _, _, discs = read_spots(canon, ck.gradients(canon), cal.layout, cal)
    return base, cal, discs


def _frames(base: Scene) -> Iterator[tuple[Scene, int]]:
    """Four flat dice a frame (both places of both halves): doubles, and neighbouring values side by side."""
    for v in range(1, 7):
        for a in (0, 20, 40, 60, 80):
            for mix in (0, 1):
                dice = []
                for k, (half, slot) in enumerate(PLACES):
                    u, vv = DIE_PLACES[half][slot]
                    value = v if (mix == 0 or k % 2 == 0) else v % 6 + 1
                    dice.append(DieSpec(value, u, vv, (a + 13 * k) % 90, "flat"))
                yield dataclasses.replace(base, dice=tuple(dice)), v * 100 + a + mix


def _score(board: str) -> Counter[str]:
    base, cal, discs = _setup(board)
    st: Counter[str] = Counter()
    for scene, seed in _frames(base):
        r = render(scene, 7, 7 + seed)  # the demo's scene seed (side faces), a noise seed per frame
        dice = find_dice(cal.warp(r.image), cal.layout, cal, discs, None, r.image)
        pairs, false = pair_dice(r.truth.dice, dice, 12)
        for t, d in pairs:
            st["n_flat"] += 1
            st[f"n_{t.value}"] += 1
            if d is None:
                continue
            ok = d.value == t.value and d.value_confidence >= 0.6 and d.flat
            st["found"] += 1
            st["ok"] += ok
            st[f"ok_{t.value}"] += ok
            st["flat_confident_wrong"] += d.flat and d.value != t.value and d.value_confidence >= 0.6
            st["false_cocked"] += not d.flat
        st["false_die"] += len(false)
        st["false_die_confident"] += sum(1 for d in false if d.value_confidence >= 0.6)
    return st


@pytest.mark.parametrize(("board", "ok"), [("wood", 238), ("green", 237)])
def test_flat_dice_of_every_value_on_the_other_designs(board: str, ok: int) -> None:
    st = _score(board)
    assert st["n_flat"] == 6 * 5 * 2 * 4
    assert st["found"] == st["n_flat"], st  # every die found: white sixes on wood, red ones on green
    # measured: wood 240/240 (was 192), green 239/240 (was 179; a six read 4 at 0.37, so not trusted)
    assert st["ok"] >= ok, st
    for v in range(1, 7):
        assert st[f"ok_{v}"] >= 0.95 * st[f"n_{v}"], (v, st)
    assert st["flat_confident_wrong"] == 0, st  # a wrong value never lets a roll stand (E3)
    assert st["false_cocked"] == 0, st  # a flat die never voids the roll as cocked (E3 b)
    assert st["false_die_confident"] == 0, st  # (green: a point's tip by a checker is sometimes
    # taken for a die still tumbling, value 0: the referee waits, it calls nothing)
