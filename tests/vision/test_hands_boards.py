"""Hands over every board design, frame by frame through a random game (sim camera).

Wood is skin-coloured all over and green's dark checkers are skin-coloured:
the hand flag must still follow the script exactly (a missed hand shows a
board with checkers missing; a false one stalls the referee), and every
clear frame must read the scripted position.
"""

from __future__ import annotations

import pytest

from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import Look, scene_from_position
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scene_of, scenes_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine


@pytest.mark.parametrize("board", ["tournament", "wood", "green"])
def test_hand_flag_and_counts_through_a_game(board: str) -> None:
    look = Look(board=board, noise=2.0, light_gradient=0.2)
    moments = random_game(51, turns=5)
    # calibrated under other light (seed 0) than the game's frames (seed 51)
    clear = render(scene_of(moments[1], look=look))
    reader = BoardReader(refine(Calibration(clear.truth.corners), clear.image))
    camera = SimCamera(scenes_of(moments, look=look), fps=10, seed=51)
    wrong_hand, wrong_counts, hands = [], [], 0
    for i, m in enumerate(moments):
        frame = camera.read()
        assert frame is not None
        obs = reader.read(frame.image, i)
        hands += m.hand
        if obs.hand != m.hand:
            wrong_hand.append(i)
        if not m.hand:
            truth = scene_from_position(m.position)
            if obs.best_counts() != (list(truth.light), list(truth.dark)):
                wrong_counts.append(i)
    assert hands >= 5
    assert wrong_hand == []
    assert wrong_counts == []


def test_start_position_on_green_reads_the_edge_stacks() -> None:
    """The green board's dark frame on a light table: the field's left edge is the
    frame-to-green step, not the table-to-frame one (the 13- and 12-point 5-stacks)."""
    from tavli_pi.rules.position import Position

    r = render(scene_from_position(Position.start(), look=Look(board="green", noise=2.0, light_gradient=0.2)), seed=1)
    cal = refine(Calibration(r.truth.corners), r.image)
    assert 0.0 <= cal.u0 < 0.02
    light, dark = BoardReader(cal).read(r.image).best_counts()
    assert light[12] == 5 and dark[11] == 5
    assert sum(light) == 15 and sum(dark) == 15
