"""Cube (placeholder)."""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import CubeReading

__all__ = ["find_cube"]


def find_cube(canon: np.ndarray, lay: Layout, cal: Calibration) -> CubeReading | None:
    return None
