"""Boxes of canonical pixels on a coarser grid, and which of them a changed-cell mask touches.

The incremental reader keeps a reading while no cell of the gate's quarter-scale
grid under it changed (vision/incremental.py: a point's footprint, the trays, the
cube; vision/ring_memo.py: each ring place's box). Both ask the same two things,
answered here once: the cells a box of canonical pixels covers, grown by a
kernel's reach (``to_grid``), and which of many such boxes hold a changed cell
(``touched``: one integral image of the mask, every box looked up at once).
"""

from __future__ import annotations

from collections.abc import Sequence

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


def touched(mask: np.ndarray, rects: np.ndarray | Sequence[tuple[int, int, int, int]]) -> np.ndarray:
    """Per row (y0, y1, x0, x1) of ``rects`` (an array or a sequence of tuples), whether
    ``mask[y0:y1, x0:x1]`` holds a set cell (bool; the window clipped to the mask)."""
    h, w = mask.shape[:2]
    if len(rects) <= FEW:  # in plain Python: numpy's calls cost more than a few slices
        out = []
        for y0, y1, x0, x1 in (rects.tolist() if isinstance(rects, np.ndarray) else rects):
            y0, x0 = min(max(y0, 0), h), min(max(x0, 0), w)
            out.append(bool(mask[y0 : min(max(y1, y0), h), x0 : min(max(x1, x0), w)].any()))
        return np.asarray(out, bool).reshape(-1)
    r = np.asarray(rects, np.int64).reshape(-1, 4)
    # (np.minimum / np.maximum: np.clip's dispatch costs more than the clipping)
    ya, xa = np.minimum(np.maximum(r[:, 0], 0), h), np.minimum(np.maximum(r[:, 2], 0), w)
    yb, xb = np.minimum(np.maximum(r[:, 1], ya), h), np.minimum(np.maximum(r[:, 3], xa), w)
    summed = np.asarray(cv2.integral(np.asarray(mask, np.uint8)))
    count = summed[yb, xb] - summed[ya, xb] - summed[yb, xa] + summed[ya, xa]
    return np.asarray(count > 0)
