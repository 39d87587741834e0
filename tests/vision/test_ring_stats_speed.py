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


def _ring_samples_plain(g: ck.Gradients, cx: np.ndarray, cy: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The ring samples as first made: the offsets apart, the maps their sums, gx and gy split, each
    made float32 and scaled by its cosine or sine, then added."""
    off = r[..., None, None] * ck._RHO[:, None]
    ox, oy = off * ck._COS, off * ck._SIN
    shape = np.broadcast_shapes((*cx.shape, 1, 1), (*cy.shape, 1, 1), ox.shape)
    n = int(np.prod(shape[:-1]))
    mx = np.add(cx[..., None, None], ox, out=np.empty(shape, np.float32)).reshape(n, ck.RING_ANGLES)
    my = np.add(cy[..., None, None], oy, out=np.empty(shape, np.float32)).reshape(n, ck.RING_ANGLES)
    import cv2

    gx, gy = cv2.split(cv2.remap(g.pair, mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE))
    rad = gx.astype(np.float32).reshape(shape) * ck._COS + gy.astype(np.float32).reshape(shape) * ck._SIN
    return np.abs(rad)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5,), (3, 7), (6, 4, 5)])
def test_ring_samples_are_the_plain_ones_to_the_bit(dtype: type, shape: tuple[int, ...]) -> None:
    """``_ring_samples``' maps made in place and its (gx, gy) pairs scaled together: the plain values,
    bit for bit, for centres of either precision (some near and past the edges: replicated) and
    radii given per centre or once a column."""
    rng = np.random.default_rng(len(shape) * 7 + shape[0])
    pair = rng.integers(-4000, 4000, (60, 80, 2)).astype(np.int16)
    g = ck.Gradients(pair, 1.0)
    cx: np.ndarray = (rng.random(shape) * 100.0 - 10.0).astype(dtype)
    cy: np.ndarray = (rng.random(shape) * 76.0 - 8.0).astype(dtype)
    for r in ((rng.random(shape) * 9.0 + 2.0).astype(np.float32),
              np.broadcast_to((rng.random(shape[-1:]) * 9.0 + 2.0).astype(np.float32), shape)):
        got = ck._ring_samples(g, cx, cy, r)
        want = _ring_samples_plain(g, cx, cy, np.asarray(r))
        assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def _rim_contrast_plain(g: ck.Gradients, x0: np.ndarray, fy: np.ndarray, lx: np.ndarray, ly: np.ndarray,
                       r: np.ndarray, down: np.ndarray, memo: object, ids: np.ndarray | None) -> np.ndarray:
    """``stacks._rim_contrast``'s contrasts as first made: every count's places sampled apart."""
    from tavli_pi.vision import stacks

    fr = np.concatenate([stacks._RIM_FRACTIONS[n] for n in range(stacks.ROW_FIT, 16)])
    px = x0[:, None] + (lx - x0)[:, None] * fr[None, :]
    py = fy[:, None] + (ly - fy)[:, None] * fr[None, :]
    f = ck.ring_features(g, px, py, np.broadcast_to(r[:, None], px.shape), down, memo, ids)  # type: ignore[arg-type]
    at = 2 * stacks.ROW_FIT - 3
    out = np.full((len(x0), 10), -1.0)
    for j, n in enumerate(range(6, 16)):
        fj = f[:, at : at + 2 * n - 3]
        at += 2 * n - 3
        h = fj[..., 3]
        a, b = _row_means(h[:, : n - 2]), _row_means(h[:, n - 2 :])
        t = _row_means(fj[:, : n - 2, 4])
        out[:, j] = np.minimum((a - b) / (a + b + 0.05), (a - t) / (a + t + 0.05))
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kept", [False, True])
def test_rim_places_sampled_once_are_every_hypothesis_places(seed: int, kept: bool) -> None:
    """``_rim_contrast`` sampling each distinct rim place once: the contrasts of every count's places
    sampled apart, as first made, to the bit (issue 12), with a ring memo or without."""
    from tavli_pi.vision import stacks
    from tavli_pi.vision.ring_memo import RingMemo

    rng = np.random.default_rng(seed)
    g = ck.Gradients(rng.integers(-3000, 3000, (120, 160, 2)).astype(np.int16), 700.0)
    n = 6
    x0, fy = rng.random(n) * 160.0, rng.random(n) * 40.0
    lx, ly = x0 + rng.random(n) * 8.0 - 4.0, fy + 30.0 + rng.random(n) * 60.0
    r = 4.0 + rng.random(n) * 4.0
    down = rng.random((n, 1)) < 0.5
    ids = np.arange(n) if kept else None
    got, _ = stacks._rim_contrast(g, x0, fy, lx, ly, r, down, RingMemo() if kept else None, ids)
    want = _rim_contrast_plain(g, x0, fy, lx, ly, r, down, RingMemo() if kept else None, ids)
    every = np.concatenate([stacks._RIM_FRACTIONS[k] for k in range(stacks.ROW_FIT, 16)])
    assert len(stacks._RIM_PLACES) < len(every)  # places shared: some sampled once for several
    assert got.dtype == want.dtype and np.array_equal(got, want)
