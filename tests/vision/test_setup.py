"""Learning a board at set-up (B3), and refusing a calibration made on another board."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.rules.position import Position
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import Look, scene_from_position
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.setup import FIT, check_fit, fit_of, learn_board, setup_agreement
from tests.vision._eval import spot_errors


def _learnt(board: str, seed: int = 2) -> tuple[Calibration, np.ndarray]:
    r = render(scene_from_position(Position.start(), look=Look(board=board)), seed=seed)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    return learn_board(r.image, cal), r.image


@pytest.mark.parametrize("board", ["tournament", "wood", "green"])
def test_the_learnt_board_reads_later_positions(board: str) -> None:
    cal, _ = _learnt(board)
    assert cal.source == "setup" and cal.background
    assert sum(cal.light_bgr) > sum(cal.dark_bgr) + 60  # each colour from where B3 puts it
    pos = Position.from_counts({1: 2, 4: 3, 6: 4, 8: 2, 13: 4}, {2: 2, 3: 3, 7: 5, 11: 2, 20: 3})
    r = render(scene_from_position(pos, look=Look(board=board, noise=2.0)), seed=9)
    assert (fit_of(cal, r.image) or 0.0) >= FIT
    obs = BoardReader(cal).read(r.image)
    t = r.truth
    errs = spot_errors(obs, {p + 1: n for p, n in enumerate(t.light)}, {p + 1: n for p, n in enumerate(t.dark)}, t.bar)
    assert not errs
    assert not obs.problems


def test_setup_agreement_says_where_the_set_up_board_differs() -> None:
    cal, img = _learnt("tournament")
    agree = setup_agreement(BoardReader(cal).read(img))
    assert agree.agrees and agree.fit > 0.5 and "set up to start" in agree.message()
    pos = Position.from_counts({6: 5, 8: 3, 13: 4, 24: 2, 5: 1}, {24: 2, 13: 5, 8: 3, 6: 5})
    r = render(scene_from_position(pos), seed=3)
    agree = setup_agreement(BoardReader(cal).read(r.image))
    assert not agree.agrees
    spots = {s for s, _, _ in agree.differences}
    assert spots == {"5", "13"}
    assert "confirm" in agree.message()


def test_a_calibration_from_another_board_does_not_fit() -> None:
    cal, _ = _learnt("tournament")
    other = render(scene_from_position(Position.start(), look=Look(board="green")), seed=5)
    with pytest.raises(CalibrationError, match="does not fit this board"):
        check_fit(cal, other.image)


def test_a_moved_camera_does_not_fit() -> None:
    cal, img = _learnt("wood")
    shifted = np.roll(img, 40, axis=1)
    with pytest.raises(CalibrationError, match="does not fit"):
        check_fit(cal, shifted)
