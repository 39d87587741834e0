"""The older marker-less field finder (tavli_pi.vision.autocorners; its outlines are candidates
for calibrate.locate_field, which fits them to the points: tests/vision/test_fieldfit.py).

Measured (bench/RESULTS.md): the true field is among the candidates on
most sim boards, but the pattern score picks it within 5 px on only about half
of them and takes a wrong quadrilateral on 4 of 8 WTC frames, so ``tavli-pi
read`` does not use it. These tests pin what does hold: the score prefers the
true field to shifted or shrunken ones, and a picture with no board is refused
with advice.
"""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.sim.datasets import easy_set
from tavli_pi.vision.autocorners import ACCEPT, find_field_corners, pattern_score


def test_the_pattern_score_prefers_the_true_field() -> None:
    for r in easy_set(3, 5):
        c = r.truth.corners
        true = pattern_score(r.image, c)
        assert true >= ACCEPT
        w = float(c[1, 0] - c[0, 0])
        shift = c + np.float32([0.25 * w, 0])  # a quarter field to the right
        half = c.copy()
        half[1, 0] = half[2, 0] = c[0, 0] + 0.5 * w  # one half only
        for wrong in (shift, half):
            assert pattern_score(r.image, wrong) < true


def test_no_board_is_refused_with_advice() -> None:
    rng = np.random.default_rng(0)
    img = (rng.random((360, 640, 3)) * 60 + 90).astype(np.uint8)
    with pytest.raises(CalibrationError, match="--corners.*tavli-pi markers"):
        find_field_corners(img)
