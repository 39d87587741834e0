"""One table's calibration from what the installer gives: a saved file, the
field's corners, or the printed markers; and the home side (B4), given or
learnt from the set-up board (``home="auto"``).

Shared by ``tavli-pi read`` and ``tavli-pi run``.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.calibration import Calibration, check_corners, find_marker_corners, parse_corners
from tavli_pi.vision.home import learn_home
from tavli_pi.vision.refine import refine

__all__ = ["HOMES", "calibrate_image"]

#: the values ``home`` takes: a side, or "auto" to learn it from the set-up board
HOMES = ("bottom-right", "bottom-left", "auto")


def calibrate_image(
    image: np.ndarray, corners: str | None = None, home: str | None = None, calibration: str | None = None
) -> Calibration:
    """A calibration for ``image``: a calibration file (optionally with new corners or
    home side), else ``corners`` ("x,y x,y x,y x,y"), else the printed ArUco markers."""
    if calibration:
        cal = Calibration.load(calibration)
        if home and home != "auto":
            cal = cal.with_(home=home)
        if corners:
            pts = parse_corners(corners)
            check_corners(pts, image.shape)
            cal = refine(cal.with_(corners=pts, u0=0.0, u1=1.0), image, colours=False)
        return cal
    if corners:
        pts = parse_corners(corners)
        source = "corners"
    else:
        pts = find_marker_corners(image)
        source = "markers"
    check_corners(pts, image.shape)
    if home == "auto":
        return learn_home(pts, image, source=source)
    cal = Calibration(pts, home=home or "bottom-right", source=source)  # type: ignore[arg-type]
    return refine(cal, image)
