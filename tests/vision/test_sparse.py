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


def test_masks_walked_a_word_at_a_time() -> None:
    """Masks whose rows are whole int32 words (walked four pixels a word): ``findNonZero``'s points in
    its order, a word's pixels set alone, at its ends, all four, on every row and on few; and the
    same mask where its rows are not whole words, or it lies off a word's boundary in memory."""
    rng = np.random.default_rng(5)
    for i in range(120):
        h, w = int(rng.integers(1, 60)), 4 * int(rng.integers(1, 40))
        share = [0.0, 0.001, 0.05, 0.5, 1.0][i % 5]
        mask = ((rng.random((h, w)) < share) * rng.integers(1, 256, (h, w))).astype(np.uint8)
        if i % 3 == 0:  # a word's first or last pixel alone
            mask[:, :] = 0
            mask[rng.integers(0, h, 5), 4 * rng.integers(0, w // 4, 5) + rng.choice([0, 3], 5)] = 1
        got = nonzero_xy(mask)
        assert got.dtype == np.int32 and got.shape[1] == 2
        assert np.array_equal(got, _cv(mask))
    buf = np.zeros(48 * 64 + 1, np.uint8)
    off = buf[1:].reshape(48, 64)  # rows of whole words, off a word's boundary
    off[rng.integers(0, 48, 40), rng.integers(0, 64, 40)] = 9
    assert np.array_equal(nonzero_xy(off), _cv(off))
    assert len(nonzero_xy(off)) > 30
