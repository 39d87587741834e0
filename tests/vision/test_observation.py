"""CountEvidence's likeliest count: the first of equals, whatever the values (vision/observation.py)."""

from __future__ import annotations

import math
import random

from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, certain


def _argmax_by_key(probs: tuple[float, ...]) -> int:
    # the definition best replaced: the first index whose value no later one exceeds
    return max(range(len(probs)), key=probs.__getitem__)


def test_best_is_the_first_of_the_likeliest_counts() -> None:
    rng = random.Random(0)
    for _ in range(2000):
        # few distinct values, so ties (and ties at the top) are common
        probs = tuple(rng.choice([0.0, -0.0, 0.01, 0.2, 0.25, 0.5]) for _ in range(MAX_COUNT + 1))
        assert CountEvidence(probs).best == _argmax_by_key(probs)
    assert CountEvidence((0.5,) * (MAX_COUNT + 1)).best == 0
    assert all(certain(n).best == n for n in range(MAX_COUNT + 1))


def test_best_with_a_nan_keeps_the_argmax_by_key() -> None:
    for at in (0, 3, MAX_COUNT):
        probs = tuple(math.nan if i == at else 0.1 * (i % 5) for i in range(MAX_COUNT + 1))
        assert CountEvidence(probs).best == _argmax_by_key(probs)
