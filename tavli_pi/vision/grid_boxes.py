"""Boxes of canonical pixels on a coarser grid, and which of them a changed-cell mask touches.

The incremental reader keeps a reading while no cell of the gate's quarter-scale
grid under it changed (vision/incremental.py: a point's footprint, the trays, the
cube; vision/ring_memo.py: each ring place's box). Both ask the same two things,
answered here once: the cells a box of canonical pixels covers, grown by a
kernel's reach (``to_grid``), and which of many such boxes hold a changed cell
(``touched``: one integral image of the mask, every box looked up at once).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["to_grid", "touched"]

#: up to this many boxes are looked at one by one (cheaper than an integral image of the mask: the
#: footprints, 26 at most, are; the ring memo's hundreds of places are not)
FEW = 32


def to_grid(boxes: np.ndarray, margin: float, scale: int, shape: tuple[int, int]) -> np.ndarray:
    """Rows (y0, y1, x0, x1) of grid cells (int64, a window ``mask[y0:y1, x0:x1]``) for
    ``boxes``, rows of canonical (x0, y0, x1, y1) grown by ``margin`` pixels all round; a grid cell
    is ``scale`` canonical pixels a side (canonical pixel x lies in cell x // scale), the grid
    ``shape`` (h, w) cells."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    h, w = shape
    lo = np.floor((b - [margin, margin, -margin, -margin]) / scale) + [0, 0, 1, 1]
    lo = np.minimum(np.maximum(lo, 0), [w, h, w, h])
    return np.asarray(lo[:, [1, 3, 0, 2]], np.int64)


def touched(mask: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """Per row (y0, y1, x0, x1) of ``rects``, whether ``mask[y0:y1, x0:x1]`` holds a set cell (bool;
    the window clipped to the mask)."""
    r = np.asarray(rects, np.int64).reshape(-1, 4)
    h, w = mask.shape[:2]
    # (np.minimum / np.maximum: np.clip's dispatch costs more than the clipping of a few boxes)
    y0, x0 = np.minimum(np.maximum(r[:, 0], 0), h), np.minimum(np.maximum(r[:, 2], 0), w)
    y1, x1 = np.minimum(np.maximum(r[:, 1], y0), h), np.minimum(np.maximum(r[:, 3], x0), w)
    if len(r) <= FEW:
        return np.asarray([bool(mask[a:b, c:d].any()) for a, b, c, d in zip(y0.tolist(), y1.tolist(), x0.tolist(),
                                                                             x1.tolist())], bool).reshape(-1)
    summed = np.asarray(cv2.integral(np.asarray(mask, np.uint8)))
    count = summed[y1, x1] - summed[y0, x1] - summed[y1, x0] + summed[y0, x0]
    return np.asarray(count > 0)
