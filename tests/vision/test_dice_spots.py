"""Pip spots (vision/dice_spots.py): the peaks pruned all at once before the pips in a row are looked
for one by one are exactly the peaks that one-by-one test would have dropped (issue 12)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.vision import dice_spots as ds


def _one_pip_by_one(hat: np.ndarray, x: int, y: int) -> bool:
    """``_ringed_in_row``'s own first test of one peak, as it makes it: the peak's part of the hat in
    the window ``_ROW_HALF`` px round it, at most ``ROW_AREA`` px and 7 px either way."""
    h, w = hat.shape
    r = ds._ROW_HALF
    y0, x0 = max(0, y - r), max(0, x - r)
    part = hat[y0:min(h, y + r + 1), x0:min(w, x + r + 1)]
    _, lab, stats, _ = cv2.connectedComponentsWithStats((part >= ds.ROW_PARTED * float(hat[y, x])).astype(np.uint8),
                                                        connectivity=8)
    own = int(lab[y - y0, x - x0])
    return bool(stats[own, cv2.CC_STAT_AREA] <= ds.ROW_AREA
                and max(stats[own, cv2.CC_STAT_WIDTH], stats[own, cv2.CC_STAT_HEIGHT]) <= 7)


def _hat(seed: int) -> np.ndarray:
    """A hat image of pips, bars, strokes and blobs of every size, some at the image's edges."""
    rng = np.random.default_rng(seed)
    img = np.zeros((90, 120), np.uint8)
    for _ in range(40):
        x, y = int(rng.integers(-3, 123)), int(rng.integers(-3, 93))
        kind = int(rng.integers(0, 4))
        level = int(rng.integers(40, 255))
        if kind == 0:
            cv2.circle(img, (x, y), int(rng.integers(1, 5)), level, -1)
        elif kind == 1:
            cv2.line(img, (x, y), (x + int(rng.integers(-12, 13)), y + int(rng.integers(-12, 13))), level,
                     int(rng.integers(1, 3)))
        elif kind == 2:
            cv2.rectangle(img, (x, y), (x + int(rng.integers(1, 9)), y + int(rng.integers(1, 9))), level, -1)
        else:
            cv2.ellipse(img, (x, y), (int(rng.integers(2, 10)), int(rng.integers(1, 4))), float(rng.integers(0, 180)),
                        0, 360, level, -1)
    noise = rng.integers(0, 30, img.shape)
    out: np.ndarray = np.clip(img.astype(np.int32) + noise, 0, 255).astype(np.uint8)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_the_pruned_peaks_are_the_ones_the_one_by_one_test_drops(seed: int) -> None:
    hat = _hat(seed)
    ys, xs = np.nonzero(hat >= 40)
    xs, ys = xs.astype(np.intp), ys.astype(np.intp)
    got = ds._one_pip(hat, xs, ys)
    want = np.asarray([_one_pip_by_one(hat, int(x), int(y)) for x, y in zip(xs, ys)])
    assert got.dtype == bool and len(got) == len(xs)
    assert want.any() and not want.all()  # both kinds of peak are there
    assert np.array_equal(got, want)


def test_no_peak_is_no_pip() -> None:
    assert len(ds._one_pip(np.zeros((20, 20), np.uint8), np.zeros(0, np.intp), np.zeros(0, np.intp))) == 0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("contrast", [0, 34, 120, 254, 255])
def test_a_peak_in_one_comparison_is_the_threshold_and_the_maximum(seed: int, contrast: int) -> None:
    """``_peak_flags``' peaks: the hat at least the greater of its 3 x 3 maximum and contrast + 1 is the
    hat above the contrast and at its maximum, as the two masks and-ed made them (issue 12)."""
    rng = np.random.default_rng(seed)
    gray = cv2.GaussianBlur(rng.integers(0, 256, (90, 120), dtype=np.uint8), (0, 0), 1.0)
    gray[rng.random(gray.shape) < 0.02] = 255  # specks standing out
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    hat = cv2.subtract(gray, cv2.morphologyEx(gray, cv2.MORPH_OPEN, k))
    _, strong = cv2.threshold(hat, contrast, 255, cv2.THRESH_BINARY)
    want = cv2.bitwise_and(strong, cv2.compare(hat, cv2.dilate(hat, np.ones((3, 3), np.uint8)), cv2.CMP_GE))
    flags = ds._peak_flags(gray, contrast)
    if contrast >= 255:
        assert not want.any() and not flags.any()
        return
    floor = (float(contrast + 1), 0.0, 0.0, 0.0)
    got = cv2.compare(hat, cv2.max(cv2.dilate(hat, np.ones((3, 3), np.uint8)), floor), cv2.CMP_GE)  # type: ignore[call-overload]
    assert np.array_equal(got, want)


