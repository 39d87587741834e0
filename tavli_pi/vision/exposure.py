"""The camera's exposure held to the stream's first frame's: a picture brightened or darkened as a whole is
read as that frame's brightness.

A camera's automatic exposure steps as hands come and go, and a room lit by the mains flickers from frame
to frame (``bench/bench_video.py --exposure``, ``--flicker``). The board did not change, but every pixel
did, by one share. The motion gate takes such a change for the camera's (``motion.picture_gain``); the
rest of the reader compares the frame with earlier ones too -- the incremental reader its last reading's
view, the camera's noise learnt from the frame before (``noise_level``), the dice with the frames they
lay still in -- and a picture a few per cent brighter passes them all as changed, or teaches them that the
camera is that noisy (under 10 % flicker a die landing was then "unchanged" and never read).

``Exposure`` keeps the gate's view of the first frame a reader reads (at the app, the set-up frame the
board is learnt from) and gives each later frame's gain against it (``motion.picture_gain``: the median
ratio of mid-grey pixels, when it is ``GAIN_STEP`` or more from 1); the reader divides such a frame by it
before anything looks at it. A frame within ``GAIN_STEP`` of the first is read as it is, so a steady
camera's stream reads exactly as before.
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.motion import picture_gain

__all__ = ["Exposure"]


class Exposure:
    """``steady(image, view)``: the gain to divide ``image`` by (None: read it as it is)."""

    def __init__(self) -> None:
        #: the gate's view of the first frame (None until one is read)
        self.reference: np.ndarray | None = None

    def gain(self, view: np.ndarray) -> float | None:
        """The picture's gain against the first view (``view`` the first: it becomes the reference)."""
        if self.reference is None or self.reference.shape != view.shape:
            self.reference = view.copy()
            return None
        return picture_gain(view, self.reference)


def held(image: np.ndarray, gain: float) -> np.ndarray:
    """``image`` divided by ``gain`` (uint8, saturated)."""
    return np.asarray(cv2.convertScaleAbs(image, alpha=1.0 / gain))
