"""Exact speed-ups of the checkers' ring statistics (issue 12): the same values as the plain numpy."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.stacks import _row_means


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (3, 4), (17, 13), (40, 29)])
def test_row_means_are_numpys_means(dtype: type, shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(shape[0] * 31 + shape[1])
    a = (rng.random((*shape, 6)) * rng.choice([1e-3, 1.0, 7.0, 1e4], size=(*shape, 6))).astype(dtype)
    for view in (a[..., 3], a[..., 4], a[:, : max(1, shape[1] - 2), 0], np.ascontiguousarray(a[..., 1])):
        got, want = _row_means(view), view.mean(axis=1)
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)


def test_up_and_down_ranks_are_the_sorted_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    for shape in [(1, 32), (7, 32), (4, 9, 32)]:
        rad = rng.random(shape).astype(np.float32)
        rad[..., ::5] = rad[..., 1::5][..., : rad[..., ::5].shape[-1]]  # ties
        cx = np.full(shape[:-1], 0.0)
        g = ck.Gradients(np.zeros((4, 4, 2), np.int16), 1.0)
        monkeypatch.setattr(ck, "_raw_rings", lambda *_: rad)  # the rings' samples, as given
        got = ck._raw_stats(g, cx, cx, cx)
        assert np.array_equal(got[..., 4], np.sort(rad[..., ck._UP], axis=-1)[..., ck._K_UP])
        assert np.array_equal(got[..., 5], np.sort(rad[..., ck._DOWN], axis=-1)[..., ck._K_DOWN])
