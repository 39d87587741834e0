"""The mean grey level of a small square image within a disc round each of several points, all at
once (``pips.hidden_pips``'s levels of a face's pips and of its pip-free places, issue 12).

Each point's disc is looked at in a window of a fixed size round it (the disc's reach and two pixels
more each way, clipped to the image): a pixel is in the disc when its squared distance from the point,
worked out in float64 from its column and row as on the whole image's grid, is at most the radius
squared. The mean is the disc's sum over its count; for a uint8 image the sum is an exact integer, so
it is ``np.mean``'s value (a float64 sum of integers is exact, then one division), to the bit. NaN
where no pixel lies in the disc, as a mean of nothing is.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["disc_means"]


def disc_means(gray: np.ndarray, pts: np.ndarray, r: float) -> list[float]:
    """Per row (x, y) of ``pts`` (float64), the mean of the uint8 image ``gray`` over its pixels
    within ``r`` of the point (NaN when none)."""
    h, w = gray.shape[:2]
    half = math.ceil(r) + 2
    off = np.arange(-half, half + 1, dtype=np.float64)
    cols = np.floor(pts[:, 0])[:, None] + off[None, :]  # (n, k): each window's columns, as floats
    rows = np.floor(pts[:, 1])[:, None] + off[None, :]
    dx = (cols - pts[:, 0, None]) ** 2
    dy = (rows - pts[:, 1, None]) ** 2
    inside = (dx[:, None, :] + dy[:, :, None] <= r * r) & ((cols >= 0) & (cols < w))[:, None, :] \
        & ((rows >= 0) & (rows < h))[:, :, None]
    vals = gray[np.clip(rows, 0, h - 1).astype(np.intp)[:, :, None], np.clip(cols, 0, w - 1).astype(np.intp)[:, None, :]]
    count = inside.sum(axis=(1, 2))
    total = np.where(inside, vals, 0).sum(axis=(1, 2), dtype=np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        means: list[float] = (total / count).tolist()
    return means
