"""The invariants ``dice_body``'s exact speed-ups rest on (issue 12)."""

from __future__ import annotations

import numpy as np


def test_a_mean_clipped_to_the_crop_by_min_and_max_is_np_clips() -> None:
    """``_component`` clips the pips' centre to the crop with ``min``/``max`` of its float: the value
    ``np.clip`` gives a float32 or float64 scalar (the bound, or the value itself), rounded alike."""
    rng = np.random.default_rng(6)
    for i in range(5000):
        n = int(rng.integers(1, 90))
        v = (rng.uniform(-20, 110) if i % 5 else rng.integers(-3, 93) + 0.5)  # (halves: round's ties)
        for x in (np.float32(v), np.float64(v)):
            got = int(round(float(min(max(float(x), 0.0), n - 1))))
            assert got == int(round(float(np.clip(x, 0, n - 1)))), (i, x, n)


def test_the_ranges_broadcast_as_a_grid_are_ogrids() -> None:
    """``body``'s pixel rows and columns (``np.arange`` made a column and a row) are ``np.ogrid``'s:
    the same integers of the same type and shape."""
    for hh, ww in ((1, 1), (7, 30), (41, 41)):
        yy, xx = np.ogrid[:hh, :ww]
        ay, ax = np.arange(hh)[:, None], np.arange(ww)[None, :]
        assert ay.dtype == yy.dtype and ax.dtype == xx.dtype
        assert ay.shape == yy.shape and ax.shape == xx.shape
        assert np.array_equal(ay, yy) and np.array_equal(ax, xx)
