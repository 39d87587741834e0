"""vision/sparse: ``nonzero_xy`` gives ``cv2.findNonZero``'s points, in its order."""

import cv2
import numpy as np

from tavli_pi.vision.sparse import nonzero_xy


def _cv(mask: np.ndarray) -> np.ndarray:
    got = cv2.findNonZero(mask)
    return np.zeros((0, 2), np.int32) if got is None else got.reshape(-1, 2)


def test_the_points_of_find_non_zero_sparse_and_dense() -> None:
    rng = np.random.default_rng(3)
    for i in range(200):
        h, w = (int(v) for v in rng.integers(1, 90, 2))
        share = [0.0, 0.0005, 0.01, 0.2, 0.9][i % 5]
        mask = ((rng.random((h, w)) < share) * rng.integers(1, 256, (h, w))).astype(np.uint8)
        got = nonzero_xy(mask)
        assert got.dtype == np.int32 and got.shape[1] == 2
        assert np.array_equal(got, _cv(mask))


def test_a_view_into_a_larger_mask() -> None:
    mask = np.zeros((120, 150), np.uint8)
    mask[[5, 5, 60, 119], [3, 140, 75, 0]] = [1, 2, 255, 7]
    inner = mask[4:-4, 4:-4]  # not contiguous
    assert np.array_equal(nonzero_xy(inner), _cv(inner))
    assert nonzero_xy(inner).tolist() == [[136, 1], [71, 56]]


def test_nothing_set() -> None:
    assert nonzero_xy(np.zeros((7, 9), np.uint8)).shape == (0, 2)


def test_views_the_size_of_the_canonical_and_the_fine_view() -> None:
    rng = np.random.default_rng(4)
    for (h, w), k in [((586, 740), 60), ((586, 740), 3000), ((1108, 836), 300)]:
        mask = np.zeros((h, w), np.uint8)
        mask[rng.integers(0, h, k), rng.integers(0, w, k)] = 255
        for m in (mask, mask[4:-4, 4:-4]):
            assert np.array_equal(nonzero_xy(m), _cv(m))