def _gray(seed: int) -> np.ndarray:
    """A grey image of pips of either shade (some in rows that all but touch), bars, blobs and noise."""
    rng = np.random.default_rng(100 + seed)
    img = np.full((80, 110), 128, np.uint8)
    for _ in range(30):
        x, y = int(rng.integers(0, 110)), int(rng.integers(0, 80))
        level = int(rng.choice([10, 60, 200, 250]))
        kind = int(rng.integers(0, 3))
        if kind == 0:
            cv2.circle(img, (x, y), int(rng.integers(1, 4)), level, -1)
        elif kind == 1:  # a row of pips, 5-7 px apart
            dx, dy = (int(v) for v in rng.integers(-1, 2, 2))
            step = int(rng.integers(5, 8))
            for k in range(3):
                cv2.circle(img, (x + k * step * (dx or 1), y + k * step * dy), 2, level, -1)
        else:
            cv2.rectangle(img, (x, y), (x + int(rng.integers(1, 12)), y + int(rng.integers(1, 4))), level, -1)
    noise = rng.integers(-12, 13, img.shape)
    out: np.ndarray = np.clip(img.astype(np.int32) + noise, 0, 255).astype(np.uint8)
    return out


def _peaks(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A noisy view's top-hat peaks as ``_ringed_in_row`` takes them: the view, its hat, the peaks'
    places, their core brightness and their indices."""
    gray = _gray(seed)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    hat = cv2.subtract(gray, cv2.morphologyEx(gray, cv2.MORPH_OPEN, k))
    ys, xs = np.nonzero(hat >= 40)
    keep = (xs >= 5) & (ys >= 5) & (xs < gray.shape[1] - 5) & (ys < gray.shape[0] - 5)
    xs, ys = xs[keep].astype(np.intp), ys[keep].astype(np.intp)
    core = gray[ys, xs].astype(np.float32)
    return gray, hat, xs, ys, core, np.arange(len(xs))


@pytest.mark.parametrize("seed", range(8))
def test_the_neighbour_bound_leaves_the_pips_in_rows_as_they_were(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``_may_neighbour`` only spares ``_ringed_in_row`` peaks it would have dropped: its pips in a row are
    the same with the bound as with every peak looked at whole (issue 12)."""
    gray, hat, xs, ys, core, which = _peaks(seed)
    got = ds._ringed_in_row(gray, hat, xs, ys, core, which, True, 34)
    monkeypatch.setattr(ds, "_may_neighbour", lambda *_: True)
    want = ds._ringed_in_row(gray, hat, xs, ys, core, which, True, 34)
    assert got == want
    if seed == 0:
        assert want  # some pips in a row found: the bound had something to keep


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ring", [ds.PIP_RING, ds._RING_WIDE])
def test_rings_sampled_by_flat_index_are_the_rows_and_columns_ones(seed: int, ring: list[tuple[int, int]]) -> None:
    """``_ringed`` gathering by flat index: the answer of the ring sampled by row and column."""
    gray = _gray(seed)
    h, w = gray.shape
    rng = np.random.default_rng(seed)
    for n in (5, 40):  # under and over ``PRUNE_FROM``
        xs = rng.integers(5, w - 5, n).astype(np.intp)
        ys = rng.integers(5, h - 5, n).astype(np.intp)
        for bright in (True, False):
            core = gray[ys, xs].astype(np.float32)
            at = np.asarray(ring, np.intp)
            samples = gray[ys[:, None] + at[None, :, 1], xs[:, None] + at[None, :, 0]].astype(np.float32)
            want = ds._even_band(samples, core, bright, 34)
            got = ds._ringed(gray.reshape(-1), w, ys * w + xs, core, bright, 34, ring)
            assert np.array_equal(got, want)


def _peak_flags_plain(gray: np.ndarray, contrast: int, rows: bool) -> np.ndarray:
    """``_peak_flags`` as first written: each shade's peaks walked on their own, every sample gathered
    by row and column."""
    h, w = gray.shape
    flags = np.zeros((h, w), np.uint8)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    opened = cv2.morphologyEx(gray, cv2.MORPH_OPEN, k)
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)

    def ringed(xs: np.ndarray, ys: np.ndarray, core: np.ndarray, bright: bool, ring: list[tuple[int, int]]) -> np.ndarray:
        at = np.asarray(ring, np.intp)
        samples = gray[ys[:, None] + at[None, :, 1], xs[:, None] + at[None, :, 0]].astype(np.float32)
        return np.asarray(ds._even_band(samples, core, bright, contrast))

    for bright in (True, False):
        hat = cv2.subtract(gray, opened) if bright else cv2.subtract(closed, gray)
        peak = (hat > contrast) & (hat >= cv2.dilate(hat, np.ones((3, 3), np.uint8)))
        ys, xs = np.nonzero(peak[4:-4, 4:-4])
        xs, ys = xs.astype(np.intp) + 4, ys.astype(np.intp) + 4
        if not len(xs):
            continue
        block = gray[ys[:, None] + ds._DY3, xs[:, None] + ds._DX3]
        core = (block.max(axis=1) if bright else block.min(axis=1)).astype(np.float32)
        ok = ringed(xs, ys, core, bright, ds.PIP_RING)
        inside = (xs >= 5) & (ys >= 5) & (xs < w - 5) & (ys < h - 5)
        wide = ~ok & (hat[ys, xs] >= 2 * contrast) & inside
        if wide.any():
            ok[wide] = ringed(xs[wide], ys[wide], core[wide], bright, ds._RING_WIDE)
        rowed = (rows and bright) & ~ok & (hat[ys, xs] >= 2 * contrast) & inside
        flags[ys[ok], xs[ok]] |= ds._BRIGHT if bright else ds._DARK
        if rowed.any():
            for cx, cy in ds._ringed_in_row(gray, hat, xs, ys, core, np.flatnonzero(rowed), bright, contrast):
                flags[cy, cx] |= ds._BRIGHT if bright else ds._DARK
    return flags


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("rows", [False, True])
def test_peak_flags_are_the_plain_ones(seed: int, rows: bool) -> None:
    """``_peak_flags`` walking both shades' peaks at once and gathering by flat index: the flags of each
    shade walked on its own, sampled by row and column (issue 12)."""
    gray = _gray(seed)
    for contrast in (20, 34):
        got = ds._peak_flags(gray, contrast, rows)
        want = _peak_flags_plain(gray, contrast, rows)
        assert np.array_equal(got, want)
        if seed == 0:
            assert (want & ds._BRIGHT).any() and (want & ds._DARK).any()  # both shades found


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("size", [3, 12, 16])
def test_bands_laid_a_column_a_peak_are_the_bands_laid_a_row_a_peak(seed: int, size: int) -> None:
    """``_even_bands`` over the samples a column a peak: ``_even_band``'s answers over the same samples
    a row a peak, whole grey levels from 0 to 255 (the extremes included, where a ring's steps sum
    highest), so the order its minima, maxima and sums are taken in cannot change them."""
    rng = np.random.default_rng(seed)
    n = 400
    ring = rng.integers(0, 256, (n, size)).astype(np.float32)
    ring[: n // 4] = rng.choice([0.0, 255.0], (n // 4, size)).astype(np.float32)  # the extremes
    ring[n // 4: n // 2] = rng.integers(0, 256, (n // 4, 1)) + rng.integers(-8, 9, (n // 4, size))  # even bands
    np.clip(ring, 0, 255, out=ring)
    core = rng.integers(0, 256, n).astype(np.float32)
    core[:20], core[20:40] = 0, 255
    if size == 12:  # rings on the evenness bound: a range of 0.6 of the mean step and 12 exactly
        edge = _on_the_bound()
        ring = np.concatenate([ring, 100 - edge, 100 + edge])
        core = np.concatenate([core, np.full(2 * len(edge), 100, np.float32)])
    for bright in (True, False):
        for contrast in (20, 34):
            want = ds._even_band(ring, core, bright, contrast)
            got = ds._even_bands(np.ascontiguousarray(ring.T), core, bright, contrast)
            assert np.array_equal(got, want)
            if seed == 0 and size == 12:
                assert want.any() and not want.all()  # both answers met


def _on_the_bound() -> np.ndarray:
    """Steps of 12-sample rings whose range is exactly 0.6 of their mean plus 12 (the least step ``lo``,
    the greatest ``lo + d``, ten of ``v``: 19 d = 2 lo + 10 v + 240), in float32."""
    out = []
    for lo in range(12, 60):
        for v in range(lo, 90):
            d, rest = divmod(2 * lo + 10 * v + 240, 19)
            if not rest and v <= lo + d and lo + d <= 100:
                out.append([lo, lo + d] + [v] * 10)
    return np.asarray(out, np.float32)


@pytest.mark.parametrize("seed", range(4))
def test_peak_flags_of_a_view_walked_a_word_at_a_time_are_the_plain_ones(seed: int) -> None:
    """``_peak_flags`` of a view whose width is a multiple of 4 (its peaks walked four pixels a word,
    ``sparse.nonzero_xy``; the canonical and the fine view are): the plain flags."""
    gray = np.ascontiguousarray(_gray(seed)[:, :108])
    for contrast in (20, 34):
        assert np.array_equal(ds._peak_flags(gray, contrast, True), _peak_flags_plain(gray, contrast, True))


def _neighbour_by_one(hat: np.ndarray, x: int, y: int) -> bool:
    """``_ringed_in_row``'s first two tests of one peak, as it makes them: its part of the hat in the
    window ``_ROW_HALF`` px round it is one pip, and ``_may_neighbour`` finds a part that may be its neighbour."""
    h, w = hat.shape
    r = ds._ROW_HALF
    y0, x0 = max(0, y - r), max(0, x - r)
    part = hat[y0:min(h, y + r + 1), x0:min(w, x + r + 1)]
    _, lab, stats, cents = cv2.connectedComponentsWithStats(
        (part >= ds.ROW_PARTED * float(hat[y, x])).astype(np.uint8), connectivity=8)
    own = int(lab[y - y0, x - x0])
    area = int(stats[own, cv2.CC_STAT_AREA])
    if area > ds.ROW_AREA or max(stats[own, cv2.CC_STAT_WIDTH], stats[own, cv2.CC_STAT_HEIGHT]) > 7:
        return False
    return ds._may_neighbour(stats, cents, own, area, float(cents[own, 0]), float(cents[own, 1]))


def _pairs(seed: int) -> np.ndarray:
    """A hat image of pips in pairs, each pair's second pip 2-12 px from the first (about ``ROW_NEAR``'s
    ends) and of another size (about its area's bounds), some near the image's edges."""
    rng = np.random.default_rng(200 + seed)
    img = np.zeros((100, 130), np.uint8)
    for _ in range(45):
        x, y = float(rng.uniform(-2, 132)), float(rng.uniform(-2, 102))
        d, t = float(rng.uniform(2.0, 12.0)), float(rng.uniform(0, 2 * np.pi))
        level = int(rng.integers(60, 255))
        for (cx, cy), rad in (((x, y), int(rng.integers(1, 3))), ((x + d * np.cos(t), y + d * np.sin(t)), int(rng.integers(0, 4)))):
            cv2.circle(img, (int(round(cx * 4)), int(round(cy * 4))), rad * 4 + 2, level, -1, shift=2)
    return img


@pytest.mark.parametrize("seed", range(12))
def test_the_peaks_with_no_neighbour_dropped_at_once_are_the_ones_dropped_one_by_one(seed: int) -> None:
    """``_may_neighbours`` (one labelling of every peak's window) keeps just the peaks ``_ringed_in_row``'s
    own first two tests keep, one labelling a peak (issue 12)."""
    gray = _gray(seed)  # (pips in rows: peaks with neighbours; and the hat image's blobs and strokes)
    rows = cv2.subtract(gray, cv2.morphologyEx(gray, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))))
    for hat in (rows, _hat(seed), _pairs(seed)):
        ys, xs = np.nonzero(hat >= 40)
        xs, ys = xs.astype(np.intp), ys.astype(np.intp)
        got = ds._may_neighbours(hat, xs, ys)
        want = np.asarray([_neighbour_by_one(hat, int(x), int(y)) for x, y in zip(xs, ys)])
        assert got.dtype == bool and len(got) == len(xs)
        assert not want.all()
        assert np.array_equal(got, want)
    assert want.any()  # (the pairs') both kinds of peak are there


@pytest.mark.parametrize("seed", range(8))
def test_the_pips_in_rows_are_the_same_with_the_neighbours_dropped_at_once(seed: int,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    gray, hat, xs, ys, core, which = _peaks(seed)
    assert len(which) >= ds.NEIGHBOURS_FROM
    got = ds._ringed_in_row(gray, hat, xs, ys, core, which, True, 34)
    monkeypatch.setattr(ds, "NEIGHBOURS_FROM", 10 ** 9)
    want = ds._ringed_in_row(gray, hat, xs, ys, core, which, True, 34)
    assert got == want
    if seed == 0:
        assert want
