"""The largest channel of an image, per pixel: ``a.max(axis=2)``'s values whatever the type or layout."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.vision.channels import channel_max


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64])
def test_the_largest_channel_is_the_reductions_value(dtype: type) -> None:
    rng = np.random.default_rng(2)
    a = (rng.random((31, 47, 3)) * 200 - (50 if dtype is not np.uint8 else 0)).astype(dtype)
    for img in (a, a[3:20, 5:40], a[::2, ::3]):  # whole, a crop, strided
        got = channel_max(img)
        assert got.dtype == img.dtype and np.array_equal(got, img.max(axis=2))
