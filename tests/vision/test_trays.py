"""Borne-off checkers standing in the trays, on every board design (sim)."""

from __future__ import annotations

import random

import pytest

from tavli_pi.rules.position import Position
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import CameraPose, Look, scene_from_position
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine


@pytest.mark.parametrize("board", ["tournament", "wood", "green"])
def test_tray_counts_on_every_design(board: str) -> None:
    rng = random.Random(5)
    exact = total = 0
    for k in range(8):
        n, m = rng.randint(0, 15), rng.randint(0, 15)
        pos = Position.from_counts({1: 15 - n} if n < 15 else {}, {2: 15 - m} if m < 15 else {})
        pose = CameraPose(tilt_deg=rng.uniform(0, 8), rotation_deg=rng.uniform(-3, 3))
        clear = render(scene_from_position(Position.start(), look=Look(board=board), pose=pose))
        cal = refine(Calibration(clear.truth.corners), clear.image)
        r = render(scene_from_position(pos, look=Look(board=board, noise=2.0), pose=pose), seed=k)
        off = BoardReader(cal).read(r.image).off
        exact += (off.light.best == n) + (off.dark.best == m)
        total += 2
        # never confidently wrong: the true count keeps real probability
        assert off.light.p(n) > 0.1 and off.dark.p(m) > 0.1, (board, n, m, off.light.best, off.dark.best)
    assert exact >= total - 2, f"{board}: {exact}/{total} trays read exactly"


def test_empty_trays_read_zero() -> None:
    clear = render(scene_from_position(Position.start()))
    cal = refine(Calibration(clear.truth.corners), clear.image)
    off = BoardReader(cal).read(render(scene_from_position(Position.start(), look=Look(noise=2.0)), seed=3).image).off
    assert (off.light.best, off.dark.best) == (0, 0)
    assert off.light.p(0) > 0.9 and off.dark.p(0) > 0.9
