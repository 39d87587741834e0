"""The checker radius with no position known (refine.learn_radius_unlearnt, vision/pitch_radius.py;
issue 9): a radius half a point wide is no checker's, and the stacks' pitch decides below it."""

from __future__ import annotations

import pytest

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known_radius import RADII
from tavli_pi.vision.pitch_radius import pitch_scores
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import WIDEST, learn_radius, learn_radius_unlearnt, refine_edges
from tests.vision.test_known import _midgame_table

TRUE_R = 24 / 54  # the simulator's checkers: 0.444 of a point's width


def _edges(index: int) -> tuple[Calibration, object]:
    _, mid, _ = _midgame_table(index)
    return refine_edges(Calibration(mid.truth.corners, home=mid.truth.home), mid.image), mid  # type: ignore[attr-defined]


def test_a_blurred_view_whose_discs_fit_half_a_point_is_read_at_its_stacks_pitch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Real-like table 10 (tournament board, 640 px) joined mid-game: the clearest discs' outlines fit
    a radius of 0.50 (their fit hardly changes from 0.41 to 0.545), every checker past a stack's first
    was searched beyond it and three dark stacks read one short (points 7, 10, 11). The pitch of the
    stacks gives a radius near the checkers', and the points read right. The field's edges as a 3-column
    step placed them (u0 0.0045): with the step across the magnified blur (``refine.step_reach``) they lie
    at 0.0027 and the discs' flat fit happens to peak at 0.44 there, so the case needs that geometry."""
    monkeypatch.setattr("tavli_pi.vision.refine.step_reach", lambda cal: 3)
    cal, mid = _edges(10)
    assert learn_radius(cal, mid.image).checker_r >= WIDEST  # type: ignore[attr-defined]
    got = learn_radius_unlearnt(cal, mid.image)  # type: ignore[attr-defined]
    assert got.checker_r < WIDEST and abs(got.checker_r - TRUE_R) < 0.04  # (the discs' radii: 0.015 apart)
    known, _, _ = _midgame_table(10)
    obs = BoardReader(got).read(mid.image)  # type: ignore[attr-defined]
    for p in (6, 9, 10):  # points 7, 10, 11: dark 5, 2, 2
        assert obs.points[p].dark.best == known.dark[p]


@pytest.mark.parametrize("index", [0, 12, 17])
def test_a_radius_the_discs_fit_below_half_a_point_is_kept(index: int) -> None:
    cal, mid = _edges(index)
    assert learn_radius_unlearnt(cal, mid.image).checker_r == learn_radius(cal, mid.image).checker_r  # type: ignore[attr-defined]


def test_the_pitch_is_best_fitted_near_the_checkers_radius() -> None:
    cal, mid = _edges(10)
    scores = pitch_scores(cal, ck.gradients(cal.warp(mid.image)))  # type: ignore[attr-defined]
    assert abs(RADII[int(scores.argmax())] - TRUE_R) < 0.03
