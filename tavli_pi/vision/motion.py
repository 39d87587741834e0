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

__all__ = ["MotionGate", "BOARD_SHARE"]

#: share of changed pixels that means motion on the canonical board view (half a die)
BOARD_SHARE = 0.0008


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
