"""The board reader: one frame in, one Observation out.

``BoardReader(calibration).read(image)`` warps the field to the canonical
top-down view, finds checkers along each point, on the bar and in the trays,
then the dice, the cube and any hand, and packs the evidence into an
``Observation`` in the light player's numbering.
"""

from __future__ import annotations

import time

import numpy as np

from tavli_pi.errors import VisionError
from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.cube import find_cube
from tavli_pi.vision.dice import find_dice
from tavli_pi.vision.hands import decode_mask, hand_cover
from tavli_pi.vision.observation import Observation
from tavli_pi.vision.stacks import read_spots, tray_evidence

__all__ = ["BoardReader", "read_image"]

#: share of the field a hand must cover before the frame counts as covered
HAND_SHARE = 0.008


class BoardReader:
    """Reads frames of one calibrated table."""

    def __init__(self, calibration: Calibration) -> None:
        self.calibration = calibration
        self.layout = calibration.layout
        self.timings: dict[str, float] = {}
        self._prone = decode_mask(calibration.skin) if calibration.skin else None

    def read(self, image: np.ndarray, frame_index: int = 0) -> Observation:
        if image is None or not isinstance(image, np.ndarray) or image.ndim != 3 or image.size == 0:
            raise VisionError("the frame is not a colour image; check the camera or the file")
        t0 = time.perf_counter()
        cal, lay = self.calibration, self.layout
        canon = cal.warp(image)
        g = ck.gradients(canon)
        t1 = time.perf_counter()
        hand_share, hand_mask = hand_cover(canon, lay, self._prone)
        hand = hand_share > HAND_SHARE
        points, bar, disc_sites = read_spots(canon, g, lay, cal)
        off = tray_evidence(canon, g, lay, cal)
        t2 = time.perf_counter()
        dice = find_dice(canon, lay, cal, disc_sites, hand_mask, image)
        cube = find_cube(canon, lay, cal, image)
        t3 = time.perf_counter()
        self.timings = {"warp": t1 - t0, "checkers": t2 - t1, "dice": t3 - t2}
        spots = points + [bar]
        conf = float(np.mean([min(s.light.confidence, s.dark.confidence) for s in spots]))
        if hand:
            conf *= 0.3
        return Observation(
            points=tuple(points),
            bar=bar,
            off=off,
            dice=tuple(dice),
            cube=cube,
            hand=hand,
            confidence=conf,
            frame_index=frame_index,
            extras={"hand_share": float(hand_share)},
        )


def read_image(image: np.ndarray, calibration: Calibration) -> Observation:
    """Convenience: read one image with a calibration."""
    return BoardReader(calibration).read(image)
