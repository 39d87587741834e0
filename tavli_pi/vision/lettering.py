"""Lettering is no die: a mark that is one of a row of like marks is a letter (or a finger).

A printed word, an overlay's caption or a logo's letters are marks of one colour and one size
side by side; a letter's loop can read as a die's one, an upside-down "B" as a two, and a
letter's soft blob in a hat image as a die still tumbling. A roll is two dice (and the cube may
lie beside them), so a die has at most one like mark near it: the other die. A candidate with
``ROW`` or more like marks (``like``: of its shade, sizes within ``LIKE`` of its own) within
``ROW_REACH`` of its length is lettering.

``in_a_row`` decides from marks already found (the hat blobs of ``tumbling``); ``lettered``
finds the marks of a die's body colour round a candidate die in the frame (``dice``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from tavli_pi.vision.channels import channel_max
from tavli_pi.vision.components import components
from tavli_pi.vision.lie import square_crop

__all__ = ["Mark", "in_a_row", "lettered", "ROW", "LIKE", "ROW_REACH"]

Mark = tuple[float, float, float]  # centre x, y and length (long side), in one view's px

#: this many like marks near a candidate make it one of a row (a roll has two dice: one other)
ROW = 2
#: like marks: lengths within this factor of each other
LIKE = 1.6
#: near: centres within this many of the longer mark's lengths
ROW_REACH = 1.8
#: the crop ``lettered`` looks in, in the candidate's lengths each way, and its size in px
_REACH_CROP = 2.5
_N = 96


def in_a_row(mark: Mark, others: Sequence[Mark]) -> bool:
    """Whether ``mark`` has ``ROW`` or more like marks among ``others`` (itself excluded by the
    caller) within ``ROW_REACH`` of the longer one's length."""
    x, y, n = mark
    like = 0
    for ox, oy, on in others:
        if not 1.0 / LIKE <= on / max(n, 1e-6) <= LIKE:
            continue
        like += bool(np.hypot(ox - x, oy - y) < ROW_REACH * max(n, on))
    return like >= ROW


def lettered(
    src: np.ndarray,
    to_src: Callable[[np.ndarray], np.ndarray],
    centre: tuple[float, float],
    length: float,
    body: tuple[float, float, float],
    tol: float,
) -> bool:
    """Whether the die-like mark of colour ``body`` (within ``tol``, largest channel) centred at
    ``centre`` (canonical px, ``length`` long) is one of a row of like marks in ``src``: the
    marks of its colour round it, cut out of a crop ``_REACH_CROP`` lengths each way (marks cut
    by the crop's edge are not measured)."""
    half = _REACH_CROP * length
    crop = square_crop(src, to_src, centre, half, _N)
    mask = (channel_max(np.abs(crop.astype(np.float32) - np.asarray(body, np.float32))) < tol).astype(np.uint8)
    n, labels, stats, cents = components(mask)
    k = _N / (2.0 * half)  # crop px per canonical px
    c = _N / 2.0
    x, y, w, h = (stats[1:, j] for j in range(4))
    whole = (x > 0) & (y > 0) & (x + w < _N) & (y + h < _N)  # not cut by the crop's edge
    itself = np.hypot(cents[1:, 0] - c, cents[1:, 1] - c) < 0.5 * length * k  # the candidate
    at = np.flatnonzero(whole & ~itself)
    marks = [(float(mx), float(my), float(m)) for (mx, my), m in
             zip(cents[1:][at].tolist(), np.maximum(w, h)[at].tolist())]
    return in_a_row((c, c, length * k), marks)
