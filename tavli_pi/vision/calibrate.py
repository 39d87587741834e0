"""One table's calibration from what the installer gives: a saved file, the
field's corners, the printed markers, or -- with none of these -- the field
found in the picture itself; and the home side (B4), given or learnt from the
set-up board (``home="auto"``).

Shared by ``tavli-pi read`` and ``tavli-pi run``. A saved calibration that
learnt its board at set-up is checked against the picture first: one made on
another board (or before the camera moved) is refused, never read through.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.autocorners import find_field_corners
from tavli_pi.vision.calibration import Calibration, check_corners, find_marker_corners, parse_corners
from tavli_pi.vision.home import learn_home
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import check_fit

__all__ = ["HOMES", "ASSUMED", "calibrate_image", "locate_field"]

#: the values ``home`` takes: a side, or "auto" to learn it from the set-up board
HOMES = ("bottom-right", "bottom-left", "auto")
#: the source of a field found in the picture whose seat and home side could not be learnt
ASSUMED = "found, seat assumed"


def locate_field(image: np.ndarray) -> tuple[np.ndarray, str]:
    """(corners, source) of the playing field: the printed markers, else the picture itself.

    Raises CalibrationError starting "no board found" when neither finds it.
    """
    try:
        return find_marker_corners(image), "markers"
    except CalibrationError as marker_err:
        try:
            corners, _ = find_field_corners(image)
        except CalibrationError as exc:
            raise CalibrationError(f"no board found: {exc}") from marker_err
        return corners, "found"


def calibrate_image(
    image: np.ndarray, corners: str | None = None, home: str | None = None, calibration: str | None = None
) -> Calibration:
    """A calibration for ``image``: a calibration file (optionally with new corners or
    home side), else ``corners`` ("x,y x,y x,y x,y"), else the printed ArUco markers,
    else the field found in the picture."""
    if calibration:
        cal = Calibration.load(calibration)
        if home and home != "auto":
            cal = cal.with_(home=home)  # type: ignore[arg-type]
        if corners:
            pts = parse_corners(corners)
            check_corners(pts, image.shape)
            cal = refine(cal.with_(corners=pts, u0=0.0, u1=1.0, background=""), image, colours=False)
        else:
            check_fit(cal, image)
        return cal
    if corners:
        pts = parse_corners(corners)
        source = "corners"
    else:
        pts, source = locate_field(image)
    check_corners(pts, image.shape)
    if home == "auto" or (source == "found" and home is None):
        try:
            return learn_home(pts, image, source=source)
        except CalibrationError:
            if home == "auto":
                raise
    if source == "found" and home is None:
        source = ASSUMED
    cal = Calibration(pts, home=home or "bottom-right", source=source)  # type: ignore[arg-type]
    return refine(cal, image)
