"""The picture crept under a pixel: measured against the board learnt (issue 9, "Real boards").

Everything the reader learnt at set-up is compared with each frame pixel for pixel on the learnt
background's grid (half the canonical scale, ``background.BG_SCALE``). A camera's stand that sags or
warms moves the picture a little every frame, far under the pixel ``vision.shift`` follows, and its
watch rolls its anchor on with it, so the drift is never followed: half a canonical pixel across the
points put 7 points of a real-like board under 0.8 and lost a checker on the bar; one pixel tempered
the whole reading (stop 47, real-like game 1 frame 37).

``creep(cal, image)`` measures how far the frame's canonical view stands from the learnt background
(canonical px, right and down), by ECC over the background's whole grid (the frame, trays and
points: ECC's correlation criterion does not mind the light), leaving out the places that plainly
changed since the board was learnt (checkers moved, dice, a hand): blobs that stand out from the
background, wider than the thin lines a creep itself leaves along the board's edges. The frame
never moves far from the learnt background here, so ECC starts at no shift and is trusted only
while it stays within ``REACH``.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from tavli_pi.vision.background import BG_SCALE, decode_background, median_of
from tavli_pi.vision.calibration import Calibration

__all__ = ["CREEP_AT", "CREEP_EVERY", "REACH", "CreepWatch", "creep", "crept_corners"]

#: a creep of this much (canonical px) or more is followed (the corners moved by it): 0.5 px put
#: points under 0.8 (the module's docstring); ECC on a real-like board measures ~0.05 px
CREEP_AT = 0.35
#: the farthest creep (canonical px) measured here; farther is ``vision.shift``'s (a knock)
REACH = 3.0
#: a place changed by more than this (grey levels, brightness matched) since the board was learnt ...
CHANGED = 40.0
#: ... and as wide as this (background px) or wider is left out (a creep's lines along edges are thinner)
CHANGED_WIDE = 3
#: how far past a changed blob (background px) is left out too
CHANGED_MARGIN = 2
#: the measure needs at least this share of the grid left to compare
LEFT_AT_LEAST = 0.4


@lru_cache(maxsize=4)
def _learnt_gray(text: str) -> tuple[np.ndarray, float] | None:
    """The learnt background in grey (float32) and its median (made once a calibration)."""
    bg = decode_background(text)
    if bg is None:
        return None
    gray = cv2.cvtColor(bg, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return gray, median_of(gray)


def _unchanged(now: np.ndarray, learnt: np.ndarray, learnt_median: float) -> np.ndarray:
    """uint8 mask (255 where compared) of the places not plainly changed since the board was learnt."""
    # (each median + 1 in float32, as np.median's float32 value gives it)
    gain = float(np.float32(learnt_median) + 1.0) / float(np.float32(median_of(now)) + 1.0)
    changed = (cv2.absdiff(now * np.float32(gain), learnt) > CHANGED).astype(np.uint8)
    wide = cv2.getStructuringElement(cv2.MORPH_RECT, (CHANGED_WIDE, CHANGED_WIDE))
    blobs = cv2.morphologyEx(changed, cv2.MORPH_OPEN, wide)
    grown = cv2.dilate(blobs, np.ones((2 * CHANGED_MARGIN + 1, 2 * CHANGED_MARGIN + 1), np.uint8))
    return np.asarray(np.where(grown > 0, 0, 255), np.uint8)


def creep(cal: Calibration, image: np.ndarray) -> tuple[float, float] | None:
    """How far ``image``'s canonical view stands right and down of the board ``cal`` learnt (canonical px),
    or None: nothing learnt, too much of the board changed to compare, or ECC found no creep within
    ``REACH`` (a knock is ``vision.shift``'s to follow)."""
    got = _learnt_gray(cal.background) if cal.background else None
    if got is None:
        return None
    learnt, learnt_median = got
    h, w = learnt.shape
    canon = cal.warp(image)
    small = cv2.resize(canon, (w, h), interpolation=cv2.INTER_AREA)
    now = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mask = _unchanged(now, learnt, learnt_median)
    if cv2.countNonZero(mask) < LEFT_AT_LEAST * mask.size:
        return None
    try:
        _, warp = cv2.findTransformECC(learnt, now, np.eye(2, 3, dtype=np.float32), cv2.MOTION_TRANSLATION,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-3), mask, 3)
    except cv2.error:
        return None
    dx, dy = float(warp[0, 2]) * BG_SCALE, float(warp[1, 2]) * BG_SCALE
    return None if np.hypot(dx, dy) > REACH else (dx, dy)


def crept_corners(cal: Calibration, dx: float, dy: float) -> np.ndarray:
    """The field's corners (image px) where the picture crept ``(dx, dy)`` canonical px has them: the
    canonical corners so far off, carried into the picture through the corners in force."""
    return np.asarray(cal.to_image(cal.layout.field_corners() + np.asarray([dx, dy], np.float32)), np.float32)


#: a frame is measured for creep at most once every so many frames (1 s at 10 fps: a creep is slow; a
#: measure costs ~10 ms)
CREEP_EVERY = 10
#: two measures in a row must agree within this (canonical px) for the creep to be followed
AGREE = 0.2


class CreepWatch:
    """Follows a creep once two measures in a row see it (``look`` per frame the picture stands where it
    did): a moment's measure is not trusted alone (a hand's shadow, a die's blur left in the compared
    places). The first measure comes ``CREEP_EVERY`` frames after the corners were put; one that sees a
    creep is measured again on the next frame looked at."""

    def __init__(self, since: int) -> None:
        self._last = since
        self._seen: tuple[float, float] | None = None

    def look(self, cal: Calibration, image: np.ndarray, index: int) -> tuple[float, float] | None:
        """The creep to follow on frame ``index`` (canonical px, the mean of the two measures), or None."""
        if self._seen is None and index - self._last < CREEP_EVERY:
            return None
        self._last = index
        got = creep(cal, image)
        if got is None or np.hypot(*got) < CREEP_AT:
            self._seen = None
            return None
        seen, self._seen = self._seen, got
        if seen is None or np.hypot(got[0] - seen[0], got[1] - seen[1]) > AGREE:
            return None
        self._seen = None
        return (0.5 * (got[0] + seen[0]), 0.5 * (got[1] + seen[1]))
