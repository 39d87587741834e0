"""The face reader's cheaper steps give numpy's values to the bit (issue 12)."""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.pips import _ENDS, _order_weights, _percentiles


def _with_order_stats(n: int, k: int, a: int, b: int) -> np.ndarray:
    """A 64 x 64 uint8 image whose k-th smallest value is ``a`` and the next ``b`` (a <= b)."""
    flat = np.empty(n, np.uint8)
    flat[: k + 1], flat[k + 1:] = a, b
    return flat.reshape(64, 64)  # (the order of the pixels does not matter to either)


def test_the_spread_percentiles_are_numpys_for_any_pair_of_order_statistics() -> None:
    # every value numpy's interpolation can give lies between the two order statistics round the
    # rank; the pairs with the largest steps, the equal pairs and a random share of the rest
    n = 64 * 64
    rng = np.random.default_rng(0)
    pairs = {(a, a) for a in range(256)} | {(0, b) for b in range(256)} | {(a, 255) for a in range(256)}
    pairs |= {(int(min(a, b)), int(max(a, b))) for a, b in rng.integers(0, 256, (400, 2))}
    for q in _ENDS:
        (k, _), = _order_weights(n, (q,))
        for a, b in sorted(pairs):
            img = _with_order_stats(n, k, a, b)
            got = _percentiles(img, (q,))[0]
            want = np.percentile(img, q)
            assert got == want, (q, a, b, got, want)


def test_the_spread_percentiles_of_any_image_are_numpys() -> None:
    rng = np.random.default_rng(1)
    for i in range(300):
        shape = (64, 64) if i % 3 else tuple(int(v) for v in rng.integers(2, 90, 2))
        lo, hi = sorted(int(v) for v in rng.integers(0, 256, 2))
        img = rng.integers(lo, hi + 1, shape).astype(np.uint8)
        got = _percentiles(img, _ENDS)
        want = np.percentile(img, _ENDS)
        assert got == tuple(want.tolist()), (i, got, want)
    # (not uint8: numpy's own)
    f = rng.random((64, 64)).astype(np.float32)
    assert _percentiles(f, _ENDS) == tuple(np.percentile(f, _ENDS).tolist())


def test_the_blob_masks_are_numpys_comparisons() -> None:
    """``find_pip_blobs``' masks from ``cv2.threshold`` are the grey levels above a level (or at
    most Otsu's threshold, dark), as numpy compares them, at whole and fractional levels."""
    import cv2

    from tavli_pi.vision.pips import find_pip_blobs

    rng = np.random.default_rng(2)
    for i in range(200):
        gray = cv2.GaussianBlur(rng.integers(0, 256, (64, 64)).astype(np.uint8), (0, 0), 1.5)
        back = cv2.medianBlur(gray, 21)
        level = [0.0, 3.0, 7.25, 12.5, 40.0, 254.5, 255.0, 300.0][i % 8]
        for dark in (True, False):
            diff = cv2.subtract(back, gray) if dark else cv2.subtract(gray, back)
            _, mask = find_pip_blobs(gray, dark, level, back)
            assert np.array_equal(mask, (diff > level).astype(np.uint8))
            t, _ = cv2.threshold(gray[8:-8, 8:-8], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            _, mask = find_pip_blobs(gray, dark, None)
            assert np.array_equal(mask, ((gray <= t) if dark else (gray > t)).astype(np.uint8))


def test_the_mean_of_a_few_floats_is_numpys() -> None:
    from tavli_pi.vision.pips import _mean_of

    rng = np.random.default_rng(3)
    for i in range(2000):
        vals = (rng.random(1 + i % 9) * [0.1, 1.0, 64.0, 1e5][i % 4]).tolist()
        assert _mean_of(vals) == float(np.mean(vals))
