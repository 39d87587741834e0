"""Where a mask is set, in raster order, fast when few of its rows hold anything (issue 12).

``cv2.findNonZero`` walks every pixel: 0.4-0.6 ms on the 740 x 586 canonical view
(OpenCV 5.0.0, one thread), although the dice search's peak images hold a handful
of peaks. Numpy finds the rows that hold one (a maximum along each row: ~30 us)
and looks for the pixels only in those. The points are the same, in the same order
(row by row, left to right), as ``findNonZero`` gives them; a mask set on many of
its rows is handed to ``findNonZero``, faster there.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["nonzero_xy"]

#: a mask set on more than this share of its rows goes to ``cv2.findNonZero``
DENSE_ROWS = 1 / 8


def nonzero_xy(mask: np.ndarray) -> np.ndarray:
    """``cv2.findNonZero(mask).reshape(-1, 2)`` of a 2-D uint8 mask (x, y; int32, raster order),
    with no rows when nothing is set (where ``findNonZero`` gives None)."""
    rows = np.flatnonzero(mask.max(axis=1)) if mask.size else np.zeros(0, np.intp)
    if not len(rows):
        return np.zeros((0, 2), np.int32)
    if len(rows) > DENSE_ROWS * mask.shape[0]:
        return np.asarray(cv2.findNonZero(mask)).reshape(-1, 2)
    ys, xs = np.nonzero(mask[rows])
    out = np.empty((len(xs), 2), np.int32)
    out[:, 0] = xs
    out[:, 1] = rows[ys]
    return out
