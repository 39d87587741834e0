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
from tavli_pi.vision.autocorners import ACCEPT, ADVICE, find_field_corners, scored_candidates
from tavli_pi.vision.calibration import Calibration, check_corners, find_marker_corners, parse_corners
from tavli_pi.vision.home import learn_home
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import check_fit, learn_from_setup

__all__ = ["HOMES", "ASSUMED", "calibrate_image", "locate_field"]

#: the values ``home`` takes: a side, or "auto" to learn it from the set-up board
HOMES = ("bottom-right", "bottom-left", "auto")
#: the source of a field found in the picture whose seat and home side could not be learnt
ASSUMED = "found, seat assumed"


#: field candidates (best pattern first) read to choose among
CANDIDATES = 6


def _plausibility(image: np.ndarray, corners: np.ndarray) -> tuple[int, float, int]:
    """How plausible the reading through ``corners`` is: (no doubt about it, share of stacks
    seated in their slots, stacks) -- the field whose checkers sit in its slots is the field."""
    from tavli_pi.vision import checkers as ck
    from tavli_pi.vision.doubt import seating
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.stacks import cv2_integral

    cal = refine(Calibration(corners, source="found"), image)
    obs = BoardReader(cal, still_photo=True).read(image)
    canon = cal.warp(image)
    seated, occ = seating(ck.gradients(canon), cv2_integral(canon), cal, obs.points)
    return int(not obs.problems), seated / max(occ, 1), occ


def locate_field(image: np.ndarray) -> tuple[np.ndarray, str]:
    """(corners, source) of the playing field: the printed markers, else the picture itself.

    In the picture, the candidates whose outline repeats at the points' period
    (``autocorners.pattern_score``) are read, and the one whose reading is
    plausible -- checkers seated in the slots, 15 a side -- is the field.
    Raises CalibrationError starting "no board found" when neither way finds it.
    """
    try:
        return find_marker_corners(image), "markers"
    except CalibrationError as marker_err:
        try:
            scored = [(s, q) for s, q in scored_candidates(image) if s >= ACCEPT][:CANDIDATES]
            if not scored:
                find_field_corners(image)  # raises with the reason
        except CalibrationError as exc:
            raise CalibrationError(f"no board found: {exc}") from marker_err
        ranked = sorted(((_plausibility(image, q), s, q) for s, q in scored), key=lambda t: (t[0], t[1]), reverse=True)
        (clean, seated, occ), _, best = ranked[0]
        if not clean and seated < 0.5:
            raise CalibrationError(
                "no board found: no outline in the picture reads as a playing field with its checkers in place "
                "(an empty board cannot be found this way); " + ADVICE) from marker_err
        return best, "found"


def calibrate_image(
    image: np.ndarray, corners: str | None = None, home: str | None = None, calibration: str | None = None
) -> Calibration:
    """A calibration for ``image``: a calibration file (optionally with new corners or
    home side), else ``corners`` ("x,y x,y x,y x,y"), else the printed ArUco markers,
    else the field found in the picture. Where the home side is learnt from the picture
    (``home="auto"``, or a found field), the picture shows the start position, and the
    board is learnt from it (``setup.learn_from_setup``)."""
    if calibration:
        cal = Calibration.load(calibration)
        if home and home != "auto":
            cal = cal.with_(home=home)
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
            cal = learn_home(pts, image, source=source)
        except CalibrationError:
            if home == "auto":
                raise
        else:
            # the picture reads as the start position (B3): learn the board from it
            try:
                return learn_from_setup(image, cal)
            except CalibrationError:
                return cal
    if source == "found" and home is None:
        source = ASSUMED
    cal = Calibration(pts, home=home or "bottom-right", source=source)  # type: ignore[arg-type]
    return refine(cal, image)
