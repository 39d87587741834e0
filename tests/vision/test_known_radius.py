"""The checker radius (the stack pitch) learnt from where the start position's checkers lie
(vision/known_radius.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tavli_pi.rules.position import Position
from tavli_pi.sim import _layout as SL
from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.render import render
from tavli_pi.sim.script import Moment
from tavli_pi.sim.table import scene_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.known_radius import known_radius
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board

_TABLES = reallike_game_tables(14, 0)


def _learnt(g: int, thickness: float) -> tuple[float, float]:
    """(learnt, drawn) checker radius, as a fraction of a point's width, of real-like game table ``g``'s
    set-up frame drawn with checkers ``thickness`` of a diameter thick, learnt as the app learns it."""
    kw = _TABLES[g]
    scene = scene_of(Moment(Position.start(), ()), **kw)
    scene = dataclasses.replace(scene, build=dataclasses.replace(scene.build, thickness=thickness))
    r = render(scene, g)
    cal = learn_board(r.image, refine(Calibration(r.truth.corners, home=r.truth.home), r.image))
    lay = SL.layout(scene.home, scene.trays, scene.build.bar)
    return cal.checker_r, SL.R / abs(lay.point_x(2) - lay.point_x(1))


@pytest.mark.parametrize("thickness", [0.25, 0.168, 0.0])
def test_the_radius_is_the_start_stacks_pitch_whatever_the_checkers_thickness(thickness: float) -> None:
    """Game 13's table (pinetti, camera nearly overhead), its checkers drawn flat and thick: the radius
    learnt from the clearest discs alone grew with the checkers' side band (0.445, 0.485, 0.50 of a
    point's width where they are 0.444); from the stacks' pitch it is the drawn one."""
    learnt, drawn = _learnt(13, thickness)
    assert abs(learnt - drawn) < 0.015, (learnt, drawn)


def test_a_position_with_too_few_stacks_to_tell_the_pitch_learns_none() -> None:
    singles = KnownBoard.of_counts([1, 0, 1, 0, 1] + [0] * 19 + [0, 12], [0] * 23 + [1] + [0, 14])
    cal = Calibration(np.float32([[0, 0], [640, 0], [640, 480], [0, 480]]))
    assert known_radius(cal, np.zeros((480, 640, 3), np.uint8), singles) is None
