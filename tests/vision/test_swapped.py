"""A slot the set-up position filled that now holds the other colour's checker (vision/swapped.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board
from tavli_pi.vision.swapped import empty_beside, setup_colours

# real-like seed 0 (bench_reallike --seed 0 renders table i with seed i)
SEED = 0
SCENES = reallike_scenes(83, SEED)


def _read(index: int) -> tuple[object, object]:
    """(the truth, the reading) of table ``index``'s frame, its board learnt at set-up."""
    scene = SCENES[index]
    s = render(reallike_setup(scene), SEED * 100003 + index)
    base = refine(Calibration(s.truth.corners, home=s.truth.home), s.image)  # type: ignore[arg-type]
    frame = render(scene, SEED * 100003 + index)
    return frame.truth, BoardReader(learn_board(s.image, base)).read(frame.image)


@pytest.mark.parametrize("index, point, dark", [
    (82, 13, 5),  # five dark checkers on the light mid-point (a WTC band over the field): read none
    (46, 6, 1),  # a dark checker on the light 6-point: read none
])
def test_the_other_colour_on_a_point_set_up_filled_is_read(index: int, point: int, dark: int) -> None:
    truth, obs = _read(index)
    assert truth.dark[point - 1] == dark and truth.light[point - 1] == 0  # type: ignore[attr-defined]
    assert KnownBoard.start().light[point - 1] > 0  # the set-up put light checkers there
    got = obs.points[point - 1]  # type: ignore[attr-defined]
    assert (got.light.best, got.dark.best) == (0, dark)


def test_a_dice_cup_where_set_up_checkers_stood_is_no_checker() -> None:
    # table 28: a black dice cup on point 13 (five light checkers at set-up, empty now), nearer the
    # dark checkers' colour than the light: its disc is larger than a checker, the slot is not lifted
    truth, obs = _read(28)
    assert truth.light[12] == truth.dark[12] == 0  # type: ignore[attr-defined]
    got = obs.points[12]  # type: ignore[attr-defined]
    assert (got.light.best, got.dark.best) == (0, 0)


def test_the_colours_the_start_position_puts_down() -> None:
    held = setup_colours(KnownBoard.start())
    assert [i + 1 for i in np.nonzero(held > 0)[0]] == [6, 8, 13, 24]
    assert [i + 1 for i in np.nonzero(held < 0)[0]] == [1, 12, 17, 19]
    assert held[24] == held[25] == 0


def test_the_empty_point_is_the_nearest_of_its_row_and_colour_left_empty() -> None:
    scene = SCENES[82]
    s = render(reallike_setup(scene), SEED * 100003 + 82)
    lay = refine(Calibration(s.truth.corners, home=s.truth.home), s.image).layout  # type: ignore[arg-type]
    empty = ~KnownBoard.start().slots(7)
    # point 13 (index 12): every other point of its row -- 15 is empty at set-up, 17 and 19 are not
    assert empty_beside(lay, 12, 0, empty) == 14
    # point 6 (index 5): 4 (index 3) and 8 (index 7) are as near; 4 is empty, 8 holds three
    assert empty_beside(lay, 5, 0, empty) == 3
    # point 1's slot 1 (index 0): 3 (index 2) left empty
    assert empty_beside(lay, 0, 1, empty) == 2
    assert empty_beside(lay, 24, 0, empty) is None  # the bar has no such point
