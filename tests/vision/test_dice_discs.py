"""The dice search finds the checker discs round a place in one vectorised test (``dice._near_discs``)."""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.dice import _near_discs


def test_the_discs_near_a_place_are_the_ones_the_test_disc_by_disc_finds_in_order() -> None:
    """``np.hypot(x - dx, y - dy) < dr + pad`` asked of each disc in turn (Python floats, as the
    search's discs and blobs are) names the same discs, in the same order, as the vectorised test --
    also for places exactly on a disc's reach, where a different rounding would tell."""
    rng = np.random.default_rng(0)
    for trial in range(300):
        n = int(rng.integers(0, 40))
        discs = [(float(x), float(y), float(r)) for x, y, r in
                 zip(rng.uniform(0, 700, n), rng.uniform(0, 560, n), rng.uniform(8, 20, n))]
        pad = float(rng.uniform(0, 5))
        if discs and trial % 3 == 0:  # a place right on a disc's reach, along a diagonal
            dx, dy, dr = discs[int(rng.integers(0, n))]
            reach = (dr + pad) / np.sqrt(2.0)
            x, y = dx + float(reach), dy + float(reach)
        else:
            x, y = float(rng.uniform(0, 700)), float(rng.uniform(0, 560))
        want = [i for i, (dx, dy, dr) in enumerate(discs) if np.hypot(x - dx, y - dy) < dr + pad]
        got = _near_discs(np.asarray(discs, np.float64).reshape(-1, 3), x, y, pad)
        assert got == want
