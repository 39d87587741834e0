"""One component's stats (vision/component_box.py) are the row OpenCV's stats give it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.vision.component_box import box_of, labelled


@pytest.mark.parametrize("connectivity", [4, 8])
@pytest.mark.parametrize("shape", [(1, 1), (6, 9), (37, 37), (64, 64), (90, 61)])
@pytest.mark.parametrize("fill", [0.0, 0.3, 0.5, 0.7, 1.0])
def test_the_same_labels_and_each_labels_stats(connectivity: int, shape: tuple[int, int], fill: float) -> None:
    rng = np.random.default_rng(int(fill * 10) + shape[0] + connectivity)
    smooth = cv2.GaussianBlur(rng.random(shape).astype(np.float32), (0, 0), 1.2)
    mask = ((smooth < np.quantile(smooth, fill)) | (rng.random(shape) < 0.02 * fill)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    want_n, want_labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
    n, labels = labelled(mask, connectivity)
    assert n == want_n
    assert labels.dtype == want_labels.dtype and np.array_equal(labels, want_labels)
    for lab in range(1, n):
        assert box_of(labels, lab) == tuple(int(v) for v in stats[lab])
