"""``disc_means``: each disc's mean is np.mean's over the pixels within the radius, to the bit (issue 12)."""

from __future__ import annotations

import math

import numpy as np

from tavli_pi.vision.disc_means import disc_means


def test_each_discs_mean_is_numpys_over_its_pixels() -> None:
    rng = np.random.default_rng(0)
    for trial in range(300):
        size = int(rng.integers(8, 80))
        gray = rng.integers(0, 256, (size, size), dtype=np.uint8)
        pts = rng.uniform(-4, size + 4, (int(rng.integers(1, 12)), 2))
        r = float(rng.uniform(0.3, 9.0))
        yy, xx = np.mgrid[:size, :size].astype(np.float64)
        want = []
        for x, y in pts:
            m = (xx - x) ** 2 + (yy - y) ** 2 <= r * r
            want.append(float(gray[m].mean()) if m.any() else float("nan"))
        got = disc_means(gray, pts, r)
        assert len(got) == len(want)
        assert all(g == w or (math.isnan(g) and math.isnan(w)) for g, w in zip(got, want)), trial
