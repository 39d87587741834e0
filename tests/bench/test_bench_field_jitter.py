"""bench/bench_field_jitter.py's moved fields and the places it tallies."""

from __future__ import annotations

import numpy as np

from bench.bench_field_jitter import moved, where


def test_each_corner_is_moved_the_distance_asked() -> None:
    corners = np.float32([[100, 50], [500, 50], [520, 300], [80, 300]])
    for px in (3.0, 5.0, 7.0):
        off = np.hypot(*(moved(corners, px, np.random.default_rng(1)) - corners).T)
        assert np.allclose(off, px, atol=1e-3)


def test_the_spots_are_tallied_by_their_place_on_the_board() -> None:
    assert [where(s) for s in ("1", "12", "13", "24")] == ["field end"] * 4
    assert [where(s) for s in ("6", "7", "18", "19")] == ["beside the bar"] * 4
    assert where("3") == "other point" and where("off") == where("bar") == "bar/trays"
