"""The field's fit to its points (tavli_pi.vision.fieldfit): the true field fits its 24
triangles better than quadrilaterals a little off it, and the finder brings a rough
quadrilateral onto the field; a picture with no board fits nowhere."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.sim.datasets import reallike_set
from tavli_pi.vision.calibrate import FIT_ACCEPT, locate_field
from tavli_pi.vision.calibration import order_corners
from tavli_pi.vision.fieldfit import field_fit, fit_corners, prepared


def _frames() -> list:  # type: ignore[type-arg]
    # real-like tables without a hand over the field (designs, bars, trays, poses vary)
    return [r for r in reallike_set(5, 3) if not r.truth.hand][:4]


def test_the_true_field_fits_better_than_quadrilaterals_off_it() -> None:
    for r in _frames():
        lab, s = prepared(r.image)
        c = order_corners(r.truth.corners) * s
        true, _ = field_fit(lab, c)
        assert true >= FIT_ACCEPT
        w = float(c[1, 0] - c[0, 0])
        h = float(c[3, 1] - c[0, 1])
        half_point = c + np.float32([0.04 * w, 0])  # half a point to the right
        low = c + np.float32([0, 0.12 * h])  # the field's top edge on the triangles
        wide = c + np.float32([[-0.1 * w, 0], [0.1 * w, 0], [0.1 * w, 0], [-0.1 * w, 0]])  # with the trays
        half = c.copy()
        half[1, 0] = half[2, 0] = c[0, 0] + 0.5 * w  # one half only
        for wrong in (half_point, low, wide, half):
            assert field_fit(lab, wrong)[0] < true


def test_a_rough_field_is_fitted_onto_the_points() -> None:
    r = _frames()[0]
    lab, s = prepared(r.image)
    c = order_corners(r.truth.corners) * s
    w = float(c[1, 0] - c[0, 0])
    rough = c + np.float32([[0.03 * w, 0.02 * w], [0.02 * w, -0.03 * w], [-0.03 * w, 0.0], [0.0, 0.03 * w]])
    fitted, _, _ = fit_corners(lab, rough)
    assert np.abs(fitted - c).max() < np.abs(rough - c).max()
    assert np.abs(fitted - c).max() < 0.03 * w  # well under half a point (0.04 of the width)


def test_a_picture_with_no_board_is_refused_with_advice() -> None:
    rng = np.random.default_rng(0)
    img = (rng.random((360, 640, 3)) * 60 + 90).astype(np.uint8)
    img[100:260, 200:440] = (40, 90, 160)  # a plain box on the table: an outline, no points
    with pytest.raises(CalibrationError, match="^no board found.*--corners"):
        locate_field(img)
