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
    return np.clip(img.astype(np.int32) + noise, 0, 255).astype(np.uint8)


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
