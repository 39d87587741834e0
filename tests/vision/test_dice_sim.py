"""Dice on simulated boards (tavli_pi.sim): found, read, flat/cocked, on a checker, half.

The calibration comes from the true field corners and the checker discs from
the true checker positions, so these tests measure the dice step alone.
Thresholds are the figures measured on these seeds (bench/RESULTS.md)
with a small margin.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import cv2
import numpy as np
import pytest

from tavli_pi.sim import _layout as SL
from tavli_pi.sim.datasets import easy_scenes, hard_scenes
from tavli_pi.sim.render import render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice import find_dice, find_spots
from tests.vision._eval import pair_dice


def true_discs(scene: Any, truth: Any, cal: Calibration) -> list[tuple[float, float, float]]:
    """Checker discs (canonical x, y, r) from the simulator's own layout."""
    lay = SL.layout(scene.home, scene.trays)
    pts, rad = [], []
    for p in range(1, 25):
        n = scene.light[p - 1] + scene.dark[p - 1]
        for x, y in lay.stack(p, n):
            pts.append((x, y))
            pts.append((x + SL.R, y))
    if not pts:
        return []
    img = cv2.perspectiveTransform(np.asarray(pts, np.float32).reshape(-1, 1, 2), truth.homography).reshape(-1, 2)
    can = cal.to_canonical(img)
    out = []
    for k in range(0, len(can), 2):
        c, e = can[k], can[k + 1]
        rad.append(float(np.hypot(*(e - c))))
        out.append((float(c[0]), float(c[1]), rad[-1]))
    return out


def score(scenes: list[Any], seed0: int) -> Counter[str]:
    st: Counter[str] = Counter()
    for i, sc in enumerate(scenes):
        if sc.hand is not None:
            continue
        r = render(sc, seed0 + i)
        cal = Calibration(r.truth.corners, home=sc.home)
        canon = cal.warp(r.image)
        dice = find_dice(canon, cal.layout, cal, true_discs(sc, r.truth, cal), None, r.image)
        pairs, false = pair_dice(r.truth.dice, dice, 14)
        for t, d in pairs:
            kind = "moving" if t.moving else "flat" if t.flat else "not_flat"
            st["n_" + kind] += 1
            if d is None:
                continue
            st["found_" + kind] += 1
            st["half_ok"] += d.half == t.half
            st["on_checker_ok"] += d.on_checker == t.on_checker
            if t.flat:
                st["value_ok"] += d.value == t.value
                st["false_cocked"] += not d.flat
                st["confident_wrong"] += d.value != t.value and d.value_confidence >= 0.6
            elif not t.moving:
                st["cocked_hit"] += not d.flat
        st["false_alarm"] += len(false)
        st["false_alarm_confident"] += sum(1 for d in false if d.value_confidence >= 0.6)
    return st


@pytest.fixture(scope="module")
def easy() -> Counter[str]:
    return score(easy_scenes(14, 11), 0)


@pytest.fixture(scope="module")
def hard() -> Counter[str]:
    return score(hard_scenes(30, 11), 0)


def test_flat_dice_on_easy_boards(easy: Counter[str]) -> None:
    n = easy["n_flat"]
    assert n >= 15
    # measured on these seeds: 23/26 found, all values right, 1 false cocked, no false die
    assert easy["found_flat"] >= 0.85 * n
    assert easy["value_ok"] >= easy["found_flat"] - 1
    assert easy["false_cocked"] <= 1
    assert easy["false_alarm"] <= 1
    assert easy["half_ok"] == easy["found_flat"]


def test_all_poses_on_hard_boards(hard: Counter[str]) -> None:
    flat = hard["n_flat"]
    assert flat >= 20
    found = hard["found_flat"] + hard["found_not_flat"] + hard["found_moving"]
    # measured (see RESULTS.md): most flat dice found and read; E3's "cocked" flag
    # catches most cocked/leaning dice; few wrong values are reported with confidence
    assert hard["found_flat"] >= 0.65 * flat
    assert hard["value_ok"] >= 0.9 * hard["found_flat"]
    assert hard["confident_wrong"] <= 1
    assert hard["cocked_hit"] >= 0.5 * hard["found_not_flat"]
    assert hard["false_cocked"] <= 0.25 * hard["found_flat"]
    assert hard["false_alarm_confident"] <= 2
    assert hard["half_ok"] >= found - 1
    assert hard["on_checker_ok"] >= 0.7 * found


def test_pip_spots_ignore_an_empty_board() -> None:
    sc = dataclasses.replace(easy_scenes(1, 5)[0], dice=(), cube=None)
    r = render(sc, 3)
    cal = Calibration(r.truth.corners, home=sc.home)
    canon = cal.warp(r.image)
    assert find_dice(canon, cal.layout, cal, true_discs(sc, r.truth, cal), None, r.image) == []
    assert len(find_spots(cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY))) < 60


def test_no_confident_wrong_or_false_die_on_blurred_hard_boards() -> None:
    """Seed 21's hard boards hold the cases that once went wrong (E3: a roll stands on the dice
    read with confidence >= 0.6, a cocked die voids it): blurred/JPEG flat dice whose soft
    outline looked cocked (a 4 read as a cocked 2 at 1.0) and the doubling cube's "8" taken for
    a cocked one. Measured: 0 confidently wrong, 0 confident false dice, 0/50 flat called
    cocked, cocked recall 23/31 (bench/RESULTS.md)."""
    st = score(hard_scenes(80, 21), 0)
    assert st["found_flat"] >= 45
    assert st["confident_wrong"] == 0
    assert st["false_alarm_confident"] == 0
    assert st["false_cocked"] <= 1
    assert st["value_ok"] >= st["found_flat"] - 2
    assert st["cocked_hit"] >= 0.65 * st["found_not_flat"]
