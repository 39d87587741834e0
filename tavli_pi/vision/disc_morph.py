"""Erosion and dilation by a large disc, as a few rectangles: the same pixels as ``cv2.erode`` /
``cv2.dilate`` with the disc, in a fraction of the time (issue 12).

OpenCV applies a kernel that is not a rectangle point by point: the hat images' disc of 21 px
(``tumbling.hat_images``) is some 350 points, each a pass over the image, while it erodes by a
rectangle in two quick passes (a row's run, then a column's). A disc made by
``cv2.getStructuringElement(cv2.MORPH_ELLIPSE, ...)`` is the union of a few rectangles centred on
it: per width its rows' runs take, the rectangle that wide over the rows at least that wide
(``_rects``, checked to cover the disc and nothing else). The least (greatest) pixel over the disc
is the least (greatest) of the rectangles' own, and both ignore what lies outside the image, as
OpenCV's default border does (the least of the pixels inside is the same however they are grouped),
so the result is OpenCV's, pixel for pixel (tests/vision/test_disc_morph.py checks it against
``cv2.morphologyEx``).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

__all__ = ["blackhat", "tophat"]


@lru_cache(maxsize=8)
def _rects(d: int) -> tuple[np.ndarray, ...]:
    """The rectangles (each a kernel of ones, its size odd, centred) whose union is the ``d`` x ``d``
    elliptic kernel (``d`` odd)."""
    se = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))
    widths = se.sum(axis=1)
    out = []
    cover = np.zeros_like(se)
    for w in sorted(set(widths.tolist()) - {0}):
        rows = np.flatnonzero(widths >= w)
        hh = len(rows)
        out.append(np.ones((hh, w), np.uint8))
        r0, c0 = (d - hh) // 2, (d - w) // 2
        cover[r0:r0 + hh, c0:c0 + w] = 1
    if d % 2 == 0 or not np.array_equal(cover, se):
        raise ValueError(f"the {d} px disc is not a union of centred rectangles")
    return tuple(out)


def _disc(img: np.ndarray, d: int, least: bool) -> np.ndarray:
    """``cv2.erode`` (``least``) or ``cv2.dilate`` of the image ``img`` with the ``d`` px elliptic
    kernel (``d`` odd), default border (the pixels outside the image left out)."""
    op, pick = (cv2.erode, cv2.min) if least else (cv2.dilate, cv2.max)
    out: np.ndarray | None = None
    for k in _rects(d):
        got = op(img, k)
        out = got if out is None else pick(out, got, dst=out)
    assert out is not None
    return out


def tophat(img: np.ndarray, d: int) -> np.ndarray:
    """``cv2.morphologyEx(img, cv2.MORPH_TOPHAT, disc)`` with the ``d`` px elliptic kernel (``d`` odd)."""
    return cv2.subtract(img, _disc(_disc(img, d, True), d, False))


def blackhat(img: np.ndarray, d: int) -> np.ndarray:
    """``cv2.morphologyEx(img, cv2.MORPH_BLACKHAT, disc)`` with the ``d`` px elliptic kernel (``d`` odd)."""
    return cv2.subtract(_disc(_disc(img, d, False), d, True), img)
