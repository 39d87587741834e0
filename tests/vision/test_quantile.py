"""One percentile by one partition gives np.percentile's value to the bit (issue 12)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.vision.lie import _edge_width
from tavli_pi.vision.quantile import float_mean, mean_of, median, percentile


def _same(got: object, want: object) -> bool:
    """The same value and type, NaN equal to NaN."""
    g, w = np.asarray(got), np.asarray(want)
    return g.dtype == w.dtype and g.shape == w.shape and bool(np.array_equal(g, w, equal_nan=True))


def test_a_percentile_is_numpys_on_float_arrays_of_every_kind() -> None:
    rng = np.random.default_rng(0)
    qs = (0, 1, 3, 20, 50, 97, 99, 99.5, 100, 12.345)
    for i in range(600):
        n = int(rng.integers(2, 5000)) if i % 4 else 64 * 64
        kind = i % 5
        if kind == 0:  # smooth
            a = rng.normal(0, 50, n)
        elif kind == 1:  # few levels: ties round the rank
            a = rng.integers(0, 4, n).astype(np.float64)
        elif kind == 2:  # grey levels, as a crop's
            a = rng.integers(0, 256, n).astype(np.float64)
        elif kind == 3:  # long-tailed gradients
            a = np.abs(rng.standard_cauchy(n)) * 10
        else:  # mostly one value
            a = np.full(n, 7.0)
            a[rng.integers(0, n, max(1, n // 50))] = rng.normal(7, 3, max(1, n // 50))
        dt = np.float32 if i % 3 else np.float64
        arr = a.astype(dt).reshape(-1, 2) if n % 2 == 0 and i % 7 == 0 else a.astype(dt)
        for q in qs:
            want = np.percentile(arr, q)
            got = percentile(arr, q)
            assert _same(got, want), (i, q, got, want)
    # a NaN anywhere: numpy's NaN; integers: numpy's own
    a = rng.random(100).astype(np.float32)
    a[17] = np.nan
    assert _same(percentile(a, 50), np.percentile(a, 50))
    b = rng.integers(0, 256, 300)
    assert _same(percentile(b, 97), np.percentile(b, 97))
    # the input is left as it was
    c = rng.random(500).astype(np.float32)
    keep = c.copy()
    percentile(c, 90)
    assert np.array_equal(c, keep)


def _old_edge_width(crop: np.ndarray) -> float:
    """``lie._edge_width`` before (numpy's percentiles, the Sobels divided after)."""
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    steep = float(np.percentile(np.hypot(gx, gy), 99))
    contrast = float(np.percentile(g, 97) - np.percentile(g, 3))
    return contrast / max(steep, 1e-3)


def test_a_dies_edge_width_is_as_before() -> None:
    rng = np.random.default_rng(2)
    for i in range(300):
        crop = rng.integers(0, 256, (64, 64, 3)).astype(np.uint8)
        if i % 2:  # a die-like square, blurred by a random amount
            crop[:] = rng.integers(0, 256, 3).astype(np.uint8)
            crop[16:48, 16:48] = rng.integers(0, 256, 3).astype(np.uint8)
            crop = cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(0.3, 4.0)))
            crop = np.clip(crop + rng.normal(0, i % 5, crop.shape), 0, 255).astype(np.uint8)
        assert _edge_width(crop) == _old_edge_width(crop), i


def test_a_median_is_numpys_on_images_pixels() -> None:
    rng = np.random.default_rng(3)
    for i in range(800):
        n = int(rng.integers(1, 2000))
        c = (1, 3)[i % 2]
        kind = i % 4
        if kind == 0:  # grey levels: ties at the middle
            a = rng.integers(0, 256, (n, c)).astype(np.float64)
        elif kind == 1:  # few levels
            a = rng.integers(0, 3, (n, c)).astype(np.float64)
        elif kind == 2:  # smooth
            a = rng.normal(100, 40, (n, c))
        else:  # signed zeros and one value
            a = np.where(rng.random((n, c)) < 0.5, -0.0, 0.0) + (rng.random((n, c)) < 0.1)
        for arr in (a.astype(np.float32), a, a.astype(np.uint8) if kind < 2 else a.astype(np.float32)):
            if c == 1 and i % 4 == 1:
                arr = arr.ravel()
            for axis in (None, 0):
                want = np.median(arr, axis=axis)
                got = median(arr, axis=axis)
                assert _same(got, want), (i, arr.dtype, axis, got, want)
                assert np.array_equal(np.signbit(got), np.signbit(want))
    # a NaN: numpy's (NaN where numpy gives it)
    f = rng.random((50, 3)).astype(np.float32)
    f[7, 1] = np.nan
    assert _same(median(f, axis=0), np.median(f, axis=0))
    assert _same(median(f), np.median(f))


def test_the_relights_half_is_np_quantiles() -> None:
    # hands.relight keeps the residuals up to their median: np.quantile(res, 0.5) before
    rng = np.random.default_rng(4)
    for i in range(300):
        res = np.abs(rng.normal(0, 0.2, int(rng.integers(24, 5000))))
        if i % 3 == 0:
            res = np.round(res, 2)  # ties
        assert _same(percentile(res, 50), np.quantile(res, 0.5)), i


def test_the_mean_of_a_few_floats_or_an_array_is_numpys() -> None:
    """``mean_of`` is ``np.mean``'s to the bit: a face's few blob coordinates (``pips``) and a ring's
    quarter bands of a few to thousands of pixels (``faint_arrived.rim_change``), of any scale."""
    rng = np.random.default_rng(3)
    for i in range(2000):
        vals = (rng.random(1 + i % 9) * [0.1, 1.0, 64.0, 1e5][i % 4]).tolist()
        assert mean_of(vals) == float(np.mean(vals)), i
    for i in range(400):
        m = rng.uniform(0, 255, int(rng.integers(1, 3000))) * rng.choice([1e-3, 1.0, 1e4])
        assert mean_of(m) == float(np.mean(m)), i


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_float_arrays_mean_over_any_axis_is_numpys(dtype: type) -> None:
    """``float_mean`` is ``ndarray.mean``'s to the bit, of its type: a die's few pip places (float32,
    ``dice_body``), their centre (float64, ``dice``), a face crop's patch, ring rows; of any scale,
    contiguous or a column's strided view."""
    rng = np.random.default_rng(5)
    for i in range(1500):
        shape = [(int(rng.integers(1, 13)), 2), (int(rng.integers(1, 3000)),), (int(rng.integers(1, 40)), 32),
                 (int(rng.integers(1, 200)), 3)][i % 4]
        a = (rng.uniform(-50, 400, shape) * rng.choice([1e-3, 1.0, 1e4])).astype(dtype)
        views = [a, a[:, 0]] if a.ndim == 2 else [a, a[::2]]
        for v in views:
            for axis in ([None] if v.ndim == 1 else [None, 0, 1]):
                got, want = float_mean(v, axis), v.mean(axis)
                assert type(got) is type(want) and np.asarray(got).dtype == want.dtype, i
                assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (i, axis)


def test_the_mean_of_no_float_array_is_left_to_numpy() -> None:
    ints = np.arange(7, dtype=np.uint8)
    assert float_mean(ints) == ints.mean() and np.asarray(float_mean(ints)).dtype == np.float64
    with pytest.warns(RuntimeWarning):
        assert np.isnan(float_mean(np.zeros(0, np.float32)))
