"""The points' geometry the reader shares (vision/stacks.py ``spot_geometry``)."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.stacks import spot_geometry


def test_spot_geometry_is_read_only_and_the_same_for_an_equal_layout() -> None:
    cal = Calibration(np.asarray([[100, 50], [900, 50], [900, 650], [100, 650]], np.float32))
    a = spot_geometry(cal.layout, cal)
    b = spot_geometry(Calibration(cal.corners).layout, Calibration(cal.corners))
    assert all(np.array_equal(u, v) and u.dtype == v.dtype == np.float32 for u, v in zip(a, b))
    with pytest.raises(ValueError):
        a[0][0] = 1.0
