"""One frame's canonical view and its gradients, made once per warp while a board is learnt.

Learning a board (``setup.learn_board``) warps the same frame for several steps: the points from
the set-up stacks (``known_columns.start_geometry``), the stack pitch (``known_radius``, or
``refine.learn_radius``) and the looks learnt after them. A calibration's warp depends only on its
corners and the canonical view's size (``Calibration.homography``: the field's edges and the bar
inside it do not move the view), so the steps' calibrations share one: ``FrameViews`` makes each
view and its gradients once per homography and hands the same arrays to every step (issue 12).
The arrays are shared: read them, never write to them.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration

__all__ = ["FrameViews"]


class FrameViews:
    """``canon(cal)`` is ``cal.warp(image)`` and ``gradients(cal)`` is ``checkers.gradients`` of it,
    each made once per warp (the homography and the view's size) of this one frame."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self._canon: dict[bytes, np.ndarray] = {}
        self._grad: dict[bytes, ck.Gradients] = {}

    @staticmethod
    def _key(cal: Calibration) -> bytes:
        w, h = cal.layout.size
        return np.asarray(cal.homography, np.float64).tobytes() + np.asarray([w, h], np.int64).tobytes()

    def canon(self, cal: Calibration) -> np.ndarray:
        key = self._key(cal)
        got = self._canon.get(key)
        if got is None:
            got = self._canon[key] = cal.warp(self.image)
            got.setflags(write=False)  # shared by the steps: none may write to it
        return got

    def gradients(self, cal: Calibration) -> ck.Gradients:
        key = self._key(cal)
        got = self._grad.get(key)
        if got is None:
            got = self._grad[key] = ck.gradients(self.canon(cal))
            got.pair.setflags(write=False)
        return got
