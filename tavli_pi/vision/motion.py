"""The cheap "is anything moving" gate, run on every frame before a full read.

The frame is shrunk to 160 pixels wide in grayscale and compared with the
previous one; if more than a small share of pixels changed by more than a
threshold, something is moving (a hand, a tumbling die).

``BoardReader`` runs one on the canonical (board-only) view, so people moving
round the table do not count, with ``BOARD_SHARE``: half a die's area (a die
is about 0.6 of a point's width, some 30 of the gate's 160 x 128 pixels).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["MotionGate", "BOARD_SHARE", "GAIN_STEP", "picture_gain"]

#: share of changed pixels that means motion on the canonical board view (half a die)
BOARD_SHARE = 0.0008


#: the least change of the picture's gain as a whole (a share) taken for the camera's, not the board's
GAIN_STEP = 0.02
#: the grey levels between which a pixel tells the gain (darker: noise; brighter: clipped)
GAIN_LEVELS = (40, 235)
#: ... and the least share of the picture they must make (a board of black points and dark checkers
#: has half its pixels under the lower level)
GAIN_PIXELS = 0.2


def picture_gain(small: np.ndarray, ref: np.ndarray) -> float | None:
    """How much brighter ``small`` is than ``ref`` as a whole (two views of one size): the median ratio
    of their mid-grey pixels (most of the picture is the board, which did not move; a hand or a die
    covers less), when it is ``GAIN_STEP`` or more from 1; None when it is nearer 1, or when too few
    pixels tell it."""
    if small.shape != ref.shape:
        return None
    # the means first (a few microseconds): a picture whose mean moved by under half the step did
    # not brighten as a whole (the median below costs 0.2-0.3 ms, and a JPEG camera's still frames
    # pass the gate's level on a few pixels all the time)
    mean_ref = float(sum(cv2.mean(ref)[:3]))
    if mean_ref <= 0 or abs(float(sum(cv2.mean(small)[:3])) / mean_ref - 1.0) < 0.5 * GAIN_STEP:
        return None
    lo, hi = GAIN_LEVELS
    ok = (ref >= lo) & (ref <= hi) & (small >= lo) & (small <= hi)
    if int(ok.sum()) < GAIN_PIXELS * ok.size:
        return None
    gain = float(np.median(small[ok].astype(np.float32) / ref[ok].astype(np.float32)))
    return gain if abs(gain - 1.0) >= GAIN_STEP else None


def _beyond_gain(small: np.ndarray, prev: np.ndarray, changed: np.ndarray, threshold: int) -> np.ndarray:
    """``changed`` (``small`` against ``prev``, more than ``threshold`` apart), less what the picture's
    gain as a whole explains (``picture_gain``): a camera's automatic exposure stepping, or a room lit
    by the mains flickering from frame to frame, brightens or darkens every pixel by one share, and
    moves nothing. Taken when it explains most of the change (else the change is the board's)."""
    gain = picture_gain(small, prev)
    if gain is None:
        return changed
    # what the gain leaves is compared a little more loosely: the camera's encoder compresses the
    # brighter or darker picture anew, and a pixel near white clips (up to the gain's step in levels)
    scaled = cv2.convertScaleAbs(prev, alpha=gain)
    left = cv2.absdiff(small, scaled) > threshold + abs(gain - 1.0) * 255.0
    return left if int(left.sum()) < 0.5 * int(changed.sum()) else changed


class MotionGate:
    """``gate(image) -> bool``: True while the picture is changing."""

    def __init__(self, width: int = 160, threshold: int = 18, share: float = 0.002) -> None:
        self.width = width
        self.threshold = threshold
        self.share = share
        self._prev: np.ndarray | None = None
        self._compared = False
        self.last_share = 0.0
        #: the pixels (at the gate's size) that changed in the last comparison, or None
        self.last_changed: np.ndarray | None = None

    def _small(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        size = (self.width, max(1, int(round(h * self.width / w))))
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        return cv2.resize(gray, size, interpolation=cv2.INTER_AREA)

    def __call__(self, image: np.ndarray) -> bool:
        small = self._small(image)
        prev, self._prev = self._prev, small
        if prev is None or prev.shape != small.shape:
            self.last_share = 0.0
            self._compared = False
            self.last_changed = None
            return False
        changed = cv2.absdiff(small, prev) > self.threshold
        if float(changed.mean()) > self.share:
            changed = _beyond_gain(small, prev, changed, self.threshold)
        self.last_changed = changed
        self.last_share = float(changed.mean())
        self._compared = True
        return self.last_share > self.share

    @property
    def compared(self) -> bool:
        """True when the last frame had one before it of the same size to compare with."""
        return self._compared

    @property
    def same(self) -> bool:
        """True when the last frame was compared and (all but a few pixels) matched the one before."""
        return self._compared and self.last_share < 0.25 * self.share

    def reset(self) -> None:
        self._prev = None
        self._compared = False
        self.last_changed = None
