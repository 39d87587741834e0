"""The bar found from the points (refine.bar_run, refine_edges), on real-like tables (issue 9)."""

from __future__ import annotations

import pytest

from tavli_pi.sim import _layout as L
from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.layout import DEFAULT_BAR
from tavli_pi.vision.refine import refine_edges

# tables of the real-like set (seed 0) whose bar the middle-band steps alone missed: wide bars
# (106-196 of 54 px points) and a bar of the playing surface's own colour (24)
WIDE = [1, 9, 19, 20, 21, 24, 26]


@pytest.mark.parametrize("index", WIDE)
def test_a_wide_or_surface_coloured_bar_is_found_from_the_points(index: int) -> None:
    scene = reallike_scenes(max(WIDE) + 1, 0)[index]
    setup = render(reallike_setup(scene), index)
    cal = refine_edges(Calibration(setup.truth.corners, home=setup.truth.home), setup.image)  # type: ignore[arg-type]
    bar = scene.build.bar
    truth = (6 * L.PW / (12 * L.PW + bar), (6 * L.PW + bar) / (12 * L.PW + bar))
    assert cal.layout.bar != DEFAULT_BAR
    assert abs(cal.layout.bar[0] - truth[0]) < 0.012 and abs(cal.layout.bar[1] - truth[1]) < 0.012, (cal.layout.bar, truth)


# tables of the real-like set (seed 0) whose frame, of a wood like the playing surface's, meets the
# light table in a stronger step than it meets the surface: the frame's outer edge was taken for the
# field's (half a point out), and every point's column read half a point off in a single photo
FRAMED = [6, 14, 65, 77]


@pytest.mark.parametrize("index", FRAMED)
def test_the_field_edge_is_the_step_nearest_the_corners_not_the_frames_outer_edge(index: int) -> None:
    scene = reallike_scenes(max(FRAMED) + 1, 0)[index]
    frame = render(scene, index)
    cal = refine_edges(Calibration(frame.truth.corners, home=frame.truth.home), frame.image)  # type: ignore[arg-type]
    assert abs(cal.u0) < 0.012 and abs(cal.u1 - 1.0) < 0.012, (cal.u0, cal.u1)


def _mid_bar(index: int, setup: bool = False) -> tuple[tuple[float, float], tuple[float, float]]:
    """(the bar refine_edges finds, the true bar) on real-like table ``index`` at a random position of a
    game in progress (``test_known._midgame_table``), or on its set-up frame (``setup``)."""
    from tests.vision.test_known import _midgame_table
    from tests.vision.test_setup_learning import SCENES

    if setup:
        frame = render(reallike_setup(SCENES[index]), index)
    else:
        _, frame, _ = _midgame_table(index)
    cal = refine_edges(Calibration(frame.truth.corners, home=frame.truth.home), frame.image)  # type: ignore[attr-defined]
    return cal.layout.bar, frame.truth.bar_u  # type: ignore[attr-defined]


# tables of the mid-game set (seed 0) with a checker on a wide bar: the middle band showed the
# checker's edges alone as steps, and the bar was taken a checker wide (points a point or more off)
ON_THE_BAR = [12, 85, 93, 101]


@pytest.mark.parametrize("index", ON_THE_BAR)
def test_a_checker_on_a_wide_bar_is_not_taken_for_the_bar(index: int) -> None:
    bar, truth = _mid_bar(index)
    assert abs(bar[0] - truth[0]) < 0.012 and abs(bar[1] - truth[1]) < 0.012, (bar, truth)


# a match's banner across the middle band (set-up frame of table 7, mid-game frame of table 17):
# its lettering's steps, off the field's middle, were taken for the bar's edges
@pytest.mark.parametrize(("index", "setup"), [(7, True), (17, False)])
def test_lettering_off_the_fields_middle_is_not_taken_for_the_bar(index: int, setup: bool) -> None:
    bar, truth = _mid_bar(index, setup)
    assert abs(bar[0] - truth[0]) < 0.012 and abs(bar[1] - truth[1]) < 0.012, (bar, truth)


def test_a_game_joined_on_a_blurred_board_is_read_with_a_checker_s_radius() -> None:
    """Real-like table 10 (tournament board, 640 px) joined mid-game with no board learnt: its
    clearest discs' blurred outlines fitted a radius of 0.50 of a point's width (the checkers are
    0.444), every checker past a stack's first was searched beyond it, and the dark 5, 2 and 2 on
    points 7, 10 and 11 read 4, 1 and 1. Refined, the radius is below half a point (the stacks'
    pitch decides, refine.learn_radius_unlearnt) and the points read right."""
    from tests.vision.test_learn_consistent import _reading

    known, _, cal, obs = _reading(10)
    assert cal.checker_r < 0.5
    for p in (6, 9, 10):
        assert obs.points[p].dark.best == known.dark[p]  # type: ignore[attr-defined]
