"""What a skin-coloured patch over the field may be instead of a hand: checkers.

The skin test (``hands.skin_view``) compares the frame with the clear board
learnt at calibration. Two things change there without any hand:

- a checker that now stands somewhere: its rim, shading or a broadcast band
  over it may be skin-coloured although its mean colour is not (the reader
  has just found it: its disc is known);
- the board under a checker that stood there when the board was learnt (the
  start position at set-up, B3, or the known position it was learnt from) and
  has moved away: the learning frame never showed that board, so a wooden field or a
  beige point uncovered there is new to the skin test.

``explained_mask`` marks both on the quarter-scale grid the hand tests use. A
hand is large and reaches past the discs it covers, so the hand tests count a
skin region by its pixels outside this mask (``hands.hand_cover``,
``hands_photo.photo_hand``).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.hands import SCALE
from tavli_pi.vision.setup_slots import known_slots
from tavli_pi.vision.spot_slots import spot_geometry

__all__ = ["known_discs", "explained_mask", "GROW"]

#: discs are marked this much wider than the checker (placement, blur and the quarter scale)
GROW = 1.2

Disc = tuple[float, float, float]


def known_discs(cal: Calibration) -> list[Disc]:
    """Canonical discs (x, y, r) of the checkers of the position the board was learnt from
    (``cal.position``; the start position's, B3, when it names none), one pitch apart from the
    field's edge (from the bar's middle on the bar)."""
    x, base, sign, r = spot_geometry(cal.layout, cal)
    filled = known_slots(cal)
    return [(float(x[i]), float(base[i] + sign[i] * r[i] * (2 * k + 1)), float(r[i]))
            for i in range(26) for k in range(filled.shape[1]) if filled[i, k]]


def explained_mask(shape: tuple[int, int], discs: Sequence[Disc]) -> np.ndarray:
    """Quarter-scale bool mask (``shape``) of the discs (canonical x, y, r), each GROW times wider."""
    mask = np.zeros(shape, np.uint8)
    for x, y, r in discs:
        cv2.circle(mask, (int(round(x / SCALE)), int(round(y / SCALE))), max(1, int(round(GROW * r / SCALE))), 1, -1)
    return mask > 0
