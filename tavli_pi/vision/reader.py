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
from tavli_pi.vision.observation import Observation, SpotEvidence
from tavli_pi.vision.stacks import column_evidence, tray_evidence

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
        points: list[SpotEvidence] = []
        disc_sites: list[tuple[float, float, float]] = []
        for col in lay.columns:
            ev, discs = column_evidence(canon, g, lay, col.x, col.width, col.top, cal)
            points.append(ev)
            disc_sites += [(d.x, d.y, d.r) for d in discs if d.p_real > 0.5]
        bar, bar_discs = self._bar(canon, g)
        disc_sites += [(d.x, d.y, d.r) for d in bar_discs if d.p_real > 0.5]
        off = tray_evidence(canon, g, lay, cal)
        t2 = time.perf_counter()
        dice = find_dice(canon, lay, cal, disc_sites, hand_mask)
        cube = find_cube(canon, lay, cal)
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

    def _bar(self, canon: np.ndarray, g: ck.Gradients) -> tuple[SpotEvidence, list[ck.Disc]]:
        lay, cal = self.layout, self.calibration
        bx0, bx1 = lay.bar_x
        w = lay.pitch
        discs = ck.find_discs(
            canon, g, (bx0 + bx1) / 2, lay.top_y + 0.45 * w, lay.bottom_y - 0.45 * w, w,
            offsets=(-0.2, -0.1, 0.0, 0.1, 0.2),
        )
        discs = ck.classify_discs(discs, cal.light_bgr, cal.dark_bgr)
        light = ck.count_evidence([d.p_real * d.p_light for d in discs])
        dark = ck.count_evidence([d.p_real * (1 - d.p_light) for d in discs])
        return SpotEvidence(light, dark), discs


def read_image(image: np.ndarray, calibration: Calibration) -> Observation:
    """Convenience: read one image with a calibration."""
    return BoardReader(calibration).read(image)
