"""How a die lies (vision/lie.py): the crops square to a die are the warps they stand for."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.vision.lie import quad_crop


@pytest.mark.parametrize("n", [48, 31])
def test_a_quad_crop_is_the_warp_of_its_quadrilateral_to_the_square(n: int) -> None:
    """``quad_crop`` takes its square's corners made once a size (issue 12): the same warp as with them
    made afresh, and the corners kept are never written."""
    rng = np.random.default_rng(n)
    src = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    for _ in range(5):
        quad = (np.asarray([[40, 30], [70, 32], [69, 61], [41, 60]], np.float64) + rng.uniform(-3, 3, (4, 2))).astype(np.float32)
        dst = np.asarray([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
        want = cv2.warpPerspective(src, cv2.getPerspectiveTransform(quad, dst), (n, n), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        assert np.array_equal(quad_crop(src, quad, n), want)
    from tavli_pi.vision.lie import _square

    assert not _square(n).flags.writeable
