"""Helpers shared by the simulator tests."""

from __future__ import annotations

import numpy as np

from tavli_pi.sim.render import Truth
from tavli_pi.sim._pose import project


def canon_to_image(truth: Truth, x: float, y: float) -> tuple[int, int]:
    """A canonical-board pixel's position in the rendered image (rounded)."""
    assert truth.homography is not None
    p = project(truth.homography, np.array([[x, y]]))[0]
    return int(round(p[0])), int(round(p[1]))
