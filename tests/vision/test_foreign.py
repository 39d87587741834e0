"""What is no checker of this board (vision/foreign.py): a slot whose hue is farther from both
checker colours than any of the board's own start checkers' at set-up."""

from __future__ import annotations

import numpy as np

from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.foreign import HUE_MARGIN, foreign, hue_distance
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board

CORNERS = np.asarray([[0, 0], [100, 0], [100, 90], [0, 90]], np.float32)


def test_a_shadowed_checker_keeps_its_hue_a_red_cup_does_not() -> None:
    grey, white = (160.0, 166.0, 164.0), (220.0, 228.0, 232.0)
    shadowed = np.asarray([80.0, 83.0, 82.0])  # the grey checker at half the light
    cup = np.asarray([21.0, 21.0, 79.0])  # a red dice cup (BGR)
    assert hue_distance(shadowed, white, grey) < 4.0 < 20.0 < hue_distance(cup, white, grey)


def test_only_hues_beyond_the_set_up_checkers_by_the_margin_are_foreign() -> None:
    cal = Calibration(CORNERS, checker_hue=1.0)
    got = foreign(np.asarray([0.5, 1.0 + HUE_MARGIN - 0.01, 1.0 + HUE_MARGIN + 0.01]), cal)
    assert got.tolist() == [False, False, True]
    old = Calibration.from_dict({k: v for k, v in cal.to_dict().items() if k != "checker_hue"})
    assert old.checker_hue == 0.0 and not foreign(np.asarray([9.0]), old).any()  # an older log: nothing foreign


def test_a_dice_cup_on_the_field_is_not_read_as_a_checker() -> None:
    """Real-like table 26 (navy board, grey and white checkers): a red dice cup beside point 12
    read as a dark checker at 0.88 before the board's own checker hue was learnt."""
    scene = reallike_scenes(27, 0)[26]
    s = render(reallike_setup(scene), 26)
    cal = learn_board(s.image, refine(Calibration(s.truth.corners, home=s.truth.home), s.image))  # type: ignore[arg-type]
    assert 0.0 < cal.checker_hue < 2.0
    r = render(scene, 26)
    obs = BoardReader(cal).read(r.image)
    assert r.truth.dark[11] == 0 and r.truth.light[11] == 0
    assert (obs.points[11].light.best, obs.points[11].dark.best) == (0, 0)
    light, dark = obs.best_counts()
    assert (light, dark) == (list(r.truth.light), list(r.truth.dark))
