"""Tumbling dice (motion blur): reported as moving so the referee waits (E3), rarely imagined.

Measured on these seeds (bench/RESULTS.md): about a fifth of smeared dice are
flagged (7-11 of 52; weak: long smears fade into the board), 3 false moving dice on 67 still frames.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from tavli_pi.sim.datasets import easy_scenes, hard_scenes
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import DieSpec
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice import find_dice
from tests.vision.test_dice_sim import true_discs


def _moving(scene: object, seed: int) -> tuple[list[object], object]:
    r = render(scene, seed)  # type: ignore[arg-type]
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    dice = find_dice(cal.warp(r.image), cal.layout, cal, true_discs(scene, r.truth, cal), None, r.image)
    return [d for d in dice if d.moving], r.truth


def test_smeared_dice_are_reported_moving() -> None:
    rng = np.random.default_rng(5)
    hit = n = 0
    for i, sc in enumerate(hard_scenes(40, 33)):
        if sc.hand is not None:
            continue
        dice = tuple(
            DieSpec(int(rng.integers(1, 7)), float(rng.uniform(*span)), float(rng.uniform(0.43, 0.57)),
                    angle=float(rng.uniform(0, 360)), motion_blur=float(rng.uniform(6, 30)))
            for span in ((0.08, 0.4), (0.6, 0.92))
        )
        moving, truth = _moving(dataclasses.replace(sc, dice=dice), i)
        for t in truth.dice:  # type: ignore[attr-defined]
            n += 1
            found = [d for d in moving if np.hypot(t.xy[0] - d.xy[0], t.xy[1] - d.xy[1]) < 14]
            hit += bool(found)
            for d in found:
                assert (d.value, d.value_confidence, d.flat) == (0, 0.0, False)
    assert n == 52
    assert hit >= 6  # measured 7 of 52 here (11 of 52 on another draw): weak


def test_still_frames_rarely_show_a_moving_die() -> None:
    false = frames = 0
    for kind, scenes in (("easy", easy_scenes(30, 41)), ("hard", hard_scenes(60, 41))):
        for i, sc in enumerate(scenes):
            if sc.hand is not None:
                continue
            still = dataclasses.replace(sc, dice=tuple(d for d in sc.dice if d.motion_blur == 0))
            moving, _ = _moving(still, i)
            false += len(moving)
            frames += 1
    assert frames == 67
    assert false <= 4  # measured 3 on 67 frames
