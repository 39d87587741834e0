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


def test_a_pixels_levels_added_in_16_bits_split_it_as_sum_does() -> None:
    """``body`` adds a pixel's three levels (int16 of uint8) column by column in 16 bits: the sums of
    ``sum(axis=1)`` (at most 765), their median (``quantile.median``, float64) the same value, and the
    pixels at most or at least it the same, the brightest and darkest pixels and ties included."""
    from tavli_pi.vision.quantile import median

    rng = np.random.default_rng(7)
    for i in range(600):
        n = int(rng.integers(1, 400))
        vals = rng.integers(0, 256, (n, 3)).astype(np.int16)
        if i % 3 == 0:
            vals[rng.random(n) < 0.5] = 255  # the largest sums, tied
        if i % 3 == 1:
            vals = rng.choice(np.asarray([0, 128, 255], np.int16), (n, 3))
        want = vals.sum(axis=1)
        got = vals[:, 0] + vals[:, 1] + vals[:, 2]
        assert np.array_equal(got, want)
        cut, cut_want = median(got), median(want)
        assert type(cut) is type(cut_want) and cut == cut_want
        assert np.array_equal(got <= cut, want <= cut_want) and np.array_equal(got >= cut, want >= cut_want)


def test_a_body_given_its_box_is_the_body_that_makes_it() -> None:
    """``body`` given ``body_box``'s box (as ``bodied`` gives it) outlines what it outlines making the
    box itself, on dice of either shade on bodies and grounds of several colours."""
    import cv2

    from tavli_pi.vision.dice_body import body, body_box

    rng = np.random.default_rng(8)
    found = 0
    for i in range(60):
        canon = np.full((120, 160, 3), rng.integers(0, 256, 3), np.uint8)
        cx, cy, side = float(rng.uniform(40, 120)), float(rng.uniform(40, 80)), float(rng.uniform(14, 24))
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        cv2.rectangle(canon, (int(cx - side / 2), int(cy - side / 2)), (int(cx + side / 2), int(cy + side / 2)),
                      colour, -1)
        bright = bool(i % 2)
        group = [(cx + dx, cy + dy, bright) for dx, dy in ((-4.0, -4.0), (0.0, 0.0), (4.0, 4.0))[: 1 + i % 3]]
        for x, y, _ in group:
            cv2.circle(canon, (int(round(x)), int(round(y))), 2, (250, 250, 250) if bright else (10, 10, 10), -1)
        pitch = side / 0.44
        for parted_from in (None, 0.5 * side):
            want = body(canon, group, pitch, parted_from)
            assert body(canon, group, pitch, parted_from, body_box(group, pitch, canon.shape)) == want
            found += want is not None
    assert found  # some outlines made
