"""The disc morphology made row by row (vision/disc_morph.py) is OpenCV's, pixel for pixel."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.vision.disc_morph import blackhat, tophat


@pytest.mark.parametrize("d", [5, 7, 9, 13, 17, 21, 25, 31])
@pytest.mark.parametrize("shape", [(1, 1), (3, 40), (40, 3), (12, 9), (60, 80), (147, 185)])
def test_hats_are_opencvs(d: int, shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(d * 1000 + shape[0] * 7 + shape[1])
    # noise over smooth shapes: blobs brighter and darker than their surroundings, and flat runs
    img = cv2.GaussianBlur(rng.integers(0, 256, shape, dtype=np.uint8), (0, 0), 2.0)
    img = cv2.add(img, (rng.random(shape) < 0.05).astype(np.uint8) * 90)
    se = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))
    assert np.array_equal(tophat(img, d), cv2.morphologyEx(img, cv2.MORPH_TOPHAT, se))
    assert np.array_equal(blackhat(img, d), cv2.morphologyEx(img, cv2.MORPH_BLACKHAT, se))


def test_a_window_of_a_view() -> None:
    """A slice of a larger image (the memo's windows): the same as its copy's."""
    rng = np.random.default_rng(3)
    big = rng.integers(0, 256, (120, 150), dtype=np.uint8)
    part = big[17:90, 33:140]
    se = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (21, 21))
    assert np.array_equal(tophat(part, 21), cv2.morphologyEx(np.ascontiguousarray(part), cv2.MORPH_TOPHAT, se))
