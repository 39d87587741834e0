"""A point's first slot boxed in by straight edges is no checker (vision/boxed.py)."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision import checkers as ck
from tavli_pi.vision.boxed import BOXED, axis_share, boxed
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board

R = 16


def _field() -> np.ndarray:
    return np.full((120, 120, 3), (60, 90, 150), np.uint8)  # a wooden field


def test_a_checker_rings_round_at_its_diagonals() -> None:
    for colour in ((225, 230, 235), (30, 30, 30)):
        img = _field()
        cv2.circle(img, (60, 60), R, colour, -1, cv2.LINE_AA)
        g = ck.gradients(img)
        assert axis_share(g, np.asarray([60.0]), np.asarray([60.0]), np.asarray([float(R)]))[0] > 0.6
        assert not boxed(g, np.asarray([60.0]), np.asarray([60.0]), np.asarray([float(R)])).any()


def test_a_point_base_boxed_by_a_band_edge_is_no_ring() -> None:
    """A light point's base (its sides a checker's width apart) against the field's edge, a band's
    edge across it a checker's width up: edges all round where a rim would be, none of them round."""
    img = _field()
    img[:, 60 - R: 60 + R] = (180, 215, 235)  # the light point's base
    img[60 + R:, :] = (30, 60, 90)  # the field's edge
    img[: 60 - R, :] = (90, 40, 120)  # a broadcast band over the point
    g = ck.gradients(img)
    share = axis_share(g, np.asarray([60.0]), np.asarray([60.0]), np.asarray([float(R)]))[0]
    assert share < BOXED
    assert boxed(g, np.asarray([60.0]), np.asarray([60.0]), np.asarray([float(R)])).all()


def test_a_checker_in_the_box_still_rings_round() -> None:
    img = _field()
    img[:, 60 - R - 2: 60 + R + 2] = (180, 215, 235)
    img[60 + R:, :] = (30, 60, 90)
    img[: 60 - R - 4, :] = (90, 40, 120)
    cv2.circle(img, (60, 60), R, (30, 30, 30), -1, cv2.LINE_AA)
    g = ck.gradients(img)
    assert not boxed(g, np.asarray([60.0]), np.asarray([60.0]), np.asarray([float(R)])).any()


def test_no_ring_no_answer() -> None:
    g = ck.gradients(_field())
    assert axis_share(g, np.zeros(0), np.zeros(0), np.zeros(0)).shape == (0,)


def _bare_point_read(index: int, point: int) -> tuple[int, int]:
    """Real-like frame `index` (seed 0), a board learnt at set-up: the bare `point`'s (light, dark) read."""
    scene = reallike_scenes(index + 1, 0)[index]
    s = render(reallike_setup(scene), index)
    cal = learn_board(s.image, refine(Calibration(s.truth.corners, home=s.truth.home), s.image))  # type: ignore[arg-type]
    r = render(scene, index)
    assert r.truth.light[point - 1] == r.truth.dark[point - 1] == 0
    ev = BoardReader(cal).read(r.image).points[point - 1]
    return ev.light.best, ev.dark.best


def test_a_band_edge_over_a_bare_point_is_not_read_as_a_checker() -> None:
    """Real-like frame 116 (seed 0; wood, 1280 px, a board learnt at set-up): the 12-point, its five
    dark checkers gone, its light base boxed in by its sides, the field's edge and a score band's
    lower edge, was read as one dark checker at 0.58 (the ring fit at logit 9.7)."""
    assert [o.kind for o in reallike_scenes(117, 0)[116].overlays] == ["band"]
    assert _bare_point_read(116, 12) == (0, 0)


def test_a_point_base_boxed_over_two_slots_is_not_read_as_two_checkers() -> None:
    """Real-like frame 149 (seed 0; pinetti, 640 px, a board learnt at set-up): the bare 6-point, of the
    light checkers' white, boxed in by its straight sides and the field's edge, each of its first two
    slots' ring pointing along the view's axes at its diagonals (0.18, 0.17), was read as two light
    checkers at 0.57 (setup_slots._boxed_held holds both)."""
    assert _bare_point_read(149, 6) == (0, 0)
