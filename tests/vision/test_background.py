"""The frame against the learnt board: ``median_of`` gives ``np.median``'s value to the bit."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.background import MEDIAN_SAMPLED, median_of


def _arrays(rng: np.random.Generator) -> list[np.ndarray]:
    """Float32 arrays of the kinds a frame's change from the board gives: smooth (a blurred change),
    a few repeated levels (ties across the middle), mostly one value, odd and even sizes, and
    views cut from a larger array (as the field is cut from the half view)."""
    out = []
    for i in range(600):
        h, w = (int(v) for v in rng.integers(40, 300, 2))
        kind = i % 5
        if kind == 0:
            a = rng.random((h, w), np.float32) * 50
        elif kind == 1:
            a = cv2.GaussianBlur(rng.integers(0, 255, (h, w)).astype(np.float32), (3, 3), 0)
        elif kind == 2:
            a = np.round(rng.random((h, w)) * 5).astype(np.float32)  # six levels: ties at the middle
        elif kind == 3:
            a = np.zeros((h, w), np.float32)
            a[rng.random((h, w)) < rng.random()] = 7.25
        else:
            a = rng.standard_normal((h, w)).astype(np.float32) ** 2 * 3  # long-tailed
        pad = np.zeros((h + 10, w + 14), np.float32)
        pad[5:-5, 7:-7] = a
        out.append(pad[5:-5, 7:-7])
    return out


def test_median_of_is_numpys_median_to_the_bit() -> None:
    rng = np.random.default_rng(20)
    arrays = _arrays(rng)
    assert sum(a.size >= MEDIAN_SAMPLED for a in arrays) > 400  # the sampled path is the one tested
    assert any(a.size % 2 for a in arrays) and any(a.size % 2 == 0 for a in arrays)
    for a in arrays:
        got, want = median_of(a), float(np.median(a))
        assert np.float64(got).tobytes() == np.float64(want).tobytes()


def test_median_of_small_and_nan_arrays_fall_back_to_numpy() -> None:
    a = np.arange(11, dtype=np.float32)
    assert median_of(a) == 5.0
    b = np.ones((80, 80), np.float32)
    b[3, 3] = np.nan
    assert np.isnan(median_of(b))


def test_median_of_other_types_is_numpys_median() -> None:
    rng = np.random.default_rng(3)
    a = rng.random((120, 130))  # float64: np.median's own value, not a float32 copy's
    assert median_of(a) == float(np.median(a))
