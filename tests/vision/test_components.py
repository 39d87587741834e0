"""8-connected components labelled in 16 bits (vision/components.py) are OpenCV's 32-bit ones."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.vision.components import components


@pytest.mark.parametrize("shape", [(1, 1), (2, 3), (37, 37), (64, 64), (140, 185), (278, 370), (257, 511)])
@pytest.mark.parametrize("fill", [0.0, 0.3, 0.5, 0.7, 1.0])
def test_the_same_labels_stats_and_centroids(shape: tuple[int, int], fill: float) -> None:
    rng = np.random.default_rng(int(fill * 10) + shape[0])
    # blobs of all sizes and single pixels: smoothed noise thresholded, and a sprinkle
    smooth = cv2.GaussianBlur(rng.random(shape).astype(np.float32), (0, 0), 1.2)
    mask = ((smooth < np.quantile(smooth, fill)) | (rng.random(shape) < 0.02 * fill)).astype(np.uint8)
    want = cv2.connectedComponentsWithStats(mask, connectivity=8)
    n, labels, stats, cents = components(mask)
    assert n == want[0]
    assert np.array_equal(labels, want[1])
    assert np.array_equal(stats, want[2])
    assert np.array_equal(cents, want[3])


def test_a_checkerboard_of_single_pixels() -> None:
    """The most components a mask can hold: one pixel per 2 x 2 block (and a mask too large for
    16 bits is labelled in 32)."""
    for shape in [(255, 255), (600, 600)]:
        mask = np.zeros(shape, np.uint8)
        mask[::2, ::2] = 1
        n, labels, stats, _ = components(mask)
        want = cv2.connectedComponentsWithStats(mask, connectivity=8)
        assert n == want[0] == ((shape[0] + 1) // 2) * ((shape[1] + 1) // 2) + 1
        assert np.array_equal(labels, want[1]) and np.array_equal(stats, want[2])
