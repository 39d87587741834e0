"""One frame's warps and gradients made once per warp while a board is learnt (vision/frame_views.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.frame_views import FrameViews


def _frame() -> tuple[np.ndarray, Calibration]:
    rng = np.random.default_rng(3)
    img = rng.integers(0, 255, (240, 320, 3)).astype(np.uint8)
    corners = np.asarray([[20, 15], [300, 20], [305, 225], [15, 220]], np.float32)
    return img, Calibration(corners, home="bottom-right")


def test_the_view_and_gradients_are_the_warps_own() -> None:
    img, cal = _frame()
    views = FrameViews(img)
    assert np.array_equal(views.canon(cal), cal.warp(img))
    g, want = views.gradients(cal), ck.gradients(cal.warp(img))
    assert np.array_equal(g.pair, want.pair) and g.scale == want.scale


def test_calibrations_of_one_warp_share_one_view_and_one_gradients() -> None:
    """The field's edges and the bar inside it do not move the warp: every step of learning the board
    gets the same arrays, made once."""
    img, cal = _frame()
    views = FrameViews(img)
    other = cal.with_(u0=0.03, u1=0.96, bar=(0.46, 0.54), checker_r=0.47)
    assert np.array_equal(other.homography, cal.homography)
    assert views.canon(other) is views.canon(cal)
    assert views.gradients(other) is views.gradients(cal)


def test_another_warp_gets_its_own_view() -> None:
    img, cal = _frame()
    views = FrameViews(img)
    moved = Calibration(cal.corners + np.float32(3.0), home=cal.home)
    assert views.canon(moved) is not views.canon(cal)
    assert np.array_equal(views.canon(moved), moved.warp(img))


def test_the_shared_arrays_are_read_only() -> None:
    img, cal = _frame()
    views = FrameViews(img)
    with pytest.raises(ValueError):
        views.canon(cal)[0, 0] = 0
    with pytest.raises(ValueError):
        views.gradients(cal).pair[0, 0] = 0
